// Descriptor resolution for the shader engine (see shader_resources.h).
#include "vk/shader_resources.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "texture/texel.h"
#include "texture/ycbcr.h"
#include "vk/descriptor_set.h"
#include "vk/descriptor_set_layout.h"
#include "vk/image.h"
#include "vk/pipeline.h"
#include "vk/pipeline_layout.h"
#include "vk/sampler.h"

namespace tessera::vk {

namespace {

// Descriptors of a binding that a shader may read in bound set `set`: the
// binding's count (the set's own for a variable-count binding), less any
// that lie past the set's readable bytes.
uint32_t BoundCount(const BoundDescriptorSets& bound, uint32_t set, const DescriptorBinding& binding) {
	const uint32_t count = binding.IsVariableCount() ? bound.variable_counts[set] : binding.count;
	const uint64_t size = bound.sizes[set];
	const uint64_t fits = binding.offset < size ? (size - binding.offset) / binding.stride : 0;
	return uint32_t(std::min<uint64_t>(count, fits));
}

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
	// A variable-count binding holds the set's own count (descriptor indexing).
	const uint32_t count = BoundCount(bound, slot.set, *binding);
	if (binding->type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
		return {const_cast<uint8_t*>(set + binding->offset), count};
	if (slot.array_element >= count) return {};
	const uint8_t* memory = set + binding->offset + uint64_t(slot.array_element) * binding->stride;
	VkDescriptorType type;
	if (!DescriptorType(*binding, memory, &type) ||
	    (type != VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER && type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER &&
	     !IsDynamicBuffer(type)))
		return {};  // a mutable descriptor holding no buffer
	const BufferDescriptor descriptor = LoadBufferDescriptor(*reinterpret_cast<const BufferDescriptor*>(memory));
	uint8_t* data = descriptor.data;
	const uint32_t dynamic = binding->dynamic_index + slot.array_element;
	if (data && IsDynamicBuffer(binding->type) && dynamic < bound.dynamic_counts[slot.set])
		data += bound.dynamic_offsets[slot.set][dynamic];
	return {data, data ? descriptor.range : 0};
}

// The plain state of an image view for the sampling code. A view of a
// depth/stencil format used for sampling names one aspect (Vulkan 1.3
// VUID-VkDescriptorImageInfo-imageView-01976); depth wins when both are set.
// A sliced view of a 3D image (VK_EXT_image_sliced_view_of_3d) sees its
// slices as a storage image only; sampled, it sees the whole level.
texture::ImageViewState ViewState(const ImageView& view, bool storage) {
	const VkImageSubresourceRange& range = view.Range();
	texture::ImageViewState state;
	state.layout = &view.GetImage()->Layout();
	state.memory = view.GetImage()->Data();
	state.residency = view.GetImage()->Residency();
	state.format = view.Format();
	state.aspect = (range.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT)     ? VK_IMAGE_ASPECT_DEPTH_BIT
	               : (range.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) ? VK_IMAGE_ASPECT_STENCIL_BIT
	               : (range.aspectMask & VK_IMAGE_ASPECT_PLANE_0_BIT) ? VK_IMAGE_ASPECT_PLANE_0_BIT
	               : (range.aspectMask & VK_IMAGE_ASPECT_PLANE_1_BIT) ? VK_IMAGE_ASPECT_PLANE_1_BIT
	               : (range.aspectMask & VK_IMAGE_ASPECT_PLANE_2_BIT) ? VK_IMAGE_ASPECT_PLANE_2_BIT
	                                                                  : VK_IMAGE_ASPECT_COLOR_BIT;
	state.view_type = view.Type();
	state.base_level = range.baseMipLevel;
	state.level_count = range.levelCount;
	state.min_lod = view.MinLod();
	state.base_layer = range.baseArrayLayer;
	state.layer_count = range.layerCount;
	if (storage) {
		state.slice_offset = view.SliceOffset();
		state.slice_count = view.SliceCount();
	}
	state.components = view.Components();
	return state;
}

// The descriptor type a program image slot reads.
VkDescriptorType KindType(shader::ImageDescriptorKind kind) {
	switch (kind) {
	case shader::ImageDescriptorKind::kSampledImage: return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
	case shader::ImageDescriptorKind::kStorageImage: return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
	case shader::ImageDescriptorKind::kCombinedImageSampler: return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
	case shader::ImageDescriptorKind::kSampler: return VK_DESCRIPTOR_TYPE_SAMPLER;
	case shader::ImageDescriptorKind::kUniformTexelBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
	case shader::ImageDescriptorKind::kStorageTexelBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
	}
	return VK_DESCRIPTOR_TYPE_MAX_ENUM;
}

// The image, sampler or texel buffer a program image slot reads: the
// descriptor at (set, binding, array element), resolved to plain state and
// prepared for lookups. No set, no descriptor or a null one: an empty
// binding, which reads zero.
void ResolveImage(const BoundDescriptorSets& bound, const PipelineLayout& layout, const shader::ImageBindingSlot& slot,
                  shader::ImageBinding& out, std::vector<std::shared_ptr<const texture::DecodedView>>& decoded) {
	out = {};
	if (slot.set >= layout.SetCount() || slot.set >= kMaxBoundDescriptorSets) return;
	const uint8_t* set = bound.sets[slot.set];
	const DescriptorSetLayout* set_layout = layout.SetLayout(slot.set);
	const DescriptorBinding* binding = set_layout ? set_layout->Find(slot.binding) : nullptr;
	if (!set || !binding || slot.array_element >= BoundCount(bound, slot.set, *binding)) return;
	const uint8_t* memory = set + binding->offset + uint64_t(slot.array_element) * binding->stride;
	VkDescriptorType type;
	if (!DescriptorType(*binding, memory, &type)) return;
	// A mutable descriptor holding another kind than the shader reads is
	// empty. (Subpass inputs are storage-image slots: an input attachment
	// in a mutable descriptor is what such a slot reads too.)
	const bool subpass_input =
	    type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT && slot.kind == shader::ImageDescriptorKind::kStorageImage;
	if (binding->type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT && type != KindType(slot.kind) && !subpass_input) return;
	switch (type) {
	case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
	case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: {
		const auto* texel = reinterpret_cast<const TexelBufferDescriptor*>(memory);
		if (!texel->data) return;
		const texture::FormatInfo* format = texture::FindFormat(texel->format);
		// Formats without texel buffer features never reach here in valid use;
		// they read as an empty descriptor.
		if (!format || format->IsCompressed() || format->IsDepthOrStencil() || !texture::CanConvertTexels(*format))
			return;
		out.texels = texel->data;
		out.texel_count = texel->element_count;
		out.texel_format = format;
		// Fetches and stores then take the images' vector paths.
		out.prepared_ok = texture::PrepareTexelBuffer(out.texels, out.texel_count, *format, &out.prepared);
		return;
	}
	case VK_DESCRIPTOR_TYPE_SAMPLER:
	case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
	case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
	case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
	case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: {
		const auto* image = reinterpret_cast<const ImageDescriptor*>(memory);
		if (image->sampler) {
			out.has_sampler = true;
			out.sampler = image->sampler->State();
		}
		if (image->view && image->view->GetImage()->Data()) {
			out.has_view = true;
			out.view = ViewState(*image->view, type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE);
			// Sampler Y'CbCr conversion (chroma reconstructed explicitly,
			// texture/ycbcr.h) and block-compressed formats are sampled from a
			// decoded copy, kept on the view until the bytes it was decoded from
			// change (texture/decoded_view_cache.h).
			const texture::YcbcrConversion* ycbcr = image->sampler ? image->sampler->Ycbcr() : nullptr;
			if (ycbcr || texture::NeedsDecodedView(out.view)) {
				std::shared_ptr<const texture::DecodedView> copy = image->view->DecodedCache().Get(out.view, ycbcr);
				if (!copy) return;
				out.view = copy->view;
				decoded.push_back(std::move(copy));
			}
			out.prepared_ok = out.has_sampler ? texture::PrepareSampledImage(out.sampler, out.view, &out.prepared)
			                                  : texture::PrepareImage(out.view, &out.prepared);
		}
		return;
	}
	default: return;
	}
}

// How many of the program's image slots to resolve: trailing slots past
// their set's descriptor count are left out, which the engine reads as no
// descriptor, as it would the empty ones. Runtime-sized arrays come last,
// the largest at the end (spirv::LinkRuntimeDescriptorArrays), so a large
// variable-count array costs only the descriptors its set holds. The
// elements of an array are consecutive slots from element 0.
size_t UsedImageSlots(const BoundDescriptorSets& bound, const PipelineLayout& layout,
                      const std::vector<shader::ImageBindingSlot>& slots) {
	size_t size = slots.size();
	while (size > 0) {
		const shader::ImageBindingSlot& last = slots[size - 1];
		const uint8_t* set =
		    last.set < layout.SetCount() && last.set < kMaxBoundDescriptorSets ? bound.sets[last.set] : nullptr;
		const DescriptorSetLayout* set_layout = set ? layout.SetLayout(last.set) : nullptr;
		const DescriptorBinding* binding = set_layout ? set_layout->Find(last.binding) : nullptr;
		const uint32_t count = binding ? BoundCount(bound, last.set, *binding) : 0;
		if (last.array_element < count) break;
		const size_t head = size - 1 - std::min<size_t>(last.array_element, size - 1);
		const bool run = slots[head].set == last.set && slots[head].binding == last.binding &&
		                 slots[head].array_element == 0 && head + last.array_element == size - 1;
		size = run ? head + count : size - 1;
	}
	return size;
}

}  // namespace

void LazyImages::Reset(const BoundDescriptorSets& bound, const PipelineLayout& layout, const Pipeline& pipeline,
                       const Device& device, std::span<const shader::ImageBindingSlot> slots, size_t count) {
	bound_ = bound;
	layout_ = &layout;
	pipeline_ = &pipeline;
	device_ = &device;
	slots_ = slots.first(count);
	decoded_.clear();
	images_.assign(count, {});
	if (count > ready_capacity_) {
		ready_.reset(new std::atomic<bool>[count]);
		ready_capacity_ = count;
	}
	for (size_t k = 0; k < count; ++k) ready_[k].store(false, std::memory_order_relaxed);
}

// One thread resolves at a time (the first touch of a slot per run; decoding
// a compressed view may take a while, as it did before any slot was lazy).
const shader::ImageBinding& LazyImages::ResolveSlow(size_t slot) const {
	std::lock_guard lock(mutex_);
	if (ready_[slot].load(std::memory_order_relaxed)) return images_[slot];
	try {
		ResolveImage(bound_, *layout_, slots_[slot], images_[slot], decoded_);
	} catch (const std::bad_alloc&) {
		// A decoded copy could not be kept: the slot reads as no descriptor.
		images_[slot] = {};
		device_->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_PIPELINE,
		                uint64_t(const_cast<Pipeline*>(pipeline_)->ToHandle()),
		                "out of memory resolving an image descriptor; it reads as zero");
	}
	ready_[slot].store(true, std::memory_order_release);
	return images_[slot];
}

