// VK_EXT_robustness2 in a compute shader: scalar reads at and past the end
// of uniform and storage buffer ranges that are not multiples of 16 or 4,
// null buffer and image descriptors, and stores and atomics past the end of
// a range. Each driver's output is checked against what the spec's rules
// give with the alignments it reports, on Tessera and on lavapipe.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kInvocations = 16;
constexpr uint32_t kUniformRange = 40;  // u[0], u[1] whole; u[2].x and .y in, .z and .w out
constexpr uint32_t kStorageRange = 22;  // s[0..4] whole, s[5] half in
constexpr uint32_t kWriteRange = 8;     // w[0], w[1]
constexpr uint32_t kFill = 0xcdcdcdcdu;

struct Result {
	std::vector<uint32_t> out, written;
	uint32_t storage_alignment = 0, uniform_alignment = 0;
};

uint64_t RoundUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

// per_pipeline: the device enables no robustness feature but null
// descriptors, and the pipeline asks for robustness2's behavior through
// VK_EXT_pipeline_robustness (VkPipelineRobustnessCreateInfoEXT).
Result Run(Driver driver, bool per_pipeline = false) {
	VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	features13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	VkPhysicalDevicePipelineRobustnessFeaturesEXT pipeline_robustness{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT, &features13};
	pipeline_robustness.pipelineRobustness = VK_TRUE;
	VkPhysicalDeviceRobustness2FeaturesEXT robustness2{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT,
	    per_pipeline ? static_cast<void*>(&pipeline_robustness) : &features13};
	robustness2.robustBufferAccess2 = !per_pipeline;
	robustness2.robustImageAccess2 = !per_pipeline;
	robustness2.nullDescriptor = VK_TRUE;
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &robustness2};
	features.features.robustBufferAccess = !per_pipeline;  // robustBufferAccess2 needs it
	ContextOptions options;
	options.device_extensions = {VK_EXT_ROBUSTNESS_2_EXTENSION_NAME};
	if (per_pipeline) options.device_extensions.push_back(VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME);
	options.device_features = &features;
	auto ctx = Context::Create(driver, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();

	Result result;
	VkPhysicalDeviceRobustness2PropertiesEXT properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties2};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	result.storage_alignment = properties2.robustStorageBufferAccessSizeAlignment;
	result.uniform_alignment = properties2.robustUniformBufferAccessSizeAlignment;

	const VkShaderStageFlags compute = VK_SHADER_STAGE_COMPUTE_BIT;
	const VkDescriptorSetLayoutBinding bindings[] = {
	    {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, compute, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, compute, nullptr},
	    {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, compute, nullptr},
	    {3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, compute, nullptr},
	    {4, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, compute, nullptr},
	    {5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, compute, nullptr},
	};
	VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	set_info.bindingCount = 6;
	set_info.pBindings = bindings;
	VkDescriptorSetLayout set_layout;
	REQUIRE(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout) == VK_SUCCESS);
	VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	layout_info.setLayoutCount = 1;
	layout_info.pSetLayouts = &set_layout;
	VkPipelineLayout layout;
	REQUIRE(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout) == VK_SUCCESS);
	VkPipeline pipeline = VK_NULL_HANDLE;
	if (per_pipeline) {
		const std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, "robust2.spv");
		REQUIRE(!words.empty());
		VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
		module_info.codeSize = words.size() * 4;
		module_info.pCode = words.data();
		VkShaderModule module;
		REQUIRE(vkCreateShaderModule(device, &module_info, nullptr, &module) == VK_SUCCESS);
		VkPipelineRobustnessCreateInfoEXT robustness{VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT};
		robustness.storageBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
		robustness.uniformBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
		robustness.vertexInputs = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DEVICE_DEFAULT_EXT;
		robustness.images = VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_ROBUST_IMAGE_ACCESS_2_EXT;
		VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, &robustness};
		info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		              nullptr,
		              0,
		              VK_SHADER_STAGE_COMPUTE_BIT,
		              module,
		              "main"};
		info.layout = layout;
		REQUIRE(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
		vkDestroyShaderModule(device, module, nullptr);
	} else {
		pipeline = CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, "robust2.spv", layout);
	}
	REQUIRE(pipeline);
	const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2},
	                                      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3},
	                                      {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1}};
	VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	pool_info.maxSets = 1;
	pool_info.poolSizeCount = 3;
	pool_info.pPoolSizes = sizes;
	VkDescriptorPool pool;
	REQUIRE(vkCreateDescriptorPool(device, &pool_info, nullptr, &pool) == VK_SUCCESS);
	VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	allocate.descriptorPool = pool;
	allocate.descriptorSetCount = 1;
	allocate.pSetLayouts = &set_layout;
	VkDescriptorSet set;
	REQUIRE(vkAllocateDescriptorSets(device, &allocate, &set) == VK_SUCCESS);

	// Whole buffers larger than the ranges bound, so every byte a rounded-up
	// range could reach holds a known word.
	TestBuffer uniform = ctx->CreateBuffer(256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
	TestBuffer storage = ctx->CreateBuffer(256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer out = ctx->CreateBuffer(kInvocations * 5 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer written = ctx->CreateBuffer(2 * kInvocations * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	for (uint32_t k = 0; k < 64; ++k) {
		const uint32_t u = 0x100 + k, s = 0x200 + k;
		std::memcpy(uniform.data + k * 4, &u, 4);
		std::memcpy(storage.data + k * 4, &s, 4);
	}
	std::memset(out.data, 0xcd, out.size);
	std::memset(written.data, 0xcd, written.size);

	const VkDescriptorBufferInfo buffers[] = {
	    {uniform.buffer, 0, kUniformRange}, {storage.buffer, 0, kStorageRange}, {out.buffer, 0, VK_WHOLE_SIZE},
	    {VK_NULL_HANDLE, 0, VK_WHOLE_SIZE}, {written.buffer, 0, kWriteRange},
	};
	const VkDescriptorImageInfo null_image{VK_NULL_HANDLE, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL};
	VkWriteDescriptorSet writes[6];
	const uint32_t buffer_of[] = {0, 1, 2, 3, 0, 4};
	for (uint32_t b = 0; b < 6; ++b) {
		writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		writes[b].dstSet = set;
		writes[b].dstBinding = b;
		writes[b].descriptorCount = 1;
		writes[b].descriptorType = bindings[b].descriptorType;
		if (b == 4)
			writes[b].pImageInfo = &null_image;
		else
			writes[b].pBufferInfo = &buffers[buffer_of[b]];
	}
	vkUpdateDescriptorSets(device, 6, writes, 0, nullptr);

	ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
		vkCmdDispatch(cb, 1, 1, 1);
		VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
		                     nullptr, 0, nullptr);
	});
	result.out.resize(kInvocations * 5);
	result.written.resize(2 * kInvocations);
	std::memcpy(result.out.data(), out.data, out.size);
	std::memcpy(result.written.data(), written.data, written.size);

	for (TestBuffer* buffer : {&uniform, &storage, &out, &written}) ctx->Destroy(*buffer);
	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	CHECK(ctx->validation_errors() == 0);
	return result;
}

