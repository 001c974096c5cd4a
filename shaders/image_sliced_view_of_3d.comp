#version 450
// VK_EXT_image_sliced_view_of_3d: a 3D storage view of some slices of one
// level (tests/e2e/image_shader_test.cpp). Each invocation inside
// imageSize(sliced) stores its index there; the same view sampled sees the
// whole level (the slices apply to storage images only).
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0) buffer Out {
	ivec4 sizes;  // imageSize(sliced), textureSize(whole).z
} o;
layout(set = 0, binding = 1, r32ui) uniform uimage3D sliced;
layout(set = 0, binding = 2) uniform usampler3D whole;
void main() {
	ivec3 p = ivec3(gl_LocalInvocationID);
	ivec3 size = imageSize(sliced);
	if (all(lessThan(p, size))) imageStore(sliced, p, uvec4(1000 + p.z * 16 + p.y * 4 + p.x));
	if (p == ivec3(0)) o.sizes = ivec4(size, textureSize(whole, 0).z);
}
