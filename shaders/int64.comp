#version 450
// 64-bit integers: arithmetic, shifts across the word boundary, comparisons,
// conversions, and their layout in buffers.
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer A { uint64_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { i64vec2 b[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint64_t o[]; };
layout(set = 0, binding = 3) writeonly buffer Out32 { uint o32[]; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	uint64_t x = a[i];
	i64vec2 y = b[i];
	uint base = i * 12u;
	o[base + 0u] = x + uint64_t(y.x);
	o[base + 1u] = x - uint64_t(y.y);
	o[base + 2u] = x * 0x9E3779B97F4A7C15ul;
	o[base + 3u] = y.y != 0l ? uint64_t(y.x / y.y) : 0ul;
	o[base + 4u] = x % uint64_t(i + 3u);
	o[base + 5u] = x << ((i * 5u) & 63u);
	o[base + 6u] = uint64_t(y.x >> ((i * 3u) & 63u));
	o[base + 7u] = x >> ((i * 7u) & 63u);
	o[base + 8u] = uint64_t(min(y.x, y.y));
	o[base + 9u] = max(x, 12345678901ul);
	o[base + 10u] = uint64_t(int64_t(int(i) - 8));
	o[base + 11u] = uint64_t(int64_t(float(y.x)));
	o32[i * 4u + 0u] = uint(x < uint64_t(y.x)) | (uint(y.x < y.y) << 1) | (uint(x == 0ul) << 2);
	o32[i * 4u + 1u] = uint(x >> 32);
	o32[i * 4u + 2u] = unpackUint2x32(x).y;
	o32[i * 4u + 3u] = uint(y.x);
}
