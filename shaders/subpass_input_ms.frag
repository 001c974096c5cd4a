#version 450
// subpass_input.frag on a multisampled input attachment: each sample reads
// its own sample (subpassLoad with gl_SampleID: the shader runs per sample).
layout(input_attachment_index = 0, set = 0, binding = 4) uniform subpassInputMS previous;
layout(location = 0) in vec4 color;
layout(location = 1) out vec4 out_color;
void main() {
	vec4 p = subpassLoad(previous, gl_SampleID);
	out_color = vec4(p.g, p.b, p.r, 1.0) * 0.75 + vec4(color.rgb, 0.0) * 0.25;
}
