// Samplers, shader modules, pipeline layouts, render passes and framebuffers
// as objects, and the application's allocation callbacks for each.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "compute_kernel.h"
#include "validation.h"
#include "vk/pipeline_layout.h"
#include "vk/render_pass.h"
#include "vk/sampler.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// glslangValidator -V of an empty compute shader (local_size_x = 1).
const uint32_t kEmptyCompute[] = {
    0x07230203, 0x00010600, 0x0008000b, 0x0000000a, 0x00000000, 0x00020011, 0x00000001, 0x0006000b, 0x00000001,
    0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e, 0x00000000, 0x00000001, 0x0005000f, 0x00000005,
    0x00000004, 0x6e69616d, 0x00000000, 0x0006014b, 0x00000004, 0x00000026, 0x00000007, 0x00000007, 0x00000007,
    0x00030003, 0x00000002, 0x000001c2, 0x00040005, 0x00000004, 0x6e69616d, 0x00000000, 0x00020013, 0x00000002,
    0x00030021, 0x00000003, 0x00000002, 0x00040015, 0x00000006, 0x00000020, 0x00000000, 0x0004002b, 0x00000006,
    0x00000007, 0x00000001, 0x00040017, 0x00000008, 0x00000006, 0x00000003, 0x0006002c, 0x00000008, 0x00000009,
    0x00000007, 0x00000007, 0x00000007, 0x00050036, 0x00000002, 0x00000004, 0x00000000, 0x00000003, 0x000200f8,
    0x00000005, 0x000100fd, 0x00010038};

// Counts live allocations made through it; checks every free matches.
struct CountingAllocator {
	std::mutex mutex;
	std::map<void*, size_t> live;
	size_t total = 0;
	size_t bad_frees = 0;
	size_t fail_after = SIZE_MAX;  // allocations that succeed before every next one fails
	VkAllocationCallbacks callbacks{};

	CountingAllocator() {
		callbacks.pUserData = this;
		callbacks.pfnAllocation = [](void* user, size_t size, size_t alignment, VkSystemAllocationScope) -> void* {
			auto* self = static_cast<CountingAllocator*>(user);
			std::lock_guard lock(self->mutex);
			if (self->fail_after == 0) return nullptr;
			if (self->fail_after != SIZE_MAX) --self->fail_after;
			void* p = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
			self->live[p] = size;
			++self->total;
			return p;
		};
		callbacks.pfnReallocation = [](void* user, void* original, size_t size, size_t alignment,
		                               VkSystemAllocationScope scope) -> void* {
			auto* self = static_cast<CountingAllocator*>(user);
			void* p = self->callbacks.pfnAllocation(user, size, alignment, scope);
			if (!p) return nullptr;
			if (original) {
				size_t old;
				{
					std::lock_guard lock(self->mutex);
					old = self->live[original];
				}
				std::memcpy(p, original, old < size ? old : size);
				self->callbacks.pfnFree(user, original);
			}
			return p;
		};
		callbacks.pfnFree = [](void* user, void* memory) {
			if (!memory) return;
			auto* self = static_cast<CountingAllocator*>(user);
			std::lock_guard lock(self->mutex);
			if (self->live.erase(memory) == 0) ++self->bad_frees;
			std::free(memory);
		};
	}
	size_t Live() {
		std::lock_guard lock(mutex);
		return live.size();
	}
};

