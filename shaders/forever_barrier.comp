#version 450
// An endless loop through barriers: every lane parks at each barrier, so
// no vector ever runs away; the engines must still report device lost.
layout(local_size_x = 24) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
shared uint s[24];

void main() {
	uint l = gl_LocalInvocationID.x;
	s[l] = l;
	while (o[0] != 12345u) {
		barrier();
		o[l + 1u] += s[(l + 1u) % 24u];
		barrier();
		s[l] += 1u;
	}
}
