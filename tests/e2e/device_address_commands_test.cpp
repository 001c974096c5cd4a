// VK_KHR_device_address_commands: commands that name memory by device
// address range where their older forms take a buffer and an offset. Each
// is checked against its buffer form or against the bytes it must write:
// - draws: vertex and index bindings from address ranges (at an offset the
//   scene's own bindings do not use, so an ignored binding shows), a
//   dynamic stride set with setStride, and the indirect draws with and
//   without a count, all four forms; the image must equal the one drawn
//   with the buffer commands, exactly;
// - transfers: fill, update and copy of memory ranges, an image written
//   from and read back into memory with a row length, query results copied
//   to memory; every byte compared with what the spec says;
// - vkCmdDispatchIndirect2KHR and vkCmdBeginConditionalRendering2EXT: the
//   workgroups counted.
// Tessera alone, without the validation layer: lavapipe 22.3 and the
// layer's 1.3.239 release predate the extension (the CTS's
// api.device_address.* and *_device_address cases are the wider check).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "draw_scene_helpers.h"
#include "icd/vulkan_newer.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

template <typename T>
void Append(std::vector<uint8_t>& out, const T& value) {
	const uint8_t* p = reinterpret_cast<const uint8_t*>(&value);
	out.insert(out.end(), p, p + sizeof value);
}

bool Offered(Driver driver) {
	auto probe = Context::Create(driver);
	if (!probe) return false;
	VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR commands{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_ADDRESS_COMMANDS_FEATURES_KHR};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &commands};
	vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
	return commands.deviceAddressCommands == VK_TRUE;
}

// Twelve triangles of draw_ids (flat integers: exact), each vertex 32
// bytes apart (16 of position, 16 of padding) after 64 bytes the draws do
// not bind; indices after 4 that they do not bind either.
constexpr VkDeviceSize kVertexOffset = 64, kVertexStride = 32, kIndexOffset = 16;

Scene AddressScene() {
	Scene s;
	s.vertex_shader = "draw_ids.vert.spv";
	s.fragment_shader = "draw_ids.frag.spv";
	s.vertices.assign(kVertexOffset, 0xee);
	for (int i = 0; i < 12; ++i) {
		const float x = -0.95f + 0.3f * float(i % 3), y = -0.95f + 0.45f * float(i / 3);
		const float corners[3][2] = {{x, y}, {x + 0.25f, y + 0.05f}, {x + 0.05f, y + 0.35f}};
		for (const auto& c : corners) {
			const float vertex[8] = {c[0], c[1], 0.5f, 1, 9, 9, 9, 9};
			Append(s.vertices, vertex);
		}
	}
	s.vertex_stride = 16;  // the pipeline's, replaced by the dynamic stride
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	s.indices = {35, 35, 35, 35, 5, 6, 7, 2, 1, 0, 11, 10, 9, 20, 21, 22, 33, 34, 35};
	const VkDrawIndexedIndirectCommand indexed[] = {{6, 2, 0, -2, 5}, {3, 1, 6, 3, 1}, {3, 2, 12, -30, 9}};
	for (const auto& r : indexed) Append(s.indirect_data, r);
	const VkDrawIndirectCommand plain[] = {{3, 1, 24, 2}, {6, 1, 27, 0}};
	for (const auto& r : plain) Append(s.indirect_data, r);
	Append(s.indirect_data, uint32_t(1));  // a count
	s.configure = [](PipelineState& p) { p.dynamic_states.push_back(VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE); };
	s.device_addresses = true;
	return s;
}

constexpr VkDeviceSize kPlainAt = 3 * sizeof(VkDrawIndexedIndirectCommand);
constexpr VkDeviceSize kCountAt = kPlainAt + 2 * sizeof(VkDrawIndirectCommand);

}  // namespace

