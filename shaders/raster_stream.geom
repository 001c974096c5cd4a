#version 450
// Rasterization stream selection (transform_feedback_test.cpp): stream 1
// carries the positions, each triangle shrunk towards its centre, and a
// color; stream 0 carries only a value, no position, so that drawing it is
// never what a test expects. A pipeline rasterizes stream 1 statically or
// through vkCmdSetRasterizationStreamEXT.
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;  // both streams count
layout(stream = 1) out gl_PerVertex {
	vec4 gl_Position;
};
layout(stream = 1, location = 0) out vec3 color;
layout(stream = 0, location = 1) out vec4 unused;

void main() {
	vec4 centre = (gl_in[0].gl_Position + gl_in[1].gl_Position + gl_in[2].gl_Position) / 3.0;
	for (int k = 0; k < 3; ++k) {
		unused = vec4(float(k));
		EmitStreamVertex(0);
	}
	EndStreamPrimitive(0);
	for (int k = 0; k < 3; ++k) {
		gl_Position = mix(centre, gl_in[k].gl_Position, 0.75);
		color = vec3(float(k == 0), float(k == 1), float(k == 2));
		EmitStreamVertex(1);
	}
	EndStreamPrimitive(1);
}
