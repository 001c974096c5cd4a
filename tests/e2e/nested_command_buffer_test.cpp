// VK_EXT_nested_command_buffer: secondary command buffers run secondaries,
// in order, down to maxCommandBufferNestingLevel; a chain deeper than that
// (invalid) is cut there with a message instead of recursing without end.
// Tessera alone, without the validation layer: lavapipe 22.3 and the
// layer's 1.3.239 release predate the extension.
#include <catch2/catch.hpp>

#include <vector>

#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// Secondaries s[0..n): s[i] fills word i of `buffer` with i + 1, then runs
// s[i + 1]; the primary runs s[0]. Returns the buffer's words.
std::vector<uint32_t> RunChain(Context& ctx, uint32_t n) {
	VkDevice device = ctx.device();
	VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkCommandPool pool;
	REQUIRE(vkCreateCommandPool(device, &pool_info, nullptr, &pool) == VK_SUCCESS);
	std::vector<VkCommandBuffer> chain(n);
	VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	alloc.commandPool = pool;
	alloc.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
	alloc.commandBufferCount = n;
	REQUIRE(vkAllocateCommandBuffers(device, &alloc, chain.data()) == VK_SUCCESS);
	TestBuffer buffer = ctx.CreateBuffer(4 * 64);
	std::fill_n(reinterpret_cast<uint32_t*>(buffer.data), 64, 0u);
	VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
	VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	begin.pInheritanceInfo = &inheritance;
	for (uint32_t i = n; i-- > 0;) {  // innermost first: each runs one already recorded
		REQUIRE(vkBeginCommandBuffer(chain[i], &begin) == VK_SUCCESS);
		vkCmdFillBuffer(chain[i], buffer.buffer, 4 * i, 4, i + 1);
		if (i + 1 < n) vkCmdExecuteCommands(chain[i], 1, &chain[i + 1]);
		REQUIRE(vkEndCommandBuffer(chain[i]) == VK_SUCCESS);
	}
	ctx.Submit([&](VkCommandBuffer cb) { vkCmdExecuteCommands(cb, 1, &chain[0]); });
	std::vector<uint32_t> words(reinterpret_cast<uint32_t*>(buffer.data),
	                            reinterpret_cast<uint32_t*>(buffer.data) + 64);
	ctx.Destroy(buffer);
	vkDestroyCommandPool(device, pool, nullptr);
	return words;
}

}  // namespace

TEST_CASE("VK_EXT_nested_command_buffer: secondaries run secondaries down to the nesting limit", "[commands]") {
	VkPhysicalDeviceNestedCommandBufferFeaturesEXT nested{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NESTED_COMMAND_BUFFER_FEATURES_EXT};
	nested.nestedCommandBuffer = VK_TRUE;
	ContextOptions options;
	options.validation = false;
	options.device_extensions = {VK_EXT_NESTED_COMMAND_BUFFER_EXTENSION_NAME};
	options.device_features = &nested;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkPhysicalDeviceNestedCommandBufferPropertiesEXT limits{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NESTED_COMMAND_BUFFER_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &limits};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties);
	const uint32_t max_level = limits.maxCommandBufferNestingLevel;
	REQUIRE(max_level >= 1);
	REQUIRE(max_level < 60);

	// The deepest valid chain: the primary's call, then max_level calls
	// from secondaries. Every fill runs.
	const uint32_t deepest = max_level + 1;
	std::vector<uint32_t> words = RunChain(*ctx, deepest);
	for (uint32_t i = 0; i < deepest; ++i) CHECK(words[i] == i + 1);
	// Three levels more: those past the limit are cut, the rest run.
	words = RunChain(*ctx, deepest + 3);
	for (uint32_t i = 0; i < deepest + 3; ++i) CHECK(words[i] == (i < deepest ? i + 1 : 0u));
}
