#version 450
// A workgroup sum through shared memory and barriers: the classic tree.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint sums[]; };
shared uint partial[256];

void main() {
	uint l = gl_LocalInvocationID.x;
	partial[l] = v[gl_GlobalInvocationID.x];
	barrier();
	for (uint stride = 128u; stride > 0u; stride >>= 1) {
		if (l < stride) partial[l] += partial[l + stride];
		barrier();
	}
	if (l == 0u) sums[gl_WorkGroupID.x] = partial[0];
}
