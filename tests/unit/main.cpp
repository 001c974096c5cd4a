#include "catch_session.h"
#include "runtime/cpu_level.h"

int main(int argc, char** argv) {
	tessera::runtime::HostCpuLevel();  // TESSERA_CPU_LEVEL limits Highway's dispatch before any test
	return tessera::test::RunCatchSession(argc, argv);
}
