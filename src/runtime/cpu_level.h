// The x86-64 level of the CPU that runs the driver, for the code that comes
// in one build a level: the raster hot paths (raster/fragment_ops.cpp,
// builds for v4 and v3 with FMA and for the baseline) and Highway's
// run-time dispatch (one build per SIMD target: sampling, the interpreter's
// ALU kernels, resolves).
#pragma once

namespace tessera::runtime {

enum class CpuLevel { kBaseline, kV3, kV4 };

// The CPU's level, or the lower one TESSERA_CPU_LEVEL asks for (baseline or
// v3: the tests run each build so). The first call also limits Highway's
// dispatch to that level's targets (v3: AVX2 at most; baseline: the
// driver's static build), so every per-level path follows one setting; the
// driver calls it when an instance is created, the unit tests at start.
CpuLevel HostCpuLevel();
// Whether TESSERA_CPU_LEVEL asked for a level below the CPU's (the compiled
// tier then makes code for that level's CPU too: jit/jit.cpp).
bool CpuLevelLowered();

}  // namespace tessera::runtime
