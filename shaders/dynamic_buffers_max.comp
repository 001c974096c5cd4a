#version 450
// Every dynamic buffer one set may hold (maxDescriptorSetUniformBuffersDynamic
// and maxDescriptorSetStorageBuffersDynamic, 256 each): uniform buffer i is
// read and storage buffer i written, each where its dynamic offset puts it.
// One invocation walks the arrays, so each index is dynamically uniform.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform In { uint value; } uniforms[256];
layout(set = 0, binding = 1) buffer Out { uint value; } storage[256];

void main() {
	for (uint i = 0u; i < 256u; ++i) storage[i].value = uniforms[i].value * 3u + i;
}
