// Tests that cannot run what they check (a reference is missing: lavapipe
// lacks a format, astcenc is not installed) report "skipped" to ctest, never
// "passed". NoteSkipped records why; when the run ends with no failure and a
// skip was noted, the process exits with kSkipReturnCode, which the test
// CMakeLists register as SKIP_RETURN_CODE. ctest runs one test case per
// process, so the verdict is the test case's.
#pragma once

#include <string>

namespace tessera::test {

constexpr int kSkipReturnCode = 77;

// Records (and prints) that a check could not run.
void NoteSkipped(const std::string& why);

}  // namespace tessera::test
