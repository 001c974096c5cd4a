// Catch2's test session, compiled once (catch_session.cpp) for both test
// programs, whose mains call it.
#pragma once

namespace tessera::test {

int RunCatchSession(int argc, char** argv);

}  // namespace tessera::test
