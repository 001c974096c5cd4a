// VK_EXT_mutable_descriptor_type through the loader: one binding whose
// descriptors are written as storage buffers, a uniform texel buffer and a
// storage image, by vkUpdateDescriptorSets and by copies from typed and from
// mutable bindings (update templates of sets may not hold mutable bindings:
// VUID-VkDescriptorUpdateTemplateCreateInfo-templateType-04615);
// shaders/mutable_descriptors.comp
// reads each element as its kind. Debian's lavapipe 22.3 lacks the
// extension, so the results are checked against the values the test put in.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "descriptor_buffer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kInvocations = 16;

// The kinds binding 0 may hold (VkMutableDescriptorTypeListEXT).
constexpr VkDescriptorType kMutableTypes[] = {
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};

struct Words {
	std::vector<uint32_t> a, texels, image, b;
};

Words Inputs(uint32_t seed) {
	Words w;
	for (uint32_t i = 0; i < kInvocations; ++i) {
		w.a.push_back(seed * 1000 + i);
		w.texels.push_back(seed * 2000 + 3 * i);
		w.image.push_back(seed * 3000 + 5 * i);
		w.b.push_back(seed * 4000 + 11 * i);
	}
	return w;
}

// How the four descriptors of the mutable binding get there.
enum class Fill {
	kWrite,  // vkUpdateDescriptorSets writes, each with its own descriptor type
	kCopy,   // copies: the buffers from a typed set, the texel buffer and image from another mutable set
	// vkGetDescriptorEXT into a descriptor buffer (VK_EXT_descriptor_buffer),
	// each with its own descriptor type, `stride` apart (the largest size of
	// the binding's types)
	kDescriptorBuffer,
};

