#version 450
// Sampling a 2D texture with mips through a combined image sampler and
// through a separate image and sampler: explicit LOD, gradients, offsets,
// projection, MinLod-free queries, texelFetch, gathers and sizes. The sampler
// comes from the test (filters, address modes, border colors).
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform sampler2D tex;      // 16x16, 5 levels
layout(set = 0, binding = 2) uniform texture2D image;    // the same image
layout(set = 0, binding = 3) uniform sampler samp;       // the same sampler
layout(push_constant) uniform Params { float lod; float scale; float grad; } pc;

const int kPerLane = 12;

void main() {
	uint i = gl_GlobalInvocationID.x;  // 256 lanes: a 16x16 grid
	// Coordinates across [-scale/2 + 1/2, scale/2 + 1/2): beyond [0, 1] for the
	// address modes, never on a texel edge at any level (+0.013).
	vec2 uv = (vec2(i % 16u, i / 16u) / 16.0 - 0.5) * pc.scale + 0.5 + 0.013;
	uint base = i * kPerLane;
	o.v[base + 0] = textureLod(tex, uv, pc.lod);
	o.v[base + 1] = textureGrad(tex, uv, vec2(pc.grad / 16.0, 0.0), vec2(0.0, pc.grad / 32.0));
	o.v[base + 2] = textureLodOffset(tex, uv, pc.lod, ivec2(1, -2));
	o.v[base + 3] = (i % 2u == 0u ? textureGather(tex, uv, 0) : textureGather(tex, uv, 3));
	o.v[base + 4] = textureGatherOffset(tex, uv, ivec2(-1, 1), 1);
	o.v[base + 5] = textureProjLod(tex, vec3(uv * 2.0, 2.0), pc.lod);
	o.v[base + 6] = textureLod(sampler2D(image, samp), uv.yx, pc.lod + 0.5);
	int level = int(i % 5u);
	o.v[base + 7] = texelFetch(tex, ivec2(i % 16u, i / 16u) >> level, level);
	o.v[base + 8] = texelFetchOffset(image, ivec2(i % 8u, i / 32u), 1, ivec2(1, 0));
	// A uniform level: lavapipe 22.3 answers every lane with the first lane's level.
	o.v[base + 9] = vec4(textureSize(tex, int(pc.lod)), textureQueryLevels(tex), textureSize(image, 0).x);
	// shaderImageGatherExtended: four constant offsets, and a run-time offset.
	o.v[base + 10] = textureGatherOffsets(tex, uv, ivec2[4](ivec2(0, 0), ivec2(1, -1), ivec2(-2, 3), ivec2(4, -4)), 2);
	o.v[base + 11] = textureGatherOffset(tex, uv, ivec2(int(i % 3u) - 1, int(i % 5u) - 2), 1);
}
