#version 450
#extension GL_ARB_sparse_texture2 : require
// The residency codes of sparse lookups (OpImageSparseFetch,
// OpImageSparseSampleExplicitLod, OpImageSparseRead) of one level of a
// partially resident image, texel by texel, with the fetched texel
// (tests/e2e/sparse_image_test.cpp). The sampler is NEAREST and the
// coordinates texel centers, so each lookup reads one texel.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform image2DArray storage_view;
layout(set = 0, binding = 1) uniform sampler2DArray sampled_view;
layout(set = 0, binding = 2) buffer Out { uvec4 texels[]; } result;
layout(push_constant) uniform Push {
	ivec2 size;  // of the level
	int layer;
	int level;
} p;

void main() {
	ivec2 xy = ivec2(gl_GlobalInvocationID.xy);
	if (any(greaterThanEqual(xy, p.size))) return;
	vec4 fetched, sampled, loaded;
	int fetch = sparseTexelFetchARB(sampled_view, ivec3(xy, p.layer), p.level, fetched);
	vec2 uv = (vec2(xy) + 0.5) / vec2(p.size);
	int sample_code = sparseTextureLodARB(sampled_view, vec3(uv, p.layer), float(p.level), sampled);
	int load = p.level == 0 ? sparseImageLoadARB(storage_view, ivec3(xy, p.layer), loaded) : 0;
	result.texels[xy.y * p.size.x + xy.x] =
	    uvec4(sparseTexelsResidentARB(fetch) ? 1u : 0u, sparseTexelsResidentARB(sample_code) ? 1u : 0u,
	          p.level == 0 && sparseTexelsResidentARB(load) ? 1u : 0u, packUnorm4x8(fetched));
}
