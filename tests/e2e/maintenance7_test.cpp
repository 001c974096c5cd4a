// VK_KHR_maintenance7: its properties say what Tessera does (separate depth
// and stencil planes, dynamic buffer totals that are the per-type limits'
// sum, no layered implementation underneath), render pass instances mix
// inline commands and secondaries under the KHR contents flags, and a 32-bit
// query result is the low half of the 64-bit one. Tessera alone, without the
// validation layer: lavapipe 22.3 and the layer's 1.3.239 release predate
// the extension.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

struct Maintenance7 {
	VkPhysicalDeviceMaintenance7FeaturesKHR features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_FEATURES_KHR};
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &features};
	Maintenance7() {
		features.maintenance7 = VK_TRUE;
		v13.dynamicRendering = VK_TRUE;
	}
	ContextOptions Options() const {
		ContextOptions options;
		options.validation = false;
		options.device_extensions = {VK_KHR_MAINTENANCE_7_EXTENSION_NAME};
		options.device_features = &v13;
		return options;
	}
};

constexpr uint32_t kSize = 16;
constexpr VkFormat kColor = VK_FORMAT_R8G8B8A8_UNORM;

// vkCmdClearAttachments of color attachment 0 over `rect` (a whole layer).
void ClearRect(VkCommandBuffer cb, VkRect2D rect, float r, float g, float b) {
	VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
	clear.clearValue.color = {{r, g, b, 1.0f}};
	VkClearRect area{rect, 0, 1};
	vkCmdClearAttachments(cb, 1, &clear, 1, &area);
}

// The attachment's pixels, RGBA8 words.
struct Pixels {
	std::vector<uint32_t> words;
	uint32_t At(uint32_t x, uint32_t y) const { return words[y * kSize + x]; }
};

constexpr uint32_t kRed = 0xff0000ff, kGreen = 0xff00ff00, kBlue = 0xffff0000;

// The three clears both render pass kinds record: the left half red inline,
// the right half green from a secondary, then the top rows blue inline again.
void CheckMixedClears(const Pixels& p) {
	for (uint32_t y = 0; y < kSize; ++y)
		for (uint32_t x = 0; x < kSize; ++x) {
			INFO("pixel " << x << "," << y);
			const uint32_t expected = y < 4 ? kBlue : x < kSize / 2 ? kRed : kGreen;
			CHECK(p.At(x, y) == expected);
		}
}

// What both mixed-contents tests render into and record with: a color
// image, its view, a buffer it is copied to, and a pool for the secondary.
struct MixedClearTarget {
	Context& ctx;
	TestImage image;
	VkImageView view = VK_NULL_HANDLE;
	TestBuffer out;
	VkCommandPool pool = VK_NULL_HANDLE;

	explicit MixedClearTarget(Context& context) : ctx(context) {
		image = ctx.CreateImage2D(kColor, kSize, kSize,
		                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
		VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		vci.image = image.image;
		vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
		vci.format = kColor;
		vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		REQUIRE(vkCreateImageView(ctx.device(), &vci, nullptr, &view) == VK_SUCCESS);
		out = ctx.CreateBuffer(kSize * kSize * 4);
		VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
		REQUIRE(vkCreateCommandPool(ctx.device(), &pool_info, nullptr, &pool) == VK_SUCCESS);
	}
	~MixedClearTarget() {
		vkDestroyCommandPool(ctx.device(), pool, nullptr);
		vkDestroyImageView(ctx.device(), view, nullptr);
		ctx.Destroy(out);
		ctx.Destroy(image);
	}

	// A secondary, continuing the render pass instance `inheritance` names,
	// that clears the right half green.
	VkCommandBuffer RecordSecondary(const VkCommandBufferInheritanceInfo& inheritance) {
		VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
		alloc.commandPool = pool;
		alloc.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
		alloc.commandBufferCount = 1;
		VkCommandBuffer secondary = VK_NULL_HANDLE;
		REQUIRE(vkAllocateCommandBuffers(ctx.device(), &alloc, &secondary) == VK_SUCCESS);
		VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		begin.flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT;
		begin.pInheritanceInfo = &inheritance;
		REQUIRE(vkBeginCommandBuffer(secondary, &begin) == VK_SUCCESS);
		ClearRect(secondary, {{int32_t(kSize / 2), 0}, {kSize / 2, kSize}}, 0, 1, 0);
		REQUIRE(vkEndCommandBuffer(secondary) == VK_SUCCESS);
		return secondary;
	}

	// Inside the render pass instance: the left half red inline, the
	// secondary, then the top rows blue inline again.
	static void RecordClears(VkCommandBuffer cb, VkCommandBuffer secondary) {
		ClearRect(cb, {{0, 0}, {kSize / 2, kSize}}, 1, 0, 0);
		vkCmdExecuteCommands(cb, 1, &secondary);
		ClearRect(cb, {{0, 0}, {kSize, 4}}, 0, 0, 1);
	}

	// After the render pass instance: the image copied to `out`.
	void RecordCopyOut(VkCommandBuffer cb) {
		ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.imageExtent = {kSize, kSize, 1};
		vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
	}

	// The attachment's pixels after the submission.
	Pixels ReadBack() const {
		Pixels p;
		p.words.resize(kSize * kSize);
		std::memcpy(p.words.data(), out.data, p.words.size() * 4);
		return p;
	}
};

}  // namespace

