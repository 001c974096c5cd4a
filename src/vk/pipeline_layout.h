// VkPipelineLayout: the set layouts (kept alive while the pipeline layout
// lives, for pipelines and vkCmdBindDescriptorSets) and push constant ranges.
#pragma once

#include <span>
#include <vector>

#include "vk/descriptor_set_layout.h"
#include "vk/object.h"
#include "vk/shared_object.h"

namespace tessera::vk {

class PipelineLayout : public Object<PipelineLayout, VkPipelineLayout, VK_OBJECT_TYPE_PIPELINE_LAYOUT>,
                       public SharedObject<PipelineLayout> {
public:
	explicit PipelineLayout(const VkAllocationCallbacks* allocator) : SharedObject(allocator) {}
	~PipelineLayout();
	VkResult Init(const VkPipelineLayoutCreateInfo& info);
	// The union of layouts made with VK_PIPELINE_LAYOUT_CREATE_INDEPENDENT_SETS_BIT_EXT
	// (Vulkan "Graphics Pipeline Libraries"): each set from the first layout
	// that has it, the push constant ranges of all.
	VkResult InitUnion(std::span<const PipelineLayout* const> layouts);

	uint32_t SetCount() const { return uint32_t(set_layouts_.size()); }
	// May be null (VK_NULL_HANDLE is allowed with graphics pipeline libraries).
	const DescriptorSetLayout* SetLayout(uint32_t set) const { return set_layouts_[set]; }
	const std::vector<VkPushConstantRange>& PushConstantRanges() const { return push_constant_ranges_; }
	// First dynamic offset of each set among all the layout's dynamic offsets.
	uint32_t DynamicOffsetBase(uint32_t set) const { return dynamic_bases_[set]; }

private:
	std::vector<DescriptorSetLayout*> set_layouts_;
	std::vector<uint32_t> dynamic_bases_;
	std::vector<VkPushConstantRange> push_constant_ranges_;
};

}  // namespace tessera::vk
