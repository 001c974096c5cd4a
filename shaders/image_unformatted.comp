#version 450
// Storage images read and written without a declared format
// (shaderStorageImageReadWithoutFormat / WriteWithoutFormat): the view's
// format decides. Copies four 8x8 images of different formats texel by texel.
#extension GL_EXT_shader_image_load_formatted : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform image2D src0;   // RGBA8_UNORM
layout(set = 0, binding = 1) uniform image2D dst0;
layout(set = 0, binding = 2) uniform image2D src1;   // R16G16B16A16_SFLOAT
layout(set = 0, binding = 3) uniform image2D dst1;
layout(set = 0, binding = 4) uniform image2D src2;   // R32_SFLOAT
layout(set = 0, binding = 5) uniform image2D dst2;
layout(set = 0, binding = 6) uniform uimage2D src3;  // R32_UINT
layout(set = 0, binding = 7) uniform uimage2D dst3;

void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	imageStore(dst0, p, imageLoad(src0, p));
	imageStore(dst1, p, imageLoad(src1, p));
	imageStore(dst2, p, imageLoad(src2, p));
	imageStore(dst3, p, imageLoad(src3, p));
}
