#version 450
// Tessellation evaluation (tessellation_test.cpp): quads, fractional even
// spacing, clockwise. The patch's first three vertices span a
// parallelogram; the color is bilinear in TessCoord.
layout(quads, fractional_even_spacing, cw) in;
layout(location = 0) in vec3 color[];
layout(location = 1) patch in vec3 patch_color;
layout(location = 0) out vec3 out_color;

void main() {
	vec2 t = gl_TessCoord.xy;
	vec4 p0 = gl_in[0].gl_Position, p1 = gl_in[1].gl_Position, p2 = gl_in[2].gl_Position;
	gl_Position = p0 + t.x * (p1 - p0) + t.y * (p2 - p0);
	out_color = vec3(t, 0.5) * 0.75 + patch_color * 0.25;
}
