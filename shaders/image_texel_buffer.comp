#version 450
// Texel buffers: a uniform texel buffer fetched, a storage texel buffer
// written, an R32_UINT storage texel buffer updated with atomics, sizes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out {
	vec4 fetched[64];
	uvec4 sizes;
	vec4 outside;
	uvec4 read_back[64];
} o;
layout(set = 0, binding = 1) uniform samplerBuffer uniform_texels;        // RGBA8_UNORM, 64 texels
layout(set = 0, binding = 2, rgba32f) uniform imageBuffer float_texels;    // RGBA32F, 64 texels
layout(set = 0, binding = 3, r32ui) uniform uimageBuffer counters;         // R32_UINT, 8 texels
layout(set = 0, binding = 4, rgba16ui) uniform uimageBuffer small_texels;  // RGBA16_UINT, 64 texels

void main() {
	int i = int(gl_GlobalInvocationID.x);
	o.fetched[i] = texelFetch(uniform_texels, 63 - i);
	imageStore(float_texels, i, vec4(i, -float(i), 0.5, 2.0 + i));
	imageStore(float_texels, i + 64, vec4(99.0));  // outside: dropped
	imageAtomicAdd(counters, i % 8, uint(i));
	imageAtomicMax(counters, 8 + i, 1u);  // outside: dropped
	o.read_back[i] = imageLoad(small_texels, i);
	imageStore(small_texels, i, uvec4(i, i * 2, 0x2345, 7));
	if (i == 0) {
		o.sizes = uvec4(textureSize(uniform_texels), imageSize(float_texels), imageSize(counters),
		                imageSize(small_texels));
		o.outside = texelFetch(uniform_texels, 64);
	}
}
