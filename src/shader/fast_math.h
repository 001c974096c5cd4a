// exp2, log2, exp, log and pow for 32-bit floats, written as straight-line
// arithmetic and selects so that the ALU's lane loops vectorize (the libm
// calls they replace stay scalar: a third of a lit fragment shader's time
// went to powf). Each is evaluated in double and rounded once to float:
// a few parts in 10^9 before that rounding, so results are within one ULP of
// the correctly rounded value and far inside Vulkan's bounds (Vulkan 1.3
// "Precision and Operation of SPIR-V Instructions": exp2/exp 3 + 2|x| ULP,
// log2/log 3 ULP or 2^-21 absolute, pow inherited from exp2(y log2 x)).
// Special values follow the C library (IEEE 754 / C Annex F).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tessera::shader::fast_math {

// ln(x) for a positive, finite x (normal or subnormal), in double.
inline double LnPositive(float x) {
	uint32_t bits = std::bit_cast<uint32_t>(x);
	const bool subnormal = bits < 0x00800000u;
	bits = std::bit_cast<uint32_t>(subnormal ? x * 4294967296.0f : x);  // exact: * 2^32
	int32_t e = int32_t(bits >> 23) - 127 - (subnormal ? 32 : 0);
	double m = std::bit_cast<float>((bits & 0x007fffffu) | 0x3f800000u);  // [1, 2)
	const bool high = m > 1.4142135623730951;
	m = high ? m * 0.5 : m;  // [sqrt(1/2), sqrt(2))
	e += high ? 1 : 0;
	// ln(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172: the series to
	// s^13 leaves a relative error below 1e-11.
	const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
	const double series =
	    2.0 + s2 * (2.0 / 3 + s2 * (2.0 / 5 + s2 * (2.0 / 7 + s2 * (2.0 / 9 + s2 * (2.0 / 11 + s2 * (2.0 / 13))))));
	return double(e) * 0.6931471805599453 + s * series;
}

// e^y rounded to float, for any double y (NaN stays NaN).
inline float ExpDouble(double y) {
	const bool nan = y != y;
	// Beyond these the float result is 0 or infinity already.
	double t = nan ? 0.0 : (y > 100.0 ? 100.0 : (y < -110.0 ? -110.0 : y));
	const double n = std::floor(t * 1.4426950408889634 + 0.5);  // t = n ln2 + r, |r| <= ln2 / 2
	const double r = (t - n * 0.6931471803691238) - n * 1.9082149292705877e-10;
	// e^r, |r| < 0.347: Taylor to r^10 leaves a relative error below 1e-11.
	const double p =
	    1.0 +
	    r * (1.0 +
	         r * (1.0 / 2 +
	              r * (1.0 / 6 +
	                   r * (1.0 / 24 +
	                        r * (1.0 / 120 + r * (1.0 / 720 + r * (1.0 / 5040 +
	                                                               r * (1.0 / 40320 + r * (1.0 / 362880 +
	                                                                                       r * (1.0 / 3628800))))))))));
	const double scale = std::bit_cast<double>(uint64_t(int64_t(n) + 1023) << 52);  // n in [-159, 145]
	const float result = float(p * scale);
	return nan ? std::numeric_limits<float>::quiet_NaN() : result;
}

inline float Exp(float x) { return ExpDouble(double(x)); }
inline float Exp2(float x) { return ExpDouble(double(x) * 0.6931471805599453); }

// ln and log2 with C's special values: negative or NaN -> NaN, 0 -> -inf, inf -> inf.
inline float LogScaled(float x, double scale) {
	const bool finite_positive = x > 0.0f && x < std::numeric_limits<float>::infinity();
	const float value = float(LnPositive(finite_positive ? x : 1.0f) * scale);
	const float special = x == 0.0f                                     ? -std::numeric_limits<float>::infinity()
	                      : x == std::numeric_limits<float>::infinity() ? x
	                                                                    : std::numeric_limits<float>::quiet_NaN();
	return finite_positive ? value : special;
}
inline float Log(float x) { return LogScaled(x, 1.0); }
inline float Log2(float x) { return LogScaled(x, 1.4426950408889634); }

