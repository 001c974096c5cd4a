// Entry point of the benchmark programs: makes both Tessera (from this build)
// and lavapipe visible to the loader unless VK_DRIVER_FILES says otherwise.
#include <benchmark/benchmark.h>

#include <cstdlib>

int main(int argc, char** argv) {
	setenv("VK_DRIVER_FILES", TESSERA_BOTH_DRIVERS, 0);
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
