#version 460
// Device addresses (GL_EXT_buffer_reference, SPIR-V PhysicalStorageBuffer):
// pointers in push constants and in buffers, a linked-list walk, pointer
// arithmetic, stores and atomics through pointers. Addresses are handled as
// uvec2 (GL_EXT_buffer_reference_uvec2: OpBitcast) so that the shader needs
// no Int64 capability (shaderInt64).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
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
	Node head;    // a linked list
	Words words;  // read at an address computed per invocation, written back
	Counter counter;
	uint stride;  // bytes between words read by consecutive invocations
} pc;

layout(set = 0, binding = 0, std430) buffer Out {
	uint sum[16];     // values of the list from node i on
	uint count[16];   // nodes walked from node i on
	uint loaded[16];  // the word at words + i * stride
	uvec2 at[16];     // the address of node i
	uint ticket[16];  // atomicAdd through a pointer
} o;

bool IsNull(Node node) { return uvec2(node) == uvec2(0); }

void main() {
	uint i = gl_LocalInvocationID.x;
	// Skip to node i, then walk the rest of the list.
	Node node = pc.head;
	for (uint k = 0; k < i && !IsNull(node); ++k) node = node.next;
	o.at[i] = uvec2(node);
	uint sum = 0, length = 0;
	while (!IsNull(node) && length < 100) {
		sum += node.value;
		length++;
		node = node.next;
	}
	o.sum[i] = sum;
	o.count[i] = length;
	// Pointer arithmetic on the address's words (with the carry); an access
	// chain with a dynamic index.
	uvec2 base = uvec2(pc.words);
	uint carry;
	uint low = uaddCarry(base.x, i * pc.stride, carry);
	Words shifted = Words(uvec2(low, base.y + carry));
	o.loaded[i] = shifted.w[0];
	pc.words.w[64 + i] = shifted.w[0] * 3u;
	o.ticket[i] = atomicAdd(pc.counter.count, i + 1);
}
