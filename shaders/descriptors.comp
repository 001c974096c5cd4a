#version 450
// An array of storage buffer descriptors indexed by run-time values
// (dynamically uniform: a push constant and the workgroup id).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer B { uint v[]; } bufs[3];
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform Params { uint which; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	uint group = gl_WorkGroupID.x;  // 3 is past the array: reads 0, writes dropped
	o[i] = bufs[which].v[i + 2u] + uint(bufs[group].v.length()) * 100000u;
	if (gl_LocalInvocationIndex == 0u) atomicAdd(bufs[group].v[1], 1u);
}
