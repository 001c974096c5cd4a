#version 450
// Vertex format table: instance i reads its attribute (binding 1, per
// instance) and covers pixel i of an 8-pixel-wide image with one triangle.
layout(location = 0) in uvec4 v;
layout(location = 0) flat out vec4 value;
void main() {
	const vec2 corners[3] = vec2[](vec2(0.0, 0.0), vec2(1.5, 0.0), vec2(0.0, 1.5));
	vec2 cell = vec2(gl_InstanceIndex % 8, gl_InstanceIndex / 8);
	vec2 p = (cell + corners[gl_VertexIndex]) / vec2(8.0, 4.0) * 2.0 - 1.0;
	gl_Position = vec4(p, 0.0, 1.0);
	value = vec4(v);
}
