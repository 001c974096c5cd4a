#version 450
// Tessellation evaluation (tessellation_test.cpp): triangles, fractional_even_spacing, ccw. The position is
// the patch's triangle at TessCoord; the color mixes the vertices' and the
// patch's colors by TessCoord, so any triangulation of the domain gives
// the same image.
layout(triangles, fractional_even_spacing, ccw) in;
layout(location = 0) in vec3 color[];
layout(location = 1) patch in vec3 patch_color;
layout(location = 0) out vec3 out_color;

void main() {
	vec3 t = gl_TessCoord;
	gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position + t.z * gl_in[2].gl_Position;
	out_color = (t.x * color[0] + t.y * color[1] + t.z * color[2]) * 0.75 + patch_color * 0.25;
}
