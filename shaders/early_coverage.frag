#version 450
// The same as post_depth_coverage.frag without PostDepthCoverage: the early
// tests still run, and gl_SampleMaskIn is the rasterization coverage.
layout(early_fragment_tests) in;
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() { o = vec4(float(bitCount(gl_SampleMaskIn[0])) / 4.0, color.g, 0.0, 1.0); }
