// Command buffer semantics (Vulkan 1.3 §6): secondary command buffers,
// reset and re-record, one-time-submit and simultaneous use, pool reset and
// trim, and state commands (push constants, descriptor set binds) recorded
// between transfers. Results are compared byte for byte with lavapipe.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <numeric>
#include <vector>

#include "validation.h"
#include "vk_context.h"

using namespace tessera::test;
using tessera::test::ValidationErrors;

namespace {

std::vector<uint8_t> Run(Driver driver, const std::function<std::vector<uint8_t>(Context&)>& scenario) {
	auto ctx = Context::Create(driver);
	REQUIRE(ctx);
	std::vector<uint8_t> bytes = scenario(*ctx);
	CHECK(ValidationErrors(*ctx) == 0);
	return bytes;
}

void CompareWithLavapipe(const std::function<std::vector<uint8_t>(Context&)>& scenario) {
	std::vector<uint8_t> ours = Run(Driver::Tessera, scenario);
	std::vector<uint8_t> reference = Run(Driver::Lavapipe, scenario);
	REQUIRE(ours.size() == reference.size());
	size_t first_difference = 0;
	while (first_difference < ours.size() && ours[first_difference] == reference[first_difference]) ++first_difference;
	INFO("first differing byte at " << first_difference);
	CHECK(first_difference == ours.size());
}

struct Recorder {
	Context& ctx;
	VkCommandPool pool = VK_NULL_HANDLE;

	Recorder(Context& context, VkCommandPoolCreateFlags flags) : ctx(context) {
		VkCommandPoolCreateInfo info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
		info.flags = flags;
		REQUIRE(vkCreateCommandPool(ctx.device(), &info, nullptr, &pool) == VK_SUCCESS);
	}
	~Recorder() { vkDestroyCommandPool(ctx.device(), pool, nullptr); }

