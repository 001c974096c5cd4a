// Descriptor limits used to the full, through the loader: a set with as many
// dynamic uniform and storage buffers as the limits allow, each at its own
// dynamic offset, and a set of the most inline uniform blocks of the largest
// size. Lavapipe reports the same figures but not the per-stage buffer
// counts a 256-buffer stage needs, so the dynamic buffers are checked
// against the host alone; the inline blocks run on both.
#include <catch2/catch.hpp>

#include <cstring>
#include <numeric>
#include <vector>

#include "compute_kernel.h"
#include "single_set.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// The array sizes of dynamic_buffers_max.comp and the block size and count
// of inline_blocks_max.comp.
constexpr uint32_t kDynamicBuffers = 256;
constexpr uint32_t kInlineBlockSize = 4096;
constexpr uint32_t kInlineBlocks = 8;

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
	VkDescriptorPool pool;
	const VkDescriptorSet set = AllocateSingleSet(device, set_layout, sizes, &pool);

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

namespace {

// The words of block `block` after `version` updates (0: the first write).
uint32_t InlineWord(uint32_t block, uint32_t word, uint32_t version) {
	return (block + 1) * 0x01000000u + word * 3 + version * 0x10000u;
}

// Runs inline_blocks_max.comp on eight 4096-byte inline uniform blocks,
// written whole, then rewrites part of block 5 through a
// VkWriteDescriptorSetInlineUniformBlock at a byte offset (dstArrayElement)
// and runs it again. Returns both runs' output: copies of every block's
// words, then each block's sum.
std::vector<std::vector<uint32_t>> RunInlineBlocks(Context& ctx, uint32_t update_offset, uint32_t update_bytes) {
	VkDevice device = ctx.device();
	VkDescriptorSetLayoutBinding bindings[kInlineBlocks + 1];
	for (uint32_t b = 0; b < kInlineBlocks; ++b)
		bindings[b] = {b, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, kInlineBlockSize, VK_SHADER_STAGE_COMPUTE_BIT,
		               nullptr};
	bindings[kInlineBlocks] = {kInlineBlocks, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
	                           nullptr};
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = kInlineBlocks + 1;
	dslci.pBindings = bindings;
	VkDescriptorSetLayoutSupport support{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
	vkGetDescriptorSetLayoutSupport(device, &dslci, &support);
	CHECK(support.supported == VK_TRUE);
	VkDescriptorSetLayout set_layout;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	VkPipelineLayout layout;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	VkPipeline pipeline = CorpusPipeline(device, "inline_blocks_max.spv", layout);

	VkDescriptorPoolInlineUniformBlockCreateInfo inline_pool{
	    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO};
	inline_pool.maxInlineUniformBlockBindings = kInlineBlocks;
	const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, kInlineBlocks * kInlineBlockSize},
	                                       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
	VkDescriptorPool pool;
	const VkDescriptorSet set = AllocateSingleSet(device, set_layout, sizes, &pool, &inline_pool);

	constexpr uint32_t kWords = kInlineBlockSize / 4, kOutputWords = kInlineBlocks * kWords + kInlineBlocks;
	TestBuffer out = ctx.CreateBuffer(kOutputWords * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	auto write_inline = [&](uint32_t block, uint32_t offset, const std::vector<uint32_t>& words) {
		VkWriteDescriptorSetInlineUniformBlock data{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK};
		data.dataSize = uint32_t(words.size() * 4);
		data.pData = words.data();
		VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &data};
		write.dstSet = set;
		write.dstBinding = block;
		write.dstArrayElement = offset;  // bytes, for an inline uniform block
		write.descriptorCount = data.dataSize;
		write.descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
		vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
	};
	for (uint32_t b = 0; b < kInlineBlocks; ++b) {
		std::vector<uint32_t> words(kWords);
		for (uint32_t w = 0; w < kWords; ++w) words[w] = InlineWord(b, w, 0);
		write_inline(b, 0, words);
	}
	VkDescriptorBufferInfo out_info{out.buffer, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet out_write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	out_write.dstSet = set;
	out_write.dstBinding = kInlineBlocks;
	out_write.descriptorCount = 1;
	out_write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
	out_write.pBufferInfo = &out_info;
	vkUpdateDescriptorSets(device, 1, &out_write, 0, nullptr);

	std::vector<std::vector<uint32_t>> results;
	auto run = [&] {
		std::memset(out.data, 0, out.size);
		ctx.Submit([&](VkCommandBuffer cb) {
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
			vkCmdDispatch(cb, kWords / 4 / 64, 1, 1);
			HostReadBarrier(cb);
		});
		results.emplace_back(kOutputWords);
		std::memcpy(results.back().data(), out.data, kOutputWords * 4);
	};
	run();
	std::vector<uint32_t> update(update_bytes / 4);
	for (uint32_t k = 0; k < update.size(); ++k) update[k] = InlineWord(5, update_offset / 4 + k, 1);
	write_inline(5, update_offset, update);
	run();

	ctx.Destroy(out);
	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	return results;
}

}  // namespace

TEST_CASE("maxInlineUniformBlockSize: eight 4096-byte inline blocks read whole, and after a partial update",
          "[descriptor][limits][compute]") {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.maintenance4 = VK_TRUE;
	v13.inlineUniformBlock = VK_TRUE;
	ContextOptions options;
	options.device_features = &v13;
	// Words 513..762 of block 5: a byte offset that is not the block's start
	// and a range that ends inside it.
	constexpr uint32_t kUpdateOffset = 2052, kUpdateBytes = 1000;
	std::vector<std::vector<uint32_t>> expected(2, std::vector<uint32_t>(kInlineBlocks * kInlineBlockSize / 4));
	for (uint32_t run = 0; run < 2; ++run) {
		for (uint32_t b = 0; b < kInlineBlocks; ++b)
			for (uint32_t w = 0; w < kInlineBlockSize / 4; ++w) {
				const bool updated =
				    run == 1 && b == 5 && w * 4 >= kUpdateOffset && w * 4 < kUpdateOffset + kUpdateBytes;
				expected[run][b * kInlineBlockSize / 4 + w] = InlineWord(b, w, updated ? 1 : 0);
			}
		for (uint32_t b = 0; b < kInlineBlocks; ++b) {
			auto first = expected[run].begin() + b * kInlineBlockSize / 4;
			expected[run].push_back(std::accumulate(first, first + kInlineBlockSize / 4, 0u));
		}
	}
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		VkPhysicalDeviceVulkan13Properties p13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
		VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p13};
		vkGetPhysicalDeviceProperties2(ctx->physical_device(), &props);
		CHECK(p13.maxInlineUniformBlockSize == kInlineBlockSize);
		CHECK(p13.maxPerStageDescriptorInlineUniformBlocks == kInlineBlocks);
		CHECK(p13.maxDescriptorSetInlineUniformBlocks == kInlineBlocks);
		CHECK(p13.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks == kInlineBlocks);
		CHECK(p13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks == kInlineBlocks);
		// A pipeline layout of maxBoundDescriptorSets full sets.
		CHECK(p13.maxInlineUniformTotalSize ==
		      props.properties.limits.maxBoundDescriptorSets * kInlineBlocks * kInlineBlockSize);
		std::vector<std::vector<uint32_t>> got = RunInlineBlocks(*ctx, kUpdateOffset, kUpdateBytes);
		for (uint32_t run = 0; run < 2; ++run) {
			INFO("run " << run);
			REQUIRE(got[run].size() == expected[run].size());
			for (size_t k = 0; k < got[run].size(); ++k) {
				INFO("word " << k);
				REQUIRE(got[run][k] == expected[run][k]);
			}
		}
		for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
		CHECK(ctx->validation_errors() == 0);
	}
}

