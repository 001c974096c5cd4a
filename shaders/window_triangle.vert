#version 450
// The windowed example's triangle: positions come from the host (push
// constants) so every driver snaps the same vertices; colors interpolate.
layout(push_constant) uniform Triangle {
	vec4 positions[3];  // xy used
} triangle;
layout(location = 0) out vec3 color;

const vec3 kColors[3] = vec3[](vec3(1.0, 0.2, 0.1), vec3(0.1, 0.9, 0.2), vec3(0.2, 0.3, 1.0));

void main() {
	gl_Position = vec4(triangle.positions[gl_VertexIndex].xy, 0.0, 1.0);
	color = kColors[gl_VertexIndex];
}
