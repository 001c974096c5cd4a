#version 450
// The geometry stage's color (geometry_test.cpp).
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 frag;

void main() { frag = vec4(color, 1.0); }
