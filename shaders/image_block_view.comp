#version 450
// Uncompressed views of BC1 images (VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT):
// each texel of an R32G32_UINT view is one 8-byte block. Sampled with
// normalized coordinates at block centers (which depend on the view's
// extent in blocks), fetched, sized, and stored
// through a storage view of another BC1 image, mirrored in x.
layout(local_size_x = 5, local_size_y = 3) in;
layout(set = 0, binding = 0) buffer Out {
	ivec4 sizes;       // textureSize of the views of levels 0 and 1
	ivec4 store_size;  // imageSize, and textureSize of the storage image's view
	uvec4 level0[15];  // texture (xy) and texelFetch (zw) of level 0's blocks
	uvec4 level1[15];  // texture of level 1 (3x2 blocks), then zero
} o;
layout(set = 0, binding = 1) uniform usampler2D blocks;        // level 0 of a 20x12 BC1 image: 5x3 blocks
layout(set = 0, binding = 2, rg32ui) uniform uimage2D target;  // a 20x12 BC1 image: 5x3 blocks
layout(set = 0, binding = 3) uniform usampler2D level1;        // level 1 of the first: 3x2 blocks
void main() {
	ivec2 p = ivec2(gl_LocalInvocationID.xy);
	int i = p.y * 5 + p.x;
	uvec2 sampled = texture(blocks, (vec2(p) + 0.5) / vec2(5.0, 3.0)).xy;
	o.level0[i] = uvec4(sampled, texelFetch(blocks, p, 0).xy);
	o.level1[i] = p.x < 3 && p.y < 2 ? texture(level1, (vec2(p) + 0.5) / vec2(3.0, 2.0)) : uvec4(0);
	imageStore(target, ivec2(4 - p.x, p.y), uvec4(sampled, 0, 0));
	if (i == 0) {
		o.sizes = ivec4(textureSize(blocks, 0), textureSize(level1, 0));
		o.store_size = ivec4(imageSize(target), 0, 0);
	}
}
