#version 450
// No vertex attributes: gl_VertexIndex (as unsigned, any 32-bit value)
// picks a point of a 7x7 grid and a color.
layout(location = 0) out vec4 color;
void main() {
	uint id = uint(gl_VertexIndex);
	vec2 cell = vec2(id % 7u, (id / 7u) % 7u);
	gl_Position = vec4(cell / 3.1 - 0.95, 0.5, 1.0);
	color = vec4(float(id & 255u) / 255.0, float((id >> 8) & 255u) / 255.0, float(id >> 24) / 255.0, 1.0);
}
