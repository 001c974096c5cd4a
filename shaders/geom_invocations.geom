#version 450
// The most geometry invocations (geometry_test.cpp): 127 per point, each
// emitting one point in its own column of a 128-pixel row chosen by the
// primitive.
layout(points, invocations = 127) in;
layout(points, max_vertices = 1) out;
layout(location = 0) out vec3 out_color;

void main() {
	gl_Position = vec4((2.0 * float(gl_InvocationID) + 1.0) / 128.0 - 1.0,
	                   (2.0 * float(gl_PrimitiveIDIn) * 4.0 + 1.0) / 128.0 - 1.0, 0.5, 1.0);
	gl_PointSize = 1.0;
	out_color = vec3(float(gl_InvocationID) / 126.0, float(gl_PrimitiveIDIn % 4) / 3.0, 1.0);
	EmitVertex();
}