VkRenderPass MakeRenderPass(VkDevice device, const VkAllocationCallbacks* allocator = nullptr) {
	VkAttachmentDescription attachments[2]{};
	attachments[0].format = VK_FORMAT_R8G8B8A8_UNORM;
	attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
	attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
	attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
	attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
	attachments[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
	attachments[1] = attachments[0];
	attachments[1].format = VK_FORMAT_D32_SFLOAT;
	attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
	VkAttachmentReference color{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference depth{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkAttachmentReference input{0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
	VkSubpassDescription subpasses[2]{};
	subpasses[0].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	subpasses[0].colorAttachmentCount = 1;
	subpasses[0].pColorAttachments = &color;
	subpasses[0].pDepthStencilAttachment = &depth;
	subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	subpasses[1].inputAttachmentCount = 1;
	subpasses[1].pInputAttachments = &input;
	VkSubpassDependency dependency{0,
	                               1,
	                               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
	                               VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
	                               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
	                               VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
	                               VK_DEPENDENCY_BY_REGION_BIT};
	VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
	info.attachmentCount = 2;
	info.pAttachments = attachments;
	info.subpassCount = 2;
	info.pSubpasses = subpasses;
	info.dependencyCount = 1;
	info.pDependencies = &dependency;
	VkRenderPass pass = VK_NULL_HANDLE;
	CHECK(vkCreateRenderPass(device, &info, allocator, &pass) == VK_SUCCESS);
	return pass;
}

VkRenderPass MakeRenderPass2(VkDevice device, const VkAllocationCallbacks* allocator = nullptr) {
	VkAttachmentDescription2 attachment{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
	attachment.format = VK_FORMAT_B8G8R8A8_UNORM;
	attachment.samples = VK_SAMPLE_COUNT_1_BIT;
	attachment.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
	attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
	attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
	attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
	attachment.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	VkAttachmentReference2 color{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2};
	color.attachment = 0;
	color.layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	VkSubpassDescription2 subpass{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2};
	subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	subpass.colorAttachmentCount = 1;
	subpass.pColorAttachments = &color;
	VkSubpassDependency2 dependency{VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2};
	dependency.srcSubpass = 0;
	dependency.dstSubpass = VK_SUBPASS_EXTERNAL;
	dependency.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
	dependency.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
	dependency.dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
	dependency.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
	VkRenderPassCreateInfo2 info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
	info.attachmentCount = 1;
	info.pAttachments = &attachment;
	info.subpassCount = 1;
	info.pSubpasses = &subpass;
	info.dependencyCount = 1;
	info.pDependencies = &dependency;
	VkRenderPass pass = VK_NULL_HANDLE;
	CHECK(vkCreateRenderPass2(device, &info, allocator, &pass) == VK_SUCCESS);
	return pass;
}

// A render pass with no attachments, for a framebuffer that needs no views.
VkRenderPass MakeEmptyRenderPass(VkDevice device, const VkAllocationCallbacks* allocator = nullptr) {
	VkSubpassDescription subpass{};
	subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
	VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
	info.subpassCount = 1;
	info.pSubpasses = &subpass;
	VkRenderPass pass = VK_NULL_HANDLE;
	CHECK(vkCreateRenderPass(device, &info, allocator, &pass) == VK_SUCCESS);
	return pass;
}

// Creates (and destroys) one of every object of this task with the callbacks.
void CreateEveryObject(Context& ctx, const VkAllocationCallbacks* allocator, CountingAllocator* counter) {
	VkDevice device = ctx.device();
	auto grew = [&](size_t before) {
		if (counter) CHECK(counter->Live() > before);
	};
	size_t before = counter ? counter->Live() : 0;

	VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	sci.magFilter = VK_FILTER_LINEAR;
	sci.minFilter = VK_FILTER_NEAREST;
	sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	sci.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
	sci.addressModeV = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
	sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
	sci.mipLodBias = 0.5f;
	sci.minLod = 1.0f;
	sci.maxLod = 4.0f;
	sci.compareEnable = VK_TRUE;
	sci.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
	sci.borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
	VkSampler sampler;
	REQUIRE(vkCreateSampler(device, &sci, allocator, &sampler) == VK_SUCCESS);
	grew(before);

	VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, &sampler};
	VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dlci.bindingCount = 1;
	dlci.pBindings = &binding;
	VkDescriptorSetLayout set_layout;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dlci, allocator, &set_layout) == VK_SUCCESS);

	VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_SAMPLER, 4};
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	dpci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
	dpci.maxSets = 4;
	dpci.poolSizeCount = 1;
	dpci.pPoolSizes = &size;
	VkDescriptorPool pool;
	REQUIRE(vkCreateDescriptorPool(device, &dpci, allocator, &pool) == VK_SUCCESS);
	VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	dsai.descriptorPool = pool;
	dsai.descriptorSetCount = 1;
	dsai.pSetLayouts = &set_layout;
	VkDescriptorSet set;
	before = counter ? counter->Live() : 0;
	REQUIRE(vkAllocateDescriptorSets(device, &dsai, &set) == VK_SUCCESS);
	grew(before);  // sets come from the pool's callbacks

	VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &range;
	VkPipelineLayout pipeline_layout;
	REQUIRE(vkCreatePipelineLayout(device, &plci, allocator, &pipeline_layout) == VK_SUCCESS);

	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = sizeof kEmptyCompute;
	smci.pCode = kEmptyCompute;
	VkShaderModule module;
	REQUIRE(vkCreateShaderModule(device, &smci, allocator, &module) == VK_SUCCESS);

	VkPipelineCacheCreateInfo pcci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
	VkPipelineCache cache;
	REQUIRE(vkCreatePipelineCache(device, &pcci, allocator, &cache) == VK_SUCCESS);

	VkRenderPass pass = MakeRenderPass(device, allocator);
	VkRenderPass pass2 = MakeRenderPass2(device, allocator);
	VkRenderPass empty = MakeEmptyRenderPass(device, allocator);
	VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
	fci.renderPass = empty;
	fci.width = 64;
	fci.height = 32;
	fci.layers = 1;
	VkFramebuffer framebuffer;
	REQUIRE(vkCreateFramebuffer(device, &fci, allocator, &framebuffer) == VK_SUCCESS);

	VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkCommandPool command_pool;
	REQUIRE(vkCreateCommandPool(device, &cpci, allocator, &command_pool) == VK_SUCCESS);
	VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cbai.commandPool = command_pool;
	cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cbai.commandBufferCount = 2;
	VkCommandBuffer cbs[2];
	before = counter ? counter->Live() : 0;
	REQUIRE(vkAllocateCommandBuffers(device, &cbai, cbs) == VK_SUCCESS);
	grew(before);  // command buffers come from the pool's callbacks (§6.3)

	// The set and pipeline layouts may be destroyed first (§14.2.1, §14.2.2).
	vkDestroyDescriptorSetLayout(device, set_layout, allocator);
	vkDestroyPipelineLayout(device, pipeline_layout, allocator);
	vkFreeDescriptorSets(device, pool, 1, &set);
	vkDestroyDescriptorPool(device, pool, allocator);
	vkFreeCommandBuffers(device, command_pool, 2, cbs);
	vkDestroyCommandPool(device, command_pool, allocator);
	vkDestroyFramebuffer(device, framebuffer, allocator);
	vkDestroyRenderPass(device, empty, allocator);
	vkDestroyRenderPass(device, pass2, allocator);
	vkDestroyRenderPass(device, pass, allocator);
	vkDestroyPipelineCache(device, cache, allocator);
	vkDestroyShaderModule(device, module, allocator);
	vkDestroySampler(device, sampler, allocator);
}

}  // namespace

