#version 450
// Tessellation control (tessellation_test.cpp): passes the patch's vertices
// through (gl_out written by each invocation, then read back by invocation
// 0 after a barrier to sum the colors into a patch output) and takes the
// levels from push constants, plus 0.5 per patch for variety.
layout(vertices = 3) out;
layout(push_constant) uniform Levels { vec4 outer; vec2 inner; } levels;
layout(location = 0) in vec3 color[];
layout(location = 0) out vec3 out_color[];
layout(location = 1) patch out vec3 patch_color;

void main() {
	gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
	out_color[gl_InvocationID] = color[gl_InvocationID];
	barrier();
	if (gl_InvocationID == 0) {
		patch_color = (out_color[0] + out_color[1] + out_color[2]) / 3.0;
		float more = 0.5 * float(gl_PrimitiveID % 2);
		gl_TessLevelOuter[0] = levels.outer.x + more;
		gl_TessLevelOuter[1] = levels.outer.y;
		gl_TessLevelOuter[2] = levels.outer.z + more;
		gl_TessLevelOuter[3] = levels.outer.w;
		gl_TessLevelInner[0] = levels.inner.x + more;
		gl_TessLevelInner[1] = levels.inner.y;
	}
}
