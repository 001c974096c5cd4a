// Entry point of the benchmark programs: makes Tessera (from this build),
// lavapipe and SwiftShader (when installed) visible to the loader unless
// VK_DRIVER_FILES says otherwise.
#include <benchmark/benchmark.h>

#include <cstdlib>

int main(int argc, char** argv) {
	setenv("VK_DRIVER_FILES", TESSERA_BENCH_DRIVERS, 0);
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
