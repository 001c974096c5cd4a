#version 460
// 64-bit atomics through a device address: add, max, compare-exchange and
// exchange on a uint64_t that a pointer in the push constants names.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 16) in;

layout(buffer_reference, std430, buffer_reference_align = 8) buffer Cells {
	uint64_t total;
	uint64_t highest;
	uint64_t swapped;
	uint64_t last;
};

layout(push_constant) uniform Push {
	Cells cells;
} pc;

layout(set = 0, binding = 0, std430) buffer Out {
	uint64_t ticket[16];  // atomicAdd's old values
	uint64_t seen[16];    // atomicCompSwap's old values
} o;

void main() {
	uint i = gl_LocalInvocationID.x;
	uint64_t big = (uint64_t(i + 1) << 33) + uint64_t(i);
	o.ticket[i] = atomicAdd(pc.cells.total, big);
	atomicMax(pc.cells.highest, big ^ 0x5555000000000000ul);
	o.seen[i] = atomicCompSwap(pc.cells.swapped, uint64_t(i), uint64_t(i + 1));
	atomicExchange(pc.cells.last, big);
}
