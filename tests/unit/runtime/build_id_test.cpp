#include "runtime/build_id.h"

#include <catch2/catch.hpp>

// The unit test binary is linked by the same toolchain as the driver; on
// Debian (--build-id by default) it has a build ID of 20 bytes (SHA-1).
TEST_CASE("the build ID of the binary holding the code is found", "[runtime]") {
	const std::vector<uint8_t>& id = tessera::runtime::OwnBuildId();
	REQUIRE(id.size() == 20);
	bool all_zero = true;
	for (uint8_t b : id) all_zero &= b == 0;
	CHECK_FALSE(all_zero);
	CHECK(&tessera::runtime::OwnBuildId() == &id);  // computed once
}