TEST_CASE("every object of the objects stage is valid to create and destroy on both drivers", "[objects]") {
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = Context::Create(driver);
		REQUIRE(ctx);
		CreateEveryObject(*ctx, nullptr, nullptr);
		VkRenderPass pass = MakeRenderPass(ctx->device());
		VkExtent2D granularity{};
		vkGetRenderAreaGranularity(ctx->device(), pass, &granularity);
		CHECK(granularity.width >= 1);
		CHECK(granularity.height >= 1);
		if (driver == Driver::Tessera) CHECK((granularity.width == 1 && granularity.height == 1));
		vkDestroyRenderPass(ctx->device(), pass, nullptr);
		CHECK(ValidationErrors(*ctx) == 0);
	}
}

TEST_CASE("objects honour the application's allocation callbacks", "[objects][allocator]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	CountingAllocator counter;
	CreateEveryObject(*ctx, &counter.callbacks, &counter);
	CHECK(counter.total > 0);
	CHECK(counter.Live() == 0);  // everything made through the callbacks went back through them
	CHECK(counter.bad_frees == 0);
	CHECK(ValidationErrors(*ctx) == 0);
}

// Malformed SPIR-V is invalid use, so the validation layer is off: this
// checks the driver's own answer (Vulkan 1.3 §3.6: VK_ERROR_UNKNOWN) and its
// report through the debug messenger.
TEST_CASE("malformed shader modules are rejected and reported", "[objects][shader]") {
	ContextOptions options;
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	std::vector<uint32_t> words(std::begin(kEmptyCompute), std::end(kEmptyCompute));
	VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	VkShaderModule module = VK_NULL_HANDLE;
	SECTION("size not a multiple of 4") {
		info.codeSize = words.size() * 4 - 2;
		info.pCode = words.data();
		CHECK(vkCreateShaderModule(ctx->device(), &info, nullptr, &module) == VK_ERROR_UNKNOWN);
	}
	SECTION("shorter than a header") {
		info.codeSize = 12;
		info.pCode = words.data();
		CHECK(vkCreateShaderModule(ctx->device(), &info, nullptr, &module) == VK_ERROR_UNKNOWN);
	}
	SECTION("wrong magic number") {
		words[0] = 0x12345678;
		info.codeSize = words.size() * 4;
		info.pCode = words.data();
		CHECK(vkCreateShaderModule(ctx->device(), &info, nullptr, &module) == VK_ERROR_UNKNOWN);
	}
	CHECK(module == VK_NULL_HANDLE);
	REQUIRE(!ctx->validation_messages().empty());
	for (const std::string& message : ctx->validation_messages())
		CHECK(message.find("vkCreateShaderModule") != std::string::npos);
	size_t reports = ctx->validation_messages().size();

	// The other byte order is still SPIR-V.
	for (uint32_t& w : words) w = __builtin_bswap32(w);
	words[0] = __builtin_bswap32(0x07230203);
	info.codeSize = words.size() * 4;
	info.pCode = words.data();
	CHECK(vkCreateShaderModule(ctx->device(), &info, nullptr, &module) == VK_SUCCESS);
	CHECK(ctx->validation_messages().size() == reports);  // and nothing is reported for it
	vkDestroyShaderModule(ctx->device(), module, nullptr);
}

