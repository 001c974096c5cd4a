#version 450
// 64-bit integers beyond arithmetic (FindILsb/FindUMsb/FindSMsb and
// OpBitCount on 64-bit values are in int64_ops.spvasm: not valid Vulkan
// SPIR-V, or not taken by lavapipe),
// bit-field insert/extract, bit count and reverse, extended arithmetic
// (also on 8/16-bit values), conversions to and from every width, edges.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer A { uint64_t a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint64_t o[]; };

const uint kOut = 22u;

void main() {
	uint i = gl_GlobalInvocationID.x;
	uint64_t x = a[2u * i], y = a[2u * i + 1u];
	int64_t sx = int64_t(x), sy = int64_t(y);
	uint base = i * kOut;
	o[base + 0u] = uint64_t(int64_t(int(sx >> 40)));
	o[base + 1u] = uint64_t(findLSB(uint(x)));
	o[base + 2u] = uint64_t(findLSB(int(sx >> 20)));
	o[base + 3u] = uint64_t(findLSB(uint(x >> 32)));
	o[base + 4u] = uint64_t(bitCount(uint(x)) + bitCount(uint(x >> 32)));
	o[base + 5u] = x ^ (y >> 1);
	uint off = uint(y & 63ul), cnt = uint((y >> 8) & 63ul);
	cnt = min(cnt, 64u - off);
	o[base + 6u] = x >> off;
	o[base + 7u] = uint64_t(sx >> (63u - cnt));
	o[base + 8u] = x << cnt;
	o[base + 9u] = uint64_t(sy != 0l ? sx / sy : 0l);
	o[base + 10u] = uint64_t(sy != 0l ? sx % sy : 0l);
	o[base + 11u] = x << (y & 63ul);
	o[base + 12u] = uint64_t(sx >> (y & 63ul));
	o[base + 13u] = uint64_t(int8_t(sx)) ^ (uint64_t(uint16_t(x)) << 16) ^ (uint64_t(int32_t(sx)) << 1);
	o[base + 14u] = uint64_t(int64_t(float(sx >> 2)));
	o[base + 15u] = uint64_t(float16_t(x) < float16_t(1000.0) ? 1u : 0u) + uint64_t(float(x) == float(y) ? 2u : 0u);
	o[base + 16u] = uint64_t(abs(sx)) + uint64_t(sign(sy));
	o[base + 17u] = uint64_t(clamp(sx, -1000l, sy)) ^ clamp(x, 7ul, y | 8ul);
	o[base + 18u] = uint64_t(x == y) | (uint64_t(sx < sy) << 1) | (uint64_t(x >= y) << 2) | (uint64_t(sx >= sy) << 3);
	o[base + 19u] = uint64_t(min(sx, sy)) ^ max(x, y);
	o[base + 20u] = ~x & (y | 0xff00ff00ff00ff00ul);
	o[base + 21u] = uint64_t(-sx);
}
