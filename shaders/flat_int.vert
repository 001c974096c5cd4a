#version 450
// An integer attribute through a flat int varying, bits unchanged.
layout(location = 0) in vec4 position;
layout(location = 1) in int value;
layout(location = 0) flat out int v;
void main() {
	gl_Position = position;
	v = value;
}
