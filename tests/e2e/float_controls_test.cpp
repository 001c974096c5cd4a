// Float controls (VkPhysicalDeviceFloatControlsProperties, in
// VkPhysicalDeviceVulkan12Properties): shaders that declare
// SignedZeroInfNanPreserve or RoundingModeRTE for 16, 32 and 64-bit floats
// run on Tessera and on lavapipe with the same inputs, and every result
// either driver leaves must be one that the Vulkan precision rules allow for
// those inputs, as the host computes them. What the rules leave open is not
// checked: 0 / 0, a remainder by zero, a quotient whose divisor is outside
// OpFDiv's range. Without a rounding mode an inexact result may be either
// neighbour of the exact one, and a subnormal result may be flushed to zero.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// Every shader here runs 3 workgroups of 64 invocations.
constexpr uint32_t kGroups = 3;
constexpr uint32_t kInvocations = kGroups * 64;
// What the outputs start as, so that a word the shader never wrote shows.
constexpr uint8_t kFill = 0xcd;

// ---- Floating-point formats on the host ----

// The width of a SPIR-V OpTypeFloat: IEEE 754 binary16, binary32 or binary64.
enum class Width { k16 = 16, k32 = 32, k64 = 64 };

int MantissaBits(Width w) { return w == Width::k16 ? 10 : w == Width::k32 ? 23 : 52; }
int Bias(Width w) { return w == Width::k16 ? 15 : w == Width::k32 ? 127 : 1023; }
uint64_t SignBit(Width w) { return uint64_t(1) << (int(w) - 1); }
uint64_t Infinity(Width w) { return uint64_t(2 * Bias(w) + 1) << MantissaBits(w); }
uint64_t MaxFinite(Width w) { return Infinity(w) - 1; }
double MinNormal(Width w) { return std::ldexp(1.0, 1 - Bias(w)); }

double Decode(Width w, uint64_t bits) {
	if (w == Width::k64) return std::bit_cast<double>(bits);
	if (w == Width::k32) return std::bit_cast<float>(uint32_t(bits));
	const int exponent = int(bits >> 10) & 31;
	const double mantissa = double(bits & 1023);
	const double magnitude = exponent == 31  ? (mantissa != 0 ? NAN : INFINITY)
	                         : exponent == 0 ? std::ldexp(mantissa, -24)
	                                         : std::ldexp(1024 + mantissa, exponent - 25);
	return bits & 0x8000 ? -magnitude : magnitude;
}

// v rounded to nearest, ties to even (exact when v is representable).
uint64_t Nearest(Width w, double v) {
	if (w == Width::k64) return std::bit_cast<uint64_t>(v);
	if (w == Width::k32) return std::bit_cast<uint32_t>(static_cast<float>(v));
	if (std::isnan(v)) return 0x7e00;
	const uint64_t sign = std::signbit(v) ? 0x8000 : 0;
	const double a = std::fabs(v);
	if (a >= 65520) return sign | 0x7c00;  // 65520 is halfway from 65504 (odd) to 2^16
	// Subnormals are multiples of 2^-24; the largest rounds up to 2^-14, 0x400.
	if (a < std::ldexp(1.0, -14)) return sign | uint64_t(std::nearbyint(std::ldexp(a, 24)));
	int exponent;
	std::frexp(a, &exponent);  // a in [2^(exponent - 1), 2^exponent)
	double m = std::nearbyint(std::ldexp(a, 11 - exponent));
	if (m == 2048) {  // rounded up to the next power of two
		m = 1024;
		++exponent;
	}
	return sign | uint64_t(exponent + 14) << 10 | uint64_t(m - 1024);
}

// The next value towards +infinity (up) or -infinity from a finite one.
uint64_t Next(Width w, uint64_t bits, bool up) {
	const uint64_t sign = SignBit(w);
	if ((bits & ~sign) == 0) return up ? 1 : sign | 1;
	return bool(bits & sign) == up ? bits - 1 : bits + 1;
}

std::string Describe(Width w, uint64_t bits) {
	std::ostringstream out;
	out.precision(17);
	out << Decode(w, bits) << " (0x" << std::hex << bits << ")";
	return out.str();
}

// The distance between the values of width w around x, counted as if the
// mantissa had `mantissa_bits` (binary64 division is held to binary32's
// precision). Past the largest finite value, the spacing below it.
double UlpAt(Width w, double x, int mantissa_bits) {
	const int e = std::clamp(x == 0 ? INT_MIN + 1 : std::ilogb(x), 1 - Bias(w), Bias(w));
	return std::ldexp(1.0, e - mantissa_bits);
}

// Error-free transformations: a + b = s + e and a * b = p + e exactly (as
// long as nothing overflows or underflows).
void TwoSum(double a, double b, double& s, double& e) {
	s = a + b;
	const double bb = s - a;
	e = (a - (s - bb)) + (b - bb);
}
void TwoProduct(double a, double b, double& p, double& e) {
	p = a * b;
	e = std::fma(a, b, -p);
}

// ---- What the precision rules allow ----

// The results allowed for one output: anything (the rules leave it open),
// any NaN, one of a few bit patterns (+0 and -0 differ), or a value within
// some ULPs of the infinitely precise result.
struct Allowed {
	enum class Kind { Anything, Nan, OneOf, Near } kind = Kind::Anything;
	std::vector<uint64_t> values;  // OneOf
	double exact = 0;              // Near: the infinitely precise result,
	double ulps = 0;               // how many ULPs from it,
	int ulp_mantissa = 0;          // ULPs of a format with this many mantissa bits,
	bool overflow = false;         // the largest finite value or infinity of its sign also allowed,
	bool flush = false;            // and a zero, for a subnormal result

