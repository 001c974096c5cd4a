#version 450
// VK_EXT_mutable_descriptor_type: binding 0 of set 0 is one mutable array of
// four descriptors (a storage buffer, a uniform texel buffer, a storage
// image, a storage buffer), read through variables of each kind at that
// binding. Invocation i (16 of them) writes Out.v[i * 4 + k]:
//   k = 0: words[0].v[i]       k = 1: texelFetch(texels[1], i).x
//   k = 2: the storage image's texel (i % 4, i / 4)
//   k = 3: words[3].v[i]
// then doubles words[3].v[i] plus one and stores i * 7 into the image.
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Words { uint v[]; } words[4];
layout(set = 0, binding = 0) uniform utextureBuffer texels[4];
layout(set = 0, binding = 0, r32ui) uniform uimage2D images[4];
layout(set = 0, binding = 1) buffer Out { uint v[]; } result;

void main() {
	uint i = gl_LocalInvocationIndex;
	ivec2 texel = ivec2(i % 4u, i / 4u);
	result.v[i * 4u + 0u] = words[0].v[i];
	result.v[i * 4u + 1u] = texelFetch(texels[1], int(i)).x;
	result.v[i * 4u + 2u] = imageLoad(images[2], texel).x;
	result.v[i * 4u + 3u] = words[3].v[i];
	words[3].v[i] = words[3].v[i] * 2u + 1u;
	imageStore(images[2], texel, uvec4(i * 7u));
}
