#version 450
// Tessellation evaluation in point mode (tessellation_test.cpp): every
// domain point of triangles with fractional_odd spacing once, its TessCoord captured
// by transform feedback with the patch number.
layout(triangles, fractional_odd_spacing, ccw, point_mode) in;
layout(xfb_buffer = 0, xfb_stride = 16) out;
layout(location = 0, xfb_buffer = 0, xfb_offset = 0) out vec4 coord;

void main() {
	vec3 t = gl_TessCoord;
	gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position + t.z * gl_in[2].gl_Position;
	gl_PointSize = 1.0;
	coord = vec4(t, float(gl_PrimitiveID));
}
