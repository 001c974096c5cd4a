// The small float formats and sRGB, checked exhaustively where the format is
// small enough, against the Data Format Specification's definitions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "texture/float_formats.h"

using namespace tessera::texture;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// The value of a half by its definition (Data Format Specification §10.1):
// denormals are mantissa * 2^-24, normals (1 + m/1024) * 2^(e-15).
double HalfValue(uint16_t h) {
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
	return h & 0x8000 ? -v : v;
}

// Unsigned 5-bit-exponent formats with m mantissa bits.
double SmallValue(uint32_t bits, int m) {
	int e = int(bits >> m), mantissa = int(bits & ((1u << m) - 1));
	return e == 0 ? std::ldexp(mantissa, -14 - m) : std::ldexp((1 << m) + mantissa, e - 15 - m);
}

}  // namespace

TEST_CASE("half: every bit pattern decodes to its defined value and encodes back", "[texture][float]") {
	for (uint32_t h = 0; h < 0x10000; ++h) {
		CAPTURE(h);
		float f = HalfToFloat(uint16_t(h));
		uint32_t exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
		if (exponent == 31 && mantissa) {
			REQUIRE(std::isnan(f));
			REQUIRE(std::signbit(f) == bool(h & 0x8000));
			uint16_t back = FloatToHalf(f);
			// NaN stays NaN with its sign; the payload's top bits survive, quieted.
			REQUIRE(back == (h | 0x200));
			continue;
		}
		if (exponent == 31)
			REQUIRE(f == (h & 0x8000 ? -kInf : kInf));
		else
			REQUIRE(double(f) == HalfValue(uint16_t(h)));
		REQUIRE(std::signbit(f) == bool(h & 0x8000));  // -0 included
		REQUIRE(FloatToHalf(f) == h);
	}
}

TEST_CASE("half: narrowing rounds to nearest even, at every midpoint", "[texture][float]") {
	// Between each pair of neighbouring finite halves (and past 65504 toward
	// Inf), the midpoint goes to the even one and anything off it to the
	// nearer one. Midpoints need 12 significant bits: exact in float.
	for (uint32_t h = 0; h < 0x7bff + 1; ++h) {
		CAPTURE(h);
		double lo = HalfValue(uint16_t(h));
		double hi = h == 0x7bff ? 65536.0 : HalfValue(uint16_t(h + 1));
		float mid = float((lo + hi) / 2);
		REQUIRE(double(mid) == (lo + hi) / 2);
		uint16_t even = (h & 1) ? uint16_t(h + 1) : uint16_t(h);  // h + 1 == 0x7c00 is Inf
		REQUIRE(FloatToHalf(mid) == even);
		REQUIRE(FloatToHalf(std::nextafter(mid, 0.0f)) == h);
		REQUIRE(FloatToHalf(std::nextafter(mid, kInf)) == h + 1);
		REQUIRE(FloatToHalf(-mid) == (even | 0x8000));
	}
}

TEST_CASE("half: edge values", "[texture][float]") {
	CHECK(FloatToHalf(0.0f) == 0x0000);
	CHECK(FloatToHalf(-0.0f) == 0x8000);
	CHECK(FloatToHalf(1.0f) == 0x3c00);
	CHECK(FloatToHalf(-2.0f) == 0xc000);
	CHECK(FloatToHalf(65504.0f) == 0x7bff);
	CHECK(FloatToHalf(65519.0f) == 0x7bff);
	CHECK(FloatToHalf(65520.0f) == 0x7c00);  // the tie with 2^16 rounds to even: Inf
	CHECK(FloatToHalf(1e10f) == 0x7c00);
	CHECK(FloatToHalf(-1e10f) == 0xfc00);
	CHECK(FloatToHalf(kInf) == 0x7c00);
	CHECK(FloatToHalf(-kInf) == 0xfc00);
	CHECK((FloatToHalf(kNaN) & 0x7c00) == 0x7c00);
	CHECK((FloatToHalf(kNaN) & 0x3ff) != 0);
	CHECK((FloatToHalf(-kNaN) & 0x8000) != 0);
	CHECK(FloatToHalf(std::ldexp(1.0f, -14)) == 0x0400);  // smallest normal
	CHECK(FloatToHalf(std::ldexp(1.0f, -24)) == 0x0001);  // smallest denormal
	CHECK(FloatToHalf(std::ldexp(1.0f, -25)) == 0x0000);  // half of it: tie to even 0
	CHECK(FloatToHalf(std::ldexp(1.5f, -25)) == 0x0001);
	CHECK(FloatToHalf(-std::ldexp(1.0f, -26)) == 0x8000);
	CHECK(FloatToHalf(std::numeric_limits<float>::denorm_min()) == 0x0000);
	CHECK(FloatToHalf(std::ldexp(1023.0f, -24)) == 0x03ff);  // largest denormal
	CHECK(HalfToFloat(0x03ff) == std::ldexp(1023.0f, -24));
}

