#version 450
// Tessellation tests (tessellation_test.cpp): the position as given, a
// color from the vertex index.
layout(location = 0) in vec4 position;
layout(location = 0) out vec3 color;

void main() {
	gl_Position = position;
	color = vec3(float(gl_VertexIndex % 3) * 0.5, float(gl_VertexIndex % 4) * 0.3, 1.0 - float(gl_VertexIndex % 5) * 0.2);
}
