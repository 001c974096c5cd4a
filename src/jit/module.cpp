// libtessera_jit.so (see jit.h, Interface): the JIT's static library behind
// one exported function. This reference keeps the linker from leaving out
// the archive member that defines it.
#include "jit/jit.h"

extern "C" const tessera::jit::Interface* tessera_jit_interface();

namespace {
[[maybe_unused]] __attribute__((used)) const tessera::jit::InterfaceFunction kExported = &tessera_jit_interface;
}  // namespace
