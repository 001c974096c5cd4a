#version 450
// Dual-source blending: the second source (Index 1) weighs the destination.
layout(location = 0) in vec4 color;
layout(location = 0, index = 0) out vec4 out_color;
layout(location = 0, index = 1) out vec4 out_weight;
void main() {
	out_color = color;
	out_weight = vec4(1.0 - color.r, 0.5, color.b * 0.5, 0.25);
}