TEST_CASE("vkGetDescriptorSetLayoutSupport: a set holds up to eight full inline uniform blocks",
          "[descriptor][limits]") {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.inlineUniformBlock = VK_TRUE;
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
	v12.descriptorBindingVariableDescriptorCount = VK_TRUE;
	ContextOptions options;
	options.device_features = &v12;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	// Blocks of the given sizes, the last variable-count when asked.
	auto query = [&](const std::vector<uint32_t>& sizes, bool variable_last) {
		std::vector<VkDescriptorSetLayoutBinding> bindings;
		std::vector<VkDescriptorBindingFlags> flags(sizes.size(), 0);
		for (uint32_t b = 0; b < sizes.size(); ++b)
			bindings.push_back({b, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, sizes[b], VK_SHADER_STAGE_ALL, nullptr});
		if (variable_last) flags.back() = VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
		VkDescriptorSetLayoutBindingFlagsCreateInfo binding_flags{
		    VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
		binding_flags.bindingCount = uint32_t(flags.size());
		binding_flags.pBindingFlags = flags.data();
		VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, &binding_flags};
		info.bindingCount = uint32_t(bindings.size());
		info.pBindings = bindings.data();
		VkDescriptorSetVariableDescriptorCountLayoutSupport count{
		    VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT};
		VkDescriptorSetLayoutSupport support{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT, &count};
		vkGetDescriptorSetLayoutSupport(ctx->device(), &info, &support);
		return std::pair{support.supported == VK_TRUE, count.maxVariableDescriptorCount};
	};
	const std::vector<uint32_t> full(kInlineBlocks, kInlineBlockSize);
	CHECK(query(full, false).first);
	CHECK(query({kInlineBlockSize + 4}, false).first == false);  // past maxInlineUniformBlockSize
	// A variable-count block gets at most one block's bytes, and no more
	// than the rest of eight full blocks.
	CHECK(query(full, true).second == kInlineBlockSize);
	std::vector<uint32_t> nearly_full = full;
	nearly_full[0] -= 100;
	nearly_full.push_back(16);
	CHECK(query(nearly_full, true) == std::pair{true, 100u});
	std::vector<uint32_t> over = full;
	over.push_back(16);
	CHECK(query(over, false).first == false);
	CHECK(ctx->validation_errors() == 0);
}
