#version 450
// Tessellated terrain (bench/draw_bench.cpp): control points in object space.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec3 in_color;
layout(location = 0) out vec3 position;
layout(location = 1) out vec3 color;

void main() {
	position = in_position;
	color = in_color;
}