	bool Accepts(Width w, uint64_t got) const {
		const double value = Decode(w, got);
		switch (kind) {
		case Kind::Anything: return true;
		case Kind::Nan: return std::isnan(value);
		case Kind::OneOf: return std::find(values.begin(), values.end(), got) != values.end();
		case Kind::Near:
			if (std::isnan(value)) return false;
			if (flush && value == 0) return true;
			if (overflow && (got & ~SignBit(w)) >= MaxFinite(w) && std::signbit(value) == std::signbit(exact))
				return true;
			return std::isfinite(value) && std::fabs(value - exact) <= ulps * UlpAt(w, exact, ulp_mantissa);
		}
		return false;
	}
	std::string Describe(Width w) const {
		std::ostringstream out;
		switch (kind) {
		case Kind::Anything: return "anything";
		case Kind::Nan: return "a NaN";
		case Kind::OneOf:
			out << "one of";
			for (uint64_t v : values) out << " " << ::Describe(w, v);
			return out.str();
		case Kind::Near:
			out.precision(17);
			out << "within " << ulps << " ULP of " << exact << (overflow ? ", or overflow" : "")
			    << (flush ? ", or zero" : "");
			return out.str();
		}
		return "";
	}
};

Allowed Anything() { return {}; }
Allowed AnyNan() { return {Allowed::Kind::Nan}; }
Allowed OneOf(std::vector<uint64_t> values) { return {Allowed::Kind::OneOf, std::move(values)}; }
Allowed Near(Width w, double exact, double ulps, int ulp_mantissa) {
	Allowed allowed{Allowed::Kind::Near, {}, exact, ulps, ulp_mantissa};
	const double tolerance = ulps * UlpAt(w, exact, ulp_mantissa);
	allowed.overflow = std::fabs(exact) + tolerance > Decode(w, MaxFinite(w));
	allowed.flush = std::fabs(exact) - tolerance < MinNormal(w);
	return allowed;
}

// A result that IEEE 754 makes exact: an infinity, a zero, a NaN or a value
// computed exactly on the host.
Allowed Exactly(Width w, double v) { return std::isnan(v) ? AnyNan() : OneOf({Nearest(w, v)}); }

// An operand passed on unchanged (a bit-preserving instruction): the same
// bits, or for a NaN any NaN.
Allowed Same(Width w, uint64_t bits) { return std::isnan(Decode(w, bits)) ? AnyNan() : OneOf({bits}); }

// "Correctly rounded" with no RoundingMode execution mode (Vulkan 1.4,
// "Precision of Individual Operations"): the infinitely precise result
// hi + lo (hi nonzero; |lo| below half a binary64 ULP of hi) if it is
// representable, else either value next to it; past the largest finite
// value, that value or infinity; a subnormal result may be flushed to zero.
Allowed CorrectlyRounded(Width w, double hi, double lo) {
	const uint64_t nearest = Nearest(w, hi);
	const double value = Decode(w, nearest);
	if (std::isinf(value)) {
		const uint64_t sign = std::signbit(hi) ? SignBit(w) : 0;
		return OneOf({sign | MaxFinite(w), sign | Infinity(w)});
	}
	const double beyond = (hi - value) + lo;  // hi - value is exact: value is within a ULP of hi
	std::vector<uint64_t> values = {nearest};
	if (beyond != 0) values.push_back(Next(w, nearest, beyond > 0));
	if (std::fabs(hi) < MinNormal(w)) values.insert(values.end(), {0, SignBit(w)});
	return OneOf(values);
}

// v (a binary64 value) correctly rounded to w.
Allowed Rounded(Width w, double v) {
	if (!std::isfinite(v) || v == 0) return Exactly(w, v);
	return CorrectlyRounded(w, v, 0);
}

// The same allowed results, each converted exactly to a wider width (or to
// a narrower one that holds them all).
Allowed Converted(const Allowed& allowed, Width from, Width to) {
	if (allowed.kind != Allowed::Kind::OneOf) return allowed;
	std::vector<uint64_t> values;
	for (uint64_t v : allowed.values) values.push_back(Nearest(to, Decode(from, v)));
	return OneOf(values);
}

// OpFAdd and OpFSub: correctly rounded. An exact zero sum of nonzero values
// is +0 (IEEE 754 gives -0 only when rounding towards -infinity).
Allowed Add(Width w, double a, double b) {
	if (!std::isfinite(a) || !std::isfinite(b)) return Exactly(w, a + b);
	double hi, lo;
	TwoSum(a, b, hi, lo);
	if (hi == 0) return Exactly(w, a + b);
	return CorrectlyRounded(w, hi, lo);
}

// OpFMul and OpVectorTimesScalar: correctly rounded.
Allowed Mul(Width w, double a, double b) {
	if (!std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) return Exactly(w, a * b);
	double hi, lo;
	TwoProduct(a, b, hi, lo);
	const uint64_t sign = std::signbit(a) != std::signbit(b) ? SignBit(w) : 0;
	if (hi == 0) return OneOf({0, SignBit(w), sign | 1});  // below binary64's range: 0 or the least subnormal
	return CorrectlyRounded(w, hi, lo);
}

// dot((a, b), (b, a)) and the first row of mat2((a, b), (b, a)) * (b, a):
// inherited from a * b + b * a. Where a product is subnormal it may be
// flushed to zero inside the formula, which leaves the sum open.
Allowed TwiceProduct(Width w, double a, double b) {
	if (!std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) return Exactly(w, a * b + b * a);
	double hi, lo;
	TwoProduct(a, b, hi, lo);
	if (std::fabs(hi) < MinNormal(w)) return Anything();
	return CorrectlyRounded(w, 2 * hi, 2 * lo);
}

// OpFDiv: 2.5 ULP where the divisor's magnitude is in [2^-126, 2^126]
// ([2^-14, 2^14] for binary16; binary64 is held to binary32's precision),
// and a nonzero dividend over a zero divisor gives the signed infinity.
// 0 / 0 is not mathematically defined.
Allowed Div(Width w, double a, double b) {
	if (std::isnan(a) || std::isnan(b)) return AnyNan();
	if (b == 0) return a == 0 ? Anything() : Exactly(w, a / b);
	const Width precision = w == Width::k16 ? Width::k16 : Width::k32;
	const double limit = std::ldexp(1.0, Bias(precision) - 1);
	if (std::fabs(b) > limit || std::fabs(b) < 1 / limit) return Anything();  // out of range, inf / inf too
	if (std::isinf(a) || a == 0) return Exactly(w, a / b);
	const double quotient = a / b;
	if (std::isinf(quotient)) return CorrectlyRounded(w, quotient, 0);  // binary64 overflow
	return Near(w, quotient, 2.5, MantissaBits(precision));
}

