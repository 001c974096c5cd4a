#version 450
// Float atomics on a partially resident R32_SFLOAT image
// (sparseImageFloat32AtomicAdd, sparseImageFloat32AtomicMinMax;
// tests/e2e/sparse_image_test.cpp): every invocation (x, y) adds
// x % 7 + 0.5 to texels (x, y) and (x / 2, y) of layer 0, and takes the
// maximum with it at texel (x / 2, y) of layer 1. The values are halves, so
// every order of the adds gives the same sums.
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32f) uniform image2DArray storage_view;
layout(push_constant) uniform Push { ivec2 size; } p;

void main() {
	ivec2 xy = ivec2(gl_GlobalInvocationID.xy);
	if (any(greaterThanEqual(xy, p.size))) return;
	float v = float(xy.x % 7) + 0.5;
	imageAtomicAdd(storage_view, ivec3(xy, 0), v);
	imageAtomicAdd(storage_view, ivec3(xy.x / 2, xy.y, 0), v);
	imageAtomicMax(storage_view, ivec3(xy.x / 2, xy.y, 1), v);
}
