#version 450
// More workgroup memory than maxComputeSharedMemorySize (64 KiB): pipeline
// creation must fail, not allocate it (found while fuzzing).
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
shared uint big[1 << 28];
void main() {
	big[gl_LocalInvocationIndex * 1000003u % (1u << 28)] = 1u;
	barrier();
	data[gl_LocalInvocationIndex] = big[(gl_LocalInvocationIndex + 1u) * 999983u % (1u << 28)];
}
