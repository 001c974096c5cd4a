#version 450
#extension GL_EXT_multiview : require
// Multiview with a geometry stage (multiview_test.cpp): the triangle
// passed through, moved down by 0.1 per view (gl_ViewIndex read here too).
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;

void main() {
	for (int k = 0; k < 3; ++k) {
		gl_Position = gl_in[k].gl_Position + vec4(0.0, 0.1 * float(gl_ViewIndex), 0.0, 0.0);
		EmitVertex();
	}
}
