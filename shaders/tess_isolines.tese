#version 450
// Tessellation evaluation (tessellation_test.cpp): isolines across the
// parallelogram of the patch's first three vertices.
layout(isolines, equal_spacing) in;
layout(location = 0) in vec3 color[];
layout(location = 0) out vec3 out_color;

void main() {
	vec2 t = gl_TessCoord.xy;
	vec4 p0 = gl_in[0].gl_Position, p1 = gl_in[1].gl_Position, p2 = gl_in[2].gl_Position;
	gl_Position = p0 + t.x * (p1 - p0) + t.y * (p2 - p0);
	out_color = vec3(t, 1.0);
}
