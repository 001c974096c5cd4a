#version 450
// A feedback loop through a sampled image that is also the color attachment:
// each fragment adds to the texel at its own pixel, as earlier draws left it.
layout(set = 0, binding = 0) uniform sampler2D attachment;
layout(location = 0) out vec4 out_color;
void main() {
	out_color = texelFetch(attachment, ivec2(gl_FragCoord.xy), 0) + vec4(1.0 / 16.0, 1.0 / 32.0, 1.0 / 8.0, 0.0);
}
