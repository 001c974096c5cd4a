#version 450
// VK_EXT_shader_atomic_float, 32-bit: atomicAdd on a storage buffer float and
// on a shared one, atomicExchange of floats. The inputs are small integers,
// so every order of the adds gives the same sum exactly.
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Totals {
	float sum;
	float exchanged;
	float group_sums[];
};
layout(std430, binding = 1) readonly buffer Values { float values[]; };
shared float group_sum;
void main() {
	if (gl_LocalInvocationIndex == 0) group_sum = 0.0;
	barrier();
	float v = values[gl_GlobalInvocationID.x];
	atomicAdd(sum, v);
	atomicAdd(group_sum, v);
	atomicExchange(exchanged, v);
	barrier();
	if (gl_LocalInvocationIndex == 0) group_sums[gl_WorkGroupID.x] = group_sum;
}
