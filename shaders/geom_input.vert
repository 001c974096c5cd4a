#version 450
// Geometry tests (geometry_test.cpp): the position as given, a color from
// the vertex index, and the index itself.
layout(location = 0) in vec4 position;
layout(location = 0) out vec3 color;
layout(location = 1) flat out int index;

void main() {
	gl_Position = position;
	color = vec3(float(gl_VertexIndex % 3) * 0.5, float(gl_VertexIndex % 5) * 0.25, 1.0 - float(gl_VertexIndex % 7) / 7.0);
	index = gl_VertexIndex;
}