TEST_CASE("VK_KHR_device_address_commands: bindings and indirect draws from address ranges",
          "[draw][device_address_commands]") {
	if (!Offered(Driver::Tessera)) FAIL("Tessera does not offer deviceAddressCommands");
	SceneFeatures features;
	features.v12.bufferDeviceAddress = VK_TRUE;
	VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR commands{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_ADDRESS_COMMANDS_FEATURES_KHR};
	commands.deviceAddressCommands = VK_TRUE;
	ContextOptions options = features.OptionsWith(&commands, VK_KHR_DEVICE_ADDRESS_COMMANDS_EXTENSION_NAME);
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	auto bind_vertices = ctx->Proc<PFN_vkCmdBindVertexBuffers3KHR>("vkCmdBindVertexBuffers3KHR");
	auto bind_indices = ctx->Proc<PFN_vkCmdBindIndexBuffer3KHR>("vkCmdBindIndexBuffer3KHR");
	auto draw_indirect = ctx->Proc<PFN_vkCmdDrawIndirect2KHR>("vkCmdDrawIndirect2KHR");
	auto draw_indexed_indirect = ctx->Proc<PFN_vkCmdDrawIndexedIndirect2KHR>("vkCmdDrawIndexedIndirect2KHR");
	auto draw_indirect_count = ctx->Proc<PFN_vkCmdDrawIndirectCount2KHR>("vkCmdDrawIndirectCount2KHR");
	auto draw_indexed_indirect_count =
	    ctx->Proc<PFN_vkCmdDrawIndexedIndirectCount2KHR>("vkCmdDrawIndexedIndirectCount2KHR");
	REQUIRE(bind_vertices);
	REQUIRE(bind_indices);
	REQUIRE(draw_indirect);
	REQUIRE(draw_indexed_indirect);
	REQUIRE(draw_indirect_count);
	REQUIRE(draw_indexed_indirect_count);

	Scene buffers = AddressScene();
	buffers.record_draws = [](VkCommandBuffer cb, const Scene::Buffers& b) {
		const VkDeviceSize offset = kVertexOffset, size = VK_WHOLE_SIZE, stride = kVertexStride;
		vkCmdBindVertexBuffers2(cb, 0, 1, &b.vertices, &offset, &size, &stride);
		vkCmdBindIndexBuffer(cb, b.indices, kIndexOffset, VK_INDEX_TYPE_UINT32);
		vkCmdDrawIndexedIndirect(cb, b.indirect, 0, 2, sizeof(VkDrawIndexedIndirectCommand));
		// Count 1 of maxDrawCount 2: record 2 alone.
		vkCmdDrawIndexedIndirectCount(cb, b.indirect, 2 * sizeof(VkDrawIndexedIndirectCommand), b.indirect, kCountAt, 2,
		                              sizeof(VkDrawIndexedIndirectCommand));
		vkCmdDrawIndirect(cb, b.indirect, kPlainAt, 1, sizeof(VkDrawIndirectCommand));
		vkCmdDrawIndirectCount(cb, b.indirect, kPlainAt + sizeof(VkDrawIndirectCommand), b.indirect, kCountAt, 4,
		                       sizeof(VkDrawIndirectCommand));
	};
	Scene addresses = AddressScene();
	addresses.record_draws = [&](VkCommandBuffer cb, const Scene::Buffers& b) {
		const VkDeviceSize vertex_bytes = buffers.vertices.size() - kVertexOffset;
		VkBindVertexBuffer3InfoKHR vertex{VK_STRUCTURE_TYPE_BIND_VERTEX_BUFFER_3_INFO_KHR};
		vertex.setStride = VK_TRUE;
		vertex.addressRange = {b.vertices_address + kVertexOffset, vertex_bytes, kVertexStride};
		bind_vertices(cb, 0, 1, &vertex);
		VkBindIndexBuffer3InfoKHR index{VK_STRUCTURE_TYPE_BIND_INDEX_BUFFER_3_INFO_KHR};
		index.addressRange = {b.indices_address + kIndexOffset, (buffers.indices.size() - 4) * 4};
		index.indexType = VK_INDEX_TYPE_UINT32;
		bind_indices(cb, &index);
		constexpr VkDeviceSize kIndexed = sizeof(VkDrawIndexedIndirectCommand), kPlain = sizeof(VkDrawIndirectCommand);
		VkDrawIndirect2InfoKHR draw{VK_STRUCTURE_TYPE_DRAW_INDIRECT_2_INFO_KHR};
		draw.addressRange = {b.indirect_address, 2 * kIndexed, kIndexed};
		draw.drawCount = 2;
		draw_indexed_indirect(cb, &draw);
		VkDrawIndirectCount2InfoKHR counted{VK_STRUCTURE_TYPE_DRAW_INDIRECT_COUNT_2_INFO_KHR};
		counted.addressRange = {b.indirect_address + 2 * kIndexed, kIndexed, kIndexed};
		counted.countAddressRange = {b.indirect_address + kCountAt, 4};
		counted.maxDrawCount = 2;
		draw_indexed_indirect_count(cb, &counted);
		draw.addressRange = {b.indirect_address + kPlainAt, kPlain, kPlain};
		draw.drawCount = 1;
		draw_indirect(cb, &draw);
		counted.addressRange = {b.indirect_address + kPlainAt + kPlain, kPlain, kPlain};
		counted.maxDrawCount = 4;
		draw_indirect_count(cb, &counted);
	};
	const SceneResult expected = RenderScene(*ctx, buffers);
	const SceneResult got = RenderScene(*ctx, addresses);
	REQUIRE(Drawn(expected, buffers));
	CompareImages("device-address-draws", buffers.width, buffers.height, got.colors[0], expected.colors[0], 0);
}

