#version 450
// A loop that never ends for some lanes: the engine must report device lost.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	while (o[0] != 12345u) {
		o[i + 1u] += 1u;
	}
}