TEST_CASE("VK_KHR_maintenance7: the feature and properties report what Tessera does", "[maintenance7]") {
	Maintenance7 m7;
	auto ctx = Context::Create(Driver::Tessera, m7.Options());
	REQUIRE(ctx);
	VkPhysicalDeviceMaintenance7FeaturesKHR supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_FEATURES_KHR};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features);
	CHECK(supported.maintenance7 == VK_TRUE);

	VkPhysicalDeviceMaintenance7PropertiesKHR m7p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_PROPERTIES_KHR};
	VkPhysicalDeviceVulkan12Properties v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, &m7p};
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v12};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	const VkPhysicalDeviceLimits& limits = properties.properties.limits;
	// Depth and stencil are planes of their own; no shading rate attachments.
	CHECK(m7p.separateDepthStencilAttachmentAccess == VK_TRUE);
	CHECK(m7p.robustFragmentShadingRateAttachmentAccess == VK_FALSE);
	// The per-type limits are the only ones: the totals are their sum.
	CHECK(m7p.maxDescriptorSetTotalUniformBuffersDynamic == limits.maxDescriptorSetUniformBuffersDynamic);
	CHECK(m7p.maxDescriptorSetTotalStorageBuffersDynamic == limits.maxDescriptorSetStorageBuffersDynamic);
	CHECK(m7p.maxDescriptorSetTotalBuffersDynamic ==
	      limits.maxDescriptorSetUniformBuffersDynamic + limits.maxDescriptorSetStorageBuffersDynamic);
	CHECK(m7p.maxDescriptorSetUpdateAfterBindTotalUniformBuffersDynamic ==
	      v12.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic);
	CHECK(m7p.maxDescriptorSetUpdateAfterBindTotalStorageBuffersDynamic ==
	      v12.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic);
	CHECK(m7p.maxDescriptorSetUpdateAfterBindTotalBuffersDynamic ==
	      v12.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic +
	          v12.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic);
}

TEST_CASE("VK_KHR_maintenance7: no layered implementation lies under Tessera", "[maintenance7]") {
	Maintenance7 m7;
	auto ctx = Context::Create(Driver::Tessera, m7.Options());
	REQUIRE(ctx);
	// The count first (pLayeredApis NULL), then with room for two: an
	// implementation that is not a layer returns 0 and writes no element.
	VkPhysicalDeviceLayeredApiPropertiesListKHR list{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LAYERED_API_PROPERTIES_LIST_KHR};
	list.layeredApiCount = 7;
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &list};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	CHECK(list.layeredApiCount == 0);

	VkPhysicalDeviceLayeredApiVulkanPropertiesKHR vulkan[2];
	VkPhysicalDeviceLayeredApiPropertiesKHR apis[2];
	for (int i = 0; i < 2; ++i) {
		std::memset(&vulkan[i], 0xab, sizeof(vulkan[i]));
		vulkan[i].sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LAYERED_API_VULKAN_PROPERTIES_KHR;
		vulkan[i].pNext = nullptr;
		vulkan[i].properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
		vulkan[i].properties.pNext = nullptr;
		std::memset(&apis[i], 0xab, sizeof(apis[i]));
		apis[i].sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LAYERED_API_PROPERTIES_KHR;
		apis[i].pNext = &vulkan[i];
	}
	list.layeredApiCount = 2;
	list.pLayeredApis = apis;
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	CHECK(list.layeredApiCount == 0);
	for (int i = 0; i < 2; ++i) {
		CHECK(apis[i].vendorID == 0xabababab);
		CHECK(apis[i].deviceID == 0xabababab);
		CHECK(vulkan[i].properties.properties.limits.maxImageDimension2D == 0xabababab);
	}
}

TEST_CASE("VK_KHR_maintenance7: dynamic rendering with CONTENTS_INLINE mixes inline commands and secondaries",
          "[maintenance7]") {
	Maintenance7 m7;
	auto ctx = Context::Create(Driver::Tessera, m7.Options());
	REQUIRE(ctx);
	MixedClearTarget target(*ctx);
	VkCommandBufferInheritanceRenderingInfo inherit_rendering{
	    VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO};
	inherit_rendering.colorAttachmentCount = 1;
	inherit_rendering.pColorAttachmentFormats = &kColor;
	inherit_rendering.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
	VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO, &inherit_rendering};
	VkCommandBuffer secondary = target.RecordSecondary(inheritance);

	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, target.image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
		VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
		color.imageView = target.view;
		color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
		color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
		color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
		VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
		rendering.flags = VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT | VK_RENDERING_CONTENTS_INLINE_BIT_KHR;
		rendering.renderArea = {{0, 0}, {kSize, kSize}};
		rendering.layerCount = 1;
		rendering.colorAttachmentCount = 1;
		rendering.pColorAttachments = &color;
		vkCmdBeginRendering(cb, &rendering);
		MixedClearTarget::RecordClears(cb, secondary);
		vkCmdEndRendering(cb);
		target.RecordCopyOut(cb);
	});
	CheckMixedClears(target.ReadBack());
}

