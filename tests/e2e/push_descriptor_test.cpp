// VK_KHR_push_descriptor: descriptors pushed into the command buffer, whole
// and then one binding at a time (Vulkan 1.3 §14.2.10: pushes update the set
// incrementally), by vkCmdPushDescriptorSetKHR and with a push template. The
// same commands run on Tessera and lavapipe; each output is checked against
// the host's arithmetic, so a driver that keeps stale or lost descriptors
// fails on its own.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kCount = 256;  // invocations of each dispatch: 4 workgroups

struct Scale {
	int32_t scale, bias;
};

// The outputs of the four dispatches, each kCount values.
using Outputs = std::vector<std::vector<int32_t>>;

Outputs Run(Driver driver) {
	VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	features13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	ContextOptions options;
	options.device_extensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
	options.device_features = &features13;
	auto ctx = Context::Create(driver, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	auto push = ctx->Proc<PFN_vkCmdPushDescriptorSetKHR>("vkCmdPushDescriptorSetKHR");
	auto push_template = ctx->Proc<PFN_vkCmdPushDescriptorSetWithTemplateKHR>("vkCmdPushDescriptorSetWithTemplateKHR");
	REQUIRE(push);
	REQUIRE(push_template);

	VkPhysicalDevicePushDescriptorPropertiesKHR push_properties{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &push_properties};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	CHECK(push_properties.maxPushDescriptors >= 32);  // the spec's minimum

	const VkShaderStageFlags compute = VK_SHADER_STAGE_COMPUTE_BIT;
	const VkDescriptorSetLayoutBinding bindings[] = {
	    {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, compute, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, compute, nullptr},
	    {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, compute, nullptr},
	};
	VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
	set_info.bindingCount = 3;
	set_info.pBindings = bindings;
	VkDescriptorSetLayoutSupport support{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
	vkGetDescriptorSetLayoutSupport(device, &set_info, &support);
	CHECK(support.supported);
	VkDescriptorSetLayout set_layout;
	REQUIRE(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout) == VK_SUCCESS);
	VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	layout_info.setLayoutCount = 1;
	layout_info.pSetLayouts = &set_layout;
	VkPipelineLayout layout;
	REQUIRE(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout) == VK_SUCCESS);
	VkPipeline pipeline = CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, "push_scale.spv", layout);
	REQUIRE(pipeline);

	// Binding 2 then binding 1, from a record of two buffer infos.
	const VkDescriptorUpdateTemplateEntry entries[] = {
	    {2, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sizeof(VkDescriptorBufferInfo), 0},
	    {1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, 0},
	};
	VkDescriptorUpdateTemplateCreateInfo template_info{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
	template_info.descriptorUpdateEntryCount = 2;
	template_info.pDescriptorUpdateEntries = entries;
	template_info.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR;
	template_info.pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
	template_info.pipelineLayout = layout;
	template_info.set = 0;
	VkDescriptorUpdateTemplate update_template;
	REQUIRE(vkCreateDescriptorUpdateTemplate(device, &template_info, nullptr, &update_template) == VK_SUCCESS);

	const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
	TestBuffer scale_a = ctx->CreateBuffer(sizeof(Scale), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
	TestBuffer scale_b = ctx->CreateBuffer(sizeof(Scale), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
	TestBuffer in_x = ctx->CreateBuffer(kCount * 4, storage);
	TestBuffer in_y = ctx->CreateBuffer(kCount * 4, storage);
	std::vector<TestBuffer> outs;
	for (int i = 0; i < 4; ++i) outs.push_back(ctx->CreateBuffer(kCount * 4, storage));
	const Scale a{2, 1}, b{-3, 7};
	std::memcpy(scale_a.data, &a, sizeof(a));
	std::memcpy(scale_b.data, &b, sizeof(b));
	for (uint32_t i = 0; i < kCount; ++i) {
		const int32_t x = int32_t(i) - 100, y = int32_t(i * i % 977);
		std::memcpy(in_x.data + i * 4, &x, 4);
		std::memcpy(in_y.data + i * 4, &y, 4);
	}
	for (TestBuffer& out : outs) std::memset(out.data, 0xcd, kCount * 4);

	auto info = [](const TestBuffer& buffer) { return VkDescriptorBufferInfo{buffer.buffer, 0, VK_WHOLE_SIZE}; };
	auto write = [](uint32_t binding, VkDescriptorType type, const VkDescriptorBufferInfo* buffer_info) {
		VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		w.dstBinding = binding;
		w.descriptorCount = 1;
		w.descriptorType = type;
		w.pBufferInfo = buffer_info;
		return w;
	};
	ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
		// 1: the whole set.
		const VkDescriptorBufferInfo first[] = {info(scale_a), info(in_x), info(outs[0])};
		const VkWriteDescriptorSet whole[] = {write(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &first[0]),
		                                      write(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &first[1]),
		                                      write(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &first[2])};
		push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 3, whole);
		vkCmdDispatch(cb, kCount / 64, 1, 1);
		// 2: only the output; scale and input stay.
		const VkDescriptorBufferInfo second = info(outs[1]);
		const VkWriteDescriptorSet output = write(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &second);
		push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &output);
		vkCmdDispatch(cb, kCount / 64, 1, 1);
		// 3: scale and output; the input stays.
		const VkDescriptorBufferInfo third[] = {info(scale_b), info(outs[2])};
		const VkWriteDescriptorSet two[] = {write(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, &third[0]),
		                                    write(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, &third[1])};
		push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, two);
		vkCmdDispatch(cb, kCount / 64, 1, 1);
		// 4: output and input through the template; the scale stays.
		const VkDescriptorBufferInfo record[] = {info(in_y), info(outs[3])};
		push_template(cb, update_template, layout, 0, record);
		vkCmdDispatch(cb, kCount / 64, 1, 1);
		VkMemoryBarrier to_host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
		                     nullptr, 0, nullptr);
	});

	Outputs outputs(4, std::vector<int32_t>(kCount));
	for (int i = 0; i < 4; ++i) std::memcpy(outputs[i].data(), outs[i].data, kCount * 4);
	for (TestBuffer* buffer : {&scale_a, &scale_b, &in_x, &in_y}) ctx->Destroy(*buffer);
	for (TestBuffer& out : outs) ctx->Destroy(out);
	vkDestroyDescriptorUpdateTemplate(device, update_template, nullptr);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	CHECK(ctx->validation_errors() == 0);
	return outputs;
}

}  // namespace

TEST_CASE("push descriptors: whole pushes, incremental pushes and push templates match the host and lavapipe",
          "[descriptor][push_descriptor]") {
	// What each dispatch must compute: the descriptors its last pushes left.
	Outputs expected(4, std::vector<int32_t>(kCount));
	for (uint32_t i = 0; i < kCount; ++i) {
		const int32_t x = int32_t(i) - 100, y = int32_t(i * i % 977);
		expected[0][i] = x * 2 + 1;
		expected[1][i] = x * 2 + 1;
		expected[2][i] = x * -3 + 7;
		expected[3][i] = y * -3 + 7;
	}
	const Outputs tessera = Run(Driver::Tessera);
	for (int d = 0; d < 4; ++d) {
		INFO("Tessera, dispatch " << d + 1);
		CHECK(tessera[d] == expected[d]);
	}
	const Outputs lavapipe = Run(Driver::Lavapipe);
	for (int d = 0; d < 4; ++d) {
		INFO("lavapipe, dispatch " << d + 1);
		CHECK(lavapipe[d] == expected[d]);
	}
}
