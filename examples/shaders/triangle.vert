#version 450
// examples/triangle.cpp's vertex stage: no vertex buffer, the three corners
// and their colors are constants picked by gl_VertexIndex.
layout(location = 0) out vec3 color;

const vec2 kPositions[3] = vec2[](vec2(0.0, -0.7), vec2(0.7, 0.6), vec2(-0.7, 0.6));
const vec3 kColors[3] = vec3[](vec3(1.0, 0.2, 0.2), vec3(0.2, 1.0, 0.2), vec3(0.2, 0.3, 1.0));

void main() {
	gl_Position = vec4(kPositions[gl_VertexIndex], 0.0, 1.0);
	color = kColors[gl_VertexIndex];
}
