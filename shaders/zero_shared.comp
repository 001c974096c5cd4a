#version 450
// Workgroup memory with a null initializer (VK_KHR_zero_initialize_workgroup_memory,
// core in 1.3) reads as zero before anything writes it.
#extension GL_EXT_null_initializer : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
shared uint counts[64] = {};

void main() {
	uint l = gl_LocalInvocationID.x;
	uint before = counts[(l * 7u) % 64u];
	barrier();
	atomicAdd(counts[l % 8u], l);
	barrier();
	o[gl_GlobalInvocationID.x] = before * 1000u + counts[l];
}
