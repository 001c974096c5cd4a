#version 450
// Two user clip distances: x + 0.5 and 0.6 - y (in clip space).
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 color;
out float gl_ClipDistance[2];
void main() {
	gl_Position = position;
	gl_ClipDistance[0] = position.x + 0.5;
	gl_ClipDistance[1] = 0.6 - position.y;
	color = in_color;
}
