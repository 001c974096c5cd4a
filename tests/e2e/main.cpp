// The e2e test runner: Catch2's, after setting the environment the tests
// need (both drivers visible to the loader, implicit layers off, failure
// images next to the test log) unless the caller already set it. Setting it
// here rather than through ctest keeps a direct run of the binary the same as
// a ctest run (ctest properties cannot carry a list of variables through
// catch_discover_tests).
#include <cstdlib>

#include "catch_session.h"

int main(int argc, char** argv) {
	setenv("VK_DRIVER_FILES", TESSERA_TEST_DRIVER_FILES, 0);
	setenv("VK_LOADER_LAYERS_DISABLE", "~implicit~", 0);
	setenv("TESSERA_TEST_OUTPUT", TESSERA_TEST_OUTPUT_DIR, 0);
	return tessera::test::RunCatchSession(argc, argv);
}
