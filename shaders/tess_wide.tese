#version 450
// Tessellation evaluation at the interface limits (tessellation_test.cpp):
// 20 vec4 per vertex and 8 per patch in (112 components, 122 with the
// built-ins, as the validation layer counts them), 30 vec4 out
// (120 components, with gl_PerVertex's 127 of the 128 of
// maxTessellationEvaluationOutputComponents), each mixing vertex values by
// TessCoord with a patch value.
layout(triangles, equal_spacing, ccw) in;
layout(location = 0) in vec4 o[][20];
layout(location = 20) patch in vec4 p[8];
layout(location = 0) out vec4 f[30];

void main() {
	vec3 t = gl_TessCoord;
	gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position + t.z * gl_in[2].gl_Position;
	for (int i = 0; i < 30; ++i)
		f[i] = t.x * o[0][i % 20] + t.y * o[1][(i + 5) % 20] + t.z * o[2][(i * 7) % 20] + 0.5 * p[i % 8];
}
