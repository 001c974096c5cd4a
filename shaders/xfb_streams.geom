#version 450
// Vertex streams (transform_feedback_test.cpp): each triangle's corners as
// points to stream 0 (drawn, positions captured into buffer 0), and for
// every other triangle its number and the corner's into stream 1 (buffer
// 1), with an EndStreamPrimitive between.
layout(triangles) in;
layout(points, max_vertices = 6) out;
layout(stream = 0, xfb_buffer = 0, xfb_stride = 16) out gl_PerVertex {
	layout(xfb_offset = 0) vec4 gl_Position;
	float gl_PointSize;
};
layout(stream = 1, location = 0, xfb_buffer = 1, xfb_offset = 0, xfb_stride = 8) flat out ivec2 ids;

void main() {
	for (int k = 0; k < 3; ++k) {
		gl_Position = gl_in[k].gl_Position;
		gl_PointSize = 3.0;
		EmitStreamVertex(0);
	}
	if (gl_PrimitiveIDIn % 2 == 0) {
		for (int k = 0; k < 3; ++k) {
			ids = ivec2(gl_PrimitiveIDIn, k);
			EmitStreamVertex(1);
			EndStreamPrimitive(1);
		}
	}
}
