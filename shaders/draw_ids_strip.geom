#version 450
// Passes draw_ids.vert's flat varyings through, each input triangle out as
// one triangle strip of its three vertices: the provoking vertex of the
// geometry stage's output (Vulkan "Provoking Vertex": the last
// pre-rasterization stage's primitives) picks which vertex's ids the
// fragments see.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) flat in ivec4 ids_in[];
layout(location = 1) flat in int draw_id_in[];
layout(location = 0) flat out ivec4 ids;
layout(location = 1) flat out int draw_id;
void main() {
	for (int i = 0; i < 3; ++i) {
		gl_Position = gl_in[i].gl_Position;
		ids = ids_in[i];
		draw_id = draw_id_in[i];
		EmitVertex();
	}
}
