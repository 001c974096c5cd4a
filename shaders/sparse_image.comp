#version 450
// Reads one layer of a partially resident image through a sampler
// (texelFetch at a level) and, when asked, inverts it through a storage view
// of level 0 (tests/e2e/sparse_image_test.cpp).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform image2DArray storage_view;
layout(set = 0, binding = 1) uniform sampler2DArray sampled_view;
layout(set = 0, binding = 2) buffer Out { uint texels[]; } result;
layout(push_constant) uniform Push {
	ivec2 size;  // of the level
	int layer;
	int level;
	int invert;  // 1: store 1 - texel at level 0
} p;

void main() {
	ivec2 xy = ivec2(gl_GlobalInvocationID.xy);
	if (any(greaterThanEqual(xy, p.size))) return;
	result.texels[xy.y * p.size.x + xy.x] = packUnorm4x8(texelFetch(sampled_view, ivec3(xy, p.layer), p.level));
	if (p.invert != 0) {
		vec4 v = imageLoad(storage_view, ivec3(xy, p.layer));
		imageStore(storage_view, ivec3(xy, p.layer), vec4(1.0) - v);
	}
}
