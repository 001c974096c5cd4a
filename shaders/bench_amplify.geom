#version 450
// Geometry amplification (bench/draw_bench.cpp): each lit triangle three
// times, stacked a little apart in clip space.
layout(triangles) in;
layout(triangle_strip, max_vertices = 9) out;
layout(location = 0) in vec3 world_position[];
layout(location = 1) in vec3 world_normal[];
layout(location = 2) flat in vec3 base_color[];
layout(location = 0) out vec3 out_position;
layout(location = 1) out vec3 out_normal;
layout(location = 2) flat out vec3 out_color;

void main() {
	for (int copy = 0; copy < 3; ++copy) {
		for (int k = 0; k < 3; ++k) {
			gl_Position = gl_in[k].gl_Position + vec4(0.0, 0.08 * float(copy), 0.0, 0.0);
			out_position = world_position[k];
			out_normal = world_normal[k];
			out_color = base_color[k] * (1.0 - 0.2 * float(copy));
			EmitVertex();
		}
		EndPrimitive();
	}
}