// OpFRem and OpFMod of binary32 values: inherited from a - b * trunc(a / b)
// and a - b * floor(a / b), so exact only where the quotient, anywhere
// within OpFDiv's 2.5 ULP (or flushed to zero), has the same trunc or floor
// n, and b * n is exact. SPIR-V leaves the result undefined for b = 0 and
// does not give a zero remainder a sign; an infinity or NaN in the formula
// allows anything.
Allowed Remainder(double a, double b, bool floored) {
	const Width w = Width::k32;
	if (!std::isfinite(a) || !std::isfinite(b) || b == 0) return Anything();
	const double limit = std::ldexp(1.0, 126);
	if (std::fabs(b) > limit || std::fabs(b) < 1 / limit) return Anything();
	const double q = a / b;
	if (std::fabs(q) >= std::ldexp(1.0, MantissaBits(w) - 1)) return Anything();
	const auto integer = [floored](double v) { return floored ? std::floor(v) : std::trunc(v); };
	const double n = integer(q), slack = 3 * UlpAt(w, q, MantissaBits(w));
	if (integer(q - slack) != n || integer(q + slack) != n) return Anything();
	if (std::fabs(q) - slack < MinNormal(w) && integer(0) != n) return Anything();
	const double product = b * n;  // exact in binary64: 24 and 22 significant bits
	if (Decode(w, Nearest(w, product)) != product) return Anything();
	double hi, lo;
	TwoSum(a, -product, hi, lo);
	if (hi == 0) return OneOf({0, SignBit(w)});
	return CorrectlyRounded(w, hi, lo);
}

// GLSL.std.450 Fma: inherited from OpFMul then OpFAdd, so a fused and an
// unfused result are both allowed; checked where they agree, where a * b is
// exact.
Allowed Fma(Width w, double a, double b, double c) {
	if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c)) return Exactly(w, std::fma(a, b, c));
	if (a == 0 || b == 0) return Add(w, a * b, c);
	double p, e;
	TwoProduct(a, b, p, e);
	if (e != 0 || Decode(w, Nearest(w, p)) != p || std::fabs(p) < MinNormal(w)) return Anything();
	return Add(w, p, c);
}

// GLSL.std.450 Round: a fraction of exactly 0.5 may go either way.
Allowed Round(Width w, double a) {
	if (std::fabs(a - std::trunc(a)) == 0.5) return OneOf({Nearest(w, std::floor(a)), Nearest(w, std::ceil(a))});
	return Exactly(w, std::round(a));
}

// GLSL.std.450 FSign: 1, -1, or 0 (of either sign) for a zero; NaN unspecified.
Allowed Sign(Width w, double a) {
	if (std::isnan(a)) return Anything();
	if (a == 0) return OneOf({0, SignBit(w)});
	return Exactly(w, a > 0 ? 1 : -1);
}

// GLSL.std.450 Sqrt: inherited from 1 / inversesqrt (2 ULP, then OpFDiv's
// 2.5 ULP) for positive values; IEEE 754 for the rest.
Allowed Sqrt(Width w, double a) {
	if (std::isnan(a) || a < 0) return AnyNan();
	if (a == 0 || std::isinf(a)) return Exactly(w, a);
	return Near(w, std::sqrt(a), 7, MantissaBits(w));
}

// GLSL.std.450 FMin and FMax: exact; which zero of +0 and -0, and the result
// for a NaN operand, are unspecified.
Allowed MinMax(Width w, double a, double b, bool max) {
	if (std::isnan(a) || std::isnan(b)) return Anything();
	if (a == 0 && b == 0) return OneOf({0, SignBit(w)});
	return Exactly(w, max ? std::fmax(a, b) : std::fmin(a, b));
}

// ---- Running a shader on both drivers ----

// What a shader needs: the properties that allow its execution modes, and
// the features of its capabilities.
struct Needs {
	std::vector<Width> preserve;  // SignedZeroInfNanPreserve widths
	std::vector<Width> rte;       // RoundingModeRTE widths
	bool float16 = false;         // shaderFloat16
	bool float64 = false;         // shaderFloat64
};

VkBool32 PreserveProperty(const VkPhysicalDeviceVulkan12Properties& p, Width w) {
	return w == Width::k16   ? p.shaderSignedZeroInfNanPreserveFloat16
	       : w == Width::k32 ? p.shaderSignedZeroInfNanPreserveFloat32
	                         : p.shaderSignedZeroInfNanPreserveFloat64;
}
VkBool32 RteProperty(const VkPhysicalDeviceVulkan12Properties& p, Width w) {
	return w == Width::k16   ? p.shaderRoundingModeRTEFloat16
	       : w == Width::k32 ? p.shaderRoundingModeRTEFloat32
	                         : p.shaderRoundingModeRTEFloat64;
}

// The driver must report the properties and features before a shader may
// use them (VUID-RuntimeSpirv-shaderSignedZeroInfNanPreserveFloat32-06294
// and its siblings).
void RequireSupport(Driver driver, const Needs& needs) {
	auto probe = Context::Create(driver);
	REQUIRE(probe);
	VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p12};
	vkGetPhysicalDeviceProperties2(probe->physical_device(), &p2);
	VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
	vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
	INFO(DriverName(driver));
	for (Width w : needs.preserve) {
		INFO("shaderSignedZeroInfNanPreserveFloat" << int(w));
		REQUIRE(PreserveProperty(p12, w) == VK_TRUE);
	}
	for (Width w : needs.rte) {
		INFO("shaderRoundingModeRTEFloat" << int(w));
		REQUIRE(RteProperty(p12, w) == VK_TRUE);
	}
	if (needs.float16) REQUIRE(f12.shaderFloat16 == VK_TRUE);
	if (needs.float64) REQUIRE(f2.features.shaderFloat64 == VK_TRUE);
}

using Buffers = std::vector<std::vector<uint8_t>>;

// Runs a corpus shader over storage buffers (binding b starts as
// initial[b]) on both drivers; returns {Tessera's, lavapipe's} buffers.
std::pair<Buffers, Buffers> RunBoth(const char* shader, const Needs& needs, const Buffers& initial) {
	RequireSupport(Driver::Tessera, needs);
	RequireSupport(Driver::Lavapipe, needs);
	VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	f12.shaderFloat16 = needs.float16;
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
	f2.features.shaderFloat64 = needs.float64;
	ContextOptions options;
	options.device_features = &f2;
	auto run = [&](Driver driver) {
		INFO(DriverName(driver));
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		Buffers out = RunCorpusKernel(*ctx, TESSERA_SHADER_DIR, shader, initial, kGroups);
		REQUIRE(!out.empty());
		CHECK(ctx->validation_errors() == 0);
		return out;
	};
	Buffers ours = run(Driver::Tessera);
	Buffers reference = run(Driver::Lavapipe);
	return {ours, reference};
}

