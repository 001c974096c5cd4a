#version 450
#extension GL_EXT_fragment_shader_barycentric : require
// As barycentric.frag, with gl_BaryCoordNoPerspEXT (linear in the window).
layout(location = 0) pervertexEXT in float vertex_number[];
layout(location = 0) out vec4 color;
void main() {
	color = vec4(gl_BaryCoordNoPerspEXT, vertex_number[0] + 8.0 * vertex_number[1] + 64.0 * vertex_number[2]);
}
