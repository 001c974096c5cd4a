#version 450
// interpolateAtOffset / AtSample from the quad's gradient; interpolateAtCentroid.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
layout(location = 1) out vec2 at_sample;
void main() {
	o = vec4(interpolateAtOffset(uv, vec2(0.25, -0.125)), interpolateAtCentroid(uv));
	at_sample = interpolateAtSample(uv, 1);
}