TEST_CASE("samplers with unsupported state are rejected and reported", "[objects][sampler]") {
	ContextOptions options;
	// Subsampled samplers (VK_EXT_fragment_density_map, not offered) are
	// invalid use.
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	info.flags = VK_SAMPLER_CREATE_SUBSAMPLED_BIT_EXT;
	VkSampler sampler = VK_NULL_HANDLE;
	CHECK(vkCreateSampler(ctx->device(), &info, nullptr, &sampler) == VK_ERROR_UNKNOWN);
	CHECK(sampler == VK_NULL_HANDLE);
	REQUIRE(!ctx->validation_messages().empty());
	CHECK(ctx->validation_messages()[0].find("sampler create flag") != std::string::npos);
}

TEST_CASE("imageless framebuffers are stored", "[objects][framebuffer]") {
	// imagelessFramebuffer is not reported yet (nothing draws), so this is
	// invalid use checked without the validation layer: creation must work.
	ContextOptions options;
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkRenderPass pass = MakeRenderPass(ctx->device());
	VkFormat formats[2] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB};
	VkFramebufferAttachmentImageInfo images[2]{};
	for (auto& image : images) {
		image.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENT_IMAGE_INFO;
		image.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
		image.width = 64;
		image.height = 64;
		image.layerCount = 1;
		image.viewFormatCount = 2;
		image.pViewFormats = formats;
	}
	images[1].usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
	images[1].viewFormatCount = 1;
	images[1].pViewFormats = &formats[0];
	VkFramebufferAttachmentsCreateInfo attachments{VK_STRUCTURE_TYPE_FRAMEBUFFER_ATTACHMENTS_CREATE_INFO};
	attachments.attachmentImageInfoCount = 2;
	attachments.pAttachmentImageInfos = images;
	VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
	info.pNext = &attachments;
	info.flags = VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT;
	info.renderPass = pass;
	info.attachmentCount = 2;
	info.width = 64;
	info.height = 64;
	info.layers = 1;
	VkFramebuffer framebuffer = VK_NULL_HANDLE;
	CHECK(vkCreateFramebuffer(ctx->device(), &info, nullptr, &framebuffer) == VK_SUCCESS);
	CHECK(framebuffer != VK_NULL_HANDLE);
	vkDestroyFramebuffer(ctx->device(), framebuffer, nullptr);
	vkDestroyRenderPass(ctx->device(), pass, nullptr);
}

