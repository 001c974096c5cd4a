#version 450
// VK_EXT_image_2d_view_of_3d: a 2D view of one depth slice of a 3D image,
// sampled (sampler2DViewOf3D: texelFetch, a bilinear lookup, textureSize) and
// as a storage image (image2DViewOf3D: stores to slice 1 of mip level 1).
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) buffer Out {
	vec4 fetched[16];
	vec4 filtered[16];
	ivec4 sizes;
} o;
layout(set = 0, binding = 1) uniform sampler2D slice;       // slice 2 of a 4x4x4 RGBA8 image
layout(set = 0, binding = 2, r32ui) uniform uimage2D target;  // slice 1 of level 1 of an 8x8x4 R32_UINT image
void main() {
	ivec2 p = ivec2(gl_LocalInvocationID.xy);
	int i = p.y * 4 + p.x;
	o.fetched[i] = texelFetch(slice, p, 0);
	o.filtered[i] = textureLod(slice, (vec2(p) + vec2(0.25, 0.75)) / 4.0, 0.0);
	imageStore(target, p, uvec4(1000 + i));
	if (i == 0) o.sizes = ivec4(textureSize(slice, 0), imageSize(target));
}
