#version 450
// Border colors (border_color_test.cpp): a float, an unsigned and a signed
// integer texture (8x8, one level) sampled through CLAMP_TO_BORDER samplers
// over a 16x16 grid reaching past the edges (scale 2: uv in [-0.5, 1.5),
// never on a texel edge). Results as raw bits.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uvec4 v[]; } o;
layout(set = 0, binding = 1) uniform sampler2D ftex;
layout(set = 0, binding = 2) uniform usampler2D utex;
layout(set = 0, binding = 3) uniform isampler2D itex;
layout(push_constant) uniform Params { float scale; } pc;

void main() {
	uint i = gl_GlobalInvocationID.x;  // 256 lanes
	vec2 uv = (vec2(i % 16u, i / 16u) / 16.0 - 0.5) * pc.scale + 0.5 + 0.013;
	o.v[i * 3u + 0u] = floatBitsToUint(textureLod(ftex, uv, 0.0));
	o.v[i * 3u + 1u] = textureLod(utex, uv, 0.0);
	o.v[i * 3u + 2u] = uvec4(textureLod(itex, uv, 0.0));
}
