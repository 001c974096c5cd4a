#version 450
// Sample shading: each sample gets its own color from gl_SampleID and
// gl_SamplePosition, so the resolved pixel averages them.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 out_color;
void main() { out_color = vec4(float(gl_SampleID) / 3.0, gl_SamplePosition, color.a); }
