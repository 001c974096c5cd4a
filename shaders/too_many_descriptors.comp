#version 450
// A descriptor array of 2^21 buffers, indexed at run time: beyond
// maxPerStageDescriptorStorageBuffers (2^20); pipeline creation must fail,
// not allocate a slot per element (found by the fuzzer).
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint x; } bufs[1 << 21];
void main() { bufs[bufs[0].x].x = 1u; }
