// The ALU table (alu_ops.inc) as one scalar function per operation, compiled
// to LLVM bitcode at build time (clang, see src/CMakeLists.txt) and embedded
// in the driver. The JIT links these into each compiled segment and inlines
// them into its lane loop, so compiled code and the interpreter's kernels
// (alu.cpp) compute every lane from the same source. Built with the same
// floating-point rules as alu.cpp: no fast math, no contraction into FMA.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "shader/fast_math.h"

namespace tessera::shader {
namespace {

#include "shader/alu_scalar.inc"

}  // namespace
}  // namespace tessera::shader

using namespace tessera::shader;

#define OP(name, arity, expr)                                                                          \
	extern "C" uint32_t tessera_alu_##name([[maybe_unused]] uint32_t a, [[maybe_unused]] uint32_t b,   \
	                                       [[maybe_unused]] uint32_t c, [[maybe_unused]] uint32_t d) { \
		return ToBits(expr);                                                                           \
	}
#include "shader/alu_ops.inc"
#undef OP
