// Host reference for the subgroup arithmetic corpus shaders
// (shaders/subgroup_{i8,i16,i64,f16,f64}.comp): what each invocation writes,
// given the subgroup size. A subgroup is subgroup_size consecutive
// invocations of the 64-wide workgroup (the shaders use a 1D workgroup,
// whose subgroups Vulkan lays out along local index on both drivers).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

namespace tessera::test {

constexpr uint32_t kSubgroupIntOutputs = 18;
constexpr uint32_t kSubgroupFloatOutputs = 13;

// Folds f over [begin, end) of x, starting from identity, taking only the
// invocations where take(k) holds.
template <class T, class F, class Take>
T Fold(const std::vector<T>& x, uint32_t begin, uint32_t end, T identity, F f, Take take) {
	T total = identity;
	for (uint32_t k = begin; k < end; ++k)
		if (take(k)) total = f(total, x[k]);
	return total;
}

// Expected outputs of subgroup_i8/i16/i64 (T: the signed type), output k of
// invocation i at [i * kSubgroupIntOutputs + k]; nullopt where the shader
// writes nothing (the divergent output of an inactive invocation).
template <class T>
std::vector<std::optional<T>> ExpectedSubgroupInts(const std::vector<T>& x, uint32_t subgroup_size) {
	using U = std::make_unsigned_t<T>;
	const uint32_t n = static_cast<uint32_t>(x.size());
	// Wrapping arithmetic on the type's width.
	auto add = [](T a, T b) { return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); };
	auto mul = [](T a, T b) { return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); };
	auto smin = [](T a, T b) { return a < b ? a : b; };
	auto smax = [](T a, T b) { return a > b ? a : b; };
	auto umin = [](T a, T b) { return static_cast<U>(a) < static_cast<U>(b) ? a : b; };
	auto umax = [](T a, T b) { return static_cast<U>(a) > static_cast<U>(b) ? a : b; };
	auto band = [](T a, T b) { return static_cast<T>(a & b); };
	auto bor = [](T a, T b) { return static_cast<T>(a | b); };
	auto bxor = [](T a, T b) { return static_cast<T>(a ^ b); };
	const T all = static_cast<T>(~U{0}), smallest = std::numeric_limits<T>::min(),
	        largest = std::numeric_limits<T>::max();
	auto everyone = [](uint32_t) { return true; };
	std::vector<T> negated(n);
	for (uint32_t k = 0; k < n; ++k) negated[k] = static_cast<T>(U{0} - static_cast<U>(x[k]));
	std::vector<std::optional<T>> out(n * kSubgroupIntOutputs);
	for (uint32_t i = 0; i < n; ++i) {
		uint32_t first = i / subgroup_size * subgroup_size, last = first + subgroup_size;
		std::optional<T>* o = &out[i * kSubgroupIntOutputs];
		o[0] = Fold(x, first, last, T{0}, add, everyone);
		o[1] = Fold(x, first, last, T{1}, mul, everyone);
		o[2] = Fold(x, first, last, largest, smin, everyone);
		o[3] = Fold(x, first, last, smallest, smax, everyone);
		o[4] = Fold(x, first, last, all, umin, everyone);
		o[5] = Fold(x, first, last, T{0}, umax, everyone);
		o[6] = Fold(x, first, last, all, band, everyone);
		o[7] = Fold(x, first, last, T{0}, bor, everyone);
		o[8] = Fold(x, first, last, T{0}, bxor, everyone);
		o[9] = Fold(x, first, i + 1, T{0}, add, everyone);
		o[10] = Fold(x, first, i, T{0}, add, everyone);
		o[11] = Fold(x, first, i + 1, largest, smin, everyone);
		o[12] = Fold(x, first, i, smallest, smax, everyone);
		o[13] = Fold(x, first, i, all, umin, everyone);
		o[14] = Fold(x, first, i, T{1}, mul, everyone);
		if ((x[i] & 3) != 0) o[15] = Fold(x, first, last, T{0}, add, [&](uint32_t k) { return (x[k] & 3) != 0; });
		o[16] = Fold(x, first, i + 1, smallest, smax, everyone);
		o[17] = Fold(negated, first, i + 1, smallest, smax, everyone);
	}
	return out;
}

// Expected outputs of subgroup_f16/f64 from the inputs as doubles (x at 2i,
// m at 2i + 1). The inputs are chosen so that every sum and product is exact
// in binary16: then the result does not depend on the order in which an
// implementation combines the invocations (SPIR-V leaves the order open).
inline std::vector<std::optional<double>> ExpectedSubgroupFloats(const std::vector<double>& in,
                                                                 uint32_t subgroup_size) {
	const uint32_t n = static_cast<uint32_t>(in.size() / 2);
	std::vector<double> x(n), m(n);
	for (uint32_t k = 0; k < n; ++k) x[k] = in[2 * k], m[k] = in[2 * k + 1];
	auto add = [](double a, double b) { return a + b; };
	auto mul = [](double a, double b) { return a * b; };
	auto fmin = [](double a, double b) { return std::fmin(a, b); };
	auto fmax = [](double a, double b) { return std::fmax(a, b); };
	auto everyone = [](uint32_t) { return true; };
	const double inf = HUGE_VAL;
	std::vector<std::optional<double>> out(n * kSubgroupFloatOutputs);
	for (uint32_t i = 0; i < n; ++i) {
		uint32_t first = i / subgroup_size * subgroup_size, last = first + subgroup_size;
		std::optional<double>* o = &out[i * kSubgroupFloatOutputs];
		o[0] = Fold(x, first, last, 0.0, add, everyone);
		o[1] = Fold(m, first, last, 1.0, mul, everyone);
		o[2] = Fold(x, first, last, inf, fmin, everyone);
		o[3] = Fold(x, first, last, -inf, fmax, everyone);
		o[4] = Fold(x, first, i + 1, 0.0, add, everyone);
		o[5] = Fold(x, first, i, 0.0, add, everyone);
		o[6] = Fold(m, first, i + 1, 1.0, mul, everyone);
		o[7] = Fold(m, first, i, 1.0, mul, everyone);
		o[8] = Fold(x, first, i, inf, fmin, everyone);
		o[9] = Fold(x, first, i, -inf, fmax, everyone);
		if (x[i] > 0) o[10] = Fold(x, first, last, 0.0, add, [&](uint32_t k) { return x[k] > 0; });
		o[11] = o[0];
		o[12] = Fold(m, first, last, 0.0, add, everyone);
	}
	return out;
}

