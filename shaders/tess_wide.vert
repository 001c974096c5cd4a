#version 450
// Tessellation at the interface limits (tessellation_test.cpp): 30 vec4
// per-vertex outputs (120 components; with gl_PerVertex's 7, what the
// validation layer counts, 127 of the 128 of maxVertexOutputComponents and
// maxTessellationControlPerVertexInputComponents), each a different
// function of the position and the vertex index.
layout(location = 0) in vec4 position;
layout(location = 0) out vec4 v[30];

void main() {
	gl_Position = position;
	for (int i = 0; i < 30; ++i)
		v[i] = vec4(fract(position.x * float(i + 1) * 0.37 + float(gl_VertexIndex) * 0.11),
		            fract(position.y * float(i + 2) * 0.23 + float(i) * 0.05), float((gl_VertexIndex + i) % 7) / 7.0,
		            float(i) / 30.0);
}
