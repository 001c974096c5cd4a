#version 450
// VK_EXT_descriptor_buffer: every descriptor type read from sets in
// descriptor buffers. Set 0 (a descriptor buffer) holds one of each
// resource, set 1 an embedded immutable sampler, set 2 (a push descriptor
// set) the output. Invocation i (16 of them, texel t = (i % 4, i / 4))
// writes Out.v[i * 8 + k]:
//   k = 0: params.add[i / 4][i % 4]              (uniform buffer)
//   k = 1: words[0].v[i] + words[1].v[i]         (storage buffer array)
//   k = 2: texelFetch(texels, i).x               (uniform texel buffer)
//   k = 3: imageLoad(storage_texels, i).x        (storage texel buffer; then stores i * 3)
//   k = 4: texelFetch(image, t, 0).x             (sampled image)
//   k = 5: textureLod(combined, t's center).x    (combined image sampler)
//   k = 6: the sampled image through the embedded sampler at t's center
//   k = 7: imageLoad(storage_image, t).x + inline_block.v[i % 4]
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform Params { uvec4 add[4]; } params;
layout(set = 0, binding = 1) readonly buffer Words { uint v[]; } words[2];
layout(set = 0, binding = 2) uniform utextureBuffer texels;
layout(set = 0, binding = 3, r32ui) uniform uimageBuffer storage_texels;
layout(set = 0, binding = 4) uniform utexture2D image;
layout(set = 0, binding = 5) uniform usampler2D combined;
layout(set = 0, binding = 6, r32ui) uniform readonly uimage2D storage_image;
layout(set = 0, binding = 7) uniform Inline { uvec4 v; } inline_block;
layout(set = 1, binding = 0) uniform sampler embedded;
layout(set = 2, binding = 0) buffer Out { uint v[]; } result;

void main() {
	uint i = gl_LocalInvocationIndex;
	ivec2 t = ivec2(i % 4u, i / 4u);
	vec2 uv = (vec2(t) + 0.5) / 4.0;
	result.v[i * 8u + 0u] = params.add[i / 4u][i % 4u];
	result.v[i * 8u + 1u] = words[0].v[i] + words[1].v[i];
	result.v[i * 8u + 2u] = texelFetch(texels, int(i)).x;
	result.v[i * 8u + 3u] = imageLoad(storage_texels, int(i)).x;
	imageStore(storage_texels, int(i), uvec4(i * 3u));
	result.v[i * 8u + 4u] = texelFetch(image, t, 0).x;
	result.v[i * 8u + 5u] = textureLod(combined, uv, 0.0).x;
	result.v[i * 8u + 6u] = textureLod(usampler2D(image, embedded), uv, 0.0).x;
	result.v[i * 8u + 7u] = imageLoad(storage_image, t).x + inline_block.v[i % 4u];
}
