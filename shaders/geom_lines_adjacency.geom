#version 450
// Line strips with adjacency (geometry_test.cpp): the segment from vertex 1
// to 2, then on to the midpoint of 2 and 3, as one strip; vertex 0 picks
// the color.
layout(lines_adjacency) in;
layout(line_strip, max_vertices = 3) out;
layout(location = 0) in vec3 color[];
layout(location = 0) out vec3 out_color;

void main() {
	out_color = color[0];
	gl_Position = gl_in[1].gl_Position;
	EmitVertex();
	gl_Position = gl_in[2].gl_Position;
	EmitVertex();
	gl_Position = (gl_in[2].gl_Position + gl_in[3].gl_Position) * 0.5;
	EmitVertex();
}
