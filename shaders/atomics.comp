#version 450
// Atomics under contention: every invocation of every workgroup hits the
// same counters, in buffers and in shared memory.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Counters {
	uint total;
	uint maximum;
	int minimum;
	uint bits;
	uint exchanged;
	uint claimed;
	uint per_group[];
};
shared uint local_count;

void main() {
	uint i = gl_GlobalInvocationID.x;
	if (gl_LocalInvocationIndex == 0u) local_count = 0u;
	barrier();
	atomicAdd(total, i);
	atomicMax(maximum, i * 3u);
	atomicMin(minimum, -int(i));
	atomicOr(bits, 1u << (i & 31u));
	atomicExchange(exchanged, 1u);
	atomicCompSwap(claimed, 0u, i + 1u);  // exactly one invocation wins
	atomicAdd(local_count, 2u);
	barrier();
	if (gl_LocalInvocationIndex == 0u) per_group[gl_WorkGroupID.x] = local_count;
}
