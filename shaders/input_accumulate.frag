#version 450
// Programmable blending through an input attachment that is also the color
// attachment: each fragment adds 1/16 to what the fragments before it left.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput previous;
layout(location = 0) out vec4 out_color;
void main() { out_color = subpassLoad(previous) + vec4(1.0 / 16.0, 1.0 / 32.0, 1.0 / 8.0, 0.0); }