// The element at `index` of a buffer of `bytes`-wide elements.
uint64_t Element(const std::vector<uint8_t>& buffer, size_t index, size_t bytes) {
	uint64_t value = 0;
	std::memcpy(&value, buffer.data() + index * bytes, bytes);
	return value;
}

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
	std::vector<uint8_t> bytes(values.size() * sizeof(T));
	std::memcpy(bytes.data(), values.data(), bytes.size());
	return bytes;
}

// One output of a shader: its name, its width, and what invocation i may
// leave there.
struct Output {
	std::string name;
	Width width;
	std::function<Allowed(uint32_t i)> allowed;
};

// Checks one driver's results, results[i * outputs.size() + k] for output k
// of invocation i; a mismatch names the first few wrong results and the
// operands that made them.
void CheckOutputs(Driver driver, const std::vector<uint64_t>& results, const std::vector<Output>& outputs,
                  const std::function<std::string(uint32_t i)>& operands) {
	REQUIRE(results.size() == kInvocations * outputs.size());
	std::ostringstream report;
	size_t wrong = 0;
	for (uint32_t i = 0; i < kInvocations; ++i)
		for (size_t k = 0; k < outputs.size(); ++k) {
			const Output& output = outputs[k];
			const uint64_t got = results[i * outputs.size() + k];
			const Allowed allowed = output.allowed(i);
			if (allowed.Accepts(output.width, got)) continue;
			if (wrong++ < 12)
				report << "\n  " << output.name << " for " << operands(i) << ": got " << Describe(output.width, got)
				       << ", allowed " << allowed.Describe(output.width);
		}
	INFO(DriverName(driver) << ": " << wrong << " results the precision rules do not allow:" << report.str());
	CHECK(wrong == 0);
}

// ---- SignedZeroInfNanPreserve ----

// The operands of the preserve shaders: every ordered pair of 12 special
// values (144 invocations), then `extra` pairs, then random ones.
struct Operands {
	Width width;
	std::vector<uint64_t> x, y;
	double X(uint32_t i) const { return Decode(width, x[i]); }
	double Y(uint32_t i) const { return Decode(width, y[i]); }
	std::string Describe(uint32_t i) const {
		return "invocation " + std::to_string(i) + " (x = " + ::Describe(width, x[i]) +
		       ", y = " + ::Describe(width, y[i]) + ")";
	}
};

Operands SpecialPairs(Width w, const std::vector<std::pair<double, double>>& extra, uint32_t seed) {
	const double max = Decode(w, MaxFinite(w)), min = MinNormal(w);
	const double specials[] = {0.0, -0.0, 1.0, -1.0, 2.5, -0.75, INFINITY, -INFINITY, NAN, max, min, -min};
	Operands operands{w};
	for (double a : specials)
		for (double b : specials) operands.x.push_back(Nearest(w, a)), operands.y.push_back(Nearest(w, b));
	for (const auto& [a, b] : extra) operands.x.push_back(Nearest(w, a)), operands.y.push_back(Nearest(w, b));
	std::mt19937 rng(seed);
	std::uniform_real_distribution<double> values(-50, 50);
	while (operands.x.size() < kInvocations)
		operands.x.push_back(Nearest(w, values(rng))), operands.y.push_back(Nearest(w, values(rng)));
	return operands;
}

// Outputs 0-13 of the preserve shaders: instructions that must respect
// SignedZeroInfNanPreserve (Vulkan 1.4, "Precision and Operation of SPIR-V
// Instructions": the bit-preserving operations, OpFConvert, OpFNegate,
// OpFAdd, OpFSub, OpFMul, OpFDiv, OpVectorTimesScalar,
// OpMatrixTimesVector, OpDot). Output 10 is a round trip through `via`.
std::vector<Output> MustRespect(const Operands& ops, Width via) {
	const Width w = ops.width;
	return {
	    {"x + y", w, [&ops, w](uint32_t i) { return Add(w, ops.X(i), ops.Y(i)); }},
	    {"x - y", w, [&ops, w](uint32_t i) { return Add(w, ops.X(i), -ops.Y(i)); }},
	    {"x * y", w, [&ops, w](uint32_t i) { return Mul(w, ops.X(i), ops.Y(i)); }},
	    {"x / y", w, [&ops, w](uint32_t i) { return Div(w, ops.X(i), ops.Y(i)); }},
	    {"-x", w, [&ops, w](uint32_t i) { return std::isnan(ops.X(i)) ? AnyNan() : OneOf({ops.x[i] ^ SignBit(w)}); }},
	    {"OpSelect(i odd, x, y)", w, [&ops, w](uint32_t i) { return Same(w, i & 1 ? ops.x[i] : ops.y[i]); }},
	    {"OpPhi: x > y ? y : x", w,
	     [&ops, w](uint32_t i) { return Same(w, ops.X(i) > ops.Y(i) ? ops.y[i] : ops.x[i]); }},
	    {"x through composites and OpCopyObject", w, [&ops, w](uint32_t i) { return Same(w, ops.x[i]); }},
	    {"y through OpVectorInsertDynamic, OpVectorExtractDynamic", w,
	     [&ops, w](uint32_t i) { return Same(w, ops.y[i]); }},
	    {"x through OpTranspose", w, [&ops, w](uint32_t i) { return Same(w, ops.x[i]); }},
	    {"x converted to binary" + std::to_string(int(via)) + " and back", w,
	     [&ops, w, via](uint32_t i) { return Converted(Rounded(via, ops.X(i)), via, w); }},
	    {"OpVectorTimesScalar", w, [&ops, w](uint32_t i) { return Mul(w, ops.X(i), ops.Y(i)); }},
	    {"dot((x, y), (y, x))", w, [&ops, w](uint32_t i) { return TwiceProduct(w, ops.X(i), ops.Y(i)); }},
	    {"OpMatrixTimesVector", w, [&ops, w](uint32_t i) { return TwiceProduct(w, ops.X(i), ops.Y(i)); }},
	};
}

