// Register allocation for the IR: values whose lifetimes do not overlap share
// a register, so the register file (registers x lanes x 4 bytes) stays small
// enough for the caches when lane groups are wide.
#pragma once

#include "shader/ir.h"

namespace tessera::shader {

// Renumbers the registers of `program` in place. Constants, built-ins and
// register 0 keep registers of their own (they are filled before a run).
void AllocateRegisters(Program& program);

}  // namespace tessera::shader
