#version 450
#extension GL_EXT_fragment_shader_barycentric : require
// gl_BaryCoordEXT (perspective-correct) in rgb; in alpha, the numbers of
// the primitive's vertices 0, 1 and 2 read per vertex, as n0 + 8 n1 + 64 n2.
layout(location = 0) pervertexEXT in float vertex_number[];
layout(location = 0) out vec4 color;
void main() {
	color = vec4(gl_BaryCoordEXT, vertex_number[0] + 8.0 * vertex_number[1] + 64.0 * vertex_number[2]);
}
