#version 450
// A geometry stage run in parts (transform_feedback_test.cpp): it declares
// four invocations of up to 128 vertices each (the records the stage may
// emit set how many input primitives a part of a draw takes, draw.cpp
// DrawGeometryStage), but only invocation 0 emits, its triangle as it
// came. The input primitive's ID goes to the fragment stage (flat and as
// gl_PrimitiveID) and into 20-byte transform feedback records.
layout(triangles, invocations = 4) in;
layout(triangle_strip, max_vertices = 128) out;
layout(xfb_buffer = 0, xfb_stride = 20) out;
layout(xfb_buffer = 0) out gl_PerVertex {
	layout(xfb_offset = 0) vec4 gl_Position;
};
layout(location = 0, xfb_buffer = 0, xfb_offset = 16) flat out int id;

void main() {
	if (gl_InvocationID != 0) return;
	for (int k = 0; k < 3; ++k) {
		gl_Position = gl_in[k].gl_Position;
		id = gl_PrimitiveIDIn;
		gl_PrimitiveID = gl_PrimitiveIDIn;
		EmitVertex();
	}
}