TEST_CASE("VK_KHR_maintenance7: a subpass begun INLINE_AND_SECONDARY_COMMAND_BUFFERS mixes both", "[maintenance7]") {
	Maintenance7 m7;
	auto ctx = Context::Create(Driver::Tessera, m7.Options());
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	MixedClearTarget target(*ctx);

	VkAttachmentDescription attachment{};
	attachment.format = kColor;
	attachment.samples = VK_SAMPLE_COUNT_1_BIT;
	attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
	attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
	attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
	attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
	attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription subpass{};
	subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	subpass.colorAttachmentCount = 1;
	subpass.pColorAttachments = &ref;
	VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
	rpci.attachmentCount = 1;
	rpci.pAttachments = &attachment;
	rpci.subpassCount = 1;
	rpci.pSubpasses = &subpass;
	VkRenderPass render_pass;
	REQUIRE(vkCreateRenderPass(device, &rpci, nullptr, &render_pass) == VK_SUCCESS);
	VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
	fci.renderPass = render_pass;
	fci.attachmentCount = 1;
	fci.pAttachments = &target.view;
	fci.width = kSize;
	fci.height = kSize;
	fci.layers = 1;
	VkFramebuffer framebuffer;
	REQUIRE(vkCreateFramebuffer(device, &fci, nullptr, &framebuffer) == VK_SUCCESS);
	VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
	inheritance.renderPass = render_pass;
	inheritance.framebuffer = framebuffer;
	VkCommandBuffer secondary = target.RecordSecondary(inheritance);

	ctx->Submit([&](VkCommandBuffer cb) {
		VkClearValue clear{};
		VkRenderPassBeginInfo rbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
		rbi.renderPass = render_pass;
		rbi.framebuffer = framebuffer;
		rbi.renderArea = {{0, 0}, {kSize, kSize}};
		rbi.clearValueCount = 1;
		rbi.pClearValues = &clear;
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE_AND_SECONDARY_COMMAND_BUFFERS_KHR);
		MixedClearTarget::RecordClears(cb, secondary);
		vkCmdEndRenderPass(cb);
		target.RecordCopyOut(cb);
	});
	CheckMixedClears(target.ReadBack());

	vkDestroyFramebuffer(device, framebuffer, nullptr);
	vkDestroyRenderPass(device, render_pass, nullptr);
}

TEST_CASE("VK_KHR_maintenance7: a 32-bit query result is the low half of the 64-bit one", "[maintenance7]") {
	// Timestamps are CLOCK_MONOTONIC nanoseconds: past 2^32 once the machine
	// has been up 4.3 seconds, so the 32-bit result must wrap, not saturate.
	Maintenance7 m7;
	auto ctx = Context::Create(Driver::Tessera, m7.Options());
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
	qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
	qci.queryCount = 1;
	VkQueryPool pool;
	REQUIRE(vkCreateQueryPool(device, &qci, nullptr, &pool) == VK_SUCCESS);
	TestBuffer copied = ctx->CreateBuffer(16);
	std::memset(copied.data, 0xcd, 16);
	ctx->Submit([&](VkCommandBuffer cb) {
		vkCmdResetQueryPool(cb, pool, 0, 1);
		vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
		vkCmdCopyQueryPoolResults(cb, pool, 0, 1, copied.buffer, 0, 4, VK_QUERY_RESULT_WAIT_BIT);
		vkCmdCopyQueryPoolResults(cb, pool, 0, 1, copied.buffer, 8, 8,
		                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
	});
	uint32_t narrow = 0;
	uint64_t wide = 0;
	REQUIRE(vkGetQueryPoolResults(device, pool, 0, 1, 4, &narrow, 4, VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
	REQUIRE(vkGetQueryPoolResults(device, pool, 0, 1, 8, &wide, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) ==
	        VK_SUCCESS);
	CHECK(wide >> 32 != 0);  // (else the two agree trivially)
	CHECK(narrow == uint32_t(wide));
	uint32_t copied_narrow;
	uint64_t copied_wide;
	std::memcpy(&copied_narrow, copied.data, 4);
	std::memcpy(&copied_wide, copied.data + 8, 8);
	CHECK(copied_wide == wide);
	CHECK(copied_narrow == uint32_t(copied_wide));
	ctx->Destroy(copied);
	vkDestroyQueryPool(device, pool, nullptr);
}
