// Arrays of input attachments indexed dynamically (Vulkan 1.2
// shaderInputAttachmentArrayDynamicIndexing and
// shaderInputAttachmentArrayNonUniformIndexing), through the loader with the
// validation layer on: one subpass reads two attachments, filled with
// different patterns before the pass, through subpass_input_array.frag,
// which picks one by a push constant and one by the pixel's parity, and
// writes both into a third. UNORM8 values pass through unchanged, so the
// result must equal the patterns exactly. Lavapipe 22.3 lacks both
// features; the same check runs on lavapipe where the driver has them (25.0:
// point VK_DRIVER_FILES at it). The reference is the patterns themselves.
// The same pass reads the inputs through a mutable binding too
// (VK_EXT_mutable_descriptor_type, which lavapipe 22.3 lacks).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "simple_pipeline.h"
#include "single_set.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kSize = 70;  // two rasterizer tiles and a few pixels

// The RGBA8 texel of input attachment `which` at (x, y).
uint32_t Pattern(uint32_t which, uint32_t x, uint32_t y) {
	const uint32_t r = which ? 255 - 3 * x : 3 * x, g = which ? 40 + 2 * y : 200 - 2 * y;
	return r | g << 8 | (which ? 0x11u : 0x77u) << 16 | 0xffu << 24;
}

bool HasFeatures(Driver driver) {
	auto probe = Context::Create(driver);
	if (!probe) return false;
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
	vkGetPhysicalDeviceFeatures2(probe->physical_device(), &features);
	return v12.shaderInputAttachmentArrayDynamicIndexing && v12.shaderInputAttachmentArrayNonUniformIndexing;
}