// The last four outputs of each preserve shader: the matrix instructions
// that must respect the mode. OpMatrixTimesScalar and OpOuterProduct give
// x * y, OpVectorTimesMatrix and OpMatrixTimesMatrix x * y + y * x.
std::vector<Output> MatrixOutputs(const Operands& ops) {
	const Width w = ops.width;
	return {
	    {"OpMatrixTimesScalar", w, [&ops, w](uint32_t i) { return Mul(w, ops.X(i), ops.Y(i)); }},
	    {"OpVectorTimesMatrix", w, [&ops, w](uint32_t i) { return TwiceProduct(w, ops.X(i), ops.Y(i)); }},
	    {"OpMatrixTimesMatrix", w, [&ops, w](uint32_t i) { return TwiceProduct(w, ops.X(i), ops.Y(i)); }},
	    {"OpOuterProduct", w, [&ops, w](uint32_t i) { return Mul(w, ops.X(i), ops.Y(i)); }},
	};
}

// A value passed through OpFunctionCall and OpReturnValue (bit-preserving).
Output ThroughFunction(const Operands& ops) {
	return {"x through OpFunctionCall, OpReturnValue", ops.width,
	        [&ops](uint32_t i) { return Same(ops.width, ops.x[i]); }};
}

// clang-format off
const char* const kFlagNames[16] = {
    "FOrdEqual",         "FUnordEqual",         "FOrdNotEqual",         "FUnordNotEqual",
    "FOrdLessThan",      "FUnordLessThan",      "FOrdGreaterThan",      "FUnordGreaterThan",
    "FOrdLessThanEqual", "FUnordLessThanEqual", "FOrdGreaterThanEqual", "FUnordGreaterThanEqual",
    "IsNan(x)",          "IsInf(x)",            "IsNan(y)",             "IsInf(y)"};
// clang-format on

// The comparison word of the preserve shaders (their layout comments): the
// correct result of each (Vulkan: "Correct result"), NaNs unordered.
uint32_t Flags(double x, double y) {
	const bool unordered = std::isnan(x) || std::isnan(y);
	// clang-format off
	const bool holds[16] = {
	    x == y,        unordered || x == y, !unordered && x != y, x != y,
	    x < y,         unordered || x < y,  x > y,                unordered || x > y,
	    x <= y,        unordered || x <= y, x >= y,               unordered || x >= y,
	    std::isnan(x), std::isinf(x),       std::isnan(y),        std::isinf(y)};
	// clang-format on
	uint32_t flags = 0;
	for (uint32_t b = 0; b < 16; ++b) flags |= uint32_t(holds[b]) << b;
	return flags;
}

void CheckFlags(Driver driver, const std::vector<uint8_t>& buffer, const Operands& ops) {
	std::ostringstream report;
	size_t wrong = 0;
	for (uint32_t i = 0; i < kInvocations; ++i) {
		const uint32_t got = uint32_t(Element(buffer, i, 4)), expected = Flags(ops.X(i), ops.Y(i));
		for (uint32_t b = 0; b < 16; ++b)
			if (((got ^ expected) >> b & 1) && wrong++ < 12)
				report << "\n  " << kFlagNames[b] << " for " << ops.Describe(i) << ": got " << (got >> b & 1);
		if (got >> 16 && wrong++ < 12) report << "\n  bits 16-31 set for " << ops.Describe(i);
	}
	INFO(DriverName(driver) << ": " << wrong << " wrong comparisons:" << report.str());
	CHECK(wrong == 0);
}

// The results of both drivers, one element per output.
std::vector<uint64_t> Elements(const std::vector<uint8_t>& buffer, size_t bytes) {
	std::vector<uint64_t> elements(buffer.size() / bytes);
	for (size_t i = 0; i < elements.size(); ++i) elements[i] = Element(buffer, i, bytes);
	return elements;
}

// ---- RoundingModeRTE ----

// An RTE result: exactly the value rounded to nearest, ties to even; a
// subnormal one may still be flushed to zero (no DenormPreserve).
Allowed NearestEven(Width w, uint64_t bits) {
	if (std::fabs(Decode(w, bits)) < MinNormal(w) && Decode(w, bits) != 0) return OneOf({bits, 0, SignBit(w)});
	return OneOf({bits});
}

// Checks RoundingModeRTE results against the host's, rounded to nearest,
// ties to even: expected[i * names.size() + k] for output k of invocation i.
void CheckNearestEven(Driver driver, const std::vector<uint64_t>& results, const std::vector<std::string>& names,
                      const std::vector<Width>& widths, const std::vector<uint64_t>& expected,
                      const std::function<std::string(uint32_t i)>& operands) {
	std::vector<Output> outputs;
	for (size_t k = 0; k < names.size(); ++k)
		outputs.push_back({names[k], widths[k], [&expected, &widths, k, n = names.size()](uint32_t i) {
			                   return NearestEven(widths[k], expected[i * n + k]);
		                   }});
	CheckOutputs(driver, results, outputs, operands);
}

// Random values of moderate magnitude with every mantissa bit in play, so
// that sums and products need rounding without overflowing or becoming
// subnormal.
template <typename Float>
Float RandomMantissa(std::mt19937_64& rng, int min_exponent, int max_exponent) {
	std::uniform_real_distribution<double> mantissa(1, 2);
	std::uniform_int_distribution<int> exponent(min_exponent, max_exponent);
	const Float value = Float(std::ldexp(mantissa(rng), exponent(rng)));
	return rng() & 1 ? -value : value;
}

