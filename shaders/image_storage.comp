#version 450
// Storage images: 2D, 2D array, 3D and cube loads and stores with declared
// formats (writes also without one: the view's format decides), imageSize,
// and atomics on R32_UINT / R32_SINT images.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) buffer Out {
	vec4 loaded[256];
	ivec4 sizes[4];
	uint old[256];
} o;
layout(set = 0, binding = 1, rgba8) uniform readonly image2D src;      // 16x16 RGBA8_UNORM
layout(set = 0, binding = 2) uniform writeonly image2D dst;            // 16x16 RGBA16F, no format
layout(set = 0, binding = 3, r32f) uniform image2DArray layers;        // 8x8x3 R32F
layout(set = 0, binding = 4, rgba8_snorm) uniform image3D volume;      // 4x4x4 RGBA8_SNORM
layout(set = 0, binding = 5, rgba8ui) uniform uimageCube cube;         // 8x8 cube RGBA8_UINT
layout(set = 0, binding = 6, r32ui) uniform uimage2D counters;         // 8x4 R32_UINT
layout(set = 0, binding = 7, r32i) uniform iimage2D signed_counters;   // 8x4 R32_SINT

void main() {
	ivec2 p = ivec2(gl_GlobalInvocationID.xy);
	int index = p.y * 16 + p.x;
	vec4 c = imageLoad(src, p);
	o.loaded[index] = c;
	imageStore(dst, p, c.bgra * 2.0 - vec4(p, 0, 0) / 8.0);
	imageStore(dst, p + ivec2(16, 0), vec4(1.0));  // outside: dropped
	if (p.x < 8 && p.y < 8) {
		float v = imageLoad(layers, ivec3(p, p.x % 3)).x;
		imageStore(layers, ivec3(p, (p.x + 1) % 3), vec4(v * 0.5 + float(index)));
		uvec4 face = imageLoad(cube, ivec3(p, (p.x + p.y) % 3));
		imageStore(cube, ivec3(7 - p.x, p.y, 3 + (p.x + p.y) % 3), face.wzyx % 200u + uvec4(1, 2, 3, 4));
	}
	if (p.x < 4 && p.y < 4) {
		for (int z = 0; z < 4; ++z) {
			vec4 t = imageLoad(volume, ivec3(p, z));
			imageStore(volume, ivec3(p, 3 - z), -t.yxwz);
		}
	}
	ivec2 q = p % 4;
	o.old[index] = imageAtomicAdd(counters, q, 1u) & 0u;  // order differs between drivers: keep only the sum
	imageAtomicMax(counters, ivec2(5, 1), uint(index));
	imageAtomicMin(signed_counters, q, -index);
	imageAtomicOr(signed_counters, ivec2(6, 2), 1 << (index % 31));
	imageAtomicAdd(counters, ivec2(8, 0), 1u);  // outside: dropped
	imageAtomicCompSwap(counters, ivec2(7, 3), 0u, uint(index) + 1u);  // one invocation wins: nonzero
	if (index == 0) {
		o.sizes[0] = ivec4(imageSize(src), 0, 0);
		o.sizes[1] = ivec4(imageSize(layers), 0);
		o.sizes[2] = ivec4(imageSize(volume), 0);
		o.sizes[3] = ivec4(imageSize(cube), imageSize(counters));
	}
}