// x^y with C's special cases (pow(x, 0) = 1, pow(1, y) = 1, negative x with
// integer y signed, with other y NaN, zeros and infinities as C Annex F).
// GLSL leaves x < 0 and x = 0 with y <= 0 undefined; C's answers are kept so
// results do not change with the vector width.
// Always inlined: GCC otherwise keeps it an out-of-line call, one lane at a
// time (44% of a lit fragment shader's time), where inlined it vectorizes.
[[gnu::always_inline]] inline float Pow(float x, float y) {
	const float inf = std::numeric_limits<float>::infinity();
	const float ax = std::fabs(x), ay = std::fabs(y);
	const bool y_integer = std::floor(y) == y;
	const bool y_odd = y_integer && ay < 16777216.0f && std::floor(y * 0.5f) != y * 0.5f;
	const float sign = (x < 0.0f || std::signbit(x)) && y_odd ? -1.0f : 1.0f;
	// |x|^y for finite, non-zero |x|.
	const bool regular = ax > 0.0f && ax < inf;
	const float magnitude = ExpDouble(double(y) * LnPositive(regular ? ax : 1.0f));
	float r = sign * magnitude;
	// Zeros and infinities of x: 0^y is 0 (y > 0) or inf (y < 0); inf^y the reverse.
	const float zero_pow = y > 0.0f ? 0.0f : inf;
	r = ax == 0.0f ? sign * zero_pow : r;
	r = ax == inf ? sign * (y > 0.0f ? inf : 0.0f) : r;
	// y infinite: |x| < 1 and |x| > 1 decide; |x| = 1 gives 1.
	r = ay == inf ? (ax == 1.0f ? 1.0f : ((ax > 1.0f) == (y > 0.0f) ? inf : 0.0f)) : r;
	r = (x < 0.0f && !y_integer && ay != inf && ax != inf) ? std::numeric_limits<float>::quiet_NaN() : r;
	r = (x != x || y != y) ? std::numeric_limits<float>::quiet_NaN() : r;
	r = (y == 0.0f || x == 1.0f) ? 1.0f : r;
	return r;
}

// x reduced by the nearest multiple k of pi/2: x = k pi/2 + r, |r| <= pi/4
// (a little more from rounding), in double, and k mod 4. pi/2 is split into
// a head of 33 significant bits (k * head is exact for |k| < 2^20) and its
// tail; k comes from rounding by the 1.5 * 2^52 shifter, whose low bits then
// hold k. Past |x| = 1e15 (where the shifter stops rounding) x is taken as
// 0: Vulkan bounds sin and cos only inside [-pi, pi].
struct QuarterTurns {
	double r;
	uint32_t quadrant;
};
inline QuarterTurns ReduceQuarterTurns(float x) {
	const double xd = std::fabs(x) < 1e15f ? double(x) : 0.0;
	const double shifter = 6755399441055744.0;
	const double t = xd * 0.6366197723675814 + shifter;
	const double k = t - shifter;
	const double r = (xd - k * 1.5707963267341256) - k * 6.077100506506192e-11;
	return {r, uint32_t(std::bit_cast<uint64_t>(t)) & 3u};
}

// sin(r) and cos(r) for |r| <= pi/4 + a little, in double: Taylor series to
// r^13 and r^14, relative errors below 1e-13. r (1 + ...) keeps the sign of
// a zero r.
inline double SinQuarter(double r) {
	const double r2 = r * r;
	return r * (1.0 +
	            r2 * (-1.0 / 6 +
	                  r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 * (1.0 / 362880 + r2 * (-1.0 / 39916800 +
	                                                                                   r2 * (1.0 / 6227020800.0)))))));
}
inline double CosQuarter(double r) {
	const double r2 = r * r;
	return 1.0 +
	       r2 * (-1.0 / 2 +
	             r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40320 + r2 * (-1.0 / 3628800 +
	                                                                           r2 * (1.0 / 479001600.0 +
	                                                                                 r2 * (-1.0 / 87178291200.0)))))));
}

// sin and cos rounded to float once: within 1 ULP of the correctly rounded
// value for |x| < 1e5 (the test sweeps it), far inside Vulkan's 2^-11
// absolute error on [-pi, pi]; sin(-0) = -0; inf and NaN give NaN. Straight-
// line arithmetic and selects, so the ALU's lane loops vectorize (glibc's
// sinf and cosf stay one call a lane: a tenth of a shading benchmark's time).
inline float Sin(float x) {
	const QuarterTurns q = ReduceQuarterTurns(x);
	const double s = SinQuarter(q.r), c = CosQuarter(q.r);
	const double v = (q.quadrant & 1u) ? c : s;
	const float result = float((q.quadrant & 2u) ? -v : v);
	return std::isfinite(x) ? result : x - x;
}
inline float Cos(float x) {
	const QuarterTurns q = ReduceQuarterTurns(x);
	const double s = SinQuarter(q.r), c = CosQuarter(q.r);
	const double v = (q.quadrant & 1u) ? s : c;
	const float result = float(((q.quadrant + 1u) & 2u) ? -v : v);
	return std::isfinite(x) ? result : x - x;
}

}  // namespace tessera::shader::fast_math
