// The compiled tier: Tessera's IR to machine code through LLVM (ORC LLJIT),
// for the CPU that runs the driver (its vector width and features, never the
// build machine's). See compiled.h for what is compiled and README.md.
#pragma once

#include <memory>

#include "jit/code_cache.h"
#include "shader/compiled.h"
#include "shader/ir.h"

namespace tessera::jit {

// Compiles `program` whole, or else its segments (see shader/compiled.h):
// every run of two or more consecutive ALU instructions in a block.
// Thread-safe (compiles one at a time). A program with no such run gets a
// CompiledProgram with no segments. nullptr when LLVM cannot be used (the
// reason is logged once); the program then stays interpreted. A program
// compiled before, in this process or (through the disk cache) another,
// gets that code (code_cache.h).
std::shared_ptr<const shader::CompiledProgram> CompileProgram(const shader::Program& program);

// CompileProgram's result if it needs no compile: the program's code is in
// memory or in the disk cache (about a millisecond to link); else nullptr.
std::shared_ptr<const shader::CompiledProgram> CachedProgram(const shader::Program& program);

// How many compiles the LLVM verifier refused (the program then stays
// interpreted, with a warning in the log): a bug of this room, which the
// tests check never happens.
uint64_t InvalidIrCount();

// Where this process's programs came from, for tests and measurement.
struct CacheStats {
	uint64_t compiles = 0;     // by LLVM
	uint64_t memory_hits = 0;  // the code of an equal program, already loaded
	uint64_t disk_hits = 0;    // machine code from the disk cache, linked
	uint64_t disk_stores = 0;  // compiles written to the disk cache
};
CacheStats GetCacheStats();

// For tests: forgets the compiled programs in memory (programs that hold
// their code keep it) and uses `disk` from now on.
void ResetCaches(const DiskCache& disk);

// The JIT as the driver reaches it: libtessera_jit.so, a module of its own
// that the driver loads with dlopen at its first compile or cache hit
// (shader/jit_module.h), so that a process that never compiles never loads
// libLLVM (about 50 ms of relocations and 45 MB a process start otherwise).
// The module and the driver come from one build; the version and the sizes
// of the types they pass make a mismatched pair refuse to load.
inline constexpr uint32_t kInterfaceVersion = 1;
struct Interface {
	uint32_t version = kInterfaceVersion;
	uint32_t program_size = sizeof(shader::Program);
	uint32_t compiled_size = sizeof(shader::CompiledProgram);
	uint32_t environment_size = sizeof(shader::ProgramEnvironment);
	std::shared_ptr<const shader::CompiledProgram> (*compile)(const shader::Program&) = nullptr;
	std::shared_ptr<const shader::CompiledProgram> (*cached)(const shader::Program&) = nullptr;
};

// The module's one exported symbol, tessera_jit_interface (extern "C"),
// returns its Interface (a static object).
using InterfaceFunction = const Interface* (*)();
inline constexpr const char* kInterfaceSymbol = "tessera_jit_interface";

}  // namespace tessera::jit
