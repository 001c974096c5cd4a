#version 450
// Points and lines: a position, a color and a point size from vertex buffers.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 in_color;
layout(location = 2) in float size;
layout(location = 0) out vec4 color;
void main() {
	gl_Position = position;
	gl_PointSize = size;
	color = in_color;
}
