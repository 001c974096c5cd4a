// Runtime-sized descriptor arrays at pipeline creation: see
// LinkRuntimeDescriptorArrays in compile.h.
#include <algorithm>

#include "spirv/compile.h"

namespace tessera::spirv {

namespace {

// Rebuilds a slot list with each runtime-sized array's slot expanded to its
// elements; first[k] is where old slot k starts, count[k] how many slots it
// became. The expanded arrays go after every other slot, the largest last:
// vk::ResolveResources leaves out trailing slots past their set's
// descriptor count, so a large variable-count array costs only what its set
// holds.
template <class Slot>
void Expand(std::vector<Slot>& slots, const DescriptorCountFn& count_of, std::vector<uint32_t>& first,
            std::vector<uint32_t>& count) {
	std::vector<Slot> out;
	first.assign(slots.size(), 0);
	count.assign(slots.size(), 1);
	std::vector<size_t> runtime;
	for (size_t k = 0; k < slots.size(); ++k) {
		const Slot& slot = slots[k];
		if (slot.array_element != shader::kRuntimeDescriptorArray) {
			first[k] = static_cast<uint32_t>(out.size());
			out.push_back(slot);
			continue;
		}
		count[k] = count_of(slot.set, slot.binding);
		runtime.push_back(k);
	}
	std::stable_sort(runtime.begin(), runtime.end(), [&](size_t a, size_t b) { return count[a] < count[b]; });
	for (size_t k : runtime) {
		first[k] = static_cast<uint32_t>(out.size());
		const Slot& slot = slots[k];
		if (count[k] == 0) {
			// No descriptors in the layout: one slot past every array, which
			// resolves to no descriptor.
			count[k] = 1;
			out.push_back(slot);
			continue;
		}
		for (uint32_t e = 0; e < count[k]; ++e) {
			Slot element = slot;
			element.array_element = e;
			out.push_back(element);
		}
	}
	slots = std::move(out);
}

// A reference to old slot `slot` with `n` descriptors, relinked.
void Relink(uint32_t& slot, uint32_t& n, const std::vector<uint32_t>& first, const std::vector<uint32_t>& count) {
	if (slot >= first.size()) return;  // a constant index past an array (no descriptor)
	if (n == shader::kRuntimeDescriptorArray) n = count[slot];
	slot = first[slot];
}

}  // namespace

void LinkRuntimeDescriptorArrays(shader::Program& program, const DescriptorCountFn& count_of) {
	auto runtime = [](const auto& slot) { return slot.array_element == shader::kRuntimeDescriptorArray; };
	std::vector<uint32_t> first, count;
	if (std::any_of(program.image_bindings.begin(), program.image_bindings.end(), runtime)) {
		Expand(program.image_bindings, count_of, first, count);
		for (shader::ImageOperation& op : program.image_ops) {
			Relink(op.image, op.image_count, first, count);
			if (op.sampler != shader::ImageOperation::kNone) Relink(op.sampler, op.sampler_count, first, count);
		}
	}
	if (std::any_of(program.bindings.begin(), program.bindings.end(), runtime)) {
		Expand(program.bindings, count_of, first, count);
		for (shader::Region& region : program.regions)
			if (region.kind == shader::RegionKind::kStorageBuffer || region.kind == shader::RegionKind::kUniformBuffer)
				Relink(region.binding, region.descriptor_count, first, count);
	}
}

}  // namespace tessera::spirv
