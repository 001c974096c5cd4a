#version 450
// gl_PointCoord as color.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(gl_PointCoord, color.b, 1.0); }