bool ResolveResources(const ExecutionContext& context, BindPoint bind_point, const Pipeline& pipeline,
                      const shader::Program& program, const char* what, BoundResources& out) {
	const BoundDescriptorSets& bound = context.descriptor_sets[size_t(bind_point)];
	try {
		out.buffers.clear();
		out.buffers.reserve(program.bindings.size());
		for (const shader::BindingSlot& slot : program.bindings)
			out.buffers.push_back(ResolveBuffer(bound, pipeline.Layout(), slot));
		// Image slots resolve on first use (LazyImages), from the sets bound
		// now; the count reads only the sets' descriptor counts.
		out.images.Reset(bound, pipeline.Layout(), pipeline, *context.device, program.image_bindings,
		                 UsedImageSlots(bound, pipeline.Layout(), program.image_bindings));
	} catch (const std::bad_alloc&) {
		context.device->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_PIPELINE,
		                       uint64_t(const_cast<Pipeline&>(pipeline).ToHandle()),
		                       "%s: out of memory binding resources; skipped", what);
		return false;
	}
	// Device-address accesses are checked against the live allocations (a
	// snapshot: memory freed while this runs is invalid use anyway). Only a
	// program with a device-address region (PhysicalStorageBuffer pointers:
	// every such access goes through it) takes one: the snapshot costs the
	// device's lock and a reference count that the draw's worker releases,
	// per stage of every draw.
	const bool addresses = std::any_of(program.regions.begin(), program.regions.end(),
	                                   [](const shader::Region& r) { return r.kind == shader::RegionKind::kPhysical; });
	if (addresses)
		out.address_ranges = context.device->MemoryRanges();
	else
		out.address_ranges.reset();
	out.resources = {};
	out.resources.buffers = out.buffers;
	out.resources.images = out.images.Images();
	out.resources.image_resolver = &out.images;
	out.resources.check_device_addresses = true;
	if (addresses) out.resources.device_memory = *out.address_ranges;
	out.resources.push_constants = context.push_constants;
	out.resources.push_constant_size = kMaxPushConstantsSize;
	return true;
}

