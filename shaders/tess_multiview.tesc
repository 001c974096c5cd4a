#version 450
#extension GL_EXT_multiview : require
// Multiview with tessellation (multiview_test.cpp): the patch passed
// through, cut more finely in later views (gl_ViewIndex read here).
layout(vertices = 3) out;

void main() {
	gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
	if (gl_InvocationID == 0) {
		float level = 1.0 + float(gl_ViewIndex);
		gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = level;
		gl_TessLevelInner[0] = level;
	}
}
