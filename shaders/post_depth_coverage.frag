#version 450
// VK_EXT_post_depth_coverage: with PostDepthCoverage, gl_SampleMaskIn leaves
// out the samples the early depth test failed; red is the covered count / 4.
#extension GL_ARB_post_depth_coverage : require
layout(early_fragment_tests) in;
layout(post_depth_coverage) in;
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 o;
void main() { o = vec4(float(bitCount(gl_SampleMaskIn[0])) / 4.0, color.g, 0.0, 1.0); }
