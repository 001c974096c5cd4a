#version 450
// A color that differs from pixel to pixel (tests/e2e/sparse_image_test.cpp).
layout(location = 0) out vec4 o;
void main() { o = vec4(fract(gl_FragCoord.xy / vec2(37.0, 23.0)), fract(gl_FragCoord.x * gl_FragCoord.y / 997.0), 1.0); }
