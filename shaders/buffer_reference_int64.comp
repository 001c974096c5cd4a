#version 460
// Device addresses with 64-bit integers (OpConvertUToPtr, OpConvertPtrToU):
// pointers in push constants and in buffers, a linked-list walk, pointer
// arithmetic through integers, stores and atomics through pointers.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 16) in;

layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node {
	Node next;
	uint value;
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words {
	uint w[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Counter {
	uint count;
};

layout(push_constant) uniform Push {
	Node head;      // a linked list, one node per invocation's starting point
	Words words;    // read at an address computed per invocation, written back
	Counter counter;
	uint stride;    // bytes between words read by consecutive invocations
} pc;

layout(set = 0, binding = 0, std430) buffer Out {
	uint sum[16];      // values of the list from node i on
	uint count[16];    // nodes walked from node i on
	uint loaded[16];   // the word at words + i * stride
	uint64_t at[16];   // the address of node i
	uint ticket[16];   // atomicAdd through a pointer
} o;

void main() {
	uint i = gl_LocalInvocationID.x;
	// Skip to node i, then walk the rest of the list.
	Node node = pc.head;
	for (uint k = 0; k < i && uint64_t(node) != 0; ++k) node = node.next;
	o.at[i] = uint64_t(node);
	uint sum = 0, length = 0;
	while (uint64_t(node) != 0 && length < 100) {
		sum += node.value;
		length++;
		node = node.next;
	}
	o.sum[i] = sum;
	o.count[i] = length;
	// Pointer arithmetic through integers; an access chain with a dynamic index.
	Words shifted = Words(uint64_t(pc.words) + uint64_t(i) * pc.stride);
	o.loaded[i] = shifted.w[0];
	pc.words.w[64 + i] = shifted.w[0] * 3u;
	o.ticket[i] = atomicAdd(pc.counter.count, i + 1);
}
