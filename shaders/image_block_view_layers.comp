#version 450
// Uncompressed 2D array views of two-layer BC1 images (VK_KHR_maintenance6's
// blockTexelViewCompatibleMultipleLayers): each texel of an R32G32_UINT
// view is one 8-byte block of its layer. Sampled at block centres, fetched,
// sized, and stored through a storage view of another such image, the
// layers swapped.
layout(local_size_x = 5, local_size_y = 3, local_size_z = 2) in;
layout(set = 0, binding = 0) buffer Out {
	ivec4 sizes;       // textureSize, then imageSize of the storage view
	ivec4 store_size;
	uvec4 texels[30];  // texture (xy) and texelFetch (zw) of each layer's blocks
} o;
layout(set = 0, binding = 1) uniform usampler2DArray blocks;     // 20x12 BC1, 2 layers: 5x3 blocks each
layout(set = 0, binding = 2, rg32ui) uniform uimage2DArray target;  // the same shape
void main() {
	ivec3 p = ivec3(gl_LocalInvocationID);
	int i = (p.z * 3 + p.y) * 5 + p.x;
	uvec2 sampled = texture(blocks, vec3((vec2(p.xy) + 0.5) / vec2(5.0, 3.0), float(p.z))).xy;
	o.texels[i] = uvec4(sampled, texelFetch(blocks, p, 0).xy);
	imageStore(target, ivec3(p.xy, 1 - p.z), uvec4(sampled, 0, 0));
	if (i == 0) {
		o.sizes = ivec4(textureSize(blocks, 0), 0);
		o.store_size = ivec4(imageSize(target), 0);
	}
}
