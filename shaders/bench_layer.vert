#version 450
// Benchmarks: one full-screen quad a instance (two triangles, six vertices
// from gl_VertexIndex alone), with a flat color that changes per instance.
layout(location = 0) flat out vec4 color;
void main() {
	const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, -1), vec2(1, 1), vec2(-1, 1));
	gl_Position = vec4(corners[gl_VertexIndex], 0.5, 1.0);
	float k = float(gl_InstanceIndex) / 8.0;
	color = vec4(0.2 + 0.1 * k, 0.9 - 0.1 * k, 0.4, 0.5);
}
