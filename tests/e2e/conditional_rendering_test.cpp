// VK_EXT_conditional_rendering against lavapipe: dispatches inside a
// conditional block run only when the predicate is non-zero (zero when
// inverted), the block ends with vkCmdEndConditionalRenderingEXT, and a
// secondary command buffer executed inside the block follows its primary's
// predicate (inheritedConditionalRendering; Tessera only: lavapipe 22.3
// does not offer it). Each dispatch adds one to its own counter, so the
// counters say which ran.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kSlots = 7;

std::vector<uint32_t> Run(Driver driver, bool inherited) {
	VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
	conditional.conditionalRendering = VK_TRUE;
	conditional.inheritedConditionalRendering = inherited ? VK_TRUE : VK_FALSE;
	VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &conditional};
	features13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	ContextOptions options;
	options.device_extensions = {VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME};
	options.device_features = &features13;
	auto ctx = Context::Create(driver, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	auto begin = ctx->Proc<PFN_vkCmdBeginConditionalRenderingEXT>("vkCmdBeginConditionalRenderingEXT");
	auto end = ctx->Proc<PFN_vkCmdEndConditionalRenderingEXT>("vkCmdEndConditionalRenderingEXT");
	REQUIRE(begin);
	REQUIRE(end);

	std::vector<uint32_t> counts(kSlots);
	{
		ComputeKernel kernel(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "conditional_count.spv"), 1);
		REQUIRE(kernel.ok());
		TestBuffer counters = ctx->CreateBuffer(kSlots * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		std::memset(counters.data, 0, kSlots * 4);
		kernel.Bind(0, counters.buffer);
		// Predicates 0, 1 and 7 at offsets 0, 4 and 8.
		TestBuffer predicates = ctx->CreateBuffer(12, VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT);
		const uint32_t values[] = {0, 1, 7};
		std::memcpy(predicates.data, values, sizeof values);

		// A secondary command buffer that dispatches slot 6, allowed to run
		// inside a conditional block.
		VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
		VkCommandPool pool;
		REQUIRE(vkCreateCommandPool(device, &pool_info, nullptr, &pool) == VK_SUCCESS);
		VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
		allocate.commandPool = pool;
		allocate.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
		allocate.commandBufferCount = 1;
		VkCommandBuffer secondary;
		REQUIRE(vkAllocateCommandBuffers(device, &allocate, &secondary) == VK_SUCCESS);
		VkCommandBufferInheritanceConditionalRenderingInfoEXT inherit_conditional{
		    VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_CONDITIONAL_RENDERING_INFO_EXT};
		inherit_conditional.conditionalRenderingEnable = inherited ? VK_TRUE : VK_FALSE;
		VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
		                                           &inherit_conditional};
		VkCommandBufferBeginInfo secondary_begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		secondary_begin.pInheritanceInfo = &inheritance;
		REQUIRE(vkBeginCommandBuffer(secondary, &secondary_begin) == VK_SUCCESS);
		const uint32_t secondary_slot = 6;
		kernel.Record(secondary, &secondary_slot, 4, 1);
		REQUIRE(vkEndCommandBuffer(secondary) == VK_SUCCESS);

		auto condition = [&](VkCommandBuffer cb, VkDeviceSize offset, bool inverted) {
			VkConditionalRenderingBeginInfoEXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT};
			info.buffer = predicates.buffer;
			info.offset = offset;
			info.flags = inverted ? VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT : 0;
			begin(cb, &info);
		};
		ctx->Submit([&](VkCommandBuffer cb) {
			auto dispatch = [&](uint32_t slot) { kernel.Record(cb, &slot, 4, 1); };
			dispatch(0);  // no condition: runs
			condition(cb, 0, false);
			dispatch(1);  // predicate 0: skipped
			end(cb);
			condition(cb, 4, false);
			dispatch(2);  // predicate 1: runs
			end(cb);
			condition(cb, 0, true);
			dispatch(3);  // predicate 0, inverted: runs
			end(cb);
			condition(cb, 8, true);
			dispatch(4);  // predicate 7, inverted: skipped
			end(cb);
			dispatch(5);  // after the block: runs
			if (inherited) {
				condition(cb, 0, false);
				vkCmdExecuteCommands(cb, 1, &secondary);  // slot 6, predicate 0: skipped
				end(cb);
			}
		});
		std::memcpy(counts.data(), counters.data, kSlots * 4);
		vkDestroyCommandPool(device, pool, nullptr);
		ctx->Destroy(counters);
		ctx->Destroy(predicates);
	}
	CHECK(ctx->validation_errors() == 0);
	return counts;
}

}  // namespace

TEST_CASE("conditional rendering: dispatches follow the predicate, inverted and inherited, as on lavapipe",
          "[compute][conditional_rendering]") {
	const std::vector<uint32_t> expected = {1, 0, 1, 1, 0, 1, 0};
	CHECK(Run(Driver::Tessera, true) == expected);
	CHECK(Run(Driver::Lavapipe, false) == expected);  // slot 6 not dispatched: 0 as well
}
