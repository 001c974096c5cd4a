#version 450
// Min/max reduction (reduction_test.cpp): the 16x16 texture with 5 levels of
// image_scene.h sampled at three explicit LODs and with an offset, over a
// 16x16 grid of coordinates never on a texel edge or center (+0.013).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(push_constant) uniform Params { float scale; float lod[3]; } pc;

void main() {
	uint i = gl_GlobalInvocationID.x;  // 256 lanes
	vec2 uv = (vec2(i % 16u, i / 16u) / 16.0 - 0.5) * pc.scale + 0.5 + 0.013;
	o.v[i * 4u + 0u] = textureLod(tex, uv, pc.lod[0]);
	o.v[i * 4u + 1u] = textureLod(tex, uv, pc.lod[1]);
	o.v[i * 4u + 2u] = textureLod(tex, uv, pc.lod[2]);
	o.v[i * 4u + 3u] = textureLodOffset(tex, uv, pc.lod[0], ivec2(1, -1));
}
