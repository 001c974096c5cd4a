#version 450
// A shadow map: the depth-compare result at (s, t) against reference z.
layout(set = 0, binding = 2) uniform sampler2DShadow tex;
layout(location = 0) in vec4 uv;
layout(location = 0) out vec4 out_color;
void main() {
	float lit = texture(tex, uv.xyz);
	out_color = vec4(lit, 0.5 * lit, 1.0 - lit, 1.0);
}
