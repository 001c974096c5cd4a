// Catch2's implementation, in one object that the unit and e2e programs
// share: building it takes about 30 s of a 2-core runner, once per build
// rather than once per program.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.h"

namespace tessera::test {

int RunCatchSession(int argc, char** argv) { return Catch::Session().run(argc, argv); }

}  // namespace tessera::test
