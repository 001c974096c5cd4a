#version 450
// scene.vert with two cull distances: x (culls primitives wholly left of
// the centre) and 0.5 - y (culls primitives wholly below y = 0.5).
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 color;
out float gl_CullDistance[2];
void main() {
	gl_Position = position;
	gl_CullDistance[0] = position.x;
	gl_CullDistance[1] = 0.5 - position.y;
	color = in_color;
}