TEST_CASE("VK_KHR_device_address_commands: fills, updates, copies, query results, indirect and conditional dispatches",
          "[compute][device_address_commands]") {
	if (!Offered(Driver::Tessera)) FAIL("Tessera does not offer deviceAddressCommands");
	VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR commands{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_ADDRESS_COMMANDS_FEATURES_KHR};
	commands.deviceAddressCommands = VK_TRUE;
	VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT, &commands};
	conditional.conditionalRendering = VK_TRUE;
	VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &conditional};
	features13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &features13};
	features12.bufferDeviceAddress = VK_TRUE;
	ContextOptions options;
	options.device_extensions = {VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME,
	                             VK_KHR_DEVICE_ADDRESS_COMMANDS_EXTENSION_NAME};
	options.device_features = &features12;
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	auto fill = ctx->Proc<PFN_vkCmdFillMemoryKHR>("vkCmdFillMemoryKHR");
	auto update = ctx->Proc<PFN_vkCmdUpdateMemoryKHR>("vkCmdUpdateMemoryKHR");
	auto copy = ctx->Proc<PFN_vkCmdCopyMemoryKHR>("vkCmdCopyMemoryKHR");
	auto to_image = ctx->Proc<PFN_vkCmdCopyMemoryToImageKHR>("vkCmdCopyMemoryToImageKHR");
	auto from_image = ctx->Proc<PFN_vkCmdCopyImageToMemoryKHR>("vkCmdCopyImageToMemoryKHR");
	auto query_results = ctx->Proc<PFN_vkCmdCopyQueryPoolResultsToMemoryKHR>("vkCmdCopyQueryPoolResultsToMemoryKHR");
	auto dispatch_indirect = ctx->Proc<PFN_vkCmdDispatchIndirect2KHR>("vkCmdDispatchIndirect2KHR");
	auto begin_conditional = ctx->Proc<PFN_vkCmdBeginConditionalRendering2EXT>("vkCmdBeginConditionalRendering2EXT");
	auto end_conditional = ctx->Proc<PFN_vkCmdEndConditionalRenderingEXT>("vkCmdEndConditionalRenderingEXT");
	for (const void* f : {(const void*)fill, (const void*)update, (const void*)copy, (const void*)to_image,
	                      (const void*)from_image, (const void*)query_results, (const void*)dispatch_indirect,
	                      (const void*)begin_conditional, (const void*)end_conditional})
		REQUIRE(f);

	const VkBufferUsageFlags usage =
	    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
	auto address = [&](const TestBuffer& b) {
		VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
		info.buffer = b.buffer;
		return vkGetBufferDeviceAddress(device, &info);
	};

	SECTION("fill, update and copy") {
		TestBuffer src = ctx->CreateBuffer(256, usage), dst = ctx->CreateBuffer(256, usage);
		for (int i = 0; i < 256; ++i) src.data[i] = uint8_t(i * 7 + 1);
		std::memset(dst.data, 0x55, 256);
		const uint8_t update_bytes[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
		ctx->Submit([&](VkCommandBuffer cb) {
			const VkDeviceAddressRangeKHR filled{address(dst) + 16, 64};
			fill(cb, &filled, 0, 0xa1b2c3d4u);
			// dataSize 16 of a 32-byte range: the first 16 bytes only.
			const VkDeviceAddressRangeKHR updated{address(dst) + 128, 32};
			update(cb, &updated, 0, sizeof update_bytes, update_bytes);
			// srcRange.size bytes into a larger destination range.
			VkDeviceMemoryCopyKHR region{VK_STRUCTURE_TYPE_DEVICE_MEMORY_COPY_KHR};
			region.srcRange = {address(src) + 8, 40};
			region.dstRange = {address(dst) + 200, 56};
			VkCopyDeviceMemoryInfoKHR info{VK_STRUCTURE_TYPE_COPY_DEVICE_MEMORY_INFO_KHR};
			info.regionCount = 1;
			info.pRegions = &region;
			copy(cb, &info);
		});
		std::vector<uint8_t> expected(256, 0x55);
		for (int i = 16; i < 80; i += 4) {
			const uint32_t word = 0xa1b2c3d4u;
			std::memcpy(&expected[i], &word, 4);
		}
		std::memcpy(&expected[128], update_bytes, sizeof update_bytes);
		for (int i = 0; i < 40; ++i) expected[200 + i] = src.data[8 + i];
		CHECK(std::vector<uint8_t>(dst.data, dst.data + 256) == expected);
		ctx->Destroy(src);
		ctx->Destroy(dst);
	}

	SECTION("an image from and into memory, with a row length") {
		// 4 x 3 RGBA8 texels from rows of 4 (addressRowLength 0: tightly
		// packed) at offset 12; back into rows of 6 texels at offset 4.
		TestBuffer src = ctx->CreateBuffer(12 + 4 * 3 * 4, usage), dst = ctx->CreateBuffer(4 + 6 * 3 * 4, usage);
		for (VkDeviceSize i = 0; i < src.size; ++i) src.data[i] = uint8_t(i * 5 + 3);
		std::memset(dst.data, 0, dst.size);
		TestImage image = ctx->CreateImage2D(VK_FORMAT_R8G8B8A8_UINT, 4, 3);
		ctx->Submit([&](VkCommandBuffer cb) {
			VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
			barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
			barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
			barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
			barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
			barrier.image = image.image;
			barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
			                     0, nullptr, 1, &barrier);
			VkDeviceMemoryImageCopyKHR region{VK_STRUCTURE_TYPE_DEVICE_MEMORY_IMAGE_COPY_KHR};
			region.addressRange = {address(src) + 12, 4 * 3 * 4};
			region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
			region.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
			region.imageExtent = {4, 3, 1};
			VkCopyDeviceMemoryImageInfoKHR info{VK_STRUCTURE_TYPE_COPY_DEVICE_MEMORY_IMAGE_INFO_KHR};
			info.image = image.image;
			info.regionCount = 1;
			info.pRegions = &region;
			to_image(cb, &info);
			barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
			barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
			barrier.oldLayout = barrier.newLayout;
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
			                     nullptr, 1, &barrier);
			region.addressRange = {address(dst) + 4, 6 * 3 * 4};
			region.addressRowLength = 6;
			from_image(cb, &info);
		});
		std::vector<uint8_t> expected(dst.size, 0);
		for (int y = 0; y < 3; ++y) std::memcpy(&expected[4 + y * 24], src.data + 12 + y * 16, 16);
		CHECK(std::vector<uint8_t>(dst.data, dst.data + dst.size) == expected);
		ctx->Destroy(image);
		ctx->Destroy(src);
		ctx->Destroy(dst);
	}

	SECTION("query results into memory") {
		// Two occlusion queries with nothing drawn: 0 samples, available,
		// as 64-bit values with availability, 24 bytes apart.
		VkQueryPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
		pool_info.queryType = VK_QUERY_TYPE_OCCLUSION;
		pool_info.queryCount = 2;
		VkQueryPool pool;
		REQUIRE(vkCreateQueryPool(device, &pool_info, nullptr, &pool) == VK_SUCCESS);
		TestBuffer results = ctx->CreateBuffer(64, usage);
		std::memset(results.data, 0xff, 64);
		ctx->Submit([&](VkCommandBuffer cb) {
			vkCmdResetQueryPool(cb, pool, 0, 2);
			for (uint32_t q = 0; q < 2; ++q) {
				vkCmdBeginQuery(cb, pool, q, 0);
				vkCmdEndQuery(cb, pool, q);
			}
			const VkStridedDeviceAddressRangeKHR range{address(results) + 8, 48, 24};
			query_results(cb, pool, 0, 2, &range, 0, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		});
		uint64_t words[8];
		std::memcpy(words, results.data, 64);
		CHECK(words[0] == ~uint64_t(0));
		CHECK(words[1] == 0);  // query 0: no samples
		CHECK(words[2] == 1);  // available
		CHECK(words[3] == ~uint64_t(0));
		CHECK(words[4] == 0);
		CHECK(words[5] == 1);
		CHECK(words[6] == ~uint64_t(0));
		vkDestroyQueryPool(device, pool, nullptr);
		ctx->Destroy(results);
	}

	SECTION("indirect and conditional dispatches") {
		ComputeKernel kernel(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "conditional_count.spv"), 1);
		REQUIRE(kernel.ok());
		TestBuffer counters = ctx->CreateBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		std::memset(counters.data, 0, 16);
		kernel.Bind(0, counters.buffer);
		// Workgroup counts (3, 2, 1) at offset 8, then predicates 0 and 5.
		TestBuffer parameters =
		    ctx->CreateBuffer(32, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT |
		                              VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
		const uint32_t words[] = {0, 0, 3, 2, 1, 0, 5, 0};
		std::memcpy(parameters.data, words, sizeof words);
		const VkDeviceAddress at = address(parameters);
		ctx->Submit([&](VkCommandBuffer cb) {
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline());
			const VkDescriptorSet set = kernel.set();
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.layout(), 0, 1, &set, 0, nullptr);
			auto dispatch = [&](uint32_t slot) {
				vkCmdPushConstants(cb, kernel.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &slot);
				VkDispatchIndirect2InfoKHR info{VK_STRUCTURE_TYPE_DISPATCH_INDIRECT_2_INFO_KHR};
				info.addressRange = {at + 8, 12};
				dispatch_indirect(cb, &info);
			};
			auto condition = [&](VkDeviceSize offset, bool inverted) {
				VkConditionalRenderingBeginInfo2EXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_2_EXT};
				info.addressRange = {at + offset, 4};
				info.flags = inverted ? VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT : 0;
				begin_conditional(cb, &info);
			};
			dispatch(0);  // 6 workgroups
			condition(20, false);
			dispatch(1);  // predicate 0: skipped
			end_conditional(cb);
			condition(24, false);
			dispatch(2);  // predicate 5: runs
			end_conditional(cb);
			condition(20, true);
			dispatch(3);  // predicate 0, inverted: runs
			end_conditional(cb);
		});
		uint32_t counts[4];
		std::memcpy(counts, counters.data, 16);
		CHECK(counts[0] == 6);
		CHECK(counts[1] == 0);
		CHECK(counts[2] == 6);
		CHECK(counts[3] == 6);
		ctx->Destroy(counters);
		ctx->Destroy(parameters);
	}
}
