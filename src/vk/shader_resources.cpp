// Descriptor resolution for the shader engine (see shader_resources.h).
#include "vk/shader_resources.h"

#include <new>

#include "vk/descriptor_set.h"
#include "vk/descriptor_set_layout.h"
#include "vk/pipeline.h"
#include "vk/pipeline_layout.h"

namespace tessera::vk {

namespace {

// The buffer a program binding slot reads: the descriptor at (set, binding,
// array element) of the bound sets, plus its dynamic offset. A slot with no
// set bound or outside its binding's array resolves to an empty range, which
// robust access turns into zeros.
shader::BufferView ResolveBuffer(const BoundDescriptorSets& bound, const PipelineLayout& layout,
                                 const shader::BindingSlot& slot) {
	if (slot.set >= layout.SetCount() || slot.set >= kMaxBoundDescriptorSets) return {};
	const uint8_t* set = bound.sets[slot.set];
	const DescriptorSetLayout* set_layout = layout.SetLayout(slot.set);
	const DescriptorBinding* binding = set_layout ? set_layout->Find(slot.binding) : nullptr;
	if (!set || !binding) return {};
	if (binding->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
		return {const_cast<uint8_t*>(set + binding->offset), binding->count};
	if (slot.array_element >= binding->count) return {};
	const auto* descriptor =
	    reinterpret_cast<const BufferDescriptor*>(set + binding->offset + slot.array_element * binding->stride);
	uint8_t* data = descriptor->data;
	if (data && IsDynamicBuffer(binding->type))
		data += bound.dynamic_offsets[slot.set][binding->dynamic_index + slot.array_element];
	return {data, data ? descriptor->range : 0};
}

}  // namespace

bool ResolveResources(const ExecutionContext& context, BindPoint bind_point, const Pipeline& pipeline,
                      const shader::Program& program, const char* what, BoundResources& out) {
	const BoundDescriptorSets& bound = context.descriptor_sets[size_t(bind_point)];
	try {
		out.buffers.clear();
		out.buffers.reserve(program.bindings.size());
		for (const shader::BindingSlot& slot : program.bindings)
			out.buffers.push_back(ResolveBuffer(bound, pipeline.Layout(), slot));
	} catch (const std::bad_alloc&) {
		context.device->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_PIPELINE,
		                       uint64_t(const_cast<Pipeline&>(pipeline).ToHandle()),
		                       "%s: out of memory binding resources; skipped", what);
		return false;
	}
	// Device-address accesses are checked against the live allocations (a
	// snapshot: memory freed while this runs is invalid use anyway).
	out.address_ranges = context.device->MemoryRanges();
	out.resources = {};
	out.resources.buffers = out.buffers;
	out.resources.check_device_addresses = true;
	out.resources.device_memory = *out.address_ranges;
	out.resources.push_constants = context.push_constants;
	out.resources.push_constant_size = kMaxPushConstantsSize;
	return true;
}

}  // namespace tessera::vk
