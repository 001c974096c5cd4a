#version 450
// discard on a 4x4-pixel checkerboard and where the red channel is high.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() {
	ivec2 p = ivec2(gl_FragCoord.xy) / 4;
	if (((p.x + p.y) & 1) == 1 || color.r > 0.8) discard;
	o = color;
}
