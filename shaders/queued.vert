#version 450
// Push constants read by both stages, pushed anew before each draw: a draw
// that waits in the rasterizer's queue keeps the values pushed before it.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 color;
layout(push_constant) uniform Push {
	vec4 offset;
	vec4 tint;
};
layout(location = 0) out vec4 v_color;
void main() {
	gl_Position = position + offset;
	v_color = color;
}