// Renders with push constant `index`; returns the third attachment's
// texels. mutable_binding: the inputs' binding is VK_EXT_mutable_descriptor_type's
// (input attachment or storage image), written as input attachments.
std::vector<uint32_t> Render(Context& ctx, uint32_t index, bool mutable_binding = false) {
	VkDevice device = ctx.device();
	TestImage images[3];
	VkImageView views[3];
	for (uint32_t i = 0; i < 3; ++i) {
		const VkImageUsageFlags usage = i < 2 ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT
		                                      : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
		images[i] = ctx.CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize, usage);
		views[i] = CreateColorView(device, images[i].image, VK_FORMAT_R8G8B8A8_UNORM);
	}

	// Attachments 0 and 1 are loaded (their patterns, copied in before the
	// pass) and read as inputs 0 and 1; attachment 2 is cleared and written.
	VkAttachmentDescription attachments[3] = {};
	for (uint32_t i = 0; i < 3; ++i) {
		VkAttachmentDescription& a = attachments[i];
		a.format = VK_FORMAT_R8G8B8A8_UNORM;
		a.samples = VK_SAMPLE_COUNT_1_BIT;
		a.loadOp = i < 2 ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
		a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
		a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
		a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
		a.initialLayout = i < 2 ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
		a.finalLayout = i < 2 ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	}
	const VkAttachmentReference inputs[2] = {{0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
	                                         {1, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};
	const VkAttachmentReference color{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription subpass{};
	subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	subpass.inputAttachmentCount = 2;
	subpass.pInputAttachments = inputs;
	subpass.colorAttachmentCount = 1;
	subpass.pColorAttachments = &color;
	VkSubpassDependency dependencies[2] = {};
	dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
	dependencies[0].dstSubpass = 0;
	dependencies[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
	dependencies[0].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
	dependencies[0].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	dependencies[0].dstAccessMask = VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
	dependencies[1].srcSubpass = 0;
	dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
	dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
	dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
	dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
	rpci.attachmentCount = 3;
	rpci.pAttachments = attachments;
	rpci.subpassCount = 1;
	rpci.pSubpasses = &subpass;
	rpci.dependencyCount = 2;
	rpci.pDependencies = dependencies;
	VkRenderPass pass = VK_NULL_HANDLE;
	REQUIRE(vkCreateRenderPass(device, &rpci, nullptr, &pass) == VK_SUCCESS);
	VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
	fci.renderPass = pass;
	fci.attachmentCount = 3;
	fci.pAttachments = views;
	fci.width = fci.height = kSize;
	fci.layers = 1;
	VkFramebuffer framebuffer = VK_NULL_HANDLE;
	REQUIRE(vkCreateFramebuffer(device, &fci, nullptr, &framebuffer) == VK_SUCCESS);

	const VkDescriptorType binding_type =
	    mutable_binding ? VK_DESCRIPTOR_TYPE_MUTABLE_EXT : VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
	const VkDescriptorType kinds[2] = {VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
	const VkMutableDescriptorTypeListEXT kind_list{2, kinds};
	VkMutableDescriptorTypeCreateInfoEXT mutable_info{VK_STRUCTURE_TYPE_MUTABLE_DESCRIPTOR_TYPE_CREATE_INFO_EXT};
	mutable_info.mutableDescriptorTypeListCount = 1;
	mutable_info.pMutableDescriptorTypeLists = &kind_list;
	VkDescriptorSetLayoutBinding binding{0, binding_type, 2, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
	                                      mutable_binding ? &mutable_info : nullptr};
	dslci.bindingCount = 1;
	dslci.pBindings = &binding;
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	const VkDescriptorPoolSize size{binding_type, 2};
	VkDescriptorPool pool = VK_NULL_HANDLE;
	const VkDescriptorSet set =
	    AllocateSingleSet(device, set_layout, {&size, 1}, &pool, mutable_binding ? &mutable_info : nullptr);
	const VkDescriptorImageInfo image_infos[2] = {{VK_NULL_HANDLE, views[0], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
	                                              {VK_NULL_HANDLE, views[1], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};
	VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	write.dstSet = set;
	write.descriptorCount = 2;
	write.descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
	write.pImageInfo = image_infos;
	vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
	const VkPushConstantRange push{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &push;
	VkPipelineLayout layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	VkPipeline pipeline = CreateSimplePipeline(
	    device, {"fullscreen.vert.spv", "subpass_input_array.frag.spv", layout, kSize, kSize, pass});
	REQUIRE(pipeline != VK_NULL_HANDLE);

	const VkDeviceSize bytes = VkDeviceSize(kSize) * kSize * 4;
	TestBuffer upload = ctx.CreateBuffer(2 * bytes), readback = ctx.CreateBuffer(bytes);
	for (uint32_t which = 0; which < 2; ++which)
		for (uint32_t y = 0; y < kSize; ++y)
			for (uint32_t x = 0; x < kSize; ++x) {
				const uint32_t texel = Pattern(which, x, y);
				std::memcpy(upload.data + which * bytes + (y * kSize + x) * 4, &texel, 4);
			}
	ctx.Submit([&](VkCommandBuffer cb) {
		for (uint32_t which = 0; which < 2; ++which) {
			VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
			barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
			barrier.image = images[which].image;
			barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
			barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
			barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
			barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
			                     0, nullptr, 1, &barrier);
			VkBufferImageCopy region{};
			region.bufferOffset = which * bytes;
			region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			region.imageExtent = {kSize, kSize, 1};
			vkCmdCopyBufferToImage(cb, upload.buffer, images[which].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
			                       &region);
			barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
			barrier.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
			barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
			barrier.dstAccessMask = VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0,
			                     nullptr, 0, nullptr, 1, &barrier);
		}
		VkClearValue clears[3] = {};
		VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
		begin.renderPass = pass;
		begin.framebuffer = framebuffer;
		begin.renderArea = {{0, 0}, {kSize, kSize}};
		begin.clearValueCount = 3;
		begin.pClearValues = clears;
		vkCmdBeginRenderPass(cb, &begin, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
		vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &index);
		vkCmdDraw(cb, 3, 1, 0, 0);
		vkCmdEndRenderPass(cb);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.imageExtent = {kSize, kSize, 1};
		vkCmdCopyImageToBuffer(cb, images[2].image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
		ctx.TransferBarrier(cb);
	});
	std::vector<uint32_t> out(kSize * kSize);
	std::memcpy(out.data(), readback.data, bytes);

	ctx.Destroy(upload);
	ctx.Destroy(readback);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	vkDestroyFramebuffer(device, framebuffer, nullptr);
	vkDestroyRenderPass(device, pass, nullptr);
	for (uint32_t i = 0; i < 3; ++i) {
		vkDestroyImageView(device, views[i], nullptr);
		ctx.Destroy(images[i]);
	}
	return out;
}

}  // namespace

TEST_CASE("input attachment arrays indexed by a push constant and per pixel read the right attachment",
          "[draw][input_attachment][descriptor_indexing]") {
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		if (!HasFeatures(driver)) {
			REQUIRE(driver == Driver::Lavapipe);  // Tessera must have them
			WARN("lavapipe lacks shaderInputAttachmentArray*Indexing (22.3): checked on Tessera alone");
			continue;
		}
		VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
		v12.shaderInputAttachmentArrayDynamicIndexing = VK_TRUE;
		v12.shaderInputAttachmentArrayNonUniformIndexing = VK_TRUE;
		ContextOptions options;
		options.device_features = &v12;
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		for (uint32_t index : {0u, 1u}) {
			CAPTURE(index);
			const std::vector<uint32_t> out = Render(*ctx, index);
			uint32_t wrong = 0;
			for (uint32_t y = 0; y < kSize; ++y)
				for (uint32_t x = 0; x < kSize; ++x) {
					const uint32_t a = Pattern(index, x, y), b = Pattern((x + y) & 1, x, y);
					const uint32_t expected = (a & 0xffff) | (b & 0xffff) << 16;
					wrong += out[y * kSize + x] != expected;
				}
			CHECK(wrong == 0);
		}
		for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
		CHECK(ctx->validation_errors() == 0);
	}
}

TEST_CASE("input attachments in a mutable binding read as input attachments", "[draw][input_attachment][mutable]") {
	// A mutable descriptor written as an input attachment is read by the
	// shader's subpass inputs (which the driver reads as it reads storage
	// images): it used to read as an empty descriptor, zeros.
	VkPhysicalDeviceMutableDescriptorTypeFeaturesEXT mutable_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MUTABLE_DESCRIPTOR_TYPE_FEATURES_EXT};
	mutable_features.mutableDescriptorType = VK_TRUE;
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &mutable_features};
	v12.shaderInputAttachmentArrayDynamicIndexing = VK_TRUE;
	v12.shaderInputAttachmentArrayNonUniformIndexing = VK_TRUE;
	ContextOptions options;
	options.device_features = &v12;
	options.device_extensions = {VK_EXT_MUTABLE_DESCRIPTOR_TYPE_EXTENSION_NAME};
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	for (uint32_t index : {0u, 1u}) {
		CAPTURE(index);
		const std::vector<uint32_t> out = Render(*ctx, index, true);
		uint32_t wrong = 0;
		for (uint32_t y = 0; y < kSize; ++y)
			for (uint32_t x = 0; x < kSize; ++x) {
				const uint32_t a = Pattern(index, x, y), b = Pattern((x + y) & 1, x, y);
				wrong += out[y * kSize + x] != ((a & 0xffff) | (b & 0xffff) << 16);
			}
		CHECK(wrong == 0);
	}
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx->validation_errors() == 0);
}
