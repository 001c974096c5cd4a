#version 450
// Descriptor indexing: a runtime-sized array of storage buffers as the last
// binding, so that a layout may give it a variable count. Invocation i reads
// element i % count (the push constant) at word i, and the element's length.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; } o;
layout(set = 0, binding = 1) readonly buffer S { uint data[]; } ssbos[];
layout(push_constant) uniform P { uint count; } p;

void main() {
	uint i = gl_LocalInvocationID.x;
	uint s = i % p.count;
	o.v[i * 2u] = ssbos[nonuniformEXT(s)].data[i];
	o.v[i * 2u + 1u] = ssbos[nonuniformEXT(s)].data.length();
}
