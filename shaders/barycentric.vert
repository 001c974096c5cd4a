#version 450
// VK_KHR_fragment_shader_barycentric tests: the vertex's number as a
// value the fragment stage reads per vertex (barycentric*.frag).
layout(location = 0) in vec4 position;
layout(location = 0) out float vertex_number;
void main() {
	gl_Position = position;
	vertex_number = float(gl_VertexIndex);
}