TEST_CASE("unsigned 11- and 10-bit floats: every bit pattern and every midpoint", "[texture][float]") {
	struct Kind {
		int mantissa_bits;
		float (*decode)(uint32_t);
		uint32_t (*encode)(float);
	};
	for (Kind k : {Kind{6, Uf11ToFloat, FloatToUf11}, Kind{5, Uf10ToFloat, FloatToUf10}}) {
		const int m = k.mantissa_bits;
		const uint32_t inf = 31u << m, max_finite = inf - 1;
		CAPTURE(m);
		for (uint32_t v = 0; v < (32u << m); ++v) {
			CAPTURE(v);
			float f = k.decode(v);
			if (v > inf) {
				REQUIRE(std::isnan(f));
				REQUIRE(k.encode(f) > inf);  // NaN stays NaN
			} else if (v == inf) {
				REQUIRE(f == kInf);
				REQUIRE(k.encode(f) == inf);
			} else {
				REQUIRE(double(f) == SmallValue(v, m));
				REQUIRE(k.encode(f) == v);
			}
		}
		for (uint32_t v = 0; v < max_finite; ++v) {
			CAPTURE(v);
			float lo = k.decode(v), hi = k.decode(v + 1);
			float mid = float((double(lo) + double(hi)) / 2);
			REQUIRE(double(mid) == (double(lo) + double(hi)) / 2);
			REQUIRE(k.encode(mid) == ((v & 1) ? v + 1 : v));
			REQUIRE(k.encode(std::nextafter(mid, 0.0f)) == v);
			REQUIRE(k.encode(std::nextafter(mid, kInf)) == v + 1);
		}
		// Unsigned formats: negatives, -0 and -Inf become 0; too large finite
		// values clamp to the largest finite one (§3.9.2 allows it or Inf).
		CHECK(k.encode(-1.0f) == 0);
		CHECK(k.encode(-0.0f) == 0);
		CHECK(k.encode(-kInf) == 0);
		CHECK(k.encode(-std::ldexp(1.0f, -20)) == 0);
		CHECK(k.encode(kInf) == inf);
		CHECK(k.encode(65024.0f) == max_finite);
		CHECK(k.encode(1e10f) == max_finite);
		CHECK(k.encode(std::numeric_limits<float>::max()) == max_finite);
		CHECK(k.encode(kNaN) > inf);
		CHECK(k.encode(-kNaN) > inf);
		CHECK(k.encode(1.0f) == (15u << m));
		CHECK(k.encode(std::ldexp(1.0f, -14 - m)) == 1);  // smallest denormal
		CHECK(k.encode(std::ldexp(1.0f, -15 - m)) == 0);  // half of it: tie to even 0
		CHECK(k.encode(std::numeric_limits<float>::denorm_min()) == 0);
	}
	CHECK(Uf11ToFloat(0x7bf) == 65024.0f);
	CHECK(Uf10ToFloat(0x3df) == 64512.0f);
}

