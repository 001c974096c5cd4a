// The compiled tier's side of a Program: machine code for runs of its
// arithmetic, and the state that decides when to make it (tiering.cpp).
//
// The interpreter keeps control flow, memory, images and subgroups; what it
// hands to compiled code is a segment: a run of consecutive ALU
// instructions of one block (two or more), compiled by src/jit into one
// loop over the lanes that keeps intermediate values in registers and
// writes back only what the run leaves. A segment computes what the
// interpreter's kernels would, bit for bit: both come from the same table
// (alu_ops.inc, alu_scalar.inc).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace tessera::shader {

struct Program;

// Runs a segment on lanes [0, lanes) of the register file (register r of
// lane i at registers[r * stride + i]); lanes is a multiple of
// kSegmentLanes (the interpreter pads its register rows: lanes past the
// group's hold values nobody reads). active == nullptr: every lane runs;
// otherwise lanes whose active word is 0 keep their registers.
using SegmentFunction = void (*)(uint32_t* registers, uint64_t stride, uint32_t lanes, const uint32_t* active);
constexpr uint32_t kSegmentLanes = 16;

struct CompiledSegment {
	uint32_t inst_begin = 0, inst_end = 0;  // into Program::insts
	SegmentFunction function = nullptr;
};

// A memory region's bytes for a compiled program (the interpreter resolves
// each buffer and push-constant region of the program before a run; the
// other regions' entries are unused).
struct RegionSpan {
	const uint8_t* data = nullptr;
	uint64_t size = 0;  // bytes; accesses past it read 0 or are dropped
};

// What a whole compiled program reads besides the register file.
struct ProgramEnvironment {
	uint32_t* private_memory = nullptr;  // word w of lane i at [w * stride + i], stride as the registers'
	const RegionSpan* spans = nullptr;   // one per Program::regions entry
	uint64_t lanes = 0;                  // the lane group's invocations (the registers have stride rows)
	uint64_t max_steps = 0;              // blocks one run of kSegmentLanes lanes may execute
	uint64_t steps = 0;                  // out: blocks executed, summed over the runs
	uint32_t* pcs = nullptr;             // with barriers: each lane's block or barrier between rounds (padded lanes)
};

// A whole program compiled: the lanes run in vectors of kSegmentLanes, each
// with the interpreter's scheduling (the lowest block any lane waits at
// runs next, under the mask of the lanes waiting there). Returns 0, or 1
// when a vector of lanes ran past max_steps (an endless loop). A compute
// program with barriers runs its lanes (one workgroup) in rounds: each
// vector until its lanes are done or parked at a barrier, then the next;
// max_steps also bounds the rounds. No program with subgroup operations is
// compiled whole; see jit::CompileProgram and src/jit/README.md.
using ProgramFunction = uint32_t (*)(uint32_t* registers, uint64_t stride, ProgramEnvironment* environment);

// A program's compiled code: the whole program, or else its segments. Owns
// its machine code: destroying it frees the code (the JIT's resources).
struct CompiledProgram {
	ProgramFunction program = nullptr;
	// The segments of block b are segments[block_first[b], block_first[b + 1]),
	// in instruction order.
	std::vector<uint32_t> block_first;
	std::vector<CompiledSegment> segments;
	std::shared_ptr<void> code;  // the JIT's handle on the machine code
	double compile_ms = 0;       // for measurement and the log
};

// What a program's compile job and the program share: the job may outlive
// the program (a pipeline destroyed while its code compiles in the
// background) and then drops its result.
struct JitState {
	std::atomic<const CompiledProgram*> compiled{nullptr};  // published once, lives as long as `owned`
	std::atomic<uint64_t> work{0};                          // lane-instructions interpreted so far
	std::atomic<bool> requested{false};                     // a compile was started or queued
	std::atomic<bool> probed{false};                        // the caches were asked for its code
	std::mutex mutex;
	std::shared_ptr<const CompiledProgram> owned;
};

// A Program's slot: a copy of a program starts cold (its own state; it may
// be changed before it runs, see Program::serial).
class JitSlot {
public:
	JitSlot() = default;
	JitSlot(const JitSlot&) {}
	JitSlot& operator=(const JitSlot&) {
		state_ = std::make_shared<JitState>();
		return *this;
	}
	JitState& state() const { return *state_; }
	std::weak_ptr<JitState> weak() const { return state_; }

private:
	std::shared_ptr<JitState> state_ = std::make_shared<JitState>();
};

// How programs tier (TESSERA_JIT): interpreted only, compiled in the
// background once hot, or compiled before their first run.
enum class JitMode { kOff, kAsync, kSync };
JitMode CurrentJitMode();
// Overrides TESSERA_JIT from now on (tests and benchmarks that compare the
// tiers in one process); nullopt: TESSERA_JIT decides again.
void SetJitMode(std::optional<JitMode> mode);

// The compiled code to run `program` with, or nullptr (interpret it all).
// TESSERA_JIT=sync compiles it here, before its first run.
const CompiledProgram* CompiledCodeFor(const Program& program);
// Counts a run the interpreter made without compiled code: with
// TESSERA_JIT=async, once a program's interpreted work has cost about what
// compiling it would, it is queued for the background compiler.
void NoteInterpretedWork(const Program& program, uint64_t lane_instructions);

// Waits until the background compiler has nothing queued or running (tests
// and benchmarks that measure compiled code under TESSERA_JIT=async).
void WaitForBackgroundCompiles();
// Waits for the background compile running now, if any: DestroyDevice, so
// that a program that then exits does not exit during one (tiering.cpp).
void WaitForRunningCompile();
// Called on the thread that creates a device: if it is the process's main
// thread, its exit (returning from main, or exit()) stops the background
// compiler, the compile in hand finished, before any static object is
// destroyed (tiering.cpp).
void StopCompilerAtMainThreadExit();

}  // namespace tessera::shader
