// The compiled tier as the driver reaches it: libtessera_jit.so (src/jit),
// loaded with dlopen the first time a program is compiled or taken from a
// cache, so that libLLVM, which the module links, is loaded only by
// processes that compile. Loading libLLVM costs about 50 ms of relocations
// and 45 MB of memory: every process start paid it while the driver linked
// LLVM itself, a test that never compiles included.
#pragma once

#include "jit/jit.h"

namespace tessera::shader {

// The JIT, loaded now if it was not; nullptr when it cannot be (the reason
// is logged once): programs then stay interpreted. Where it is looked for,
// first to last: $TESSERA_JIT_MODULE; libtessera_jit.so next to the binary
// that holds this code (the driver's library, installed or in the build
// tree); the build tree's src/ when that binary is one of the build's own
// (a test). A binary linked with the JIT itself (src/jit's static library:
// the JIT's unit tests) uses that.
const jit::Interface* JitModule();

// Whether JitModule() has loaded the JIT already (it then costs nothing).
bool JitModuleLoaded();

}  // namespace tessera::shader
