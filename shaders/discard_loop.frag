#version 450
// discard inside a function called in a loop: the inliner must handle OpKill.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
void check(float x) { if (x < 0.0) discard; }
void main() {
	float s = 0.0;
	for (int i = 0; i < 4; ++i) { check(v - float(i)); s += v; }
	o = vec4(s);
}
