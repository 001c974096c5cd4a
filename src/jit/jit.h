// The compiled tier: Tessera's IR to machine code through LLVM (ORC LLJIT),
// for the CPU that runs the driver (its vector width and features, never the
// build machine's). See compiled.h for what is compiled and README.md.
#pragma once

#include <memory>

#include "shader/compiled.h"
#include "shader/ir.h"

namespace tessera::jit {

// Compiles the segments of `program` (see shader/compiled.h): every run of
// two or more consecutive ALU instructions in a block. Thread-safe
// (compiles one at a time). A program with no such run gets a
// CompiledProgram with no segments. nullptr when LLVM cannot be used (the
// reason is logged once); the program then stays interpreted.
std::shared_ptr<const shader::CompiledProgram> CompileProgram(const shader::Program& program);

// How many compiles the LLVM verifier refused (the program then stays
// interpreted, with a warning in the log): a bug of this room, which the
// tests check never happens.
uint64_t InvalidIrCount();

}  // namespace tessera::jit
