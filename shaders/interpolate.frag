#version 450
// interpolateAtOffset from the quad's gradient; interpolateAtCentroid.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() { o = vec4(interpolateAtOffset(uv, vec2(0.25, -0.125)), interpolateAtCentroid(uv)); }
