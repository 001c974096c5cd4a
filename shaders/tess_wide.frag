#version 450
// The 30 vec4 inputs of tess_wide.tese (120 components) folded into a
// color: each weighted differently, so that every component shows.
layout(location = 0) in vec4 f[30];
layout(location = 0) out vec4 color;

void main() {
	vec4 sum = vec4(0.0);
	for (int i = 0; i < 30; ++i) sum += f[i] * (float(i % 5) + 1.0) * (i % 2 == 0 ? 1.0 : -0.6);
	color = vec4(fract(sum.xyz * 0.173), 1.0);
}
