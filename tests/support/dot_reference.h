// Inputs and host reference for shaders/dot.spvasm (integer dot products).
// SPIR-V 1.6 §3.56.14: components are sign- (S) or zero-extended (U) to the
// result width N, multiplied and summed; the result is the low N bits of the
// exact sum. The AccSat forms add the accumulator with saturation (signed
// for SDot and SUDot, unsigned for UDot) and are undefined when the dot
// product itself overflows N bits, so the inputs keep those cases defined.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace tessera::test {

constexpr uint32_t kDotOutputs = 18;

// One element of the shader's input array (std430, 112 bytes).
struct DotInput {
	uint32_t pa, pb;         // 4x8-bit packed vectors, bytes in [-90, 90]: 4 * 90 * 90 fits int16
	int32_t acc;             // accumulator (also as int16 after truncation)
	uint32_t uacc;           // unsigned accumulator (also as uint8, uint16)
	int16_t a16[4], b16[4];  // in [-2^14, 2^14]: the int32 dot product cannot overflow
	int64_t a64[2], b64[2];  // |a| <= 2^30, |b| <= 2^31: the int64 dot product cannot overflow
	int64_t acc64;
	uint64_t uacc64;
	uint64_t ua64[2], ub64[2];  // below 2^31: the uint64 dot product cannot overflow
};
static_assert(sizeof(DotInput) == 112);

// Random inputs from a fixed seed, with accumulators near the limits often
// enough that every AccSat form saturates in both directions somewhere.
inline std::vector<DotInput> DotInputs(uint32_t n, uint64_t seed) {
	std::mt19937_64 rng(seed);
	auto in_range = [&](int64_t low, int64_t high) {
		return low + static_cast<int64_t>(rng() % static_cast<uint64_t>(high - low + 1));
	};
	auto packed = [&]() {
		uint32_t word = 0;
		for (int k = 0; k < 4; ++k) word |= (static_cast<uint32_t>(in_range(-90, 90)) & 0xffu) << (8 * k);
		return word;
	};
	std::vector<DotInput> inputs(n);
	for (uint32_t i = 0; i < n; ++i) {
		DotInput& d = inputs[i];
		d.pa = packed(), d.pb = packed();
		uint64_t near = rng() % 4;  // 0: anywhere; 1: near the maximum; 2: near the minimum; 3: small
		d.acc = near == 1   ? INT32_MAX - static_cast<int32_t>(rng() % 40000)
		        : near == 2 ? INT32_MIN + static_cast<int32_t>(rng() % 40000)
		        : near == 3 ? static_cast<int32_t>(in_range(-40000, 40000))
		                    : static_cast<int32_t>(rng());
		// Low 8 and 16 bits near their maxima too (uint8/uint16 accumulators).
		d.uacc = near == 1 ? UINT32_MAX - static_cast<uint32_t>(rng() % 40000)
		                   : static_cast<uint32_t>(rng()) | (near == 2 ? 0xfff0u : 0u);
		for (int k = 0; k < 4; ++k)
			d.a16[k] = static_cast<int16_t>(in_range(-16384, 16384)),
			d.b16[k] = static_cast<int16_t>(in_range(-16384, 16384));
		for (int k = 0; k < 2; ++k) {
			d.a64[k] = in_range(-(int64_t{1} << 30), int64_t{1} << 30);
			d.b64[k] = in_range(-(int64_t{1} << 31), int64_t{1} << 31);
			d.ua64[k] = rng() >> 33, d.ub64[k] = rng() >> 33;
		}
		d.acc64 = near == 1   ? INT64_MAX - static_cast<int64_t>(rng() >> 2)
		          : near == 2 ? INT64_MIN + static_cast<int64_t>(rng() >> 2)
		                      : static_cast<int64_t>(rng() >> 1) * (rng() % 2 ? 1 : -1);
		d.uacc64 = near == 1 ? UINT64_MAX - (rng() >> 2) : rng() >> 1;
	}
	return inputs;
}

