#include "compute_kernel.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace tessera::test {

VkPipeline CreateCorpusComputePipeline(VkDevice device, const std::string& directory, const std::string& name,
                                       VkPipelineLayout layout, VkPipelineCreateFlags flags) {
	const std::vector<uint32_t> spirv = LoadCorpusShader(directory, name);
	if (spirv.empty()) return VK_NULL_HANDLE;
	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = spirv.size() * 4;
	smci.pCode = spirv.data();
	VkShaderModule module = VK_NULL_HANDLE;
	if (vkCreateShaderModule(device, &smci, nullptr, &module) != VK_SUCCESS) return VK_NULL_HANDLE;
	VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	cpci.flags = flags;
	cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
	cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
	cpci.stage.module = module;
	cpci.stage.pName = "main";
	cpci.layout = layout;
	VkPipeline pipeline = VK_NULL_HANDLE;
	if (vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline) != VK_SUCCESS)
		pipeline = VK_NULL_HANDLE;
	vkDestroyShaderModule(device, module, nullptr);
	return pipeline;
}

std::vector<uint32_t> LoadCorpusShader(const std::string& directory, const std::string& name) {
	std::ifstream in(directory + "/" + name, std::ios::binary);
	std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
	std::vector<uint32_t> words(bytes.size() / 4);
	if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * 4);
	return words;
}

ComputeKernel::ComputeKernel(Context& ctx, const std::vector<uint32_t>& spirv, uint32_t buffer_count,
                             VkPipelineShaderStageCreateFlags stage_flags, VkPipelineCache cache,
                             VkPipelineCreateFlags pipeline_flags, uint32_t uniform_bindings)
    : ctx_(ctx), uniform_bindings_(uniform_bindings) {
	VkDevice device = ctx.device();
	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = spirv.size() * 4;
	smci.pCode = spirv.data();
	if (vkCreateShaderModule(device, &smci, nullptr, &module_) != VK_SUCCESS) return;

	std::vector<VkDescriptorSetLayoutBinding> bindings(buffer_count);
	uint32_t uniform_count = 0;
	for (uint32_t i = 0; i < buffer_count; ++i) {
		bindings[i] = {i, Type(i), 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
		uniform_count += Type(i) == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
	}
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = buffer_count;
	dslci.pBindings = bindings.data();
	vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout_);
	VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout_;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &range;
	vkCreatePipelineLayout(device, &plci, nullptr, &layout_);

	std::vector<VkDescriptorPoolSize> pool_sizes;
	if (buffer_count > uniform_count)
		pool_sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, buffer_count - uniform_count});
	if (uniform_count) pool_sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniform_count});
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	dpci.maxSets = 1;
	dpci.poolSizeCount = uint32_t(pool_sizes.size());
	dpci.pPoolSizes = pool_sizes.data();
	vkCreateDescriptorPool(device, &dpci, nullptr, &pool_);
	VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	dsai.descriptorPool = pool_;
	dsai.descriptorSetCount = 1;
	dsai.pSetLayouts = &set_layout_;
	vkAllocateDescriptorSets(device, &dsai, &set_);

	VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
	              nullptr,
	              stage_flags,
	              VK_SHADER_STAGE_COMPUTE_BIT,
	              module_,
	              "main",
	              nullptr};
	cpci.flags = pipeline_flags;
	cpci.layout = layout_;
	create_result_ = vkCreateComputePipelines(device, cache, 1, &cpci, nullptr, &pipeline_);
	if (create_result_ != VK_SUCCESS) pipeline_ = VK_NULL_HANDLE;
}

ComputeKernel::~ComputeKernel() {
	VkDevice device = ctx_.device();
	vkDestroyDescriptorPool(device, pool_, nullptr);
	vkDestroyPipeline(device, pipeline_, nullptr);
	vkDestroyPipelineLayout(device, layout_, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout_, nullptr);
	vkDestroyShaderModule(device, module_, nullptr);
}

void ComputeKernel::Bind(uint32_t binding, VkBuffer buffer) {
	VkDescriptorBufferInfo info{buffer, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	write.dstSet = set_;
	write.dstBinding = binding;
	write.descriptorCount = 1;
	write.descriptorType = Type(binding);
	write.pBufferInfo = &info;
	vkUpdateDescriptorSets(ctx_.device(), 1, &write, 0, nullptr);
}

void ComputeKernel::Record(VkCommandBuffer cb, const void* push_constants, uint32_t push_size, uint32_t groups_x,
                           uint32_t groups_y, uint32_t groups_z) const {
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
	if (push_size) vkCmdPushConstants(cb, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size, push_constants);
	vkCmdDispatch(cb, groups_x, groups_y, groups_z);
	VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
	barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
	vkCmdPipelineBarrier(
	    cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	    VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
	    &barrier, 0, nullptr, 0, nullptr);
}

std::vector<TestBuffer> CreateStorageBuffers(Context& ctx, const BufferContents& initial) {
	std::vector<TestBuffer> buffers;
	for (const std::vector<uint8_t>& bytes : initial) {
		buffers.push_back(ctx.CreateBuffer(bytes.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT));
		std::memcpy(buffers.back().data, bytes.data(), bytes.size());
	}
	return buffers;
}

BufferContents ReadAndDestroy(Context& ctx, std::vector<TestBuffer>& buffers) {
	BufferContents out;
	for (TestBuffer& b : buffers) {
		out.emplace_back(b.data, b.data + b.size);
		ctx.Destroy(b);
	}
	buffers.clear();
	return out;
}

BufferContents RunCorpusKernel(Context& ctx, const std::string& directory, const std::string& name,
                               const BufferContents& initial, uint32_t groups_x) {
	std::vector<uint32_t> words = LoadCorpusShader(directory, name);
	if (words.empty()) return {};
	ComputeKernel kernel(ctx, words, uint32_t(initial.size()));
	if (!kernel.ok()) return {};
	std::vector<TestBuffer> buffers = CreateStorageBuffers(ctx, initial);
	for (uint32_t i = 0; i < buffers.size(); ++i) kernel.Bind(i, buffers[i].buffer);
	ctx.Submit([&](VkCommandBuffer cb) { kernel.Record(cb, nullptr, 0, groups_x); });
	return ReadAndDestroy(ctx, buffers);
}

}  // namespace tessera::test
