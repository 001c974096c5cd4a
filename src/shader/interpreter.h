// The interpreter: runs a Program over a group of lanes, one decoded
// instruction at a time for all lanes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "shader/ir.h"

namespace tessera::shader {

// A bound buffer range: what a descriptor resolves to.
struct BufferView {
	void* data = nullptr;
	uint64_t size = 0;  // bytes; accesses past it are dropped (stores) or read 0 (loads)
};

struct ImageBinding;  // image_ops.h
struct ImageScratch;  // image_ops.cpp

// Resolves image slots when an instruction first reads them (src/vk). An
// array element the shader never touches may name a destroyed view or
// sampler, or be rewritten by the host while the program runs (Vulkan 1.3
// §14.2.1, PARTIALLY_BOUND and UPDATE_UNUSED_WHILE_PENDING), so it must not
// be read at all. Called from every thread running the program.
class ImageResolver {
public:
	// Slot `slot` (< Resources::images.size()) resolved, once; the same
	// binding for the rest of the run.
	virtual const ImageBinding& Resolve(size_t slot) const = 0;

protected:
	~ImageResolver() = default;
};

// Host memory [begin, end) that device addresses may reach.
struct AddressRange {
	uint64_t begin = 0, end = 0;
};

// What a dispatch binds, resolved by the caller (src/vk) to plain pointers.
struct Resources {
	std::span<const BufferView> buffers;  // one per Program::bindings entry, same order
	const void* push_constants = nullptr;
	uint32_t push_constant_size = 0;
	// Accesses through device addresses (PhysicalStorageBuffer pointers, which
	// are host pointers). Vulkan 1.3 §15.9.1: robustBufferAccess does not cover
	// them. When check_device_addresses is set, an access must lie inside one
	// of device_memory (sorted by begin, disjoint) or it is dropped (loads read
	// 0); otherwise only the first page (null pointers) is refused.
	bool check_device_addresses = false;
	std::span<const AddressRange> device_memory;
	std::span<const ImageBinding> images;  // one per Program::image_bindings entry, same order
	// When set, images[k] is read only through image_resolver->Resolve(k);
	// slots past images.size() are no descriptor either way.
	const ImageResolver* image_resolver = nullptr;
};

struct WorkgroupPosition {
	uint32_t id[3] = {0, 0, 0};     // WorkgroupId
	uint32_t count[3] = {1, 1, 1};  // NumWorkgroups
};

struct RunOptions {
	// Lanes run together (tune by measurement). A program with barriers or
	// workgroup memory always runs one whole workgroup per lane group and
	// ignores both widths. Otherwise invocations are a flat sequence across
	// the workgroups of a RunWorkgroups call, cut into groups of
	// lane_group_width lanes, or when it is 0 of the larger of one workgroup
	// and packed_lane_group_width (small workgroups then share a group).
	uint32_t lane_group_width = 0;
	uint32_t packed_lane_group_width = 256;
	// Blocks one lane group may execute before it is declared hung (the
	// device is then lost). Generous: real shaders stay far below it.
	uint64_t max_block_steps = uint64_t{1} << 26;
};

enum class RunStatus {
	kSuccess,
	kDeviceLost,  // the step bound ran out: an endless loop
};

// What an interpreter has executed since it was created (for measurement).
struct RunStats {
	uint64_t block_steps = 0;        // blocks executed (one decode of each instruction in them)
	uint64_t lane_instructions = 0;  // instructions x active lanes
};

// Holds the scratch memory of a run (registers, per-lane memory, workgroup
// memory) so that running many workgroups allocates once. One per thread.
class Interpreter {
public:
	RunStatus RunWorkgroup(const Program& program, const Resources& resources, const WorkgroupPosition& position,
	                       const RunOptions& options = {});
	// Runs `count` workgroups along x: first.id[0] .. first.id[0] + count - 1
	// (same y and z). Small workgroups share lane groups (see RunOptions),
	// which is how a dispatch of local_size 1 still runs wide.
	RunStatus RunWorkgroups(const Program& program, const Resources& resources, const WorkgroupPosition& first,
	                        uint32_t count, const RunOptions& options = {});
	const RunStats& stats() const { return stats_; }