TEST_CASE("recorded commands live in the command pool's callbacks and go back on reset", "[objects][allocator]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	CountingAllocator counter;
	TestBuffer buffer = ctx->CreateBuffer(4096);
	VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	cpci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
	VkCommandPool pool;
	REQUIRE(vkCreateCommandPool(device, &cpci, &counter.callbacks, &pool) == VK_SUCCESS);
	VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cbai.commandPool = pool;
	cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cbai.commandBufferCount = 1;
	VkCommandBuffer cb;
	REQUIRE(vkAllocateCommandBuffers(device, &cbai, &cb) == VK_SUCCESS);
	size_t allocated = counter.Live();

	VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	REQUIRE(vkBeginCommandBuffer(cb, &begin) == VK_SUCCESS);
	for (uint32_t i = 0; i < 5000; ++i) vkCmdFillBuffer(cb, buffer.buffer, (i % 1024) * 4, 4, i);
	REQUIRE(vkEndCommandBuffer(cb) == VK_SUCCESS);
	size_t recorded = counter.Live();
	CHECK(recorded > allocated + 1);  // several chunks, all from the callbacks

	// A plain reset keeps one chunk for the next recording; releasing
	// resources (or trimming the pool) gives that back too.
	REQUIRE(vkResetCommandBuffer(cb, 0) == VK_SUCCESS);
	CHECK(counter.Live() == allocated + 1);
	vkTrimCommandPool(device, pool, 0);
	CHECK(counter.Live() == allocated);
	REQUIRE(vkBeginCommandBuffer(cb, &begin) == VK_SUCCESS);
	for (uint32_t i = 0; i < 5000; ++i) vkCmdFillBuffer(cb, buffer.buffer, (i % 1024) * 4, 4, i);
	REQUIRE(vkEndCommandBuffer(cb) == VK_SUCCESS);
	CHECK(counter.Live() > allocated);  // fewer, larger chunks this time
	REQUIRE(vkResetCommandPool(device, pool, VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT) == VK_SUCCESS);
	CHECK(counter.Live() == allocated);

	vkDestroyCommandPool(device, pool, &counter.callbacks);
	CHECK(counter.Live() == 0);
	CHECK(counter.bad_frees == 0);
	ctx->Destroy(buffer);
	CHECK(ValidationErrors(*ctx) == 0);
}