// Expected results, each widened to 64 bits as the shader stores them.
inline std::vector<uint64_t> ExpectedDots(const std::vector<DotInput>& inputs) {
	auto byte = [](uint32_t word, int k, bool is_signed) -> int64_t {
		uint32_t b = (word >> (8 * k)) & 0xffu;
		return is_signed ? static_cast<int8_t>(b) : static_cast<int64_t>(b);
	};
	auto packed_dot = [&](uint32_t a, uint32_t b, bool sa, bool sb) {
		int64_t sum = 0;
		for (int k = 0; k < 4; ++k) sum += byte(a, k, sa) * byte(b, k, sb);
		return sum;
	};
	// The exact sum clamped to [low, high].
	auto saturate = [](__int128 value, __int128 low, __int128 high) {
		return value < low ? low : (value > high ? high : value);
	};
	auto sat_signed = [&](__int128 value, int bits) {
		__int128 high = (static_cast<__int128>(1) << (bits - 1)) - 1;
		return static_cast<uint64_t>(static_cast<int64_t>(saturate(value, -high - 1, high)));
	};
	auto sat_unsigned = [&](__int128 value, int bits) {
		return static_cast<uint64_t>(saturate(value, 0, (static_cast<__int128>(1) << bits) - 1));
	};
	auto sext = [](uint64_t value, int bits) {  // the low `bits` bits, sign-extended to 64
		return static_cast<uint64_t>(static_cast<int64_t>(value << (64 - bits)) >> (64 - bits));
	};
	std::vector<uint64_t> out;
	for (const DotInput& d : inputs) {
		int64_t ss = packed_dot(d.pa, d.pb, true, true), uu = packed_dot(d.pa, d.pb, false, false),
		        su = packed_dot(d.pa, d.pb, true, false);
		int64_t small = packed_dot(d.pa & 0x03030303u, d.pb & 0x03030303u, false, false);
		int64_t medium = packed_dot(d.pa & 0x3f3f3f3fu, d.pb & 0x3f3f3f3fu, false, false);
		int64_t s16 = 0, u16 = 0, su16 = 0;
		for (int k = 0; k < 4; ++k) {
			s16 += int64_t{d.a16[k]} * d.b16[k];
			u16 += static_cast<int64_t>(static_cast<uint16_t>(d.a16[k])) * static_cast<uint16_t>(d.b16[k]);
			su16 += int64_t{d.a16[k]} * static_cast<uint16_t>(d.b16[k]);
		}
		__int128 s64 = static_cast<__int128>(d.a64[0]) * d.b64[0] + static_cast<__int128>(d.a64[1]) * d.b64[1];
		__int128 u64 = static_cast<__int128>(d.ua64[0]) * d.ub64[0] + static_cast<__int128>(d.ua64[1]) * d.ub64[1];
		int16_t acc16 = static_cast<int16_t>(d.acc);
		int8_t acc8 = static_cast<int8_t>(d.acc);
		int64_t tiny = 0;  // components (byte & 7) - 3, in [-3, 4]: the dot product fits int8
		for (int k = 0; k < 4; ++k)
			tiny +=
			    (static_cast<int64_t>((d.pa >> (8 * k)) & 7u) - 3) * (static_cast<int64_t>((d.pb >> (8 * k)) & 7u) - 3);
		out.push_back(sext(static_cast<uint64_t>(ss), 32));                      // 0 SDot packed -> int
		out.push_back(static_cast<uint32_t>(uu));                                // 1 UDot packed -> uint
		out.push_back(sext(static_cast<uint64_t>(su), 32));                      // 2 SUDot packed -> int
		out.push_back(sat_signed(__int128{d.acc} + ss, 32));                     // 3 SDotAccSat packed
		out.push_back(sat_unsigned(__int128{d.uacc} + uu, 32));                  // 4 UDotAccSat packed
		out.push_back(sat_signed(__int128{d.acc} + su, 32));                     // 5 SUDotAccSat packed
		out.push_back(sext(static_cast<uint64_t>(ss), 16));                      // 6 SDot i8vec4 -> int16
		out.push_back(sat_signed(__int128{acc16} + ss, 16));                     // 7 SDotAccSat -> int16
		out.push_back(sat_unsigned(__int128{d.uacc & 0xffu} + small, 8));        // 8 UDotAccSat u8vec4 -> uint8
		out.push_back(sat_signed(__int128{d.acc} + s16, 32));                    // 9 SDotAccSat i16vec4 -> int
		out.push_back(static_cast<uint32_t>(u16));                               // 10 UDot u16vec4 -> uint
		out.push_back(static_cast<uint64_t>(su16));                              // 11 SUDot i16vec4 -> int64
		out.push_back(static_cast<uint64_t>(s64));                               // 12 SDot i64vec2 -> int64
		out.push_back(sat_signed(__int128{d.acc64} + s64, 64));                  // 13 SDotAccSat -> int64
		out.push_back(sat_unsigned(static_cast<__int128>(d.uacc64) + u64, 64));  // 14 UDotAccSat u64vec2
		out.push_back(sat_signed(__int128{d.acc64} + su, 64));                   // 15 SUDotAccSat packed -> int64
		out.push_back(sat_unsigned(__int128{d.uacc & 0xffffu} + medium, 16));    // 16 UDotAccSat packed -> uint16
		out.push_back(sat_signed(__int128{acc8} + tiny, 8));                     // 17 SDotAccSat i8vec4 -> int8
	}
	return out;
}

}  // namespace tessera::test