// Binary16 results travel in the low half of a word whose high half is
// +0: checks that high half in the words of the binary16 outputs, then keeps
// only their low halves.
void CheckHighHalves(Driver driver, std::vector<uint64_t>& results, const std::vector<Width>& widths) {
	size_t wrong = 0;
	for (size_t n = 0; n < results.size(); ++n)
		if (widths[n % widths.size()] == Width::k16) {
			wrong += results[n] >> 16 != 0;
			results[n] &= 0xffff;
		}
	INFO(DriverName(driver) << ": " << wrong << " binary16 results with bits 16-31 set");
	CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("Tessera reports SignedZeroInfNanPreserve and RoundingModeRTE for 16, 32 and 64-bit floats",
          "[compute][features][float_controls]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkPhysicalDeviceFloatControlsProperties controls{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &controls};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p2);
	VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
	p2.pNext = &p12;
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p2);
	for (Width w : {Width::k16, Width::k32, Width::k64}) {
		INFO("binary" << int(w));
		CHECK(PreserveProperty(p12, w) == VK_TRUE);
		CHECK(RteProperty(p12, w) == VK_TRUE);
	}
	// The core structure and the extension's structure tell the same.
	CHECK(controls.shaderSignedZeroInfNanPreserveFloat16 == p12.shaderSignedZeroInfNanPreserveFloat16);
	CHECK(controls.shaderSignedZeroInfNanPreserveFloat32 == p12.shaderSignedZeroInfNanPreserveFloat32);
	CHECK(controls.shaderSignedZeroInfNanPreserveFloat64 == p12.shaderSignedZeroInfNanPreserveFloat64);
	CHECK(controls.shaderRoundingModeRTEFloat16 == p12.shaderRoundingModeRTEFloat16);
	CHECK(controls.shaderRoundingModeRTEFloat32 == p12.shaderRoundingModeRTEFloat32);
	CHECK(controls.shaderRoundingModeRTEFloat64 == p12.shaderRoundingModeRTEFloat64);
}

TEST_CASE("SignedZeroInfNanPreserve 32 keeps signed zeros, infinities and NaNs through arithmetic and comparisons",
          "[compute][features][float_controls]") {
	// Remainders on both sides of zero, then the random pairs.
	const Operands ops = SpecialPairs(Width::k32,
	                                  {{7, 2.5},
	                                   {-7, 2.5},
	                                   {7, -2.5},
	                                   {-7, -2.5},
	                                   {5.5, 2},
	                                   {-5.5, 2},
	                                   {100.25, 0.5},
	                                   {1, 3},
	                                   {-1, 3},
	                                   {0.5, -3},
	                                   {-0.0, 3},
	                                   {-0.0, -3}},
	                                  32);
	std::vector<float> in;
	for (uint32_t i = 0; i < kInvocations; ++i) in.push_back(float(ops.X(i))), in.push_back(float(ops.Y(i)));
	std::vector<Output> outputs = MustRespect(ops, Width::k16);
	// Outputs 14-26: instructions that "may also respect" the mode (Vulkan
	// 1.4 lists none of them), checked where IEEE 754's result is one the
	// precision tables allow.
	const Width w = Width::k32;
	const auto unary = [&ops, w](const char* name, std::function<double(double)> f) {
		return Output{name, w, [&ops, w, f](uint32_t i) { return Exactly(w, f(ops.X(i))); }};
	};
	outputs.insert(outputs.end(),
	               {
	                   {"OpFRem(x, y)", w, [&ops, w](uint32_t i) { return Remainder(ops.X(i), ops.Y(i), false); }},
	                   {"OpFMod(x, y)", w, [&ops, w](uint32_t i) { return Remainder(ops.X(i), ops.Y(i), true); }},
	                   unary("FAbs(x)", [](double v) { return std::fabs(v); }),
	                   {"FSign(x)", w, [&ops, w](uint32_t i) { return Sign(w, ops.X(i)); }},
	                   unary("Floor(x)", [](double v) { return std::floor(v); }),
	                   unary("Ceil(x)", [](double v) { return std::ceil(v); }),
	                   unary("Trunc(x)", [](double v) { return std::trunc(v); }),
	                   {"Round(x)", w, [&ops, w](uint32_t i) { return Round(w, ops.X(i)); }},
	                   unary("RoundEven(x)", [](double v) { return std::nearbyint(v); }),
	                   {"Fma(x, y, x)", w, [&ops, w](uint32_t i) { return Fma(w, ops.X(i), ops.Y(i), ops.X(i)); }},
	                   {"Sqrt(x)", w, [&ops, w](uint32_t i) { return Sqrt(w, ops.X(i)); }},
	                   {"FMin(x, y)", w, [&ops, w](uint32_t i) { return MinMax(w, ops.X(i), ops.Y(i), false); }},
	                   {"FMax(x, y)", w, [&ops, w](uint32_t i) { return MinMax(w, ops.X(i), ops.Y(i), true); }},
	                   ThroughFunction(ops),
	               });
	const std::vector<Output> matrix = MatrixOutputs(ops);
	outputs.insert(outputs.end(), matrix.begin(), matrix.end());
	REQUIRE(outputs.size() == 32);
	const Needs needs{.preserve = {Width::k32, Width::k16}, .float16 = true};
	auto [ours, reference] = RunBoth("float_controls_preserve32.spv", needs,
	                                 {Bytes(in), std::vector<uint8_t>(kInvocations * outputs.size() * 4, kFill),
	                                  std::vector<uint8_t>(kInvocations * 4, kFill)});
	const auto describe = [&ops](uint32_t i) { return ops.Describe(i); };
	CheckOutputs(Driver::Tessera, Elements(ours[1], 4), outputs, describe);
	CheckFlags(Driver::Tessera, ours[2], ops);
	CheckOutputs(Driver::Lavapipe, Elements(reference[1], 4), outputs, describe);
	CheckFlags(Driver::Lavapipe, reference[2], ops);
}

