#version 450
// The second subpass of an input attachment scene: the first subpass's color
// at this pixel, changed so a plain copy would not pass.
layout(input_attachment_index = 0, set = 0, binding = 4) uniform subpassInput previous;
layout(location = 0) in vec4 color;
layout(location = 1) out vec4 out_color;
void main() {
	vec4 p = subpassLoad(previous);
	out_color = vec4(p.g, p.b, p.r, 1.0) * 0.75 + vec4(color.rgb, 0.0) * 0.25;
}