// Every creation either succeeds or, when the callbacks fail, returns
// VK_ERROR_OUT_OF_HOST_MEMORY and leaves nothing allocated. The validation
// layer is off: it allocates through the same callbacks.
TEST_CASE("creation fails cleanly when the allocation callbacks fail", "[objects][allocator]") {
	ContextOptions options;
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	CountingAllocator counter;
	const VkAllocationCallbacks* callbacks = &counter.callbacks;

	// Runs create with allocations failing after 0, 1, 2... successes until
	// it succeeds; destroy undoes a success.
	auto exhaust = [&](const char* what, auto create, auto destroy) {
		CAPTURE(what);
		for (size_t budget = 0; budget < 64; ++budget) {
			CAPTURE(budget);
			counter.fail_after = budget;
			VkResult result = create();
			counter.fail_after = SIZE_MAX;
			if (result == VK_SUCCESS) {
				CHECK(budget > 0);  // it did allocate through the callbacks
				destroy();
				CHECK(counter.Live() == 0);
				return;
			}
			CHECK(result == VK_ERROR_OUT_OF_HOST_MEMORY);
			CHECK(counter.Live() == 0);
		}
		FAIL("never succeeded");
	};

	VkSampler sampler;
	VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	exhaust(
	    "sampler", [&] { return vkCreateSampler(device, &sci, callbacks, &sampler); },
	    [&] { vkDestroySampler(device, sampler, callbacks); });

	VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, VK_SHADER_STAGE_ALL, nullptr};
	VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dlci.bindingCount = 1;
	dlci.pBindings = &binding;
	VkDescriptorSetLayout set_layout;
	exhaust(
	    "descriptor set layout", [&] { return vkCreateDescriptorSetLayout(device, &dlci, callbacks, &set_layout); },
	    [&] { vkDestroyDescriptorSetLayout(device, set_layout, callbacks); });

	REQUIRE(vkCreateDescriptorSetLayout(device, &dlci, nullptr, &set_layout) == VK_SUCCESS);
	VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16};
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	dpci.maxSets = 4;
	dpci.poolSizeCount = 1;
	dpci.pPoolSizes = &size;
	VkDescriptorPool pool;
	exhaust(
	    "descriptor pool", [&] { return vkCreateDescriptorPool(device, &dpci, callbacks, &pool); },
	    [&] { vkDestroyDescriptorPool(device, pool, callbacks); });
	{
		// Sets of one call: a failure frees the sets made before it.
		REQUIRE(vkCreateDescriptorPool(device, &dpci, callbacks, &pool) == VK_SUCCESS);
		size_t with_pool = counter.Live();
		VkDescriptorSetLayout layouts[3] = {set_layout, set_layout, set_layout};
		VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
		ai.descriptorPool = pool;
		ai.descriptorSetCount = 3;
		ai.pSetLayouts = layouts;
		VkDescriptorSet sets[3];
		for (size_t budget = 0; budget < 3; ++budget) {
			counter.fail_after = budget;
			CHECK(vkAllocateDescriptorSets(device, &ai, sets) == VK_ERROR_OUT_OF_HOST_MEMORY);
			counter.fail_after = SIZE_MAX;
			CHECK(counter.Live() == with_pool);
			for (VkDescriptorSet s : sets) CHECK(s == VK_NULL_HANDLE);
		}
		CHECK(vkAllocateDescriptorSets(device, &ai, sets) == VK_SUCCESS);  // the pool lost no room
		vkDestroyDescriptorPool(device, pool, callbacks);
		CHECK(counter.Live() == 0);
	}

	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	VkPipelineLayout pipeline_layout;
	exhaust(
	    "pipeline layout", [&] { return vkCreatePipelineLayout(device, &plci, callbacks, &pipeline_layout); },
	    [&] { vkDestroyPipelineLayout(device, pipeline_layout, callbacks); });
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);

	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = sizeof kEmptyCompute;
	smci.pCode = kEmptyCompute;
	VkShaderModule module;
	exhaust(
	    "shader module", [&] { return vkCreateShaderModule(device, &smci, callbacks, &module); },
	    [&] { vkDestroyShaderModule(device, module, callbacks); });

	VkPipelineCacheCreateInfo pcci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
	VkPipelineCache cache;
	exhaust(
	    "pipeline cache", [&] { return vkCreatePipelineCache(device, &pcci, callbacks, &cache); },
	    [&] { vkDestroyPipelineCache(device, cache, callbacks); });

	VkRenderPass pass;
	exhaust(
	    "render pass",
	    [&] {
		    VkSubpassDescription subpass{};
		    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
		    VkRenderPassCreateInfo info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
		    info.subpassCount = 1;
		    info.pSubpasses = &subpass;
		    return vkCreateRenderPass(device, &info, callbacks, &pass);
	    },
	    [&] { vkDestroyRenderPass(device, pass, callbacks); });

	VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkCommandPool command_pool;
	exhaust(
	    "command pool", [&] { return vkCreateCommandPool(device, &cpci, callbacks, &command_pool); },
	    [&] { vkDestroyCommandPool(device, command_pool, callbacks); });
	{
		REQUIRE(vkCreateCommandPool(device, &cpci, callbacks, &command_pool) == VK_SUCCESS);
		size_t with_pool = counter.Live();
		VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
		cbai.commandPool = command_pool;
		cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
		cbai.commandBufferCount = 3;
		VkCommandBuffer cbs[3];
		counter.fail_after = 2;
		CHECK(vkAllocateCommandBuffers(device, &cbai, cbs) == VK_ERROR_OUT_OF_HOST_MEMORY);
		counter.fail_after = SIZE_MAX;
		CHECK(counter.Live() == with_pool);
		for (VkCommandBuffer cb : cbs) CHECK(cb == VK_NULL_HANDLE);
		vkDestroyCommandPool(device, command_pool, callbacks);
	}
	CHECK(counter.Live() == 0);
	CHECK(counter.bad_frees == 0);
}

