#version 450
// VK_EXT_shader_atomic_float2, 32-bit: atomicMin and atomicMax on storage
// buffer and shared floats. Totals start at +inf (minimum) and -inf
// (maximum); a NaN input is missing data (C's fmin and fmax).
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Totals {
	float minimum;
	float maximum;
	vec2 group_extremes[];
};
layout(std430, binding = 1) readonly buffer Values { float values[]; };
shared float group_min, group_max;
void main() {
	if (gl_LocalInvocationIndex == 0) {
		group_min = 1.0 / 0.0;
		group_max = -1.0 / 0.0;
	}
	barrier();
	float v = values[gl_GlobalInvocationID.x];
	atomicMin(minimum, v);
	atomicMax(maximum, v);
	atomicMin(group_min, v);
	atomicMax(group_max, v);
	barrier();
	if (gl_LocalInvocationIndex == 0) group_extremes[gl_WorkGroupID.x] = vec2(group_min, group_max);
}
