#version 450
// A block-compressed texture sampled: texelFetch of every texel of level 0
// and LINEAR lookups between texels.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform sampler2D tex;  // 16x16, 2 levels

void main() {
	uint i = gl_GlobalInvocationID.x;  // 256 lanes
	ivec2 p = ivec2(i % 16u, i / 16u);
	o.v[2u * i] = texelFetch(tex, p, 0);
	o.v[2u * i + 1u] = textureLod(tex, (vec2(p) + vec2(0.3, 0.77)) / 16.0, 0.4);
}
