#version 450
// Nearly every output component at once: a smooth color at location 0 and 29
// flat vec4s whose values the fragment stage checks (many_varyings.frag):
// 120 components, plus gl_PerVertex's 7 within maxVertexOutputComponents
// (128).
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 color;
layout(location = 1) flat out vec4 values[29];
void main() {
	gl_Position = position;
	color = in_color;
	for (int i = 0; i < 29; ++i) values[i] = vec4(i, i + 32, i + 64, i + 96);
}
