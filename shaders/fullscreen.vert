#version 450
// One triangle that covers the whole viewport, from gl_VertexIndex alone (no
// vertex input): (-1, -1), (3, -1), (-1, 3).
void main() {
	vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
	gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
