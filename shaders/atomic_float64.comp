#version 450
// VK_EXT_shader_atomic_float, 64-bit: atomicAdd on a storage buffer double
// and on a shared one (lavapipe 22.3 has neither: tests check the host's sums).
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Totals {
	double sum;
	double group_sums[];
};
layout(std430, binding = 1) readonly buffer Values { float values[]; };
shared double group_sum;
void main() {
	if (gl_LocalInvocationIndex == 0) group_sum = 0.0;
	barrier();
	double v = double(values[gl_GlobalInvocationID.x]) * 0.25;
	atomicAdd(sum, v);
	atomicAdd(group_sum, v);
	barrier();
	if (gl_LocalInvocationIndex == 0) group_sums[gl_WorkGroupID.x] = group_sum;
}
