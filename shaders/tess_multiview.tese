#version 450
#extension GL_EXT_multiview : require
// Multiview with tessellation (multiview_test.cpp): the patch's triangle at
// TessCoord, moved down by 0.1 per view (gl_ViewIndex read here too).
layout(triangles, equal_spacing, ccw) in;

void main() {
	vec3 t = gl_TessCoord;
	gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position + t.z * gl_in[2].gl_Position +
	              vec4(0.0, 0.1 * float(gl_ViewIndex), 0.0, 0.0);
}
