#version 450
// VK_EXT_image_view_min_lod: lookups through a view whose minLod is m
// (`clamped`) against the lookups they must equal through a view of the same
// image without one (`plain`). Vulkan 1.3 §16 "Image Level(s) Selection":
// d' = max(clamp(lambda, 0, q), m); fetches of levels below floor(m) and,
// when floor(m) > 0, gathers read outside the view.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform sampler2D clamped;  // 16x16, 5 levels, LINEAR
layout(set = 0, binding = 2) uniform sampler2D plain;
layout(push_constant) uniform Push { float m; } p;

void main() {
	uint i = gl_GlobalInvocationID.x;
	uint k = 8u * i;
	vec2 uv = (vec2(i % 8u, i / 8u) + vec2(0.3, 0.7)) / 8.0;
	// Explicit LODs from -1 to 3 in steps of 0.5.
	float lod = float(i % 9u) * 0.5 - 1.0;
	o.v[k + 0u] = textureLod(clamped, uv, lod);
	o.v[k + 1u] = textureLod(plain, uv, max(lod, p.m));
	// Gradients of 2^j texels of the base level a step: lambda = j exactly.
	float j = float(i % 4u);
	vec2 g = vec2(exp2(j) / 16.0, 0.0);
	o.v[k + 2u] = textureGrad(clamped, uv, g, g.yx);
	o.v[k + 3u] = textureLod(plain, uv, max(j, p.m));
	int level = int(i % 4u);
	ivec2 texel = (ivec2(i % 8u, i / 8u) * 2) >> level;
	o.v[k + 4u] = texelFetch(clamped, texel, level);
	o.v[k + 5u] = texelFetch(plain, texel, level);
	o.v[k + 6u] = textureGather(clamped, uv, 1);
	o.v[k + 7u] = textureGather(plain, uv, 1);
}
