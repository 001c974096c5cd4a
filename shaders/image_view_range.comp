#version 450
// Views of part of an image: a level range (base level 1), a layer range
// (base layer 1), and a storage view of level 1.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform sampler2D levels;       // levels 1..3 of a 16x16, 5-level image
layout(set = 0, binding = 2) uniform sampler2DArray layers;  // layers 1..2 of a 4-layer 8x8 image
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D level1;  // level 1 of a 16x16 image

void main() {
	uint i = gl_GlobalInvocationID.x;  // 64 lanes: an 8x8 grid
	ivec2 p = ivec2(i % 8u, i / 8u);
	vec2 uv = (vec2(p) + vec2(0.3, 0.6)) / 8.0;
	uint base = i * 6u;
	o.v[base + 0] = textureLod(levels, uv, 0.0);
	o.v[base + 1] = textureLod(levels, uv, 1.5);
	o.v[base + 2] = texelFetch(levels, p >> 1, 1);
	o.v[base + 3] = textureLod(layers, vec3(uv, float(i % 3u)), 0.0);
	o.v[base + 4] = texelFetch(layers, ivec3(p, 1), 0);
	o.v[base + 5] = vec4(textureSize(levels, 0), textureQueryLevels(levels), textureSize(layers, 0).z) +
	                vec4(imageSize(level1), 0.0, 0.0) * 100.0;
	imageStore(level1, p, vec4(uv, 0.25, 1.0));
}
