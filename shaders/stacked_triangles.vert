#version 450
// Several copies of one triangle that covers the whole viewport, one per
// three vertices (gl_VertexIndex % 3): (-1, -1), (3, -1), (-1, 3). Every
// pixel gets one fragment from each, in primitive order.
void main() {
	int v = gl_VertexIndex % 3;
	vec2 p = vec2((v << 1) & 2, v & 2);
	gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