	// Vertex and fragment stages: one lane group of `lanes` invocations.
	// BeginStage sizes the scratch memory for the program and zeroes its
	// private memory; the caller then writes each input word (Program::inputs,
	// lanes values from StageWord(word)), calls RunStage, and reads the output
	// words the same way. Fragment lanes are 2x2 quads: lane 4q + 2dy + dx is
	// pixel (dx, dy) of quad q, which is what derivatives read. A fragment lane
	// whose kHelperInvocation input word is non-zero is a helper: it runs (for
	// derivatives) but its stores and atomics to buffers and images are
	// dropped. layout_lanes: lay the registers out for that many lanes (at
	// least `lanes`), so that runs of varying lane counts up to it share one
	// layout and keep the program's constants filled (fragment batches).
	// `filled`: words (ascending) whose first `lanes` values the caller
	// writes before every run; BeginStage zeroes only the rest of them.
	void BeginStage(const Program& program, uint32_t lanes, uint32_t layout_lanes = 0,
	                std::span<const uint32_t> filled = {});
	uint32_t* StageWord(uint32_t word) { return private_memory_.data() + size_t(word) * stride_; }
	// The workgroup memory of the stage's run (a tessellation control
	// stage's patch records): Program::workgroup_memory_size bytes.
	const uint8_t* StageWorkgroupMemory() const { return workgroup_memory_.data(); }
	RunStatus RunStage(const Program& program, const Resources& resources, const RunOptions& options = {});

private:
	RunStatus RunLanes(const Program& program, const Resources& resources, const WorkgroupPosition& position,
	                   uint64_t first_invocation, uint32_t lanes, uint64_t max_steps);
	void PrepareLanes(const Program& program, uint32_t lanes, uint32_t layout_lanes = 0);
	void FillConstants(const Program& program);
	RunStatus Execute(const Program& program, const Resources& resources, uint32_t lanes, uint64_t max_steps);
	// The interpreter proper, with the program's compiled segments if any.
	RunStatus Interpret(const Program& program, const Resources& resources, uint32_t lanes, uint64_t max_steps,
	                    const CompiledProgram* compiled);
	RunStatus RunCompiled(const Program& program, const CompiledProgram& compiled, const Resources& resources,
	                      uint32_t lanes, uint64_t max_steps);
	// stage.cpp: vertex and fragment stages.
	void ExecuteDerivative(const Inst& inst, uint32_t lanes, bool full);
	void ExecuteReadClock(const Inst& inst, uint32_t lanes, bool full);
	bool WritesImage(const Program& program, const Inst& inst) const;  // stage.cpp
	bool WritesBuffer(const Program& program, const Inst& inst) const;
	void ExecuteGuarded(const Program& program, const Inst& inst, const Resources& resources, uint32_t lanes,
	                    bool full);
	// segment..segments_end: the block's compiled segments (none when
	// interpreted; see compiled.h).
	void ExecuteBlock(const Program& program, const Block& block, const Resources& resources, uint32_t lanes, bool full,
	                  const CompiledSegment* segment, const CompiledSegment* segments_end);
	void ExecuteMemory(const Program& program, const Inst& inst, const Resources& resources, uint32_t lanes, bool full);
	void ExecutePhysical(const Inst& inst, const Resources& resources, uint32_t lanes, bool full);
	void ExecuteDescriptorArray(const Inst& inst, const Region& region, const Resources& resources, uint32_t lanes,
	                            bool full);
	void ExecuteSubgroup(const Inst& inst, uint32_t lanes, bool full);
	void ExecuteImage(const Program& program, const Inst& inst, const Resources& resources, uint32_t lanes,
	                  bool full);  // image_ops.cpp
	void ExecuteAtomic64(const Program& program, const Inst& inst, const Resources& resources, uint32_t lanes,
	                     bool full);  // atomic64.cpp
	void CopyPhis(const Program& program, const Edge& edge, uint32_t lanes, bool full, bool by_edge,
	              uint32_t edge_index);
	uint32_t* Reg(uint32_t reg) { return registers_.data() + static_cast<size_t>(reg) * stride_; }

	uint32_t lanes_ = 0;
	// lanes_ rounded up to kSegmentLanes: what compiled segments run, whole
	// vectors (the padding lanes compute values no one reads).
	uint32_t padded_lanes_ = 0;
	// A register's row and a private word's: padded_lanes_, or more for a
	// stage begun with layout_lanes. active_ has as many words.
	uint32_t stride_ = 0;
	// The program (ProgramSerial) whose constants registers_ holds in rows of
	// constants_stride_ lanes, so that back-to-back stage runs of one program
	// (a draw's fragment batches, of any size that rounds to the same
	// stride) fill them once; 0 when none.
	uint64_t constants_serial_ = 0;
	uint32_t constants_stride_ = 0;
	RunStats stats_;
	std::vector<uint32_t> registers_;
	std::vector<uint32_t> private_memory_;  // private_words x stride_, word-major
	std::vector<uint8_t> workgroup_memory_;
	std::vector<uint32_t> pc_;         // per lane: current block, or kDone
	std::vector<uint32_t> active_;     // per lane: 1 when running the current block
	std::vector<uint32_t> edge_;       // per lane: edge taken by the current terminator
	std::vector<uint32_t> scratch_;    // masked results before the blend
	std::vector<uint32_t> local_ids_;  // LocalInvocationId x, y, z per lane
	// The ids of one workgroup of workgroup_ids_size_ (x, y, z, then
	// LocalInvocationIndex, each `invocations` words), copied into local_ids_
	// in runs: made once per workgroup size.
	std::vector<uint32_t> workgroup_ids_;
	uint32_t workgroup_ids_size_[3] = {0, 0, 0};
	// Fragment stage: buffer writes of helper lanes (helper word or discard
	// word non-zero) are dropped.
	bool guard_writes_ = false;
	uint32_t helper_word_ = Program::kNoWord, discard_word_ = Program::kNoWord;
	std::vector<uint32_t> guard_mask_;
	std::vector<RegionSpan> spans_;     // RunCompiled: the regions' bytes
	std::vector<uint32_t> image_args_;  // kImageArgCount operand slots x lanes (zeros)
	// kImageArg: each operand slot's register until the operation reads it;
	// bit s of image_arg_set_: slot s was given since the last operation.
	const uint32_t* image_arg_[kImageArgCount] = {};
	uint32_t image_arg_set_ = 0;
	// kImage: the result components (bit c) it wrote straight into their
	// registers, which the kImageResult instructions then leave alone.
	uint32_t image_in_place_ = 0;
	std::vector<uint32_t> image_results_;          // 4 result slots x lanes
	std::shared_ptr<ImageScratch> image_scratch_;  // image_ops.cpp (shared_ptr: an incomplete type here)
};

}  // namespace tessera::shader
