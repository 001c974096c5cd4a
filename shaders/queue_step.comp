#version 450
// One step of the two-queue test (tests/e2e/queue_family_test.cpp):
// out[i] = in[i] * 3 + i + step, for a chain of dispatches whose rounds
// must run in order.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform Push { uint step; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	o[i] = a[i] * 3u + i + step;
}
