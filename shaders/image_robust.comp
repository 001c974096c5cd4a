#version 450
// robustImageAccess (Vulkan 1.3 §16.x "Texel Replacement"): fetches and
// loads outside the image read zero (R32_UINT's missing alpha reads 1),
// stores and atomics outside it change nothing.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out {
	vec4 fetched[4];
	vec4 loaded[4];
	uvec4 loaded_uint[4];
} o;
layout(set = 0, binding = 1) uniform sampler2D tex;               // 4x4 RGBA8_UNORM
layout(set = 0, binding = 2, rgba8) uniform image2D img;          // 4x4 RGBA8_UNORM
layout(set = 0, binding = 3, r32ui) uniform uimage2D counters;    // 4x4 R32_UINT

void main() {
	const ivec2 outside[4] = ivec2[](ivec2(-1, 0), ivec2(4, 0), ivec2(0, 4), ivec2(100, -100));
	int i = int(gl_GlobalInvocationID.x);
	o.fetched[i] = texelFetch(tex, outside[i], 0);
	o.loaded[i] = imageLoad(img, outside[i]);
	o.loaded_uint[i] = imageLoad(counters, outside[i]);
	imageStore(img, outside[i], vec4(1.0));
	imageAtomicAdd(counters, outside[i], 5u);
}
