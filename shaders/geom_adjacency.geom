#version 450
// Triangles with adjacency to points (geometry_test.cpp): each of the six
// vertices becomes a point whose color says its place in the primitive
// (red) and which input vertex it was (green), so a wrong order shows.
layout(triangles_adjacency) in;
layout(points, max_vertices = 6) out;
layout(location = 1) flat in int index[];
layout(location = 0) out vec3 out_color;

void main() {
	for (int k = 0; k < 6; ++k) {
		gl_Position = gl_in[k].gl_Position + vec4(0.02 * float(k), 0.0, 0.0, 0.0) + vec4(0.0, 0.03 * float(gl_PrimitiveIDIn), 0.0, 0.0);
		gl_PointSize = 3.0;
		out_color = vec3(float(k) / 5.0, float(index[k] % 16) / 15.0, 0.5);
		EmitVertex();
	}
}
