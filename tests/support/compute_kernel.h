// A compute pipeline over storage buffers at bindings 0..n-1 of set 0 with a
// 128-byte push-constant range: what the compute tests and benchmarks need
// to run a corpus shader on any driver.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vk_context.h"

namespace tessera::test {

// The SPIR-V of a shader compiled from shaders/ at build time.
std::vector<uint32_t> LoadCorpusShader(const std::string& directory, const std::string& name);

// A compute pipeline running corpus shader `name` ("main") with the given
// layout and create flags; VK_NULL_HANDLE when the shader is missing or
// creation fails. The shader module is destroyed once the pipeline exists.
VkPipeline CreateCorpusComputePipeline(VkDevice device, const std::string& directory, const std::string& name,
                                       VkPipelineLayout layout, VkPipelineCreateFlags flags = 0);

class ComputeKernel {
public:
	// stage_flags: VkPipelineShaderStageCreateFlags (subgroup size control);
	// cache and pipeline_flags go to vkCreateComputePipelines. Bindings whose
	// bit is set in uniform_bindings are uniform buffers, the others storage
	// buffers.
	ComputeKernel(Context& ctx, const std::vector<uint32_t>& spirv, uint32_t buffer_count,
	              VkPipelineShaderStageCreateFlags stage_flags = 0, VkPipelineCache cache = VK_NULL_HANDLE,
	              VkPipelineCreateFlags pipeline_flags = 0, uint32_t uniform_bindings = 0);
	~ComputeKernel();
	ComputeKernel(const ComputeKernel&) = delete;
	ComputeKernel& operator=(const ComputeKernel&) = delete;

	bool ok() const { return pipeline_ != VK_NULL_HANDLE; }
	// What vkCreateComputePipelines returned.
	VkResult create_result() const { return create_result_; }
	void Bind(uint32_t binding, VkBuffer buffer);
	// Binds pipeline, set and push constants, and dispatches groups_x
	// workgroups; then a barrier that makes shader writes visible to the host
	// and to later transfers.
	void Record(VkCommandBuffer cb, const void* push_constants, uint32_t push_size, uint32_t groups_x,
	            uint32_t groups_y = 1, uint32_t groups_z = 1) const;
	// For tests that record the binds themselves.
	VkPipeline pipeline() const { return pipeline_; }
	VkPipelineLayout layout() const { return layout_; }
	VkDescriptorSet set() const { return set_; }

private:
	VkDescriptorType Type(uint32_t binding) const {
		return (uniform_bindings_ >> binding) & 1 ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
		                                          : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
	}

	Context& ctx_;
	uint32_t uniform_bindings_ = 0;
	VkShaderModule module_ = VK_NULL_HANDLE;
	VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
	VkPipelineLayout layout_ = VK_NULL_HANDLE;
	VkPipeline pipeline_ = VK_NULL_HANDLE;
	VkResult create_result_ = VK_ERROR_UNKNOWN;
	VkDescriptorPool pool_ = VK_NULL_HANDLE;
	VkDescriptorSet set_ = VK_NULL_HANDLE;
};

// Storage buffers holding `initial` (buffer i starts as initial[i]), and
// their contents read back, the buffers destroyed.
using BufferContents = std::vector<std::vector<uint8_t>>;
std::vector<TestBuffer> CreateStorageBuffers(Context& ctx, const BufferContents& initial);
BufferContents ReadAndDestroy(Context& ctx, std::vector<TestBuffer>& buffers);

// Runs corpus shader `name` over storage buffers at bindings 0..n-1 that
// start as `initial`, groups_x workgroups; returns what the buffers hold
// afterwards, or nothing when the shader or its pipeline is missing.
BufferContents RunCorpusKernel(Context& ctx, const std::string& directory, const std::string& name,
                               const BufferContents& initial, uint32_t groups_x);

}  // namespace tessera::test