TEST_CASE("SignedZeroInfNanPreserve 16 keeps signed zeros, infinities and NaNs of binary16 values",
          "[compute][features][float_controls]") {
	const Operands ops = SpecialPairs(Width::k16, {{7, 2.5}, {-7, -2.5}, {2049, 1}, {65504, -65504}}, 16);
	std::vector<uint32_t> in;
	for (uint32_t i = 0; i < kInvocations; ++i) in.push_back(uint32_t(ops.x[i] | ops.y[i] << 16));
	std::vector<Output> outputs = MustRespect(ops, Width::k32);
	outputs.push_back(ThroughFunction(ops));
	outputs.push_back({"x converted to binary32", Width::k32,
	                   [&ops](uint32_t i) { return Same(Width::k32, Nearest(Width::k32, ops.X(i))); }});
	const std::vector<Output> matrix = MatrixOutputs(ops);
	outputs.insert(outputs.end(), matrix.begin(), matrix.end());
	REQUIRE(outputs.size() == 20);
	const Needs needs{.preserve = {Width::k16, Width::k32}, .float16 = true};
	auto [ours, reference] = RunBoth("float_controls_preserve16.spv", needs,
	                                 {Bytes(in), std::vector<uint8_t>(kInvocations * outputs.size() * 4, kFill),
	                                  std::vector<uint8_t>(kInvocations * 4, kFill)});
	const auto describe = [&ops](uint32_t i) { return ops.Describe(i); };
	std::vector<Width> widths;
	for (const Output& output : outputs) widths.push_back(output.width);
	for (auto [driver, buffers] : {std::pair{Driver::Tessera, &ours}, std::pair{Driver::Lavapipe, &reference}}) {
		std::vector<uint64_t> results = Elements((*buffers)[1], 4);
		CheckHighHalves(driver, results, widths);
		CheckOutputs(driver, results, outputs, describe);
		CheckFlags(driver, (*buffers)[2], ops);
	}
}

TEST_CASE("SignedZeroInfNanPreserve 64 keeps signed zeros, infinities and NaNs of binary64 values",
          "[compute][features][float_controls]") {
	const Operands ops = SpecialPairs(Width::k64, {{7, 2.5}, {-7, -2.5}, {1e300, 1e300}, {1e-300, -1e-300}}, 64);
	std::vector<double> in;
	for (uint32_t i = 0; i < kInvocations; ++i) in.push_back(ops.X(i)), in.push_back(ops.Y(i));
	std::vector<Output> outputs = MustRespect(ops, Width::k32);
	outputs.push_back(ThroughFunction(ops));
	const std::vector<Output> matrix = MatrixOutputs(ops);
	outputs.insert(outputs.end(), matrix.begin(), matrix.end());
	REQUIRE(outputs.size() == 19);
	const Needs needs{.preserve = {Width::k64, Width::k32}, .float64 = true};
	auto [ours, reference] = RunBoth("float_controls_preserve64.spv", needs,
	                                 {Bytes(in), std::vector<uint8_t>(kInvocations * outputs.size() * 8, kFill),
	                                  std::vector<uint8_t>(kInvocations * 4, kFill)});
	const auto describe = [&ops](uint32_t i) { return ops.Describe(i); };
	CheckOutputs(Driver::Tessera, Elements(ours[1], 8), outputs, describe);
	CheckFlags(Driver::Tessera, ours[2], ops);
	CheckOutputs(Driver::Lavapipe, Elements(reference[1], 8), outputs, describe);
	CheckFlags(Driver::Lavapipe, reference[2], ops);
}

TEST_CASE("RoundingModeRTE 32 rounds sums, products and integer conversions to nearest, ties to even",
          "[compute][features][float_controls]") {
	struct Case {
		float x, y;
		uint32_t u;
		int32_t s;
	};
	// x + y, x - y and x * y exactly halfway between two floats, either side
	// of even, and just past halfway; integers halfway between two floats.
	std::vector<Case> cases = {
	    {1.0f, 0x1p-24f, 0x1000001u, -0x1000001},                // 2^24 + 1: down to 2^24
	    {1.0f + 0x1p-23f, 0x1p-24f, 0x1000003u, -0x1000003},     // 2^24 + 3: up to 2^24 + 4
	    {-1.0f - 0x1p-23f, -0x1p-24f, 0x80000080u, 0x7fffffc0},  // 2^31 + 2^7: down; 2^31 - 2^6: up
	    {1.0f, -0x1p-24f, 0x80000180u, -0x7fffffc0},             // 1 - 2^-24 is exact; 2^31 + 3 * 2^7: up
	    {1.0f + 0x1p-23f, 1.5f, 0xffffff80u, INT32_MIN},         // x * y halfway, up; 2^32 - 2^7: up to 2^32
	    {1.0f + 3 * 0x1p-23f, 1.5f, 0xffffff7fu, INT32_MAX},     // x * y halfway, down; u just below halfway
	    {-(1.0f + 0x1p-23f), 1.5f, 0x1000005u, 0x1000005},       // negative halfway product
	    {1.0f, 0x1.000002p-24f, 0x1000001u, 0x1000001},          // just past halfway: up
	    {3.0f, 0x1p-23f, 0x2000002u, -0x2000006},                // 3 +- 2^-23: halfway, to 3; 2^25 + 2: down
	    {0x1.fffffep+0f, 0x1p-24f, 0x3000004u, -0x300000c},      // carries into the exponent
	};
	std::mt19937_64 rng(3232);
	while (cases.size() < kInvocations)
		cases.push_back({RandomMantissa<float>(rng, -20, 20), RandomMantissa<float>(rng, -20, 20), uint32_t(rng()),
		                 int32_t(rng())});
	std::vector<uint32_t> in, expected32;
	for (const Case& c : cases) {
		in.insert(in.end(), {std::bit_cast<uint32_t>(c.x), std::bit_cast<uint32_t>(c.y), c.u, uint32_t(c.s)});
		// The host rounds to nearest, ties to even.
		for (float r : {c.x + c.y, c.x - c.y, c.x * c.y, c.x * c.y, float(c.u), float(c.s)})
			expected32.push_back(std::bit_cast<uint32_t>(r));
	}
	const std::vector<uint64_t> expected(expected32.begin(), expected32.end());
	const std::vector<std::string> names = {"x + y", "x - y", "x * y", "OpVectorTimesScalar", "float(u)", "float(s)"};
	const std::vector<Width> widths(names.size(), Width::k32);
	auto [ours, reference] = RunBoth("float_controls_rte32.spv", {.rte = {Width::k32}},
	                                 {Bytes(in), std::vector<uint8_t>(kInvocations * names.size() * 4, kFill)});
	const auto describe = [&cases](uint32_t i) {
		std::ostringstream out;
		out.precision(9);
		out << "invocation " << i << " (x = " << cases[i].x << ", y = " << cases[i].y << ", u = " << cases[i].u
		    << ", s = " << cases[i].s << ")";
		return out.str();
	};
	CheckNearestEven(Driver::Tessera, Elements(ours[1], 4), names, widths, expected, describe);
	CheckNearestEven(Driver::Lavapipe, Elements(reference[1], 4), names, widths, expected, describe);
}

