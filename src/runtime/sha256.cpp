#include "runtime/sha256.h"

#include <algorithm>
#include <cstring>

#include <cpuid.h>
#include <immintrin.h>

namespace tessera {

namespace {

// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube
// roots of the first 64 primes.
constexpr uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

constexpr uint32_t Rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

}  // namespace

namespace sha256 {

void CompressPortable(uint32_t state[8], const uint8_t* blocks, size_t count) {
	for (; count; --count, blocks += 64) {
		const uint8_t* block = blocks;
		uint32_t w[64];
		for (int i = 0; i < 16; ++i)
			w[i] = uint32_t(block[4 * i]) << 24 | uint32_t(block[4 * i + 1]) << 16 | uint32_t(block[4 * i + 2]) << 8 |
			       block[4 * i + 3];
		for (int i = 16; i < 64; ++i) {
			uint32_t s0 = Rotr(w[i - 15], 7) ^ Rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
			uint32_t s1 = Rotr(w[i - 2], 17) ^ Rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
			w[i] = w[i - 16] + s0 + w[i - 7] + s1;
		}
		uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
		uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
		for (int i = 0; i < 64; ++i) {
			uint32_t t1 = h + (Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[i] + w[i];
			uint32_t t2 = (Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
			h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
		}
		state[0] += a, state[1] += b, state[2] += c, state[3] += d;
		state[4] += e, state[5] += f, state[6] += g, state[7] += h;
	}
}

bool HasShaExtensions() {
	// CPUID leaf 7 EBX bit 29: SHA; leaf 1 ECX bit 19: SSE4.1. (Read
	// directly: clang's __builtin_cpu_supports has no "sha".)
	static const bool has = [] {
		unsigned a = 0, b = 0, c = 0, d = 0;
		if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19))) return false;
		return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
	}();
	return has;
}

// SHA256RNDS2 runs two rounds on the state split as (A, B, E, F) and
// (C, D, G, H), each 128-bit value holding its first-named word in the top
// lane; SHA256MSG1 and SHA256MSG2 compute the message schedule four words
// at a time: w[i] = w[i-16] + s0(w[i-15]) + w[i-7] + s1(w[i-2]).
__attribute__((target("sha,sse4.1"))) void CompressShaExtensions(uint32_t state[8], const uint8_t* blocks,
                                                                 size_t count) {
	// Words are big-endian in the block: reverse each one's bytes.
	const __m128i swap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
	const __m128i abcd = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));      // lanes a, b, c, d
	const __m128i efgh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));  // lanes e, f, g, h
	const __m128i cdab = _mm_shuffle_epi32(abcd, 0xb1);                                 // lanes b, a, d, c
	const __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1b);                                 // lanes h, g, f, e
	__m128i abef = _mm_alignr_epi8(cdab, hgfe, 8);                                      // lanes f, e, b, a
	__m128i cdgh = _mm_blend_epi16(hgfe, cdab, 0xf0);                                   // lanes h, g, d, c
	for (; count; --count, blocks += 64) {
		const __m128i abef_in = abef, cdgh_in = cdgh;
		__m128i w[16];  // w[k]: message words 4k .. 4k + 3
		for (int k = 0; k < 4; ++k)
			w[k] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 16 * k)), swap);
		for (int k = 4; k < 16; ++k) {
			const __m128i partial = _mm_add_epi32(_mm_sha256msg1_epu32(w[k - 4], w[k - 3]),
			                                      _mm_alignr_epi8(w[k - 1], w[k - 2], 4));  // + w[i-7]
			w[k] = _mm_sha256msg2_epu32(partial, w[k - 1]);
		}
		for (int k = 0; k < 16; ++k) {
			const __m128i wk = _mm_add_epi32(w[k], _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRound + 4 * k)));
			// Two rounds on the low two words, two on the high: each call's
			// result is the new (A, B, E, F); the old one is the new (C, D, G, H).
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
		}
		abef = _mm_add_epi32(abef, abef_in);
		cdgh = _mm_add_epi32(cdgh, cdgh_in);
	}
	const __m128i feba = _mm_shuffle_epi32(abef, 0x1b);  // lanes a, b, e, f
	const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);  // lanes g, h, c, d
	_mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_blend_epi16(feba, dchg, 0xf0));
	_mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}

}  // namespace sha256

Sha256::Sha256()
    : state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void Sha256::Compress(const uint8_t* blocks, size_t count) {
	if (sha256::HasShaExtensions())
		sha256::CompressShaExtensions(state_, blocks, count);
	else
		sha256::CompressPortable(state_, blocks, count);
}

void Sha256::Update(std::span<const uint8_t> bytes) {
	length_ += bytes.size();
	const uint8_t* in = bytes.data();
	size_t size = bytes.size();
	if (buffered_) {
		size_t take = std::min(size, 64 - buffered_);
		std::memcpy(buffer_ + buffered_, in, take);
		buffered_ += take, in += take, size -= take;
		if (buffered_ < 64) return;
		Compress(buffer_, 1);
		buffered_ = 0;
	}
	if (size >= 64) {
		Compress(in, size / 64);
		in += size / 64 * 64, size %= 64;
	}
	if (size) std::memcpy(buffer_, in, size);
	buffered_ = size;
}

void Sha256::UpdateU32(uint32_t value) {
	const uint8_t bytes[4] = {uint8_t(value), uint8_t(value >> 8), uint8_t(value >> 16), uint8_t(value >> 24)};
	Update({bytes, 4});
}

Sha256Digest Sha256::Finish() {
	// FIPS 180-4 §5.1.1: a 1 bit, zeros to 56 mod 64 bytes, the bit length big-endian.
	uint64_t bits = length_ * 8;
	uint8_t pad[72] = {0x80};
	size_t pad_size = (buffered_ < 56 ? 56 : 120) - buffered_;
	for (int i = 0; i < 8; ++i) pad[pad_size + i] = uint8_t(bits >> (56 - 8 * i));
	Update({pad, pad_size + 8});
	Sha256Digest digest;
	for (int i = 0; i < 8; ++i)
		for (int k = 0; k < 4; ++k) digest[4 * i + k] = uint8_t(state_[i] >> (24 - 8 * k));
	return digest;
}

}  // namespace tessera
