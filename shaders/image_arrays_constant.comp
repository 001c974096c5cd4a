#version 450
// image_arrays.comp with every descriptor array indexed by constants (a
// switch per access): the same results for drivers without dynamic indexing
// of image arrays (lavapipe 22.3), to compare image_arrays.comp with.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform texture2D images[3];
layout(set = 0, binding = 2) uniform sampler samplers[2];
layout(set = 0, binding = 3) uniform sampler2D combined[3];
layout(set = 0, binding = 4, r32ui) uniform uimage2D storage[2];
layout(set = 0, binding = 5) uniform samplerBuffer texels[2];

vec4 SeparateLod(uint image, uint sampler_index, vec2 uv) {
	if (sampler_index == 0u) {
		if (image == 0u) return textureLod(sampler2D(images[0], samplers[0]), uv, 0.0);
		if (image == 1u) return textureLod(sampler2D(images[1], samplers[0]), uv, 0.0);
		return textureLod(sampler2D(images[2], samplers[0]), uv, 0.0);
	}
	if (image == 0u) return textureLod(sampler2D(images[0], samplers[1]), uv, 0.0);
	if (image == 1u) return textureLod(sampler2D(images[1], samplers[1]), uv, 0.0);
	return textureLod(sampler2D(images[2], samplers[1]), uv, 0.0);
}
vec4 CombinedLod(uint k, vec2 uv) {
	if (k == 0u) return textureLod(combined[0], uv, 0.0);
	if (k == 1u) return textureLod(combined[1], uv, 0.0);
	return textureLod(combined[2], uv, 0.0);
}
vec4 CombinedFetch(uint k, ivec2 p) {
	if (k == 0u) return texelFetch(combined[0], p, 0);
	if (k == 1u) return texelFetch(combined[1], p, 0);
	return texelFetch(combined[2], p, 0);
}

void main() {
	uint g = gl_WorkGroupID.x, l = gl_LocalInvocationID.x;
	uint base = gl_GlobalInvocationID.x * 4u;
	vec2 uv = vec2(float(l) * 0.27 + 0.06, float(g % 7u) * 0.13 + 0.05);
	o.v[base + 0] = SeparateLod(g % 3u, (g / 3u) % 2u, uv);
	o.v[base + 1] = CombinedLod((g + 1u) % 3u, uv.yx);
	int t = int(g * 4u + l) % 16;
	o.v[base + 2] = g % 2u == 0u ? texelFetch(texels[0], t) : texelFetch(texels[1], t);
	if (g % 2u == 0u)
		imageAtomicAdd(storage[0], ivec2(l, g % 4u), g + 1u);
	else
		imageAtomicAdd(storage[1], ivec2(l, g % 4u), g + 1u);
	float loaded = (g + 1u) % 2u == 0u ? float(imageLoad(storage[0], ivec2(l, 4)).x) : float(imageLoad(storage[1], ivec2(l, 4)).x);
	o.v[base + 3] = vec4(loaded, CombinedFetch(g % 3u, ivec2(l, 0)).xyz);
}