void Run(Fill fill) {
	VkPhysicalDeviceMutableDescriptorTypeFeaturesEXT mutable_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MUTABLE_DESCRIPTOR_TYPE_FEATURES_EXT};
	{
		auto probe = Context::Create(Driver::Tessera);
		REQUIRE(probe);
		VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &mutable_features};
		vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
		REQUIRE(mutable_features.mutableDescriptorType == VK_TRUE);
	}
	const bool in_buffer = fill == Fill::kDescriptorBuffer;
	VkPhysicalDeviceDescriptorBufferFeaturesEXT buffer_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
	buffer_features.descriptorBuffer = VK_TRUE;
	if (in_buffer) mutable_features.pNext = &buffer_features;
	// maintenance4: glslang's LocalSizeId.
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &mutable_features};
	v13.maintenance4 = VK_TRUE;
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
	v12.bufferDeviceAddress = in_buffer;
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
	ContextOptions options;
	options.device_features = &features;
	options.device_extensions = {VK_EXT_MUTABLE_DESCRIPTOR_TYPE_EXTENSION_NAME};
	if (in_buffer) options.device_extensions.push_back(VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME);
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	const Words in = Inputs(uint32_t(fill) + 1);

	const VkBufferUsageFlags address_usage = in_buffer ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0;
	auto buffer_of = [&](const std::vector<uint32_t>& words, VkBufferUsageFlags usage) {
		TestBuffer buffer = ctx->CreateBuffer(words.size() * 4, usage | address_usage);
		std::memcpy(buffer.data, words.data(), words.size() * 4);
		return buffer;
	};
	TestBuffer a = buffer_of(in.a, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer b = buffer_of(in.b, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer texels = buffer_of(in.texels, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
	TestBuffer pixels = buffer_of(in.image, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
	TestBuffer out =
	    buffer_of(std::vector<uint32_t>(kInvocations * 4, 0xcdcdcdcdu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);

	VkBufferViewCreateInfo bvci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
	bvci.buffer = texels.buffer;
	bvci.format = VK_FORMAT_R32_UINT;
	bvci.range = VK_WHOLE_SIZE;
	VkBufferView texel_view = VK_NULL_HANDLE;
	REQUIRE(vkCreateBufferView(device, &bvci, nullptr, &texel_view) == VK_SUCCESS);
	TestImage image = ctx->CreateImage2D(
	    VK_FORMAT_R32_UINT, 4, 4,
	    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
	VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
	vci.image = image.image;
	vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
	vci.format = VK_FORMAT_R32_UINT;
	vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	VkImageView image_view = VK_NULL_HANDLE;
	REQUIRE(vkCreateImageView(device, &vci, nullptr, &image_view) == VK_SUCCESS);
	const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {4, 4, 1}};
	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		vkCmdCopyBufferToImage(cb, pixels.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
		ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
	});

	// Set 0: binding 0 mutable (4), binding 1 the output buffer.
	const VkMutableDescriptorTypeListEXT lists[2] = {{3, kMutableTypes}, {0, nullptr}};
	VkMutableDescriptorTypeCreateInfoEXT mutable_info{VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT};
	mutable_info.mutableDescriptorTypeListCount = 2;
	mutable_info.pMutableDescriptorTypeLists = lists;
	const VkDescriptorSetLayoutBinding bindings[2] = {
	    {0, VK_DESCRIPTOR_TYPE_MUTABLE_EXT, 4, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, &mutable_info};
	dslci.flags = in_buffer ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0;
	dslci.bindingCount = 2;
	dslci.pBindings = bindings;
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	// A typed layout to copy buffers from: two storage buffers.
	const VkDescriptorSetLayoutBinding typed_binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2,
	                                                 VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
	VkDescriptorSetLayoutCreateInfo typed_dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	typed_dslci.bindingCount = 1;
	typed_dslci.pBindings = &typed_binding;
	VkDescriptorSetLayout typed_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorSetLayout(device, &typed_dslci, nullptr, &typed_layout) == VK_SUCCESS);

	const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_MUTABLE_EXT, 8}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4}};
	const VkMutableDescriptorTypeListEXT pool_lists[2] = {{3, kMutableTypes}, {0, nullptr}};
	VkMutableDescriptorTypeCreateInfoEXT pool_mutable{VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT};
	pool_mutable.mutableDescriptorTypeListCount = 2;
	pool_mutable.pMutableDescriptorTypeLists = pool_lists;
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, &pool_mutable};
	dpci.maxSets = 3;
	dpci.poolSizeCount = 2;
	dpci.pPoolSizes = sizes;
	VkDescriptorPool pool = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorPool(device, &dpci, nullptr, &pool) == VK_SUCCESS);
	const VkDescriptorSetLayout set_layouts[3] = {set_layout, set_layout, typed_layout};
	VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	dsai.descriptorPool = pool;
	dsai.descriptorSetCount = 3;
	dsai.pSetLayouts = set_layouts;
	VkDescriptorSet sets[3] = {};
	if (!in_buffer) REQUIRE(vkAllocateDescriptorSets(device, &dsai, sets) == VK_SUCCESS);
	VkDescriptorSet set = sets[0], staging = sets[1], typed = sets[2];

	const VkDescriptorBufferInfo a_info{a.buffer, 0, VK_WHOLE_SIZE}, b_info{b.buffer, 0, VK_WHOLE_SIZE};
	const VkDescriptorBufferInfo out_info{out.buffer, 0, VK_WHOLE_SIZE};
	const VkDescriptorImageInfo image_info{VK_NULL_HANDLE, image_view, VK_IMAGE_LAYOUT_GENERAL};
	auto write = [&](VkDescriptorSet dst, uint32_t binding, uint32_t element, VkDescriptorType type) {
		VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		w.dstSet = dst;
		w.dstBinding = binding;
		w.dstArrayElement = element;
		w.descriptorCount = 1;
		w.descriptorType = type;
		w.pBufferInfo = binding == 1 ? &out_info : element == 0 ? &a_info : &b_info;
		w.pTexelBufferView = &texel_view;
		w.pImageInfo = &image_info;
		vkUpdateDescriptorSets(device, 1, &w, 0, nullptr);
	};
	DescriptorBuffer descriptors;
	if (!in_buffer) write(set, 1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
	switch (fill) {
	case Fill::kWrite:
		// Element 2 first holds a buffer, then becomes the image: a rewrite
		// of another kind leaves nothing of the old one.
		write(set, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
		write(set, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
		write(set, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER);
		write(set, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE);
		write(set, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
		break;
	case Fill::kCopy: {
		write(typed, 0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);  // a
		write(typed, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);  // b
		write(staging, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER);
		write(staging, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE);
		write(staging, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);  // b, overwritten below
		VkCopyDescriptorSet copies[3] = {};
		for (VkCopyDescriptorSet& c : copies) c.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET;
		// a into element 0 (typed to mutable), the texel buffer and the image
		// (mutable to mutable), then b: typed element 1 into mutable element 3.
		copies[0] = {VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, nullptr, typed, 0, 0, set, 0, 0, 1};
		copies[1] = {VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, nullptr, staging, 0, 1, set, 0, 1, 2};
		copies[2] = {VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, nullptr, typed, 0, 1, set, 0, 3, 1};
		vkUpdateDescriptorSets(device, 0, nullptr, 3, copies);
		break;
	}
	case Fill::kDescriptorBuffer: {
		// A mutable descriptor takes the room of the largest of its kinds.
		descriptors = DescriptorBuffer(*ctx, set_layout, 0, 0, 0x5a);
		size_t stride = 0;
		for (VkDescriptorType type : kMutableTypes) stride = std::max(stride, descriptors.Size(type));
		// Element 2 first holds a buffer, then the image.
		descriptors.PutBuffer(0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, a.buffer, a.size, {}, stride);
		descriptors.PutBuffer(0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, a.buffer, a.size, {}, stride);
		descriptors.PutBuffer(0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, texels.buffer, texels.size,
		                      VK_FORMAT_R32_UINT, stride);
		descriptors.PutImage(0, 2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, image_info, stride);
		descriptors.PutBuffer(0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, b.buffer, b.size, {}, stride);
		descriptors.PutBuffer(1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out.buffer, out.size);
		break;
	}
	}

	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &pipeline_layout) == VK_SUCCESS);
	VkPipeline pipeline =
	    CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, "mutable_descriptors.spv", pipeline_layout,
	                                in_buffer ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0);
	REQUIRE(pipeline != VK_NULL_HANDLE);
	ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
		if (in_buffer)
			descriptors.Bind(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout);
		else
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, nullptr);
		vkCmdDispatch(cb, 1, 1, 1);
		VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
		                     VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0,
		                     nullptr);
		vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, pixels.buffer, 1, &region);
		VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0,
		                     nullptr);
	});

	const auto* result = reinterpret_cast<const uint32_t*>(out.data);
	const auto* b_after = reinterpret_cast<const uint32_t*>(b.data);
	const auto* image_after = reinterpret_cast<const uint32_t*>(pixels.data);
	for (uint32_t i = 0; i < kInvocations; ++i) {
		INFO("invocation " << i);
		CHECK(result[i * 4 + 0] == in.a[i]);
		CHECK(result[i * 4 + 1] == in.texels[i]);
		CHECK(result[i * 4 + 2] == in.image[i]);
		CHECK(result[i * 4 + 3] == in.b[i]);
		CHECK(b_after[i] == in.b[i] * 2 + 1);
		CHECK(image_after[i] == i * 7);
	}
	CHECK(ctx->validation_errors() == 0);

	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
	vkDestroyDescriptorPool(device, pool, nullptr);
	descriptors.Destroy();
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	vkDestroyDescriptorSetLayout(device, typed_layout, nullptr);
	vkDestroyImageView(device, image_view, nullptr);
	vkDestroyBufferView(device, texel_view, nullptr);
	ctx->Destroy(image);
	for (TestBuffer* buffer : {&a, &b, &texels, &pixels, &out}) ctx->Destroy(*buffer);
}

}  // namespace

TEST_CASE("Mutable descriptors written one kind at a time read back as that kind",
          "[descriptors][mutable_descriptor_type]") {
	Run(Fill::kWrite);
}

TEST_CASE("Mutable descriptors copied from typed and mutable bindings keep their kind",
          "[descriptors][mutable_descriptor_type]") {
	Run(Fill::kCopy);
}

TEST_CASE("A mutable binding in a descriptor buffer reads each descriptor as the kind it was made as",
          "[descriptors][mutable_descriptor_type][descriptor_buffer]") {
	Run(Fill::kDescriptorBuffer);
}
