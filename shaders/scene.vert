#version 450
// Scene tests' vertex stage: a clip-space position and a color from vertex
// buffers (missing components read as (0,0,0,1)).
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 color;
void main() {
	gl_Position = position;
	color = in_color;
}
