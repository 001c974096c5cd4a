#version 450
// Barriers where the compiled tier must park its vectors of lanes: in the
// middle of a block, at the start and at the end of one, in a loop after a
// branch only some lanes take, in a called function, with values and a
// private array live across them; 40 lanes, so the last vector is part
// padding. Every result depends on what other lanes stored before a barrier.
layout(local_size_x = 40) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
shared uint s[40];
shared uint t[40];

uint Neighbour(uint l, uint k) {
	barrier();
	return s[(l + k) % 40u];
}

void main() {
	uint l = gl_LocalInvocationID.x;
	uint g = gl_GlobalInvocationID.x;
	uint kept[4];  // private memory, live across the barriers
	for (uint i = 0u; i < 4u; ++i) kept[i] = v[(g * 4u + i) % 256u];
	uint live = v[g % 256u] * 3u + l;
	s[l] = live;
	barrier();  // in the middle of a block
	uint a = s[(l + 1u) % 40u] ^ s[(l + 17u) % 40u];
	barrier();
	if (l % 3u == 0u) s[l] = a + kept[l % 4u];
	else t[l] = a;
	barrier();  // at the start of the merge block
	uint b = s[39u - l];
	for (uint round = 0u; round < (v[0] % 5u) + 2u; ++round) {
		if ((l & 1u) == 0u) t[l] = b + round;
		barrier();
		b += t[(l + 3u * round + 1u) % 40u];
		barrier();  // at the end of the loop body
		s[l] = b ^ kept[round % 4u];
	}
	uint c = Neighbour(l, 11u) + live;
	o[g] = a;
	o[g + 128u] = b;
	o[g + 256u] = c;
}