bool SameResources(const ExecutionContext& context, BindPoint bind_point, const Pipeline& pipeline,
                   const shader::Program& program, const BoundResources& resolved, const uint8_t* push_constants) {
	if (resolved.address_ranges || std::memcmp(push_constants, context.push_constants, kMaxPushConstantsSize) != 0)
		return false;
	const BoundDescriptorSets& bound = context.descriptor_sets[size_t(bind_point)];
	if (resolved.buffers.size() != program.bindings.size()) return false;
	for (size_t k = 0; k < program.bindings.size(); ++k) {
		const shader::BufferView now = ResolveBuffer(bound, pipeline.Layout(), program.bindings[k]);
		if (now.data != resolved.buffers[k].data || now.size != resolved.buffers[k].size) return false;
	}
	// Image descriptors have no dynamic offsets: the same set memory (of the
	// same readable size and variable count) holds the same descriptors
	// while the commands execute.
	const BoundDescriptorSets& then = resolved.images.Sets();
	for (const shader::ImageBindingSlot& slot : program.image_bindings) {
		if (slot.set >= kMaxBoundDescriptorSets) continue;
		const uint32_t s = slot.set;
		if (bound.sets[s] != then.sets[s] || bound.sizes[s] != then.sizes[s] ||
		    bound.variable_counts[s] != then.variable_counts[s])
			return false;
	}
	return true;
}

}  // namespace tessera::vk