// White-box: what later stages will read from the objects, through their
// handles (validation off so the handles are the driver's own; attachments
// need format features Tessera does not report yet).
TEST_CASE("objects keep their create info as plain state", "[objects][whitebox]") {
	ContextOptions options;
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();

	VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	sci.magFilter = VK_FILTER_LINEAR;
	sci.minFilter = VK_FILTER_NEAREST;
	sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
	sci.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
	sci.addressModeV = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
	sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
	sci.mipLodBias = -1.5f;
	sci.minLod = 0.25f;
	sci.maxLod = 7.0f;
	sci.compareEnable = VK_TRUE;
	sci.compareOp = VK_COMPARE_OP_GREATER;
	sci.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	sci.unnormalizedCoordinates = VK_FALSE;
	VkSampler sampler;
	REQUIRE(vkCreateSampler(device, &sci, nullptr, &sampler) == VK_SUCCESS);
	const tessera::vk::SamplerState& state = tessera::vk::Sampler::Cast(sampler)->State();
	CHECK(state.mag_filter == VK_FILTER_LINEAR);
	CHECK(state.min_filter == VK_FILTER_NEAREST);
	CHECK(state.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_LINEAR);
	CHECK(state.address_u == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
	CHECK(state.address_v == VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT);
	CHECK(state.address_w == VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE);
	CHECK(state.mip_lod_bias == -1.5f);
	CHECK(state.min_lod == 0.25f);
	CHECK(state.max_lod == 7.0f);
	CHECK(state.compare_enable);
	CHECK(state.compare_op == VK_COMPARE_OP_GREATER);
	CHECK(state.border_color == VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE);
	CHECK_FALSE(state.unnormalized_coordinates);
	CHECK_FALSE(state.anisotropy_enable);
	vkDestroySampler(device, sampler, nullptr);

	// Render pass 1 input is converted to the *2 form; input attachments
	// read all aspects of their format unless told otherwise.
	VkRenderPass pass = MakeRenderPass(device);
	const auto& rp = *tessera::vk::RenderPass::Cast(pass);
	REQUIRE(rp.Attachments().size() == 2);
	CHECK(rp.Attachments()[0].format == VK_FORMAT_R8G8B8A8_UNORM);
	CHECK(rp.Attachments()[0].load_op == VK_ATTACHMENT_LOAD_OP_CLEAR);
	CHECK(rp.Attachments()[0].final_layout == VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
	CHECK(rp.Attachments()[0].first_subpass == 0);
	CHECK(rp.Attachments()[0].last_subpass == 1);
	CHECK(rp.Attachments()[1].first_subpass == 0);
	CHECK(rp.Attachments()[1].last_subpass == 0);
	REQUIRE(rp.Subpasses().size() == 2);
	REQUIRE(rp.Subpasses()[0].colors.size() == 1);
	CHECK(rp.Subpasses()[0].colors[0].attachment == 0);
	CHECK(rp.Subpasses()[0].depth_stencil.attachment == 1);
	CHECK(rp.Subpasses()[0].resolves.empty());
	REQUIRE(rp.Subpasses()[1].inputs.size() == 1);
	CHECK(rp.Subpasses()[1].inputs[0].aspect == VK_IMAGE_ASPECT_COLOR_BIT);
	CHECK(rp.Subpasses()[1].depth_stencil.attachment == VK_ATTACHMENT_UNUSED);
	REQUIRE(rp.Dependencies().size() == 1);
	CHECK(rp.Dependencies()[0].src_stages == VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
	CHECK(rp.Dependencies()[0].dst_access == VK_ACCESS_INPUT_ATTACHMENT_READ_BIT);
	CHECK(rp.Dependencies()[0].flags == VK_DEPENDENCY_BY_REGION_BIT);
	vkDestroyRenderPass(device, pass, nullptr);

	VkRenderPass pass2 = MakeRenderPass2(device);
	const auto& rp2 = *tessera::vk::RenderPass::Cast(pass2);
	CHECK(rp2.Attachments()[0].load_op == VK_ATTACHMENT_LOAD_OP_LOAD);
	CHECK(rp2.Dependencies()[0].dst_subpass == VK_SUBPASS_EXTERNAL);
	CHECK(rp2.Dependencies()[0].dst_stages == VK_PIPELINE_STAGE_TRANSFER_BIT);
	vkDestroyRenderPass(device, pass2, nullptr);

	// Pipeline layouts number dynamic offsets across their sets.
	VkDescriptorSetLayoutBinding bindings[2] = {
	    {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 3, VK_SHADER_STAGE_ALL, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2, VK_SHADER_STAGE_ALL, nullptr}};
	VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dlci.bindingCount = 2;
	dlci.pBindings = bindings;
	VkDescriptorSetLayout set_layout;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dlci, nullptr, &set_layout) == VK_SUCCESS);
	VkDescriptorSetLayout layouts[3] = {set_layout, set_layout, set_layout};
	VkPushConstantRange ranges[2] = {{VK_SHADER_STAGE_VERTEX_BIT, 0, 64}, {VK_SHADER_STAGE_FRAGMENT_BIT, 64, 32}};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 3;
	plci.pSetLayouts = layouts;
	plci.pushConstantRangeCount = 2;
	plci.pPushConstantRanges = ranges;
	VkPipelineLayout pipeline_layout;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &pipeline_layout) == VK_SUCCESS);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);  // the pipeline layout keeps it
	const auto& pl = *tessera::vk::PipelineLayout::Cast(pipeline_layout);
	REQUIRE(pl.SetCount() == 3);
	CHECK(pl.SetLayout(2)->DynamicCount() == 5);
	CHECK(pl.DynamicOffsetBase(0) == 0);
	CHECK(pl.DynamicOffsetBase(1) == 5);
	CHECK(pl.DynamicOffsetBase(2) == 10);
	REQUIRE(pl.PushConstantRanges().size() == 2);
	CHECK(pl.PushConstantRanges()[1].offset == 64);
	vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
}

