#version 450
// EarlyFragmentTests; a Sample-decorated input and SampleId make it run per sample.
layout(early_fragment_tests) in;
layout(location = 0) sample in float s;
layout(location = 0) out vec4 o;
void main() { o = vec4(s, float(gl_SampleID), gl_SamplePosition); }
