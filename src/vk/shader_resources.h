// What a shader program binds, resolved at execution time through the
// descriptor sets bound to a bind point: plain pointers and sizes for the
// shader engine (shader::Resources). Shared by dispatches and draws.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "shader/image_ops.h"
#include "shader/interpreter.h"
#include "texture/decoded_view.h"
#include "vk/command_buffer.h"
#include "vk/device.h"

namespace tessera::vk {

class Pipeline;
class PipelineLayout;

// A program's image slots, each resolved from its descriptor when the engine
// first reads it (shader::ImageResolver), at most once per run, by whichever
// thread asks first. Elements the shader does not use are never read: they
// may name destroyed views and samplers (PARTIALLY_BOUND) or be rewritten
// while the run is pending (UPDATE_UNUSED_WHILE_PENDING).
class LazyImages final : public shader::ImageResolver {
public:
	// Sets up `count` unresolved slots for the first `count` of `slots`, read
	// through the sets of `bound` (copied) and `layout`. Throws bad_alloc.
	void Reset(const BoundDescriptorSets& bound, const PipelineLayout& layout, const Pipeline& pipeline,
	           const Device& device, std::span<const shader::ImageBindingSlot> slots, size_t count);
	std::span<const shader::ImageBinding> Images() const { return {images_.data(), images_.size()}; }
	// Lets go of the decoded copies (kept objects, between runs).
	void Release() { decoded_.clear(); }
	// The sets the slots are read through (Reset's `bound`).
	const BoundDescriptorSets& Sets() const { return bound_; }
	const shader::ImageBinding& Resolve(size_t slot) const override {
		if (ready_[slot].load(std::memory_order_acquire)) return images_[slot];
		return ResolveSlow(slot);
	}

private:
	const shader::ImageBinding& ResolveSlow(size_t slot) const;

	BoundDescriptorSets bound_ = {};
	const PipelineLayout* layout_ = nullptr;
	const Pipeline* pipeline_ = nullptr;
	const Device* device_ = nullptr;
	std::span<const shader::ImageBindingSlot> slots_;
	// Written under mutex_, before the slot's ready flag (release); read
	// after it (acquire).
	mutable std::mutex mutex_;
	mutable std::vector<shader::ImageBinding> images_;
	std::unique_ptr<std::atomic<bool>[]> ready_;
	size_t ready_capacity_ = 0;
	// Decoded copies of compressed and Y'CbCr views (texture/decoded_view.h),
	// held while the program runs (a view's cache may replace its copy).
	mutable std::vector<std::shared_ptr<const texture::DecodedView>> decoded_;
};

// Owns what shader::Resources points into; keep it alive (and in place)
// while the program runs.
struct BoundResources {
	std::vector<shader::BufferView> buffers;
	LazyImages images;
	std::shared_ptr<const Device::AddressRanges> address_ranges;
	shader::Resources resources;
};

// Fills out for program (one of pipeline's stages) from the state of
// bind_point. Returns false when memory runs out (reported through the
// device's messengers as `what`; the caller skips the work).
bool ResolveResources(const ExecutionContext& context, BindPoint bind_point, const Pipeline& pipeline,
                      const shader::Program& program, const char* what, BoundResources& out);

// Whether `resolved` (ResolveResources' result for program, a stage of
// pipeline, from the state of bind_point then) is what ResolveResources
// would give now: the same buffers, the same sets for the image slots, the
// same push constants (`push_constants`: those it was resolved with). False
// for programs that access device addresses (their snapshot of the
// allocations is not compared).
bool SameResources(const ExecutionContext& context, BindPoint bind_point, const Pipeline& pipeline,
                   const shader::Program& program, const BoundResources& resolved, const uint8_t* push_constants);

}  // namespace tessera::vk
