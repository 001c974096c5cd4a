#include "runtime/cpu_level.h"

#include <cpuid.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace tessera::runtime {

namespace {

// Highway's targets above a lower level than v4 (AVX3 and up need
// x86-64-v4; AVX2 and the SSE ones more than the baseline, which the static
// build is).
int64_t TargetsAbove(CpuLevel level) {
	int64_t above = 0;
#ifdef HWY_AVX3_SPR
	above |= HWY_AVX3_SPR;
#endif
#ifdef HWY_AVX3_ZEN4
	above |= HWY_AVX3_ZEN4;
#endif
	above |= HWY_AVX3 | HWY_AVX3_DL;
	if (level == CpuLevel::kBaseline) above |= HWY_AVX2 | HWY_SSE4 | HWY_SSSE3;
	return above;
}

CpuLevel CpuMost() {
#if defined(__clang__)
	// Clang (the fuzzer's build) has no level names: the levels' main features.
	unsigned a = 0, b = 0, c = 0, d = 0;
	const bool f16c = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));  // (no "f16c" name in clang 14)
	const bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi") &&
	                __builtin_cpu_supports("bmi2") && f16c;
	const bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	                __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
	                __builtin_cpu_supports("avx512cd");
#else
	const bool v3 = __builtin_cpu_supports("x86-64-v3"), v4 = __builtin_cpu_supports("x86-64-v4");
#endif
	return v4 ? CpuLevel::kV4 : v3 ? CpuLevel::kV3 : CpuLevel::kBaseline;
}

// The CPU's level and the level chosen, found once.
struct Levels {
	CpuLevel most, chosen;
};

const Levels& HostLevels() {
	static const Levels levels = [] {
		const CpuLevel most = CpuMost();
		const char* asked = std::getenv("TESSERA_CPU_LEVEL");
		CpuLevel chosen = most;
		if (asked && std::strcmp(asked, "baseline") == 0) chosen = CpuLevel::kBaseline;
		if (asked && std::strcmp(asked, "v3") == 0) chosen = std::min(most, CpuLevel::kV3);
		if (chosen < most) hwy::DisableTargets(TargetsAbove(chosen));  // (a v2 CPU keeps SSE4)
		return Levels{most, chosen};
	}();
	return levels;
}

}  // namespace

CpuLevel HostCpuLevel() { return HostLevels().chosen; }

bool CpuLevelLowered() { return HostLevels().chosen < HostLevels().most; }

}  // namespace tessera::runtime
