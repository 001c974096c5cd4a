#version 450
// Loops left only by a discard in a called function, inside a continue
// construct: their merge blocks are reached by no branch.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;

void kill() { discard; }

void main() {
	if (v > 0.0) {
		while (true) {
			for (;; kill()) {
			}
		}
	}
	o = vec4(1.0);
}
