#version 450
// texelFetch of every texel of every level and layer of a 37x23, 3-level,
// 2-layer integer texture (tiled in Tessera's memory), and its sizes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uvec4 v[]; } o;
layout(set = 0, binding = 1) uniform usampler2DArray tex;

void main() {
	uint i = gl_GlobalInvocationID.x;  // one lane a texel of level 0
	if (i >= 37u * 23u) return;
	ivec2 p = ivec2(i % 37u, i / 37u);
	for (int level = 0; level < 3; ++level) {
		ivec3 size = textureSize(tex, level);
		for (int layer = 0; layer < 2; ++layer) {
			uint slot = uint(level * 2 + layer) * (37u * 23u) + i;
			o.v[slot] = all(lessThan(p, size.xy)) ? texelFetch(tex, ivec3(p, layer), level) : uvec4(size, 7u);
		}
	}
}