// Expected outputs of subgroup_clustered.comp: 16 integer results (for
// int8, int16, int32, int64: clustered add over 4, signed max over 8,
// unsigned min over 2, xor over 16), and 9 float results (for float16,
// float, double: add over 4, mul over 2, min over 8). The float inputs are
// k / 4 with |k| <= 16: every sum and product here is exact in binary16.
template <class T>
void ExpectedClusteredInts(const std::vector<int64_t>& in, uint32_t i, int64_t* o) {
	using U = std::make_unsigned_t<T>;
	std::vector<T> x(in.size());
	for (size_t k = 0; k < in.size(); ++k) x[k] = static_cast<T>(in[k]);
	auto everyone = [](uint32_t) { return true; };
	auto at = [&](uint32_t size) { return i / size * size; };
	o[0] = Fold(
	    x, at(4), at(4) + 4, T{0},
	    [](T a, T b) { return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }, everyone);
	o[1] = Fold(
	    x, at(8), at(8) + 8, std::numeric_limits<T>::min(), [](T a, T b) { return a > b ? a : b; }, everyone);
	o[2] = Fold(
	    x, at(2), at(2) + 2, static_cast<T>(~U{0}),
	    [](T a, T b) { return static_cast<U>(a) < static_cast<U>(b) ? a : b; }, everyone);
	o[3] = Fold(
	    x, at(16), at(16) + 16, T{0}, [](T a, T b) { return static_cast<T>(a ^ b); }, everyone);
}

inline void ExpectedClustered(const std::vector<int64_t>& ints, const std::vector<double>& floats,
                              std::vector<int64_t>& int_out, std::vector<double>& float_out) {
	const uint32_t n = static_cast<uint32_t>(ints.size());
	int_out.assign(n * 16, 0);
	float_out.assign(n * 9, 0.0);
	auto everyone = [](uint32_t) { return true; };
	for (uint32_t i = 0; i < n; ++i) {
		int64_t* o = &int_out[i * 16];
		ExpectedClusteredInts<int8_t>(ints, i, o);
		ExpectedClusteredInts<int16_t>(ints, i, o + 4);
		ExpectedClusteredInts<int32_t>(ints, i, o + 8);
		ExpectedClusteredInts<int64_t>(ints, i, o + 12);
		auto at = [&](uint32_t size) { return i / size * size; };
		double add = Fold(
		    floats, at(4), at(4) + 4, 0.0, [](double a, double b) { return a + b; }, everyone);
		double mul = Fold(
		    floats, at(2), at(2) + 2, 1.0, [](double a, double b) { return a * b; }, everyone);
		double min = Fold(
		    floats, at(8), at(8) + 8, HUGE_VAL, [](double a, double b) { return std::fmin(a, b); }, everyone);
		for (uint32_t t = 0; t < 3; ++t) {
			float_out[i * 9 + 3 * t] = add;
			float_out[i * 9 + 3 * t + 1] = mul;
			float_out[i * 9 + 3 * t + 2] = min;
		}
	}
}

// Inputs for the float shaders: x = k / 4 with |k| <= 16 from a fixed LCG
// seeded with `seed` (sums of up to 64 stay multiples of 1/4 below 2^9: exact
// in binary16), m cycling through eight factors (+-1, +-2, 0.5) whose product
// over any run of consecutive invocations stays within 2^-2 .. 2^2.
inline std::vector<double> SubgroupFloatInputs(uint32_t n, uint32_t seed) {
	static const double kFactors[8] = {1.0, -1.0, 2.0, 0.5, -2.0, 1.0, 0.5, -1.0};
	std::vector<double> in(2 * n);
	uint32_t state = seed;
	for (uint32_t k = 0; k < n; ++k) {
		state = state * 1664525u + 1013904223u;  // a fixed LCG: the same inputs on every run
		in[2 * k] = static_cast<double>(static_cast<int32_t>((state >> 16) % 33u) - 16) / 4.0;
		in[2 * k + 1] = kFactors[k % 8];
	}
	return in;
}

// binary16 <-> double for the values above (normal numbers and zero; exact).
inline uint16_t HalfBits(double value) {
	if (value == 0.0) return std::signbit(value) ? 0x8000 : 0;
	float f = static_cast<float>(value);
	uint32_t bits;
	std::memcpy(&bits, &f, 4);
	uint32_t sign = (bits >> 16) & 0x8000u, exponent = ((bits >> 23) & 0xffu) - 127u + 15u;
	return static_cast<uint16_t>(sign | (exponent << 10) | ((bits >> 13) & 0x3ffu));
}
inline double HalfValue(uint16_t h) {
	uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
	double magnitude = exponent == 0 ? std::ldexp(static_cast<double>(mantissa), -24)
	                   : exponent == 31
	                       ? (mantissa ? NAN : HUGE_VAL)
	                       : std::ldexp(static_cast<double>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
	return (h & 0x8000u) ? -magnitude : magnitude;
}

}  // namespace tessera::test
