#version 450
// A dynamically indexed local array of 256 MiB per invocation: kept per lane
// it would need gigabytes; pipeline creation must fail (found while fuzzing).
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint data[]; };
void main() {
	uint big[1 << 26];
	big[data[0]] = 1u;
	data[gl_LocalInvocationIndex] = big[data[1]];
}