TEST_CASE("RGB9E5 follows the shared-exponent algorithm", "[texture][float]") {
	auto encode = [](float r, float g, float b) {
		const float rgb[3] = {r, g, b};
		return FloatToRgb9e5(rgb);
	};
	auto word = [](uint32_t e, uint32_t r, uint32_t g, uint32_t b) { return e << 27 | b << 18 | g << 9 | r; };
	// max = 1: exp' = floor(log2 1) + 1 + 15 = 16, mantissa 1 * 2^(24-16) = 256.
	CHECK(encode(1.0f, 1.0f, 1.0f) == word(16, 256, 256, 256));
	CHECK(encode(0.0f, 0.0f, 0.0f) == 0);
	CHECK(encode(1.0f, 0.5f, 0.25f) == word(16, 256, 128, 64));
	// max_s rounds up to 2^9: the exponent grows by one.
	CHECK(encode(1.999f, 0.0f, 0.0f) == word(17, 256, 0, 0));
	// Just below a power of two keeps the lower exponent (log2 must be exact).
	CHECK(encode(std::nextafter(16.0f, 0.0f), 0.0f, 0.0f) == word(20, 256, 0, 0));
	CHECK(encode(511.0f / 16, 0.0f, 0.0f) == word(20, 511, 0, 0));
	// The smaller components lose bits to the shared exponent, rounding half up.
	CHECK(encode(256.0f, 1.5f, 0.5f) == word(24, 256, 2, 1));
	// Largest: (2^9 - 1) / 2^9 * 2^16 = 65408; larger values and Inf clamp.
	CHECK(encode(65408.0f, 0.0f, 0.0f) == word(31, 511, 0, 0));
	CHECK(encode(1e9f, kInf, 0.0f) == word(31, 511, 511, 0));
	// NaN and negatives encode as 0.
	CHECK(encode(kNaN, -1.0f, -kInf) == 0);
	CHECK(encode(kNaN, 2.0f, -0.0f) == word(17, 0, 256, 0));
	// Tiny values: exp' is at least 0, denormal-like mantissas.
	CHECK(encode(std::ldexp(1.0f, -24), 0.0f, 0.0f) == word(0, 1, 0, 0));
	CHECK(encode(std::ldexp(1.0f, -25), 0.0f, 0.0f) == word(0, 1, 0, 0));  // floor(0.5 + 0.5)
	CHECK(encode(std::ldexp(1.0f, -26), 0.0f, 0.0f) == 0);
	CHECK(encode(std::ldexp(511.0f, -24), 0.0f, 0.0f) == word(0, 511, 0, 0));
	CHECK(encode(std::ldexp(511.75f, -24), 0.0f, 0.0f) == word(1, 256, 0, 0));

	float rgb[3];
	Rgb9e5ToFloat(word(16, 256, 128, 1), rgb);
	CHECK(rgb[0] == 1.0f);
	CHECK(rgb[1] == 0.5f);
	CHECK(rgb[2] == std::ldexp(1.0f, -8));
	Rgb9e5ToFloat(word(31, 511, 0, 0), rgb);
	CHECK(rgb[0] == 65408.0f);
}

TEST_CASE("RGB9E5: encoding a decoded word keeps its value, canonical words exactly", "[texture][float]") {
	std::mt19937 random(9);
	for (int i = 0; i < 200000; ++i) {
		uint32_t w = random();
		float rgb[3], again[3];
		Rgb9e5ToFloat(w, rgb);
		uint32_t back = FloatToRgb9e5(rgb);
		Rgb9e5ToFloat(back, again);
		uint32_t max_mantissa = std::max({w & 0x1ff, (w >> 9) & 0x1ff, (w >> 18) & 0x1ff});
		bool canonical = max_mantissa >= 256 || (w >> 27) == 0;
		bool ok = again[0] == rgb[0] && again[1] == rgb[1] && again[2] == rgb[2] && (!canonical || back == w);
		if (ok) continue;  // Catch2 v2 formats CAPTURE eagerly: only on failure
		CAPTURE(w, back, canonical);
		REQUIRE(again[0] == rgb[0]);
		REQUIRE(again[1] == rgb[1]);
		REQUIRE(again[2] == rgb[2]);
		REQUIRE((!canonical || back == w));
	}
}

TEST_CASE("sRGB transfer functions at their endpoints and edges", "[texture][srgb]") {
	CHECK(LinearToSrgb(0.0) == 0.0);
	CHECK(LinearToSrgb(1.0) == 1.0);
	CHECK(LinearToSrgb(-0.5) == 0.0);
	CHECK(LinearToSrgb(2.0) == 1.0);
	CHECK(LinearToSrgb(double(kNaN)) == 0.0);
	CHECK(LinearToSrgb(double(kInf)) == 1.0);
	CHECK(LinearToSrgb(1e-10) == Approx(12.92e-10).epsilon(1e-12));
	CHECK(LinearToSrgb(0.0031308) == Approx(0.0404499).epsilon(1e-5));
	CHECK(LinearToSrgb(0.5) == Approx(0.735356983).epsilon(1e-8));
	CHECK(SrgbToLinear(0.0f) == 0.0f);
	CHECK(SrgbToLinear(1.0f) == 1.0f);
	CHECK(SrgbToLinear(0.04045f) == Approx(0.04045 / 12.92).epsilon(1e-6));
	CHECK(SrgbToLinear(0.5f) == Approx(0.214041144).epsilon(1e-6));
	// Round trip through the curve is the identity on [0, 1].
	for (int i = 0; i <= 1000; ++i) {
		double l = i / 1000.0;
		CHECK(double(SrgbToLinear(float(LinearToSrgb(l)))) == Approx(l).margin(1e-6));
	}
}
