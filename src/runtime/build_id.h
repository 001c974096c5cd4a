// The GNU build ID of the binary that holds this code: a digest the linker
// computes from the binary's contents (Debian's toolchain passes
// --build-id by default). Two builds of the same sources with the same
// compiler share it; any change to the code changes it. The pipeline cache
// keys compiled shader programs with it, so a cache written by another build
// of the driver is a miss instead of a program in a stale format.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::runtime {

// The build ID bytes, or empty when the binary has none (linked without
// --build-id). Computed once.
const std::vector<uint8_t>& OwnBuildId();

}  // namespace tessera::runtime
