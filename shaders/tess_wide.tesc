#version 450
// Tessellation control at the interface limits (tessellation_test.cpp):
// 30 vec4 per vertex in (120 components), 20 vec4 per vertex and 8 vec4
// per patch out (the validation layer counts both, and the built-ins, in
// one space of 128 components: 112 + 13), the patch values read back after
// a barrier.
layout(vertices = 3) out;
layout(location = 0) in vec4 v[][30];
layout(location = 0) out vec4 o[][20];
layout(location = 20) patch out vec4 p[8];

void main() {
	gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
	for (int i = 0; i < 20; ++i)
		o[gl_InvocationID][i] = v[gl_InvocationID][i].yzwx + v[gl_InvocationID][29 - i] * 0.5;
	barrier();
	if (gl_InvocationID == 0) {
		for (int i = 0; i < 8; ++i) p[i] = (o[0][i] + o[1][i + 8] + o[2][19 - i] + v[0][i + 22]) * 0.25;
		gl_TessLevelOuter[0] = 3.0;
		gl_TessLevelOuter[1] = 2.0;
		gl_TessLevelOuter[2] = 4.0;
		gl_TessLevelInner[0] = 3.0;
	}
}
