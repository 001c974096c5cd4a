#version 450
// A color every driver writes to the same bytes in UNORM8: each channel is
// k/255 to within float rounding, far from a tie (255, 153, 51, 255).
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(1.0, 0.6, 0.2, 1.0); }