TEST_CASE("RoundingModeRTE 16 rounds binary16 arithmetic and conversions to binary16 to nearest, ties to even",
          "[compute][features][float_controls]") {
	struct Case {
		uint16_t x, y;  // binary16
		float c;
		int32_t n;
	};
	// Halfway cases as in the 32-bit test, in binary16's 10-bit mantissa.
	std::vector<Case> cases = {
	    {0x3c00, 0x1000, 1.0f + 0x1p-11f, 2049},             // 1 + 2^-11: down to 1; 2049: down to 2048
	    {0x3c01, 0x1000, 1.0f + 3 * 0x1p-11f, 2051},         // up to 1 + 2^-9; 2051: up to 2052
	    {0x3c01, 0x3e00, -(1.0f + 3 * 0x1p-11f), -2051},     // (1 + 2^-10) * 1.5: up; negative
	    {0x3c03, 0x3e00, 1.0f + 0x1p-11f + 0x1p-23f, 4098},  // (1 + 3 * 2^-10) * 1.5: down; past halfway
	    {0xbc01, 0x3e00, 2049.0f, 4102},                     // negative product halfway
	    {0x3c00, 0x9000, 2051.0f, 65519},                    // 1 - (-2^-11): down; 65519: down to 65504
	    {0x4100, 0x1400, 65519.0f, -65519},                  // 2.5 + 2^-10: halfway, down to 2.5
	    {0x3bff, 0x0c00, 0.1f, 1025},                        // carries into the exponent
	};
	std::mt19937_64 rng(1616);
	while (cases.size() < kInvocations) {
		const auto half = [&rng] { return uint16_t(Nearest(Width::k16, RandomMantissa<double>(rng, -2, 5))); };
		cases.push_back({half(), half(), RandomMantissa<float>(rng, -10, 14), int32_t(rng() % 131039) - 65519});
	}
	std::vector<uint32_t> in;
	std::vector<uint64_t> expected;
	const Width h = Width::k16;
	for (const Case& c : cases) {
		in.insert(in.end(), {uint32_t(c.x) | uint32_t(c.y) << 16, std::bit_cast<uint32_t>(c.c), uint32_t(c.n)});
		// Sums and products of binary16 values are exact in binary64.
		const double x = Decode(h, c.x), y = Decode(h, c.y);
		for (double r : {x + y, x - y, x * y, x * y, double(c.c), double(c.n)}) expected.push_back(Nearest(h, r));
	}
	const std::vector<std::string> names = {"x + y", "x - y", "x * y", "OpVectorTimesScalar", "half(c)", "half(n)"};
	const std::vector<Width> widths(names.size(), h);
	auto [ours, reference] = RunBoth("float_controls_rte16.spv", {.rte = {Width::k16}, .float16 = true},
	                                 {Bytes(in), std::vector<uint8_t>(kInvocations * names.size() * 4, kFill)});
	const auto describe = [&cases](uint32_t i) {
		std::ostringstream out;
		out.precision(9);
		out << "invocation " << i << " (x = " << Describe(Width::k16, cases[i].x)
		    << ", y = " << Describe(Width::k16, cases[i].y) << ", c = " << cases[i].c << ", n = " << cases[i].n << ")";
		return out.str();
	};
	for (auto [driver, buffers] : {std::pair{Driver::Tessera, &ours}, std::pair{Driver::Lavapipe, &reference}}) {
		std::vector<uint64_t> results = Elements((*buffers)[1], 4);
		CheckHighHalves(driver, results, widths);
		CheckNearestEven(driver, results, names, widths, expected, describe);
	}
}

TEST_CASE("RoundingModeRTE 64 rounds binary64 arithmetic and conversions to binary32 to nearest, ties to even",
          "[compute][features][float_controls]") {
	std::vector<std::pair<double, double>> cases = {
	    {1.0, 0x1p-53},                  // 1 + 2^-53: down to 1
	    {1.0 + 0x1p-52, 0x1p-53},        // up to 1 + 2^-51
	    {-1.0 - 0x1p-52, -0x1p-53},      // negative, up in magnitude
	    {1.0 + 0x1p-52, 1.5},            // product halfway: up
	    {1.0 + 3 * 0x1p-52, 1.5},        // product halfway: down
	    {1.0, 0x1.0000000000001p-53},    // just past halfway
	    {1.0 + 0x1p-24, 0x1p-60},        // float(x): 1 + 2^-24 is halfway, down to 1
	    {1.0 + 3 * 0x1p-24, 0x1p-60},    // float(x): up to 1 + 2^-22
	    {1.0 + 0x1p-24 + 0x1p-50, 0.5},  // float(x): just past halfway
	    {-(1.0 + 3 * 0x1p-24), 3.0},     // float(x): negative
	};
	std::mt19937_64 rng(6464);
	while (cases.size() < kInvocations)
		cases.push_back({RandomMantissa<double>(rng, -30, 30), RandomMantissa<double>(rng, -30, 30)});
	std::vector<double> in;
	std::vector<uint64_t> expected;
	for (const auto& [x, y] : cases) {
		in.insert(in.end(), {x, y});
		for (double r : {x + y, x - y, x * y, x * y, double(float(x))}) expected.push_back(std::bit_cast<uint64_t>(r));
	}
	const std::vector<std::string> names = {"x + y", "x - y", "x * y", "OpVectorTimesScalar", "double(float(x))"};
	std::vector<Width> widths(names.size(), Width::k64);
	auto [ours, reference] = RunBoth("float_controls_rte64.spv", {.rte = {Width::k64, Width::k32}, .float64 = true},
	                                 {Bytes(in), std::vector<uint8_t>(kInvocations * names.size() * 8, kFill)});
	const auto describe = [&cases](uint32_t i) {
		return "invocation " + std::to_string(i) +
		       " (x = " + Describe(Width::k64, std::bit_cast<uint64_t>(cases[i].first)) +
		       ", y = " + Describe(Width::k64, std::bit_cast<uint64_t>(cases[i].second)) + ")";
	};
	CheckNearestEven(Driver::Tessera, Elements(ours[1], 8), names, widths, expected, describe);
	CheckNearestEven(Driver::Lavapipe, Elements(reference[1], 8), names, widths, expected, describe);
}
