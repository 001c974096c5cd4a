#version 450
// Dual-source blending outputs: the same location, Index 0 and 1.
layout(location = 0, index = 0) out vec4 color;
layout(location = 0, index = 1) out vec4 blend;
void main() {
	color = vec4(1.0, 2.0, 3.0, 4.0);
	blend = vec4(5.0);
}
