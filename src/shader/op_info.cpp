// Each IR operation's name and operand count (ir.h OpName, OpArity): a
// file of its own, with the program bytes (CMakeLists.txt), so that the JIT
// module and the driver both have it without the ALU kernels.
#include <cstddef>
#include <cstdint>

#include "shader/ir.h"

namespace tessera::shader {
namespace {

struct OpInfo {
	const char* name;
	uint32_t arity;
};
constexpr OpInfo kOpInfo[] = {
#define OP(name, arity, expr) {#name, arity},
#include "shader/alu_ops.inc"
#undef OP
    {"Load", 1},
    {"Store", 2},
    {"ArrayLength", 0},
    {"Load16", 1},
    {"Load8", 1},
    {"Store16", 2},
    {"Store8", 2},
    {"AtomicLoad", 1},
    {"AtomicStore", 2},
    {"AtomicExchange", 2},
    {"AtomicCompareExchange", 3},
    {"AtomicIAdd", 2},
    {"AtomicISub", 2},
    {"AtomicSMin", 2},
    {"AtomicUMin", 2},
    {"AtomicSMax", 2},
    {"AtomicUMax", 2},
    {"AtomicAnd", 2},
    {"AtomicOr", 2},
    {"AtomicXor", 2},
    {"AtomicFAdd", 2},
    {"AtomicFMin", 2},
    {"AtomicFMax", 2},
    {"SubgroupElect", 0},
    {"SubgroupBallot", 1},
    {"SubgroupBroadcastFirst", 1},
    {"SubgroupShuffle", 2},
    {"SubgroupReduce", 2},
    {"SubgroupReduce64", 4},
    {"DerivativeFineX", 1},
    {"DerivativeFineY", 1},
    {"DerivativeCoarseX", 1},
    {"DerivativeCoarseY", 1},
    {"ImageArg", 1},
    {"Image", 0},
    {"ImageResult", 0},
    {"ReadClock", 0},
};
static_assert(sizeof(kOpInfo) / sizeof(kOpInfo[0]) == static_cast<size_t>(Op::kCount));

}  // namespace

const char* OpName(Op op) { return kOpInfo[static_cast<size_t>(op)].name; }
uint32_t OpArity(Op op) { return kOpInfo[static_cast<size_t>(op)].arity; }

}  // namespace tessera::shader
