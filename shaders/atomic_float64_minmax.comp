#version 450
// VK_EXT_shader_atomic_float2, 64-bit: atomicMin and atomicMax on storage
// buffer and shared doubles, from +inf and -inf; NaN inputs are missing data.
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Totals {
	double minimum;
	double maximum;
	dvec2 group_extremes[];
};
layout(std430, binding = 1) readonly buffer Values { float values[]; };
shared double group_min, group_max;
void main() {
	if (gl_LocalInvocationIndex == 0) {
		group_min = 1.0 / 0.0;
		group_max = -1.0 / 0.0;
	}
	barrier();
	double v = double(values[gl_GlobalInvocationID.x]) * 0.25;  // exact
	atomicMin(minimum, v);
	atomicMax(maximum, v);
	atomicMin(group_min, v);
	atomicMax(group_max, v);
	barrier();
	if (gl_LocalInvocationIndex == 0) group_extremes[gl_WorkGroupID.x] = dvec2(group_min, group_max);
}