// What the spec's rules give: a scalar is in bounds when all its bytes lie
// within the range rounded up to the reported alignment; in-bounds reads see
// the buffer, others zero; null descriptors read zero; stores and atomics
// out of bounds change nothing.
void CheckRules(const Result& r) {
	REQUIRE(r.uniform_alignment >= 1);
	REQUIRE(r.storage_alignment >= 1);
	const uint64_t uniform_end = RoundUp(kUniformRange, r.uniform_alignment);
	const uint64_t storage_end = RoundUp(kStorageRange, r.storage_alignment);
	const uint64_t write_end = RoundUp(kWriteRange, r.storage_alignment);
	for (uint32_t i = 0; i < kInvocations; ++i) {
		INFO("invocation " << i);
		const uint32_t* o = &r.out[i * 5];
		CHECK(o[0] == (16 * i + 4 <= uniform_end ? 0x100 + 4 * i : 0u));
		CHECK(o[1] == (16 * i + 16 <= uniform_end ? 0x100 + 4 * i + 3 : 0u));
		CHECK(o[2] == (4 * i + 4 <= storage_end ? 0x200 + i : 0u));
		CHECK(o[3] == 0u);
		CHECK(o[4] == 0u);
	}
	for (uint32_t k = 0; k < 2 * kInvocations; ++k) {
		INFO("written word " << k);
		const bool in = 4 * k + 4 <= write_end;
		const uint32_t expected = k < kInvocations ? (in ? 1000 + k : kFill) : (in ? kFill + 1 : kFill);
		CHECK(r.written[k] == expected);
	}
}

}  // namespace

TEST_CASE("robustness2: reads past short ranges, null descriptors and dropped stores follow the rules",
          "[compute][robustness2]") {
	const Result tessera = Run(Driver::Tessera);
	{
		INFO("Tessera");
		CheckRules(tessera);
	}
	const Result lavapipe = Run(Driver::Lavapipe);
	{
		INFO("lavapipe");
		CheckRules(lavapipe);
	}
	CHECK(tessera.out == lavapipe.out);
	CHECK(tessera.written == lavapipe.written);
}

TEST_CASE("VK_EXT_pipeline_robustness: a pipeline gets robustness2's behavior without the device features",
          "[compute][robustness2]") {
	// Tessera bounds every access exactly whatever is enabled, so its
	// defaults are robustness2's behavior and any per-pipeline request is
	// met. Lavapipe 22.3 lacks the extension: the rules and Tessera's
	// device-wide robustness2 results are the reference.
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkPhysicalDevicePipelineRobustnessFeaturesEXT feature{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &feature};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features);
	CHECK(feature.pipelineRobustness == VK_TRUE);
	VkPhysicalDevicePipelineRobustnessPropertiesEXT defaults{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &defaults};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	CHECK(defaults.defaultRobustnessStorageBuffers ==
	      VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT);
	CHECK(defaults.defaultRobustnessUniformBuffers ==
	      VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT);
	CHECK(defaults.defaultRobustnessVertexInputs == VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT);
	CHECK(defaults.defaultRobustnessImages == VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_ROBUST_IMAGE_ACCESS_2_EXT);
	const Result per_pipeline = Run(Driver::Tessera, true);
	CheckRules(per_pipeline);
	const Result device_wide = Run(Driver::Tessera);
	CHECK(per_pipeline.out == device_wide.out);
	CHECK(per_pipeline.written == device_wide.written);
}
