#version 450
// examples/triangle.cpp's fragment stage: the color interpolated across the triangle.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 out_color;

void main() {
	out_color = vec4(color, 1.0);
}
