#version 450
// Descriptor arrays (constant index), structs and arrays of structs in
// buffers, private globals with initializers, struct loads, extended
// integer arithmetic, and an early return from inside a loop.
layout(local_size_x = 8, local_size_y = 2) in;
struct Item { uint key; vec2 pos; uint tags[3]; };
layout(set = 0, binding = 0) readonly buffer Items { Item items[]; };
layout(set = 1, binding = 2) buffer Many { uint value; } many[3];
layout(set = 0, binding = 1) buffer Out { uint o[]; } out_;
uint counter = 5u;
uint table[4] = uint[4](3u, 1u, 4u, 1u);

void main() {
	uint i = gl_LocalInvocationIndex;
	uint base = i * 8u;
	Item it = items[i];
	out_.o[base + 0] = it.key + it.tags[2] + counter;
	out_.o[base + 1] = floatBitsToUint(it.pos.y);
	uint carry, high, low;
	uint sum = uaddCarry(it.key, 0xfffffff0u, carry);
	umulExtended(it.key, 0x80000001u, high, low);
	out_.o[base + 2] = sum;
	out_.o[base + 3] = carry;
	out_.o[base + 4] = high ^ low;
	out_.o[base + 5] = table[i % 4u] + gl_LocalInvocationID.y * 100u + gl_LocalInvocationID.x * 10u;
	if (i == 0u) {
		atomicAdd(many[0].value, 1u);
		atomicAdd(many[2].value, 10u);
	}
	for (uint k = 0u; k < 10u; ++k) {
		if (k == i) {
			out_.o[base + 6] = k * 7u;
			return;
		}
		counter += 1u;
	}
	out_.o[base + 7] = counter;
}
