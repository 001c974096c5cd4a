#version 450
// Screen-space derivatives of a varying, scaled into [0, 1].
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() {
	float f = color.r * color.g * 4.0;
	o = vec4(abs(dFdx(color.r)) * 32.0, abs(dFdy(color.g)) * 32.0, abs(dFdx(f)) * 16.0 + abs(dFdy(f)) * 16.0, 1.0);
}
