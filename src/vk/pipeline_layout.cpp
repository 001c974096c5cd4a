#include "vk/pipeline_layout.h"

#include "vk/device.h"

namespace tessera::vk {

PipelineLayout::~PipelineLayout() {
	for (DescriptorSetLayout* layout : set_layouts_)
		if (layout) layout->Release();
}

VkResult PipelineLayout::Init(const VkPipelineLayoutCreateInfo& info) {
	try {
		set_layouts_.reserve(info.setLayoutCount);
		dynamic_bases_.reserve(info.setLayoutCount);
		push_constant_ranges_.assign(info.pPushConstantRanges, info.pPushConstantRanges + info.pushConstantRangeCount);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	uint32_t dynamic = 0;
	for (uint32_t i = 0; i < info.setLayoutCount; ++i) {
		DescriptorSetLayout* layout = DescriptorSetLayout::Cast(info.pSetLayouts[i]);
		if (layout) layout->Retain();
		set_layouts_.push_back(layout);  // reserved: cannot throw
		dynamic_bases_.push_back(dynamic);
		if (layout) dynamic += layout->DynamicCount();
	}
	return VK_SUCCESS;
}

VkResult PipelineLayout::InitUnion(std::span<const PipelineLayout* const> layouts) {
	std::vector<VkDescriptorSetLayout> sets;
	std::vector<VkPushConstantRange> ranges;
	try {
		for (const PipelineLayout* layout : layouts) {
			if (layout->SetCount() > sets.size()) sets.resize(layout->SetCount(), VK_NULL_HANDLE);
			for (uint32_t s = 0; s < layout->SetCount(); ++s)
				if (!sets[s] && layout->set_layouts_[s]) sets[s] = layout->set_layouts_[s]->ToHandle();
			ranges.insert(ranges.end(), layout->push_constant_ranges_.begin(), layout->push_constant_ranges_.end());
		}
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	info.setLayoutCount = uint32_t(sets.size());
	info.pSetLayouts = sets.data();
	info.pushConstantRangeCount = uint32_t(ranges.size());
	info.pPushConstantRanges = ranges.data();
	return Init(info);
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::PipelineLayout;

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineLayout(VkDevice device, const VkPipelineLayoutCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator,
                                                    VkPipelineLayout* pPipelineLayout) {
	const VkAllocationCallbacks* allocator = Device::Cast(device)->Allocator(pAllocator);
	auto* layout = vk::New<PipelineLayout>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, allocator);
	if (!layout) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = layout->Init(*pCreateInfo); result != VK_SUCCESS) {
		layout->Release();
		return result;
	}
	*pPipelineLayout = layout->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipelineLayout(VkDevice, VkPipelineLayout pipelineLayout,
                                                 const VkAllocationCallbacks*) {
	// Pipelines created with the layout keep it (Vulkan 1.3 §14.2.2 allows
	// destroying it while they live).
	if (auto* layout = PipelineLayout::Cast(pipelineLayout)) layout->Release();
}

}  // namespace tessera::entry
