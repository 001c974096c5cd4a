// Descriptor limits used to the full, through the loader: a set with as many
// dynamic uniform and storage buffers as the limits allow, each at its own
// dynamic offset. Lavapipe reports the same figures but not the per-stage
// buffer counts a 256-buffer stage needs, so the dynamic buffers are checked
// against the host alone.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// The array sizes of dynamic_buffers_max.comp.
constexpr uint32_t kDynamicBuffers = 256;

VkPipeline CorpusPipeline(VkDevice device, const char* shader, VkPipelineLayout layout) {
	VkPipeline pipeline = CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, shader, layout);
	REQUIRE(pipeline != VK_NULL_HANDLE);
	return pipeline;
}

void HostReadBarrier(VkCommandBuffer cb) {
	VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
	barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
	                     VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr,
	                     0, nullptr);
}

}  // namespace

TEST_CASE("maxDescriptorSet*BuffersDynamic: every dynamic buffer of a full set reads and writes at its own offset",
          "[descriptor][limits]") {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.maintenance4 = VK_TRUE;  // LocalSizeId in glslang's SPIR-V 1.6
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
	features.features.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
	features.features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
	ContextOptions options;
	options.device_features = &features;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(ctx->physical_device(), &props);
	REQUIRE(props.limits.maxDescriptorSetUniformBuffersDynamic == kDynamicBuffers);
	REQUIRE(props.limits.maxDescriptorSetStorageBuffersDynamic == kDynamicBuffers);

	const VkDescriptorSetLayoutBinding bindings[2] = {
	    {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, kDynamicBuffers, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, kDynamicBuffers, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = 2;
	dslci.pBindings = bindings;
	VkDescriptorSetLayout set_layout;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	VkPipelineLayout layout;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	VkPipeline pipeline = CorpusPipeline(device, "dynamic_buffers_max.spv", layout);

	const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, kDynamicBuffers},
	                                       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, kDynamicBuffers}};
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	dpci.maxSets = 1;
	dpci.poolSizeCount = 2;
	dpci.pPoolSizes = sizes;
	VkDescriptorPool pool;
	REQUIRE(vkCreateDescriptorPool(device, &dpci, nullptr, &pool) == VK_SUCCESS);
	VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	dsai.descriptorPool = pool;
	dsai.descriptorSetCount = 1;
	dsai.pSetLayouts = &set_layout;
	VkDescriptorSet set;
	REQUIRE(vkAllocateDescriptorSets(device, &dsai, &set) == VK_SUCCESS);

	// Buffers of 16-byte slots (minUniformBufferOffsetAlignment). Descriptor
	// i starts at slot i % 2 and its dynamic offsets move it by even slot
	// counts, so base and dynamic offsets both matter and, with a
	// permutation of the even slots, no two storage buffers meet. A second
	// bind moves the storage buffers into the upper half.
	constexpr uint32_t kSlot = 16, kSlots = 4 * kDynamicBuffers + 2;
	TestBuffer in = ctx->CreateBuffer(kSlots * kSlot, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
	TestBuffer out = ctx->CreateBuffer(kSlots * kSlot, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	for (uint32_t s = 0; s < kSlots; ++s) {
		const uint32_t value = 1000 + 7 * s;
		std::memcpy(in.data + s * kSlot, &value, 4);
	}
	std::memset(out.data, 0xee, out.size);
	std::vector<VkDescriptorBufferInfo> uniform_infos, storage_infos;
	for (uint32_t i = 0; i < kDynamicBuffers; ++i) {
		uniform_infos.push_back({in.buffer, (i % 2) * kSlot, kSlot});
		storage_infos.push_back({out.buffer, (i % 2) * kSlot, kSlot});
	}
	VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
	                                  {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
	writes[0].dstSet = writes[1].dstSet = set;
	writes[0].dstBinding = 0;
	writes[1].dstBinding = 1;
	writes[0].descriptorCount = writes[1].descriptorCount = kDynamicBuffers;
	writes[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
	writes[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
	writes[0].pBufferInfo = uniform_infos.data();
	writes[1].pBufferInfo = storage_infos.data();
	vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);

	// Vulkan 1.3 §14.2.7: the offsets of binding 0's elements, then binding 1's.
	auto uniform_pair = [](uint32_t bind, uint32_t i) { return (i * 97 + 13 + 50 * bind) % kDynamicBuffers; };
	auto storage_pair = [](uint32_t bind, uint32_t i) {
		return bind * kDynamicBuffers + (i * 61 + 5 + 9 * bind) % kDynamicBuffers;
	};
	std::vector<uint32_t> offsets[2];
	for (uint32_t bind = 0; bind < 2; ++bind) {
		for (uint32_t i = 0; i < kDynamicBuffers; ++i) offsets[bind].push_back(2 * kSlot * uniform_pair(bind, i));
		for (uint32_t i = 0; i < kDynamicBuffers; ++i) offsets[bind].push_back(2 * kSlot * storage_pair(bind, i));
	}
	ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
		for (uint32_t bind = 0; bind < 2; ++bind) {
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set,
			                        uint32_t(offsets[bind].size()), offsets[bind].data());
			vkCmdDispatch(cb, 1, 1, 1);
			HostReadBarrier(cb);
		}
	});

	std::vector<uint32_t> expected(kSlots * kSlot / 4);
	std::memset(expected.data(), 0xee, expected.size() * 4);
	for (uint32_t bind = 0; bind < 2; ++bind)
		for (uint32_t i = 0; i < kDynamicBuffers; ++i) {
			const uint32_t read = 2 * uniform_pair(bind, i) + i % 2, written = 2 * storage_pair(bind, i) + i % 2;
			expected[written * kSlot / 4] = (1000 + 7 * read) * 3 + i;
		}
	std::vector<uint32_t> got(expected.size());
	std::memcpy(got.data(), out.data, got.size() * 4);
	for (uint32_t s = 0; s < kSlots; ++s) {
		INFO("slot " << s);
		REQUIRE(got[s * kSlot / 4] == expected[s * kSlot / 4]);
	}
	CHECK(got == expected);

	ctx->Destroy(in);
	ctx->Destroy(out);
	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx->validation_errors() == 0);
}
