#version 450
#extension GL_EXT_multiview : require
// Red 51 * (view + 1): every driver writes the same UNORM8 bytes (k/255 to
// within float rounding, far from a tie).
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(0.2 * float(gl_ViewIndex + 1), 0.6, 0.2, 1.0); }
