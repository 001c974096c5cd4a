#version 450
layout(location = 0) in vec4 smooth_color;
layout(location = 1) noperspective in vec4 linear_color;
layout(location = 0) out vec4 o;
void main() { o = vec4(smooth_color.r, linear_color.r, smooth_color.g, linear_color.g); }
