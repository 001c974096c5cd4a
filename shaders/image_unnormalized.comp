#version 450
// Samplers with unnormalized coordinates (texel-space u, v; level 0 only).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform sampler2D tex;  // 8x8, unnormalized sampler

void main() {
	uint i = gl_GlobalInvocationID.x;  // 256 lanes: a 16x16 grid over [-2, 10)
	vec2 p = vec2(i % 16u, i / 16u) * 0.75 - 2.0 + vec2(0.13, 0.29);
	o.v[i] = textureLod(tex, p, 0.0);
}
