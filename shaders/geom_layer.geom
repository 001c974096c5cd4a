#version 450
// Layered rendering from the geometry stage (geometry_test.cpp): each
// triangle twice, into layer 0 as given and into layer 1 mirrored.
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
layout(location = 0) in vec3 color[];
layout(location = 0) out vec3 out_color;

void main() {
	for (int layer = 0; layer < 2; ++layer) {
		for (int k = 0; k < 3; ++k) {
			vec4 p = gl_in[k].gl_Position;
			gl_Position = layer == 0 ? p : vec4(-p.x, p.y, p.z, p.w);
			gl_Layer = layer;
			out_color = color[k];
			EmitVertex();
		}
		EndPrimitive();
	}
}
