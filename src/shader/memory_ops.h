// Memory helpers shared by the interpreter's files.
#pragma once

#include <cstdint>

#include "shader/ir.h"

namespace tessera::shader {

// One atomic read-modify-write on a 4-byte-aligned word; returns the old value.
uint32_t AtomicApply(Op op, uint32_t* word, uint32_t value, uint32_t comparator);

}  // namespace tessera::shader
