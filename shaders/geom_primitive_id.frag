#version 450
// The interpolated color, with blue from the primitive ID (geometry_test.cpp).
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 frag;

void main() { frag = vec4(color.rg, float(gl_PrimitiveID % 16) / 15.0, 1.0); }
