#version 450
// Divergent control flow: nested loops with data-dependent trip counts,
// break and continue taken by some lanes only, switch with fall-through,
// and an early return.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	uint x = v[i];
	if (x == 7u) {
		o[i * 4u + 3u] = 0xdeadu;
		return;  // early return: the other slots stay as they were
	}
	uint sum = 0u;
	for (uint a = 0u; a < (x & 7u); ++a) {
		if (a == 5u) break;
		for (uint b = 0u; b < a + (x >> 3); ++b) {
			if (((a + b) & 1u) == 1u) continue;
			sum += a * 10u + b;
			if (sum > 200u) break;
		}
	}
	o[i * 4u + 0u] = sum;

	uint s = 0u;
	switch (x % 6u) {
		case 0u: s += 1u;  // falls through
		case 1u: s += 10u; break;
		case 2u:
		case 3u: s += 100u; // falls through
		case 4u: s += 1000u; break;
		default: s = 5u; break;
	}
	o[i * 4u + 1u] = s;

	uint n = x, steps = 0u;
	while (n != 1u && n != 0u) {  // Collatz: trip counts differ per lane
		n = (n & 1u) == 1u ? 3u * n + 1u : n / 2u;
		steps++;
	}
	o[i * 4u + 2u] = steps;
	o[i * 4u + 3u] = x > 40u ? x - 40u : 40u - x;
}