	VkCommandBuffer Allocate(VkCommandBufferLevel level) {
		VkCommandBufferAllocateInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
		info.commandPool = pool;
		info.level = level;
		info.commandBufferCount = 1;
		VkCommandBuffer cb;
		REQUIRE(vkAllocateCommandBuffers(ctx.device(), &info, &cb) == VK_SUCCESS);
		return cb;
	}
	void Begin(VkCommandBuffer cb, VkCommandBufferUsageFlags usage, bool secondary = false) {
		VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
		VkCommandBufferBeginInfo info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		info.flags = usage;
		info.pInheritanceInfo = secondary ? &inheritance : nullptr;
		REQUIRE(vkBeginCommandBuffer(cb, &info) == VK_SUCCESS);
	}
	// Submits each buffer as its own batch, in one vkQueueSubmit, and waits.
	void SubmitAndWait(std::vector<VkCommandBuffer> cbs) {
		std::vector<VkSubmitInfo> submits(cbs.size(), VkSubmitInfo{VK_STRUCTURE_TYPE_SUBMIT_INFO});
		for (size_t i = 0; i < cbs.size(); ++i) {
			submits[i].commandBufferCount = 1;
			submits[i].pCommandBuffers = &cbs[i];
		}
		VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
		VkFence fence;
		REQUIRE(vkCreateFence(ctx.device(), &fci, nullptr, &fence) == VK_SUCCESS);
		REQUIRE(vkQueueSubmit(ctx.queue(), uint32_t(submits.size()), submits.data(), fence) == VK_SUCCESS);
		REQUIRE(vkWaitForFences(ctx.device(), 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS);
		vkDestroyFence(ctx.device(), fence, nullptr);
	}
};

void Append(std::vector<uint8_t>& out, const TestBuffer& buffer) {
	out.insert(out.end(), buffer.data, buffer.data + buffer.size);
}

}  // namespace

TEST_CASE("secondary command buffers run transfer commands in order, as on lavapipe", "[command_buffer]") {
	CompareWithLavapipe([](Context& ctx) {
		Recorder rec(ctx, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
		TestBuffer src = ctx.CreateBuffer(2048), dst = ctx.CreateBuffer(2048);
		std::iota(src.data, src.data + src.size, uint8_t(3));
		std::vector<uint8_t> update(64);
		std::iota(update.begin(), update.end(), uint8_t(200));

		VkCommandBuffer fill = rec.Allocate(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
		rec.Begin(fill, 0, true);
		vkCmdFillBuffer(fill, dst.buffer, 256, 512, 0x11223344);
		REQUIRE(vkEndCommandBuffer(fill) == VK_SUCCESS);
		VkCommandBuffer copy = rec.Allocate(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
		rec.Begin(copy, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT, true);
		VkBufferCopy region{100, 400, 300};  // overwrites part of the fill: order matters
		vkCmdCopyBuffer(copy, src.buffer, dst.buffer, 1, &region);
		REQUIRE(vkEndCommandBuffer(copy) == VK_SUCCESS);

		VkCommandBuffer primary = rec.Allocate(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
		rec.Begin(primary, 0);
		vkCmdFillBuffer(primary, dst.buffer, 0, VK_WHOLE_SIZE, 0xa5a5a5a5);
		ctx.TransferBarrier(primary);
		vkCmdExecuteCommands(primary, 1, &fill);
		ctx.TransferBarrier(primary);
		vkCmdExecuteCommands(primary, 1, &copy);
		ctx.TransferBarrier(primary);
		vkCmdUpdateBuffer(primary, dst.buffer, 640, update.size(), update.data());
		REQUIRE(vkEndCommandBuffer(primary) == VK_SUCCESS);
		rec.SubmitAndWait({primary});
		std::vector<uint8_t> out;
		Append(out, dst);

		// Re-record the secondary (implicit reset by vkBeginCommandBuffer),
		// then the primary that ran it, which the reset invalidated.
		rec.Begin(fill, 0, true);
		vkCmdFillBuffer(fill, dst.buffer, 1024, 1024, 0x0f0f0f0f);
		REQUIRE(vkEndCommandBuffer(fill) == VK_SUCCESS);
		REQUIRE(vkResetCommandBuffer(primary, 0) == VK_SUCCESS);
		rec.Begin(primary, 0);
		VkCommandBuffer both[2] = {copy, fill};
		vkCmdExecuteCommands(primary, 2, both);
		REQUIRE(vkEndCommandBuffer(primary) == VK_SUCCESS);
		rec.SubmitAndWait({primary});
		Append(out, dst);

		ctx.Destroy(src);
		ctx.Destroy(dst);
		return out;
	});
}

TEST_CASE("command buffers re-record after reset, one-time submit and pool reset, as on lavapipe", "[command_buffer]") {
	CompareWithLavapipe([](Context& ctx) {
		Recorder rec(ctx, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
		TestBuffer dst = ctx.CreateBuffer(1024);
		std::fill(dst.data, dst.data + dst.size, uint8_t(0xab));
		std::vector<uint8_t> out;
		VkCommandBuffer cb = rec.Allocate(VK_COMMAND_BUFFER_LEVEL_PRIMARY);

		// A one-time-submit buffer, then begun again from the invalid state.
		for (uint32_t round = 0; round < 3; ++round) {
			rec.Begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
			vkCmdFillBuffer(cb, dst.buffer, round * 128, 256, 0x01010101u * (round + 1));
			REQUIRE(vkEndCommandBuffer(cb) == VK_SUCCESS);
			rec.SubmitAndWait({cb});
			Append(out, dst);
		}
		// Many commands (past the first memory chunk), released by the reset.
		rec.Begin(cb, 0);
		for (uint32_t i = 0; i < 2000; ++i) vkCmdFillBuffer(cb, dst.buffer, (i % 256) * 4, 4, i);
		REQUIRE(vkEndCommandBuffer(cb) == VK_SUCCESS);
		rec.SubmitAndWait({cb});
		Append(out, dst);
		REQUIRE(vkResetCommandBuffer(cb, VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT) == VK_SUCCESS);

		// Simultaneous use: pending twice in one submission.
		rec.Begin(cb, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
		vkCmdFillBuffer(cb, dst.buffer, 512, 512, 0xdeadbeef);
		REQUIRE(vkEndCommandBuffer(cb) == VK_SUCCESS);
		rec.SubmitAndWait({cb, cb});
		Append(out, dst);

		// A recorded buffer executes again after a plain resubmission,
		// then the whole pool is reset (and trimmed) and recorded anew.
		rec.SubmitAndWait({cb});
		REQUIRE(vkResetCommandPool(ctx.device(), rec.pool, VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT) == VK_SUCCESS);
		vkTrimCommandPool(ctx.device(), rec.pool, 0);
		rec.Begin(cb, 0);
		vkCmdFillBuffer(cb, dst.buffer, 0, 64, 0x42424242);
		REQUIRE(vkEndCommandBuffer(cb) == VK_SUCCESS);
		rec.SubmitAndWait({cb});
		Append(out, dst);
		ctx.Destroy(dst);
		return out;
	});
}

TEST_CASE("push constants and descriptor set binds record between transfers", "[command_buffer][descriptor]") {
	// Nothing reads the state before shaders exist; this checks the commands
	// are valid to record in primaries and secondaries and disturb nothing.
	CompareWithLavapipe([](Context& ctx) {
		VkDevice device = ctx.device();
		Recorder rec(ctx, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
		TestBuffer dst = ctx.CreateBuffer(1024, VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
		                                            VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
		VkDescriptorSetLayoutBinding bindings[2] = {
		    {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
		    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
		VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
		dlci.bindingCount = 2;
		dlci.pBindings = bindings;
		VkDescriptorSetLayout set_layout;
		REQUIRE(vkCreateDescriptorSetLayout(device, &dlci, nullptr, &set_layout) == VK_SUCCESS);
		VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 4},
		                                 {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
		VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
		dpci.maxSets = 2;
		dpci.poolSizeCount = 2;
		dpci.pPoolSizes = sizes;
		VkDescriptorPool pool;
		REQUIRE(vkCreateDescriptorPool(device, &dpci, nullptr, &pool) == VK_SUCCESS);
		VkDescriptorSetLayout layouts[2] = {set_layout, set_layout};
		VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
		ai.descriptorPool = pool;
		ai.descriptorSetCount = 2;
		ai.pSetLayouts = layouts;
		VkDescriptorSet sets[2];
		REQUIRE(vkAllocateDescriptorSets(device, &ai, sets) == VK_SUCCESS);
		VkDescriptorBufferInfo infos[3] = {{dst.buffer, 0, 64}, {dst.buffer, 256, 64}, {dst.buffer, 512, 256}};
		VkWriteDescriptorSet writes[4]{};
		for (uint32_t i = 0; i < 2; ++i) {
			writes[2 * i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,    nullptr, sets[i], 0,      0, 2,
			                 VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, nullptr, infos,   nullptr};
			writes[2 * i + 1] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, sets[i],   1,      0, 1,
			                     VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,      nullptr, infos + 2, nullptr};
		}
		vkUpdateDescriptorSets(device, 4, writes, 0, nullptr);
		VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
		VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
		plci.setLayoutCount = 2;
		plci.pSetLayouts = layouts;
		plci.pushConstantRangeCount = 1;
		plci.pPushConstantRanges = &range;
		VkPipelineLayout pipeline_layout;
		REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &pipeline_layout) == VK_SUCCESS);

		float constants[32];
		std::iota(constants, constants + 32, 1.0f);
		uint32_t dynamic_offsets[4] = {0, 256, 64, 128};
		VkCommandBuffer secondary = rec.Allocate(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
		rec.Begin(secondary, 0, true);
		vkCmdPushConstants(secondary, pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 64, 64, constants);
		vkCmdBindDescriptorSets(secondary, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 1, 1, &sets[1], 2,
		                        dynamic_offsets + 2);
		vkCmdFillBuffer(secondary, dst.buffer, 512, 128, 0x5555aaaa);
		REQUIRE(vkEndCommandBuffer(secondary) == VK_SUCCESS);
		VkCommandBuffer primary = rec.Allocate(VK_COMMAND_BUFFER_LEVEL_PRIMARY);
		rec.Begin(primary, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
		vkCmdFillBuffer(primary, dst.buffer, 0, VK_WHOLE_SIZE, 0x01234567);
		vkCmdPushConstants(primary, pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 128, constants);
		vkCmdBindDescriptorSets(primary, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 2, sets, 4,
		                        dynamic_offsets);
		ctx.TransferBarrier(primary);
		vkCmdExecuteCommands(primary, 1, &secondary);
		REQUIRE(vkEndCommandBuffer(primary) == VK_SUCCESS);
		rec.SubmitAndWait({primary});
		std::vector<uint8_t> out(dst.data, dst.data + dst.size);

		vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
		vkDestroyDescriptorPool(device, pool, nullptr);
		vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
		ctx.Destroy(dst);
		return out;
	});
}
