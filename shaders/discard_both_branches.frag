#version 450
// A selection whose branches both discard, one through a called function,
// inlined into a loop's continue construct: once the calls end the lane, the
// selection's merge block, which reads a value computed after the call, is
// reached by no branch.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;

void kill() { discard; }

void both() {
	float x;
	if (v > 0.0) {
		kill();
		x = v * 2.0;
	} else {
		discard;
	}
	o = vec4(x);
}

void main() {
	o = vec4(1.0);
	for (int i = 0; i < int(v); both()) ++i;
}