// Validation results are remembered by module words and the rules the
// device's enabled features set (vk/shader_module.cpp): a module found
// valid on a device with uniformBufferStandardLayout is still refused on a
// device without it, however often either creates it, and an invalid
// module is refused every time. The layer is off: the refused modules are
// invalid use.
TEST_CASE("remembered shader validation keeps to each device's rules", "[objects][shader]") {
	std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, "ubo_std430.spv");
	REQUIRE(!words.empty());
	VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	info.codeSize = words.size() * 4;
	info.pCode = words.data();
	VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	features12.uniformBufferStandardLayout = VK_TRUE;
	ContextOptions with_options;
	with_options.validation = false;
	with_options.device_features = &features12;
	auto with = Context::Create(Driver::Tessera, with_options);
	ContextOptions without_options;
	without_options.validation = false;
	auto without = Context::Create(Driver::Tessera, without_options);
	REQUIRE(with);
	REQUIRE(without);
	for (int round = 0; round < 3; ++round) {
		INFO("round " << round);
		VkShaderModule module = VK_NULL_HANDLE;
		CHECK(vkCreateShaderModule(with->device(), &info, nullptr, &module) == VK_SUCCESS);
		vkDestroyShaderModule(with->device(), module, nullptr);
		module = VK_NULL_HANDLE;
		CHECK(vkCreateShaderModule(without->device(), &info, nullptr, &module) == VK_ERROR_UNKNOWN);
		CHECK(module == VK_NULL_HANDLE);
	}
	REQUIRE(without->validation_messages().size() == 3);
	for (const std::string& message : without->validation_messages())
		CHECK(message.find("relaxed uniform buffer layout") != std::string::npos);
	CHECK(with->validation_messages().empty());
}

// The first validation of a module leaves out SPIRV-Tools' friendly names
// (the map of ids to names costs a fifth of its time); a module that fails
// is checked again with them, so the report names ids as the module does.
TEST_CASE("an invalid module's report names its ids", "[objects][shader]") {
	// OpName %counter "counter"; OpStore %counter %counter in main, %counter
	// never defined (spirv-as of that, SPIR-V 1.6).
	const uint32_t words[] = {0x07230203, 0x00010600, 0x00070000, 0x00000006, 0x00000000, 0x00020011, 0x00000001,
	                          0x0003000e, 0x00000000, 0x00000001, 0x0005000f, 0x00000005, 0x00000001, 0x6e69616d,
	                          0x00000000, 0x00060010, 0x00000001, 0x00000011, 0x00000001, 0x00000001, 0x00000001,
	                          0x00040005, 0x00000002, 0x6e756f63, 0x00726574, 0x00020013, 0x00000003, 0x00030021,
	                          0x00000004, 0x00000003, 0x00050036, 0x00000003, 0x00000001, 0x00000000, 0x00000004,
	                          0x000200f8, 0x00000005, 0x0003003e, 0x00000002, 0x00000002, 0x000100fd, 0x00010038};
	ContextOptions options;
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	info.codeSize = sizeof(words);
	info.pCode = words;
	for (int round = 0; round < 2; ++round) {
		VkShaderModule module = VK_NULL_HANDLE;
		CHECK(vkCreateShaderModule(ctx->device(), &info, nullptr, &module) == VK_ERROR_UNKNOWN);
		CHECK(module == VK_NULL_HANDLE);
	}
	REQUIRE(ctx->validation_messages().size() == 2);
	for (const std::string& message : ctx->validation_messages()) {
		INFO(message);
		CHECK(message.find("2[%counter]") != std::string::npos);
	}
}
