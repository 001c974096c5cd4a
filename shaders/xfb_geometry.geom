#version 450
// Transform feedback of the geometry stage (transform_feedback_test.cpp):
// two invocations per triangle, each a strip of two triangles (the
// triangle's vertices and its centroid), capturing gl_Position and two
// integers into 24-byte records of buffer 0.
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 4) out;
layout(xfb_buffer = 0, xfb_stride = 24) out;
layout(xfb_buffer = 0) out gl_PerVertex {
	layout(xfb_offset = 0) vec4 gl_Position;
};
layout(location = 0) out vec2 uv;
layout(location = 1, xfb_buffer = 0, xfb_offset = 16) flat out ivec2 ids;

void main() {
	vec4 center = (gl_in[0].gl_Position + gl_in[1].gl_Position + gl_in[2].gl_Position) / 3.0;
	for (int k = 0; k < 4; ++k) {
		gl_Position = (k < 3 ? gl_in[k].gl_Position : center) + vec4(0.0, 0.1 * float(gl_InvocationID), 0.0, 0.0);
		uv = gl_Position.xy * 0.5 + 0.5;
		ids = ivec2(gl_PrimitiveIDIn, gl_InvocationID * 16 + k);
		EmitVertex();
	}
}
