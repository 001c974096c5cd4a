#version 450
// One value interpolated three ways.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 smooth_color;
layout(location = 1) noperspective out vec4 linear_color;
void main() {
	gl_Position = position;
	smooth_color = in_color;
	linear_color = in_color;
}
