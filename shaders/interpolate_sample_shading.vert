#version 450
// The pixel position (for a 64x64 viewport) in two varyings, which
// interpolate_sample_shading.frag reads as a Centroid and a Sample input.
layout(location = 0) in vec4 position;
layout(location = 0) out vec2 c;
layout(location = 1) out vec2 s;
void main() {
	gl_Position = position;
	c = (position.xy / position.w + 1.0) * 32.0;
	s = c;
}
