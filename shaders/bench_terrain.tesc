#version 450
// Tessellated terrain (bench/draw_bench.cpp): each cell a quad patch cut
// 11 x 11.
layout(vertices = 4) out;
layout(location = 0) in vec3 position[];
layout(location = 1) in vec3 color[];
layout(location = 0) out vec3 out_position[];
layout(location = 1) patch out vec3 patch_color;

void main() {
	out_position[gl_InvocationID] = position[gl_InvocationID];
	if (gl_InvocationID == 0) {
		patch_color = color[0];
		gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = gl_TessLevelOuter[3] = 11.0;
		gl_TessLevelInner[0] = gl_TessLevelInner[1] = 11.0;
	}
}
