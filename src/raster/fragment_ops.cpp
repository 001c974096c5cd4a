#include "raster/fragment_ops.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

#include "runtime/cpu_level.h"
#include "texture/resolve.h"
#include "texture/texel.h"

namespace tessera::raster {

namespace {

// ---- depth and stencil -----------------------------------------------------

template <VkCompareOp kOp, typename T>
inline bool Compare(T ref, T stored) {
	switch (kOp) {
	case VK_COMPARE_OP_NEVER: return false;
	case VK_COMPARE_OP_LESS: return ref < stored;
	case VK_COMPARE_OP_EQUAL: return ref == stored;
	case VK_COMPARE_OP_LESS_OR_EQUAL: return ref <= stored;
	case VK_COMPARE_OP_GREATER: return ref > stored;
	case VK_COMPARE_OP_NOT_EQUAL: return ref != stored;
	case VK_COMPARE_OP_GREATER_OR_EQUAL: return ref >= stored;
	default: return true;
	}
}

bool CompareDynamic(VkCompareOp op, uint32_t ref, uint32_t stored) {
	switch (op) {
	case VK_COMPARE_OP_NEVER: return false;
	case VK_COMPARE_OP_LESS: return ref < stored;
	case VK_COMPARE_OP_EQUAL: return ref == stored;
	case VK_COMPARE_OP_LESS_OR_EQUAL: return ref <= stored;
	case VK_COMPARE_OP_GREATER: return ref > stored;
	case VK_COMPARE_OP_NOT_EQUAL: return ref != stored;
	case VK_COMPARE_OP_GREATER_OR_EQUAL: return ref >= stored;
	default: return true;
	}
}

// Three builds of a hot path, Body::Run<kFma>(args...) (always_inline, so
// it takes the instruction set of the function it lands in): for
// x86-64-v4 (AVX-512) and v3 (AVX2), both with FMA, and for the baseline
// (SSE2) without. ForHost gives the one for this CPU, as a Fn. They are
// plain functions, not target_clones: an ifunc's address in a table is
// resolved while the driver loads, before a sanitizer's runtime is ready
// (the ThreadSanitizer build crashed in dlopen so).
template <typename Body, typename Fn>
struct PerLevel;
template <typename Body, typename R, typename... Args>
struct PerLevel<Body, R (*)(Args...)> {
	__attribute__((target("arch=x86-64-v4"))) static R V4(Args... args) { return Body::template Run<true>(args...); }
	__attribute__((target("arch=x86-64-v3"))) static R V3(Args... args) { return Body::template Run<true>(args...); }
	static R Baseline(Args... args) { return Body::template Run<false>(args...); }
	static R (*ForHost())(Args...) {
		switch (runtime::HostCpuLevel()) {
		case runtime::CpuLevel::kV4: return &V4;
		case runtime::CpuLevel::kV3: return &V3;
		default: return &Baseline;
		}
	}
};

// The same rounding as texture::PackDepth (round to nearest, clamped).
// Selects rather than branches, and a signed conversion (the value is at
// most kMax), so that DepthTestRun's row loop vectorizes: as a scalar loop
// it ran one pixel at a time with a load each, which cost glmark2's
// full-screen effect2d frames a sixth of their time.
template <uint32_t kBits>
inline uint32_t DepthToUnorm(float z) {
	constexpr uint32_t kMax = (1u << kBits) - 1;
	const double scaled = double(z) * double(kMax) + 0.5;
	const double v = z > 0.0f ? (z >= 1.0f ? double(kMax) : scaled) : 0.0;
	return uint32_t(int32_t(v));
}

struct DepthD16 {
	using Stored = uint16_t;
	static uint16_t Convert(float z) { return uint16_t(DepthToUnorm<16>(z)); }
};
struct DepthD24 {
	using Stored = uint32_t;  // X8_D24_UNORM_PACK32: depth in the low 24 bits
	static uint32_t Convert(float z) { return DepthToUnorm<24>(z); }
};
struct DepthD32 {
	using Stored = float;
	static float Convert(float z) { return std::clamp(z, 0.0f, 1.0f); }  // no VK_EXT_depth_range_unrestricted
};
struct DepthD32Unrestricted {
	using Stored = float;
	static float Convert(float z) { return z; }
};

inline uint8_t* SampleAddress(uint8_t* base, uint64_t row_pitch, uint32_t element_size, uint32_t samples, int32_t x,
                              int32_t y, uint32_t bit) {
	const uint32_t shift = __builtin_ctz(samples);  // 1 or 4 samples: no division per sample
	uint32_t lane = bit >> shift, sample = bit & (samples - 1);
	return base + uint64_t(y + int32_t(lane >> 1)) * row_pitch +
	       (uint64_t(x + int32_t(lane & 1)) * samples + sample) * element_size;
}

// Hot path: per covered sample of a quad.
template <VkCompareOp kOp, typename Kind, bool kWrite>
uint32_t DepthTest(const DepthTarget& t, uint32_t samples, int32_t x, int32_t y, const float* depth,
                   uint32_t coverage) {
	using Stored = typename Kind::Stored;
	uint32_t pass = 0;
	if (samples == 1 && coverage == 0xf) {
		// A whole single-sample quad, the common case: two rows of two
		// samples, compared and stored without a loop over the mask (a
		// failing lane stores back what it read; the tile is this worker's).
		uint8_t* row[2] = {t.base + uint64_t(y) * t.row_pitch + uint64_t(x) * sizeof(Stored),
		                   t.base + uint64_t(y + 1) * t.row_pitch + uint64_t(x) * sizeof(Stored)};
		Stored stored[4], ref[4];
		std::memcpy(&stored[0], row[0], 2 * sizeof(Stored));
		std::memcpy(&stored[2], row[1], 2 * sizeof(Stored));
		for (uint32_t l = 0; l < 4; ++l) {
			ref[l] = Kind::Convert(depth[l]);
			Stored s = stored[l];
			if constexpr (std::is_same_v<Kind, DepthD24>) s &= 0xffffff;
			const bool ok = Compare<kOp>(ref[l], s);
			pass |= uint32_t(ok) << l;
			if constexpr (kWrite) stored[l] = ok ? ref[l] : stored[l];
		}
		if constexpr (kWrite) {
			if (pass) {
				std::memcpy(row[0], &stored[0], 2 * sizeof(Stored));
				std::memcpy(row[1], &stored[2], 2 * sizeof(Stored));
			}
		}
		return pass;
	}
	for (uint32_t m = coverage; m; m &= m - 1) {
		uint32_t bit = __builtin_ctz(m);
		uint8_t* p = SampleAddress(t.base, t.row_pitch, sizeof(Stored), samples, x, y, bit);
		Stored stored;
		std::memcpy(&stored, p, sizeof(Stored));
		Stored ref = Kind::Convert(depth[bit]);
		if constexpr (std::is_same_v<Kind, DepthD24>) stored &= 0xffffff;
		if (Compare<kOp>(ref, stored)) {
			pass |= 1u << bit;
			if constexpr (kWrite) std::memcpy(p, &ref, sizeof(Stored));
		}
	}
	return pass;
}

// DepthTest's whole-quad case over a run of quads, a row at a time: the
// pixels of a row are contiguous, so the compare and the store vectorize
// (a failing pixel stores back what it read, as there).
template <VkCompareOp kOp, typename Kind, bool kWrite>
struct DepthTestRun {
	template <bool>  // (no FMA to use)
	[[gnu::always_inline]] static void Run(const DepthTarget& t, int32_t x, int32_t y, uint32_t quads,
	                                       const float* depth, uint32_t* pass) {
		using Stored = typename Kind::Stored;
		const uint32_t n = 2 * quads;  // at most a tile's width
		uint8_t ok[2][kTileSize];
		for (uint32_t r = 0; r < 2; ++r) {
			uint8_t* __restrict row = t.base + uint64_t(y + int32_t(r)) * t.row_pitch + uint64_t(x) * sizeof(Stored);
			const float* __restrict z = depth + 2 * r;  // pixel i: lane 2r + i % 2 of quad i / 2
			uint8_t* __restrict row_ok = ok[r];
			// The references first (pixel 2k + d is lane 2r + d of quad k),
			// then the compare and store as a plain loop over the row, which
			// vectorizes (as one loop with the strided reads it stayed
			// scalar: a load of the stored depth a pixel, a sixth of
			// glmark2's full-screen effect2d frames).
			Stored ref[kTileSize];
			for (uint32_t k = 0; k < quads; ++k) {
				ref[2 * k] = Kind::Convert(z[4 * k]);
				ref[2 * k + 1] = Kind::Convert(z[4 * k + 1]);
			}
			for (uint32_t i = 0; i < n; ++i) {
				Stored stored;
				std::memcpy(&stored, row + i * sizeof(Stored), sizeof(Stored));
				Stored s = stored;
				if constexpr (std::is_same_v<Kind, DepthD24>) s &= 0xffffff;
				const bool passed = Compare<kOp>(ref[i], s);
				row_ok[i] = passed;
				if constexpr (kWrite) {
					const Stored v = passed ? ref[i] : stored;
					std::memcpy(row + i * sizeof(Stored), &v, sizeof(Stored));
				}
			}
		}
		for (uint32_t k = 0; k < quads; ++k)
			pass[k] = uint32_t(ok[0][2 * k]) | uint32_t(ok[0][2 * k + 1]) << 1 | uint32_t(ok[1][2 * k]) << 2 |
			          uint32_t(ok[1][2 * k + 1]) << 3;
	}
};

// Each compare op's instance, indexed by the op (VK_COMPARE_OP_NEVER to
// VK_COMPARE_OP_ALWAYS are 0 to 7).
template <typename Kind, bool kWrite, size_t... kOp>
constexpr std::array<DepthTestFn, 8> DepthTests(std::index_sequence<kOp...>) {
	return {&DepthTest<VkCompareOp(kOp), Kind, kWrite>...};
}
template <typename Kind, bool kWrite, size_t... kOp>
std::array<DepthRunFn, 8> DepthRuns(std::index_sequence<kOp...>) {
	return {PerLevel<DepthTestRun<VkCompareOp(kOp), Kind, kWrite>, DepthRunFn>::ForHost()...};
}

template <typename Kind>
void PickDepthTest(VkCompareOp op, bool write, FragmentOps& ops) {
	constexpr auto kOps = std::make_index_sequence<8>();
	ops.depth_test = write ? DepthTests<Kind, true>(kOps)[op] : DepthTests<Kind, false>(kOps)[op];
	ops.depth_test_run = write ? DepthRuns<Kind, true>(kOps)[op] : DepthRuns<Kind, false>(kOps)[op];
}

// Vulkan 1.3 §29.7: stencil ops on an 8-bit value.
uint8_t StencilOp(VkStencilOp op, uint8_t s, uint8_t reference) {
	switch (op) {
	case VK_STENCIL_OP_KEEP: return s;
	case VK_STENCIL_OP_ZERO: return 0;
	case VK_STENCIL_OP_REPLACE: return reference;
	case VK_STENCIL_OP_INCREMENT_AND_CLAMP: return s == 255 ? 255 : s + 1;
	case VK_STENCIL_OP_DECREMENT_AND_CLAMP: return s == 0 ? 0 : s - 1;
	case VK_STENCIL_OP_INVERT: return uint8_t(~s);
	case VK_STENCIL_OP_INCREMENT_AND_WRAP: return uint8_t(s + 1);
	case VK_STENCIL_OP_DECREMENT_AND_WRAP: return uint8_t(s - 1);
	default: return s;
	}
}

void StencilWrite(uint8_t* p, const StencilFaceState& f, VkStencilOp op) {
	uint8_t s = *p;
	uint8_t n = StencilOp(op, s, uint8_t(f.reference));
	uint8_t mask = uint8_t(f.write_mask);
	*p = uint8_t((s & ~mask) | (n & mask));
}

// ---- color -----------------------------------------------------------------

// std::clamp to [0, 1] (NaN stays NaN) in the min/max form the vectorizer
// maps to SIMD min and max.
inline float Clamp01(float v) { return std::min(std::max(v, 0.0f), 1.0f); }
// The value an 8-bit UNORM store rounds: clamped to [0, 1], NaN to 0 as
// texture::FloatToUnorm does (Clamp01 keeps a NaN, which the conversion to
// an integer below would turn into 0x80000000).
inline float UnormStoreValue(float v) { return v > 0.0f ? std::min(v, 1.0f) : 0.0f; }

// As texture::PackTexel: clamped (NaN to 0), rounded to nearest.
inline uint8_t FloatToUnorm8(float f) { return uint8_t(RoundUnorm8(UnormStoreValue(f))); }

struct Unorm8Table {
	float v[256];
	Unorm8Table() {
		for (int i = 0; i < 256; ++i) v[i] = float(double(i) / 255.0);
	}
};
const Unorm8Table kUnorm8;

// The table's values are also float(i) / 255.0f, which vectorizes where the
// lookup would not.
constexpr bool Unorm8DivisionExact() {
	for (int i = 0; i < 256; ++i)
		if (float(double(i) / 255.0) != float(i) / 255.0f) return false;
	return true;
}
static_assert(Unorm8DivisionExact());

// The same values by a product in double, which costs a few multiplies and
// conversions where the division is one slow vdivps a vector of lanes: the
// fused blends unpack each destination component so.
constexpr bool Unorm8ProductExact() {
	for (int i = 0; i < 256; ++i)
		if (float(double(i) * (1.0 / 255.0)) != float(i) / 255.0f) return false;
	return true;
}
static_assert(Unorm8ProductExact());
[[gnu::always_inline]] inline float Unorm8ToFloat(uint32_t byte) { return float(double(byte) * (1.0 / 255.0)); }

// The same values in float with FMA: the product's error is found exactly
// and added back once, which gives the correctly rounded quotient for every
// byte (checked here at compile time).
[[gnu::always_inline]] constexpr float Unorm8ToFloatFma(uint32_t byte) {
	const float x = float(int32_t(byte)), q = x * (1.0f / 255.0f);
	return __builtin_fmaf(__builtin_fmaf(-q, 255.0f, x), 1.0f / 255.0f, q);
}
constexpr bool Unorm8FmaExact() {
	for (uint32_t i = 0; i < 256; ++i)
		if (Unorm8ToFloatFma(i) != float(i) / 255.0f) return false;
	return true;
}
static_assert(Unorm8FmaExact());

// The 8-bit UNORM conversions of the hot paths below, with FMA (kFma: in
// the functions built for x86-64-v3 and v4) or without. Same results.
template <bool kFma>
[[gnu::always_inline]] inline float Unorm8ToFloatAs(uint32_t byte) {
	if constexpr (kFma)
		return Unorm8ToFloatFma(byte);
	else
		return Unorm8ToFloat(byte);
}
template <bool kFma>
[[gnu::always_inline]] inline uint32_t RoundUnorm8As(float x) {
	if constexpr (kFma)
		return texture::RoundUnorm8Fma(x);
	else
		return RoundUnorm8(x);
}

struct GenericCodec {
	static void Unpack(const ColorOps& o, const uint8_t* p, float out[4]) {
		texture::TexelValue v = texture::UnpackTexel(*o.format, p);
		for (int c = 0; c < 4; ++c) out[c] = v.f[c];
	}
	static void Pack(const ColorOps& o, const float in[4], uint8_t* p) {
		texture::TexelValue v;
		for (int c = 0; c < 4; ++c) v.f[c] = in[c];
		texture::PackTexel(*o.format, v, p);
	}
};

// R16G16B16A16_SFLOAT (HDR targets): PackTexel's and UnpackTexel's halves
// (FloatToHalf / HalfToFloat) with their branch-light forms, which give the
// same bits (tests/unit/texture/resolve_test.cpp checks every value).
struct Half4Codec {
	static void Unpack(const ColorOps&, const uint8_t* p, float out[4]) {
		uint16_t h[4];
		std::memcpy(h, p, 8);
		for (int c = 0; c < 4; ++c) out[c] = texture::HalfToFloatFast(h[c]);
	}
	static void Pack(const ColorOps&, const float in[4], uint8_t* p) {
		uint16_t h[4];
		for (int c = 0; c < 4; ++c) h[c] = texture::FloatToHalfFast(in[c]);
		std::memcpy(p, h, 8);
	}
};

// UINT and SINT: the floats carry the shader's 32-bit integers bit for bit,
// saturated to the component's range when stored (Vulkan, Shader
// Interfaces, "Fragment Output Interface": integer outputs are "converted
// to the bit-depth of the target", a value the format cannot represent is
// undefined; the CTS's references saturate, as lavapipe and GPUs do).
// Never blended (§29.13: blending is only defined for float and
// normalized formats); logic ops work on the packed bits.
struct IntegerCodec {
	static void Unpack(const ColorOps& o, const uint8_t* p, float out[4]) {
		texture::TexelValue v = texture::UnpackTexel(*o.format, p);
		std::memcpy(out, v.u, sizeof(v.u));
	}
	static void Pack(const ColorOps& o, const float in[4], uint8_t* p) {
		texture::TexelValue v;
		std::memcpy(v.u, in, sizeof(v.u));
		const bool is_signed = o.format->Numeric() == texture::NumericFormat::SINT;
		for (int c = 0; c < 4; ++c) {
			const int64_t value = is_signed ? int64_t(int32_t(v.u[c])) : int64_t(v.u[c]);
			v.u[c] = uint32_t(std::clamp(value, o.integer_min[c], o.integer_max[c]));
		}
		texture::PackTexel(*o.format, v, p);
	}
};

template <int kR, int kB>  // byte positions of red and blue
struct Unorm8x4Codec {
	static void Unpack(const ColorOps&, const uint8_t* p, float out[4]) {
		out[0] = kUnorm8.v[p[kR]];
		out[1] = kUnorm8.v[p[1]];
		out[2] = kUnorm8.v[p[kB]];
		out[3] = kUnorm8.v[p[3]];
	}
	static void Pack(const ColorOps&, const float in[4], uint8_t* p) {
		p[kR] = FloatToUnorm8(in[0]);
		p[1] = FloatToUnorm8(in[1]);
		p[kB] = FloatToUnorm8(in[2]);
		p[3] = FloatToUnorm8(in[3]);
	}
};
// Lanes of 4 floats to packed 8-bit UNORM words (byte order kR, G, kB, A),
// vectorized like the opaque store.
template <int kR, int kB>
__attribute__((target_clones("avx512f", "avx2", "default"))) void PackUnorm8Lanes(const float* const v[4], uint32_t n,
                                                                                  uint32_t* out) {
	constexpr int kShift[4] = {8 * kR, 8, 8 * kB, 24};
	for (uint32_t i = 0; i < n; ++i) out[i] = 0;
	for (int c = 0; c < 4; ++c) {
		const float* src = v[c];
		for (uint32_t i = 0; i < n; ++i) {
			const float x = UnormStoreValue(src[i]);
			out[i] |= RoundUnorm8(x) << kShift[c];
		}
	}
}

using Rgba8Codec = Unorm8x4Codec<0, 2>;
using Bgra8Codec = Unorm8x4Codec<2, 0>;

// sRGB in 8 bits, the same bytes as texture::PackTexel / UnpackTexel.
// Decoding is a table. Encoding (PackTexel of one component) is a
// non-decreasing step function of l, so it is the number of its 255 steps
// at or below l: a binary search over the float bit patterns (ordered as
// the values are, for l in (0, 1)) of the first input of each step, found
// once with PackTexel itself, so both agree whatever its arithmetic.
struct Srgb8Tables {
	float decode[256];
	uint32_t step[256];  // step[k]: bits of the smallest l that encodes to >= k
	Srgb8Tables() {
		const texture::FormatInfo& info = *texture::FindFormat(VK_FORMAT_R8G8B8A8_SRGB);
		for (int i = 0; i < 256; ++i) {
			const uint8_t bytes[4] = {uint8_t(i), 0, 0, 255};
			decode[i] = texture::UnpackTexel(info, bytes).f[0];
		}
		auto encode = [&](uint32_t bits) {
			texture::TexelValue v;
			std::memcpy(&v.f[0], &bits, 4);
			v.f[1] = v.f[2] = 0, v.f[3] = 1;
			uint8_t out[4];
			texture::PackTexel(info, v, out);
			return int(out[0]);
		};
		step[0] = 0;
		for (int k = 1; k < 256; ++k) {
			uint32_t lo = step[k - 1], hi = 0x3f800000;  // encode(1.0f) = 255 >= k
			while (lo < hi) {
				uint32_t mid = lo + (hi - lo) / 2;
				if (encode(mid) >= k)
					hi = mid;
				else
					lo = mid + 1;
			}
			step[k] = lo;
		}
	}
};
const Srgb8Tables& GetSrgb8Tables() {
	static const Srgb8Tables tables;
	return tables;
}

inline uint8_t LinearToSrgb8(const Srgb8Tables& t, float l) {
	if (!(l > 0.0f)) return 0;
	if (l >= 1.0f) return 255;
	uint32_t bits;
	std::memcpy(&bits, &l, 4);
	uint32_t k = 0;
	for (uint32_t half = 128; half; half >>= 1)
		if (bits >= t.step[k + half]) k += half;
	return uint8_t(k);
}

template <int kR, int kB>
struct Srgb8x4Codec {
	static void Unpack(const ColorOps&, const uint8_t* p, float out[4]) {
		const Srgb8Tables& t = GetSrgb8Tables();
		out[0] = t.decode[p[kR]];
		out[1] = t.decode[p[1]];
		out[2] = t.decode[p[kB]];
		out[3] = kUnorm8.v[p[3]];  // alpha is UNORM (§3.9)
	}
	static void Pack(const ColorOps&, const float in[4], uint8_t* p) {
		const Srgb8Tables& t = GetSrgb8Tables();
		p[kR] = LinearToSrgb8(t, in[0]);
		p[1] = LinearToSrgb8(t, in[1]);
		p[kB] = LinearToSrgb8(t, in[2]);
		p[3] = FloatToUnorm8(in[3]);
	}
};

constexpr uint32_t kMaxBatchSamples = kMaxBatchLanes * 4;

// Hot path: all covered samples of a batch, for one attachment.
template <typename Codec, bool kBlend>
void WriteColor(const ColorOps& o, const ColorTarget& t, uint32_t samples, const FragmentBatch& b, uint32_t att,
                const uint32_t* quad_coverage, uint32_t quad_begin, uint32_t quad_end) {
	alignas(64) float src[4][kMaxBatchSamples];
	alignas(64) float src1[4][kMaxBatchSamples];
	alignas(64) float dst[4][kMaxBatchSamples];
	uint8_t* address[kMaxBatchSamples];
	uint32_t n = 0;
	const uint32_t size = o.element_size;
	for (uint32_t q = quad_begin; q < quad_end; ++q) {
		for (uint32_t m = quad_coverage[q]; m; m &= m - 1) {
			uint32_t bit = __builtin_ctz(m);
			uint32_t lane = 4 * q + (bit >> __builtin_ctz(samples));
			address[n] = SampleAddress(t.base, t.row_pitch, size, samples, b.quad_x[q], b.quad_y[q], bit);
			for (int c = 0; c < 4; ++c) src[c][n] = b.color[att][c][lane];
			if (o.dual_source)
				for (int c = 0; c < 4; ++c) src1[c][n] = b.color[1][c][lane];
			++n;
		}
	}
	if (!n) return;
	if (o.clamp_unorm || o.clamp_snorm) {
		const float low = o.clamp_snorm ? -1.0f : 0.0f;
		for (int c = 0; c < 4; ++c)
			for (uint32_t i = 0; i < n; ++i) src[c][i] = std::min(std::max(src[c][i], low), 1.0f);
		if (o.dual_source)
			for (int c = 0; c < 4; ++c)
				for (uint32_t i = 0; i < n; ++i) src1[c][i] = std::min(std::max(src1[c][i], low), 1.0f);
	}
	float(*result)[kMaxBatchSamples] = src;
	if constexpr (kBlend) {
		for (uint32_t i = 0; i < n; ++i) {
			float d[4];
			Codec::Unpack(o, address[i], d);
			for (int c = 0; c < 4; ++c) dst[c][i] = d[c];
		}
		const float* s[4] = {src[0], src[1], src[2], src[3]};
		const float* s1[4] = {src1[0], src1[1], src1[2], src1[3]};
		float* d[4] = {dst[0], dst[1], dst[2], dst[3]};
		BlendLanes(o.blend, o.constants, s, o.dual_source ? s1 : s, d, n);
		result = dst;
	}
	if constexpr (std::is_same_v<Codec, Rgba8Codec> || std::is_same_v<Codec, Bgra8Codec>) {
		if (o.full_write && !o.logic_op) {
			alignas(64) uint32_t packed[kMaxBatchSamples];
			const float* r[4] = {result[0], result[1], result[2], result[3]};
			if constexpr (std::is_same_v<Codec, Rgba8Codec>)
				PackUnorm8Lanes<0, 2>(r, n, packed);
			else
				PackUnorm8Lanes<2, 0>(r, n, packed);
			for (uint32_t i = 0; i < n; ++i) std::memcpy(address[i], &packed[i], 4);
			return;
		}
	}
	for (uint32_t i = 0; i < n; ++i) {
		float v[4] = {result[0][i], result[1][i], result[2][i], result[3][i]};
		if (o.full_write && !o.logic_op) {
			Codec::Pack(o, v, address[i]);
			continue;
		}
		uint8_t packed[16];
		Codec::Pack(o, v, packed);
		uint8_t* p = address[i];
		for (uint32_t k = 0; k < size; ++k) {
			uint8_t value = o.logic_op ? uint8_t(ApplyLogicOp(o.logic, packed[k], p[k])) : packed[k];
			p[k] = uint8_t((value & o.write_bytes[k]) | (p[k] & ~o.write_bytes[k]));
		}
	}
}

// A batch's quads of one 8-bit attachment to and from packed lane words:
// whole quads as two rows of 8 bytes, lanes without coverage read as 0 and
// not written. A run of whole quads side by side in one row of quads (a
// wide triangle's) moves as two rows of pixels: vector loads and stores
// and a shuffle to or from the lane order, not two 8-byte moves a quad (the
// stores of a pass over memory wait in the store buffer, a slot each).
//
// The number of whole quads from q that lie side by side in q's row.
inline uint32_t WholeRun(const FragmentBatch& b, const uint32_t* quad_coverage, uint32_t q, uint32_t quad_end) {
	const int32_t x = b.quad_x[q], y = b.quad_y[q];
	uint32_t run = 1;
	while (q + run < quad_end && quad_coverage[q + run] == 0xf && b.quad_y[q + run] == y &&
	       b.quad_x[q + run] == x + 2 * int32_t(run))
		++run;
	return run;
}
// Lane words of `quads` quads (each: row 0's two pixels, then row 1's) from
// and to two rows of 8-byte pixel pairs.
[[gnu::always_inline]] inline void RowsToQuads(const uint8_t* __restrict row0, const uint8_t* __restrict row1,
                                               uint32_t quads, uint32_t* __restrict packed) {
	for (uint32_t k = 0; k < quads; ++k) {
		uint64_t a, c;
		std::memcpy(&a, row0 + 8 * k, 8);
		std::memcpy(&c, row1 + 8 * k, 8);
		std::memcpy(packed + 4 * k, &a, 8);
		std::memcpy(packed + 4 * k + 2, &c, 8);
	}
}
[[gnu::always_inline]] inline void QuadsToRows(const uint32_t* __restrict packed, uint32_t quads,
                                               uint8_t* __restrict row0, uint8_t* __restrict row1) {
	for (uint32_t k = 0; k < quads; ++k) {
		uint64_t a, c;
		std::memcpy(&a, packed + 4 * k, 8);
		std::memcpy(&c, packed + 4 * k + 2, 8);
		std::memcpy(row0 + 8 * k, &a, 8);
		std::memcpy(row1 + 8 * k, &c, 8);
	}
}
inline void LoadQuads(const ColorTarget& t, const FragmentBatch& b, const uint32_t* quad_coverage, uint32_t quad_begin,
                      uint32_t quad_end, uint32_t* packed) {
	for (uint32_t q = quad_begin; q < quad_end;) {
		const uint32_t m = quad_coverage[q];
		const uint8_t* row = t.base + uint64_t(b.quad_y[q]) * t.row_pitch + uint64_t(b.quad_x[q]) * 4;
		uint32_t* p = packed + 4 * (q - quad_begin);
		if (m == 0xf) {
			const uint32_t run = WholeRun(b, quad_coverage, q, quad_end);
			RowsToQuads(row, row + t.row_pitch, run, p);
			q += run;
			continue;
		}
		for (uint32_t l = 0; l < 4; ++l) {
			p[l] = 0;
			if (m & (1u << l)) std::memcpy(p + l, row + (l >> 1) * t.row_pitch + (l & 1) * 4, 4);
		}
		++q;
	}
}
inline void StoreQuads(const ColorTarget& t, const FragmentBatch& b, const uint32_t* quad_coverage, uint32_t quad_begin,
                       uint32_t quad_end, const uint32_t* packed) {
	for (uint32_t q = quad_begin; q < quad_end;) {
		const uint32_t m = quad_coverage[q];
		if (!m) {
			++q;
			continue;
		}
		uint8_t* row = t.base + uint64_t(b.quad_y[q]) * t.row_pitch + uint64_t(b.quad_x[q]) * 4;
		const uint32_t* p = packed + 4 * (q - quad_begin);
		if (m == 0xf) {
			const uint32_t run = WholeRun(b, quad_coverage, q, quad_end);
			QuadsToRows(p, run, row, row + t.row_pitch);
			q += run;
			continue;
		}
		for (uint32_t l = 0; l < 4; ++l)
			if (m & (1u << l)) std::memcpy(row + (l >> 1) * t.row_pitch + (l & 1) * 4, p + l, 4);
		++q;
	}
}

// A ColorWriteFn's arguments, for the bodies below (single-sample 8-bit
// UNORM), with their lanes: [first, first + lanes) of the batch.
struct ColorWrite {
	const ColorTarget& t;
	const FragmentBatch& b;
	uint32_t att;
	const uint32_t* quad_coverage;
	uint32_t quad_begin, quad_end;
	uint32_t first() const { return 4 * quad_begin; }
	uint32_t lanes() const { return 4 * (quad_end - quad_begin); }
	const float* component(int c) const { return b.color[att][c] + first(); }
};

// The 8-bit write bodies below: Run (a ColorWriteFn, for PerLevel) hands
// Self::Write<kFma> its arguments as one ColorWrite.
template <typename Self>
struct Unorm8Write {
	template <bool kFma>
	[[gnu::always_inline]] static void Run(const ColorOps&, const ColorTarget& t, uint32_t, const FragmentBatch& b,
	                                       uint32_t att, const uint32_t* quad_coverage, uint32_t quad_begin,
	                                       uint32_t quad_end) {
		Self::template Write<kFma>(ColorWrite{t, b, att, quad_coverage, quad_begin, quad_end});
	}
};
template <typename Body>
ColorWriteFn ForHost() {
	return PerLevel<Body, ColorWriteFn>::ForHost();
}

// Hot path for the common case: one sample, 8-bit UNORM RGBA or BGRA, no
// blending, logic op or write mask. Same rounding as FloatToUnorm8
// (RoundUnorm8, or RoundUnorm8Fma).
template <int kR, int kB>
struct WriteUnorm8Opaque : Unorm8Write<WriteUnorm8Opaque<kR, kB>> {
	template <bool kFma>
	[[gnu::always_inline]] static void Write(const ColorWrite& w) {
		// Each lane's four components in one pass, which the compiler
		// vectorizes (through pointers: `first + i` indexing must allow for
		// 32-bit wrap-around).
		const uint32_t lanes = w.lanes();
		alignas(64) uint32_t packed[kMaxBatchLanes];
		constexpr int kShift[4] = {8 * kR, 8, 8 * kB, 24};
		const float* __restrict src[4] = {w.component(0), w.component(1), w.component(2), w.component(3)};
		for (uint32_t i = 0; i < lanes; ++i) {
			uint32_t word = 0;
			for (int c = 0; c < 4; ++c) {
				const float v = UnormStoreValue(src[c][i]);
				word |= RoundUnorm8As<kFma>(v) << kShift[c];
			}
			packed[i] = word;
		}
		StoreQuads(w.t, w.b, w.quad_coverage, w.quad_begin, w.quad_end, packed);
	}
};

// Hot path for blending into 8-bit UNORM RGBA/BGRA with one sample: the
// batch's lane arrays are blended in place of a gather, whole quads load
// and store two rows of 8 bytes, and lanes without coverage are computed
// and dropped.
template <int kR, int kB>
__attribute__((target_clones("avx512f", "avx2", "default"))) void BlendUnorm8SingleSample(
    const ColorOps& o, const ColorTarget& t, uint32_t, const FragmentBatch& b, uint32_t att,
    const uint32_t* quad_coverage, uint32_t quad_begin, uint32_t quad_end) {
	const uint32_t first = 4 * quad_begin, lanes = 4 * (quad_end - quad_begin);
	alignas(64) float src[4][kMaxBatchLanes], src1[4][kMaxBatchLanes], dst[4][kMaxBatchLanes];
	alignas(64) uint32_t packed[kMaxBatchLanes];
	for (int c = 0; c < 4; ++c) {
		// §29.13.1: a UNORM attachment clamps the source to [0, 1] first.
		// (Through pointers: with `first + i` as the index the compiler
		// must allow for 32-bit wrap-around and gathers lane by lane.)
		const float* from = b.color[att][c] + first;
		for (uint32_t i = 0; i < lanes; ++i) src[c][i] = Clamp01(from[i]);
		if (o.dual_source) {
			const float* from1 = b.color[1][c] + first;
			for (uint32_t i = 0; i < lanes; ++i) src1[c][i] = Clamp01(from1[i]);
		}
	}
	LoadQuads(t, b, quad_coverage, quad_begin, quad_end, packed);
	constexpr int kShift[4] = {8 * kR, 8, 8 * kB, 24};
	for (int c = 0; c < 4; ++c)
		for (uint32_t i = 0; i < lanes; ++i) dst[c][i] = Unorm8ToFloat((packed[i] >> kShift[c]) & 0xff);
	const float* sp[4] = {src[0], src[1], src[2], src[3]};
	const float* s1p[4] = {src1[0], src1[1], src1[2], src1[3]};
	float* dp[4] = {dst[0], dst[1], dst[2], dst[3]};
	BlendLanes(o.blend, o.constants, sp, o.dual_source ? s1p : sp, dp, lanes);
	PackUnorm8Lanes<kR, kB>(dp, lanes, packed);
	StoreQuads(t, b, quad_coverage, quad_begin, quad_end, packed);
}

// A blend factor of one component (c: its source s_c and destination d_c;
// s_a and d_a the alphas), as FactorLanes computes it.
template <VkBlendFactor kF>
[[gnu::always_inline]] inline float FactorOf(float s_c, float s_a, float d_c, float d_a) {
	if constexpr (kF == VK_BLEND_FACTOR_ZERO)
		return 0.0f;
	else if constexpr (kF == VK_BLEND_FACTOR_ONE)
		return 1.0f;
	else if constexpr (kF == VK_BLEND_FACTOR_SRC_COLOR)
		return s_c;
	else if constexpr (kF == VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR)
		return 1.0f - s_c;
	else if constexpr (kF == VK_BLEND_FACTOR_DST_COLOR)
		return d_c;
	else if constexpr (kF == VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR)
		return 1.0f - d_c;
	else if constexpr (kF == VK_BLEND_FACTOR_SRC_ALPHA)
		return s_a;
	else if constexpr (kF == VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA)
		return 1.0f - s_a;
	else if constexpr (kF == VK_BLEND_FACTOR_DST_ALPHA)
		return d_a;
	else {
		static_assert(kF == VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA);
		return 1.0f - d_a;
	}
}

// BlendUnorm8SingleSample for blend equations that add, with factors known
// at compile time (the common ones: "over", premultiplied "over",
// additive): each lane's clamp, unpack, blend and pack in one pass, with
// BlendLanes' and PackUnorm8Lanes' operations in their order, so the bytes
// are the same.
template <int kR, int kB, VkBlendFactor kSrcColor, VkBlendFactor kDstColor, VkBlendFactor kSrcAlpha,
          VkBlendFactor kDstAlpha>
struct BlendUnorm8Add : Unorm8Write<BlendUnorm8Add<kR, kB, kSrcColor, kDstColor, kSrcAlpha, kDstAlpha>> {
	template <bool kFma>
	[[gnu::always_inline]] static void Write(const ColorWrite& w) {
		const uint32_t lanes = w.lanes();
		alignas(64) uint32_t packed[kMaxBatchLanes];
		LoadQuads(w.t, w.b, w.quad_coverage, w.quad_begin, w.quad_end, packed);
		constexpr int kShift[4] = {8 * kR, 8, 8 * kB, 24};
		const float* __restrict r = w.component(0);
		const float* __restrict g = w.component(1);
		const float* __restrict bl = w.component(2);
		const float* __restrict a = w.component(3);
		uint32_t* __restrict out = packed;
		for (uint32_t i = 0; i < lanes; ++i) {
			const uint32_t dst = out[i];
			const float s[4] = {Clamp01(r[i]), Clamp01(g[i]), Clamp01(bl[i]), Clamp01(a[i])};
			float d[4];
			for (int c = 0; c < 4; ++c) d[c] = Unorm8ToFloatAs<kFma>((dst >> kShift[c]) & 0xff);
			uint32_t word = 0;
			for (int c = 0; c < 4; ++c) {
				const float sf =
				    c < 3 ? FactorOf<kSrcColor>(s[c], s[3], d[c], d[3]) : FactorOf<kSrcAlpha>(s[c], s[3], d[c], d[3]);
				const float df =
				    c < 3 ? FactorOf<kDstColor>(s[c], s[3], d[c], d[3]) : FactorOf<kDstAlpha>(s[c], s[3], d[c], d[3]);
				const float x = UnormStoreValue(s[c] * sf + d[c] * df);
				word |= RoundUnorm8As<kFma>(x) << kShift[c];
			}
			out[i] = word;
		}
		StoreQuads(w.t, w.b, w.quad_coverage, w.quad_begin, w.quad_end, packed);
	}
};

// The fused blend for an attachment's equation, or null when it has none:
// both ops ADD and one of the factor sets below.
template <int kR, int kB>
ColorWriteFn PickBlendUnorm8Add(const BlendAttachmentState& blend) {
	if (blend.color_op != VK_BLEND_OP_ADD || blend.alpha_op != VK_BLEND_OP_ADD) return nullptr;
	constexpr VkBlendFactor kOne = VK_BLEND_FACTOR_ONE, kSrcAlpha = VK_BLEND_FACTOR_SRC_ALPHA,
	                        kInvSrcAlpha = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
	auto is = [&](VkBlendFactor sc, VkBlendFactor dc, VkBlendFactor sa, VkBlendFactor da) {
		return blend.src_color == sc && blend.dst_color == dc && blend.src_alpha == sa && blend.dst_alpha == da;
	};
	if (is(kSrcAlpha, kInvSrcAlpha, kOne, kInvSrcAlpha))  // "over", alpha accumulated (three.js, Dear ImGui)
		return ForHost<BlendUnorm8Add<kR, kB, kSrcAlpha, kInvSrcAlpha, kOne, kInvSrcAlpha>>();
	if (is(kSrcAlpha, kInvSrcAlpha, kSrcAlpha, kInvSrcAlpha))
		return ForHost<BlendUnorm8Add<kR, kB, kSrcAlpha, kInvSrcAlpha, kSrcAlpha, kInvSrcAlpha>>();
	if (is(kOne, kInvSrcAlpha, kOne, kInvSrcAlpha))  // premultiplied alpha
		return ForHost<BlendUnorm8Add<kR, kB, kOne, kInvSrcAlpha, kOne, kInvSrcAlpha>>();
	if (is(kOne, kOne, kOne, kOne))  // additive
		return ForHost<BlendUnorm8Add<kR, kB, kOne, kOne, kOne, kOne>>();
	return nullptr;
}

template <typename Codec>
ColorWriteFn PickColorWrite(bool blend) {
	return blend ? &WriteColor<Codec, true> : &WriteColor<Codec, false>;
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void FactorLanes(VkBlendFactor f, int c,
                                                                              const float* const s[4],
                                                                              const float* const s1[4],
                                                                              const float* const d[4], const float k[4],
                                                                              uint32_t n, float* out) {
	switch (f) {
	case VK_BLEND_FACTOR_ZERO: std::fill_n(out, n, 0.0f); break;
	case VK_BLEND_FACTOR_ONE: std::fill_n(out, n, 1.0f); break;
	case VK_BLEND_FACTOR_SRC_COLOR: std::copy_n(s[c], n, out); break;
	case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR:
		for (uint32_t i = 0; i < n; ++i) out[i] = 1.0f - s[c][i];
		break;
	case VK_BLEND_FACTOR_DST_COLOR: std::copy_n(d[c], n, out); break;
	case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR:
		for (uint32_t i = 0; i < n; ++i) out[i] = 1.0f - d[c][i];
		break;
	case VK_BLEND_FACTOR_SRC_ALPHA: std::copy_n(s[3], n, out); break;
	case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA:
		for (uint32_t i = 0; i < n; ++i) out[i] = 1.0f - s[3][i];
		break;
	case VK_BLEND_FACTOR_DST_ALPHA: std::copy_n(d[3], n, out); break;
	case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA:
		for (uint32_t i = 0; i < n; ++i) out[i] = 1.0f - d[3][i];
		break;
	case VK_BLEND_FACTOR_CONSTANT_COLOR: std::fill_n(out, n, k[c]); break;
	case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: std::fill_n(out, n, 1.0f - k[c]); break;
	case VK_BLEND_FACTOR_CONSTANT_ALPHA: std::fill_n(out, n, k[3]); break;
	case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: std::fill_n(out, n, 1.0f - k[3]); break;
	case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE:  // (f, f, f, 1), f = min(A_s0, 1 - A_d)
		if (c == 3)
			std::fill_n(out, n, 1.0f);
		else
			for (uint32_t i = 0; i < n; ++i) out[i] = std::min(s[3][i], 1.0f - d[3][i]);
		break;
	case VK_BLEND_FACTOR_SRC1_COLOR: std::copy_n(s1[c], n, out); break;
	case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR:
		for (uint32_t i = 0; i < n; ++i) out[i] = 1.0f - s1[c][i];
		break;
	case VK_BLEND_FACTOR_SRC1_ALPHA: std::copy_n(s1[3], n, out); break;
	case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA:
		for (uint32_t i = 0; i < n; ++i) out[i] = 1.0f - s1[3][i];
		break;
	default: std::fill_n(out, n, 0.0f); break;
	}
}

bool UsesSrc1(VkBlendFactor f) {
	return f == VK_BLEND_FACTOR_SRC1_COLOR || f == VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR ||
	       f == VK_BLEND_FACTOR_SRC1_ALPHA || f == VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
}

}  // namespace

uint8_t EncodeSrgb8(float linear) { return LinearToSrgb8(GetSrgb8Tables(), linear); }

uint32_t AlphaToCoverageMask(float alpha, uint32_t samples) {
	if (!(alpha > 0.0f)) return 0;  // also NaN
	if (alpha >= 1.0f) return (1u << samples) - 1;
	const uint32_t count = std::min(uint32_t(alpha * float(samples) + 0.5f), samples);
	return (1u << count) - 1;
}

uint32_t ApplyLogicOp(VkLogicOp op, uint32_t s, uint32_t d) {
	switch (op) {
	case VK_LOGIC_OP_CLEAR: return 0;
	case VK_LOGIC_OP_AND: return s & d;
	case VK_LOGIC_OP_AND_REVERSE: return s & ~d;
	case VK_LOGIC_OP_COPY: return s;
	case VK_LOGIC_OP_AND_INVERTED: return ~s & d;
	case VK_LOGIC_OP_NO_OP: return d;
	case VK_LOGIC_OP_XOR: return s ^ d;
	case VK_LOGIC_OP_OR: return s | d;
	case VK_LOGIC_OP_NOR: return ~(s | d);
	case VK_LOGIC_OP_EQUIVALENT: return ~(s ^ d);
	case VK_LOGIC_OP_INVERT: return ~d;
	case VK_LOGIC_OP_OR_REVERSE: return s | ~d;
	case VK_LOGIC_OP_COPY_INVERTED: return ~s;
	case VK_LOGIC_OP_OR_INVERTED: return ~s | d;
	case VK_LOGIC_OP_NAND: return ~(s & d);
	case VK_LOGIC_OP_SET: return ~0u;
	default: return s;
	}
}

// Vulkan 1.3 §29.13.2-3: RGB and alpha each take their own factors and op;
// MIN and MAX ignore the factors.
__attribute__((target_clones("avx512f", "avx2", "default"))) void BlendLanes(const BlendAttachmentState& blend,
                                                                             const float constants[4],
                                                                             const float* const src[4],
                                                                             const float* const src1[4],
                                                                             float* const dst[4], uint32_t n) {
	alignas(64) float sf[kMaxBatchSamples], df[kMaxBatchSamples];
	alignas(64) float out[4][kMaxBatchSamples];
	for (uint32_t begin = 0; begin < n; begin += kMaxBatchSamples) {
		uint32_t count = std::min(n - begin, kMaxBatchSamples);
		const float* s[4] = {src[0] + begin, src[1] + begin, src[2] + begin, src[3] + begin};
		const float* s1[4] = {src1[0] + begin, src1[1] + begin, src1[2] + begin, src1[3] + begin};
		const float* d[4] = {dst[0] + begin, dst[1] + begin, dst[2] + begin, dst[3] + begin};
		for (int c = 0; c < 4; ++c) {
			VkBlendOp op = c < 3 ? blend.color_op : blend.alpha_op;
			VkBlendFactor fs = c < 3 ? blend.src_color : blend.src_alpha;
			VkBlendFactor fd = c < 3 ? blend.dst_color : blend.dst_alpha;
			float* o = out[c];
			switch (op) {
			case VK_BLEND_OP_MIN:
				for (uint32_t i = 0; i < count; ++i) o[i] = std::min(s[c][i], d[c][i]);
				continue;
			case VK_BLEND_OP_MAX:
				for (uint32_t i = 0; i < count; ++i) o[i] = std::max(s[c][i], d[c][i]);
				continue;
			default: break;
			}
			FactorLanes(fs, c, s, s1, d, constants, count, sf);
			FactorLanes(fd, c, s, s1, d, constants, count, df);
			switch (op) {
			case VK_BLEND_OP_SUBTRACT:
				for (uint32_t i = 0; i < count; ++i) o[i] = s[c][i] * sf[i] - d[c][i] * df[i];
				break;
			case VK_BLEND_OP_REVERSE_SUBTRACT:
				for (uint32_t i = 0; i < count; ++i) o[i] = d[c][i] * df[i] - s[c][i] * sf[i];
				break;
			default:
				for (uint32_t i = 0; i < count; ++i) o[i] = s[c][i] * sf[i] + d[c][i] * df[i];
				break;
			}
		}
		// Factors read dst, so results go back only after all four components.
		for (int c = 0; c < 4; ++c) std::copy_n(out[c], count, dst[c] + begin);
	}
}

FragmentOps CompileFragmentOps(const DrawState& state, const Framebuffer& fb) {
	FragmentOps ops;
	ops.samples = fb.samples;
	ops.state = state.depth_stencil;
	const DepthStencilState& ds = state.depth_stencil;
	const Viewport& vp = state.raster.viewport;
	ops.depth_clamp = state.raster.depth_clamp;
	ops.depth_min = std::min(vp.min_depth, vp.max_depth);
	ops.depth_max = std::max(vp.min_depth, vp.max_depth);
	if (state.raster.depth_clamp_user_range) {  // (valid use: min <= max; kept ordered anyway)
		ops.depth_min = state.raster.depth_clamp_min;
		ops.depth_max = std::max(state.raster.depth_clamp_min, state.raster.depth_clamp_max);
	}
	if (ds.depth_test && fb.depth.base) {
		// §29.8.4: depth writes happen only when the depth test is enabled.
		switch (fb.depth.format) {
		case VK_FORMAT_D16_UNORM: PickDepthTest<DepthD16>(ds.depth_compare, ds.depth_write, ops); break;
		case VK_FORMAT_X8_D24_UNORM_PACK32: PickDepthTest<DepthD24>(ds.depth_compare, ds.depth_write, ops); break;
		default:
			if (ds.depth_unrestricted)
				PickDepthTest<DepthD32Unrestricted>(ds.depth_compare, ds.depth_write, ops);
			else
				PickDepthTest<DepthD32>(ds.depth_compare, ds.depth_write, ops);
			break;
		}
	}
	ops.stencil = ds.stencil_test && fb.stencil.base;
	// "Depth Bounds Test": without a depth attachment the depth bounds test passes.
	ops.depth_bounds = ds.depth_bounds_test && fb.depth.base;
	const BlendState& bs = state.blend;
	ops.color_count = fb.color_count;
	for (uint32_t i = 0; i < fb.color_count; ++i) {
		ColorOps& c = ops.color[i];
		const texture::FormatInfo* format = texture::FindFormat(fb.color[i].format);
		if (!format || !fb.color[i].base) continue;
		c.format = format;
		c.blend = i < bs.attachment_count ? bs.attachments[i] : BlendAttachmentState{};
		c.element_size = format->block_size;
		texture::NumericFormat numeric = format->Numeric();
		bool normalized_or_integer = numeric == texture::NumericFormat::UNORM ||
		                             numeric == texture::NumericFormat::SNORM ||
		                             numeric == texture::NumericFormat::UINT || numeric == texture::NumericFormat::SINT;
		// §29.14: logic ops apply to integer and normalized formats only, and
		// turn blending off for every attachment.
		c.logic_op = bs.logic_op_enable && normalized_or_integer && bs.logic_op != VK_LOGIC_OP_COPY;
		c.logic = bs.logic_op;
		c.integer = format->IsInteger();
		if (c.integer) {
			const bool is_signed = numeric == texture::NumericFormat::SINT;
			for (int k = 0; k < 4; ++k) {
				const uint32_t bits = format->ComponentBits("RGBA"[k]);
				const uint32_t range = bits && bits < 32 ? bits : 32;
				c.integer_min[k] = is_signed ? -(int64_t(1) << (range - 1)) : 0;
				c.integer_max[k] = is_signed ? (int64_t(1) << (range - 1)) - 1 : (int64_t(1) << range) - 1;
			}
		}
		if (bs.logic_op_enable || c.integer) c.blend.blend_enable = false;
		c.clamp_unorm = numeric == texture::NumericFormat::UNORM || numeric == texture::NumericFormat::SRGB;
		c.clamp_snorm = numeric == texture::NumericFormat::SNORM;
		for (int k = 0; k < 4; ++k)
			c.constants[k] = c.clamp_unorm   ? std::clamp(bs.constants[k], 0.0f, 1.0f)
			                 : c.clamp_snorm ? std::clamp(bs.constants[k], -1.0f, 1.0f)
			                                 : bs.constants[k];
		c.dual_source = i == 0 && c.blend.blend_enable &&
		                (UsesSrc1(c.blend.src_color) || UsesSrc1(c.blend.dst_color) || UsesSrc1(c.blend.src_alpha) ||
		                 UsesSrc1(c.blend.dst_alpha));
		std::memset(c.write_bytes, 0, sizeof(c.write_bytes));
		bool any_component = false;
		for (uint32_t k = 0; k < format->component_count; ++k) {
			const texture::FormatComponent& comp = format->components[k];
			int bit = comp.name == 'R' ? 0 : comp.name == 'G' ? 1 : comp.name == 'B' ? 2 : comp.name == 'A' ? 3 : -1;
			if (bit < 0 || !(c.blend.write_mask & (1u << bit))) continue;
			any_component = true;
			for (uint32_t b = comp.offset; b < uint32_t(comp.offset) + comp.bits; ++b)
				c.write_bytes[b / 8] |= uint8_t(1u << (b % 8));
		}
		c.full_write = true;
		for (uint32_t b = 0; b < c.element_size; ++b) c.full_write &= c.write_bytes[b] == 0xff;
		if (!any_component) continue;
		bool blend = c.blend.blend_enable;
		if (fb.samples == 1 && blend && c.full_write) {
			const bool fused = !c.dual_source && !c.logic_op;
			if (fb.color[i].format == VK_FORMAT_R8G8B8A8_UNORM) {
				c.write = fused ? PickBlendUnorm8Add<0, 2>(c.blend) : nullptr;
				if (!c.write) c.write = &BlendUnorm8SingleSample<0, 2>;
				continue;
			}
			if (fb.color[i].format == VK_FORMAT_B8G8R8A8_UNORM) {
				c.write = fused ? PickBlendUnorm8Add<2, 0>(c.blend) : nullptr;
				if (!c.write) c.write = &BlendUnorm8SingleSample<2, 0>;
				continue;
			}
		}
		if (fb.samples == 1 && !blend && c.full_write && !c.logic_op) {
			if (fb.color[i].format == VK_FORMAT_R8G8B8A8_UNORM) {
				c.write = ForHost<WriteUnorm8Opaque<0, 2>>();
				c.in_order = true;
				continue;
			}
			if (fb.color[i].format == VK_FORMAT_B8G8R8A8_UNORM) {
				c.write = ForHost<WriteUnorm8Opaque<2, 0>>();
				c.in_order = true;
				continue;
			}
		}
		if (c.integer) {
			c.write = &WriteColor<IntegerCodec, false>;
			continue;
		}
		switch (fb.color[i].format) {
		case VK_FORMAT_R8G8B8A8_UNORM: c.write = PickColorWrite<Rgba8Codec>(blend); break;
		case VK_FORMAT_B8G8R8A8_UNORM: c.write = PickColorWrite<Bgra8Codec>(blend); break;
		case VK_FORMAT_R8G8B8A8_SRGB: c.write = PickColorWrite<Srgb8x4Codec<0, 2>>(blend); break;
		case VK_FORMAT_B8G8R8A8_SRGB: c.write = PickColorWrite<Srgb8x4Codec<2, 0>>(blend); break;
		case VK_FORMAT_R16G16B16A16_SFLOAT: c.write = PickColorWrite<Half4Codec>(blend); break;
		default: c.write = PickColorWrite<GenericCodec>(blend); break;
		}
	}
	return ops;
}

uint32_t DepthStencilTests(const FragmentOps& ops, const Framebuffer& fb, int32_t x, int32_t y, const float* depth,
                           uint32_t coverage, bool front_facing, const uint32_t* stencil_refs) {
	if (ops.depth_bounds) {
		// "Depth Bounds Test": the value stored in the depth attachment (as a float: UNORM
		// values convert per §3.10) against the bounds, inclusive; failing
		// samples lose coverage and take no stencil op.
		const uint32_t size = fb.depth.format == VK_FORMAT_D16_UNORM ? 2 : 4;
		for (uint32_t m = coverage; m; m &= m - 1) {
			uint32_t bit = __builtin_ctz(m);
			float z = texture::UnpackDepth(
			    fb.depth.format, SampleAddress(fb.depth.base, fb.depth.row_pitch, size, ops.samples, x, y, bit));
			if (!(z >= ops.state.min_depth_bounds && z <= ops.state.max_depth_bounds)) coverage &= ~(1u << bit);
		}
	}
	if (!ops.stencil) return ops.depth_test ? ops.depth_test(fb.depth, ops.samples, x, y, depth, coverage) : coverage;
	// §29.7: the stencil test comes first; its failures take fail_op.
	const StencilFaceState& face = front_facing ? ops.state.front : ops.state.back;
	const uint32_t compare_mask = face.compare_mask & 0xff;
	const uint32_t lane_shift = __builtin_ctz(ops.samples);  // bit >> lane_shift: the quad lane
	// The face state with the lane's exported reference, when there is one.
	auto face_of = [&](uint32_t bit) {
		StencilFaceState f = face;
		if (stencil_refs) f.reference = stencil_refs[bit >> lane_shift] & 0xff;
		return f;
	};
	uint32_t stencil_pass = 0;
	for (uint32_t m = coverage; m; m &= m - 1) {
		uint32_t bit = __builtin_ctz(m);
		uint8_t* p = SampleAddress(fb.stencil.base, fb.stencil.row_pitch, 1, ops.samples, x, y, bit);
		const StencilFaceState f = face_of(bit);
		if (CompareDynamic(f.compare_op, f.reference & compare_mask, *p & compare_mask))
			stencil_pass |= 1u << bit;
		else
			StencilWrite(p, f, f.fail_op);
	}
	uint32_t depth_pass =
	    ops.depth_test ? ops.depth_test(fb.depth, ops.samples, x, y, depth, stencil_pass) : stencil_pass;
	for (uint32_t m = stencil_pass; m; m &= m - 1) {
		uint32_t bit = __builtin_ctz(m);
		uint8_t* p = SampleAddress(fb.stencil.base, fb.stencil.row_pitch, 1, ops.samples, x, y, bit);
		const StencilFaceState f = face_of(bit);
		StencilWrite(p, f, (depth_pass >> bit) & 1 ? f.pass_op : f.depth_fail_op);
	}
	return depth_pass;
}

}  // namespace tessera::raster
