#version 450
// Counts the dispatches that run: each adds one to counts[slot].
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Counts { uint counts[]; };
layout(push_constant) uniform Push { uint slot; };

void main() { atomicAdd(counts[slot], 1u); }
