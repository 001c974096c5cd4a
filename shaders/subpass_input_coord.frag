#version 450
// subpass_input.frag with gl_FragCoord read too (the subpass input shares
// the shader's FragCoord words).
layout(input_attachment_index = 0, set = 0, binding = 4) uniform subpassInput previous;
layout(location = 0) in vec4 color;
layout(location = 1) out vec4 out_color;
void main() {
	vec4 p = subpassLoad(previous);
	out_color = vec4(p.g, p.b, p.r, 1.0) * 0.75 + vec4(fract(gl_FragCoord.x / 8.0), fract(gl_FragCoord.y / 4.0), 0.0, 0.0) * 0.25;
}
