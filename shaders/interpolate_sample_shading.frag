#version 450
// interpolateAtSample and interpolateAtOffset under sample shading (the
// shader reads gl_SampleID): a Sample input holds its value at the
// invocation's sample, and both functions, asked for that sample, must give
// the same value from a Centroid input. Red, green: |at sample - s| (x, y);
// blue, alpha: |at offset - s|; in 1/16 pixel.
layout(location = 0) centroid in vec2 c;
layout(location = 1) sample in vec2 s;
layout(location = 0) out vec4 o;
void main() {
	vec2 at_sample = interpolateAtSample(c, gl_SampleID);
	vec2 at_offset = interpolateAtOffset(c, gl_SamplePosition - vec2(0.5));
	o = vec4(abs(at_sample - s), abs(at_offset - s)) * 16.0;
}
