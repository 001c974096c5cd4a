#version 450
// Geometry amplification (geometry_test.cpp): two invocations per triangle;
// each emits its triangle shrunk toward the centroid and moved by the
// invocation, as two strips (EndPrimitive between), and a primitive ID
// that the fragment stage turns into a color.
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 6) out;
layout(location = 0) in vec3 color[];
layout(location = 0) out vec3 out_color;

void main() {
	vec4 center = (gl_in[0].gl_Position + gl_in[1].gl_Position + gl_in[2].gl_Position) / 3.0;
	vec4 shift = vec4(gl_InvocationID == 0 ? -0.05 : 0.05, 0.0, 0.0, 0.0);
	for (int strip = 0; strip < 2; ++strip) {
		float scale = strip == 0 ? 0.9 : 0.4;
		for (int k = 0; k < 3; ++k) {
			gl_Position = center + (gl_in[k].gl_Position - center) * scale + shift;
			out_color = strip == 0 ? color[k] : vec3(1.0) - color[k];
			gl_PrimitiveID = gl_PrimitiveIDIn * 2 + gl_InvocationID;
			EmitVertex();
		}
		EndPrimitive();
	}
}
