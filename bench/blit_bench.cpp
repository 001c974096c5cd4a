// vkCmdBlitImage throughput, Tessera next to lavapipe: a 2048x2048 RGBA8
// image halved with LINEAR (mipmap generation), doubled with LINEAR, and
// flipped with NEAREST at the same size. Each iteration submits one
// prerecorded command buffer and waits for its fence.
//
//   build/bench/tessera_blit_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <map>
#include <memory>

#include "vk_context.h"

using namespace tessera::test;

namespace {

Context* GetContext(Driver driver) {
	static std::map<Driver, std::unique_ptr<Context>> contexts;
	auto& ctx = contexts[driver];
	if (!ctx) {
		ContextOptions options;
		options.validation = false;  // measure the driver, not the layer
		ctx = Context::Create(driver, options);
	}
	return ctx.get();
}

// Blits src_side² to dst_side² (flipped vertically when flip) per
// iteration; counts destination texels.
void Blit(benchmark::State& state, Driver driver, int32_t src_side, int32_t dst_side, VkFilter filter, bool flip,
          VkFormat format) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	TestImage src = ctx->CreateImage2D(format, uint32_t(src_side), uint32_t(src_side));
	TestImage dst = ctx->CreateImage2D(format, uint32_t(dst_side), uint32_t(dst_side));
	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, src.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		VkClearColorValue color{{0.25f, 0.5f, 0.75f, 1.0f}};
		VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		vkCmdClearColorImage(cb, src.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
		ctx->Transition(cb, src.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		ctx->Transition(cb, dst.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	});
	VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkCommandPool pool;
	vkCreateCommandPool(ctx->device(), &pci, nullptr, &pool);
	VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cai.commandPool = pool;
	cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cai.commandBufferCount = 1;
	VkCommandBuffer cb;
	vkAllocateCommandBuffers(ctx->device(), &cai, &cb);
	VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	vkBeginCommandBuffer(cb, &bi);
	VkImageBlit region{};
	region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.srcOffsets[1] = {src_side, src_side, 1};
	region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	region.dstOffsets[0] = {0, flip ? dst_side : 0, 0};
	region.dstOffsets[1] = {dst_side, flip ? 0 : dst_side, 1};
	vkCmdBlitImage(cb, src.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	               1, &region, filter);
	vkEndCommandBuffer(cb);

	VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	vkCreateFence(ctx->device(), &fci, nullptr, &fence);
	VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	si.commandBufferCount = 1;
	si.pCommandBuffers = &cb;
	for (auto _ : state) {
		vkQueueSubmit(ctx->queue(), 1, &si, fence);
		vkWaitForFences(ctx->device(), 1, &fence, VK_TRUE, UINT64_MAX);
		vkResetFences(ctx->device(), 1, &fence);
	}
	state.counters["Mtexel/s"] =
	    benchmark::Counter(double(dst_side) * dst_side * double(state.iterations()) / 1e6, benchmark::Counter::kIsRate);
	vkDestroyFence(ctx->device(), fence, nullptr);
	vkDestroyCommandPool(ctx->device(), pool, nullptr);
	ctx->Destroy(src);
	ctx->Destroy(dst);
}

int Register() {
	for (Driver d : {Driver::Tessera, Driver::Lavapipe, Driver::SwiftShader}) {
		std::string suffix = std::string("/") + DriverName(d);
		const VkFormat rgba8 = VK_FORMAT_R8G8B8A8_UNORM;
		benchmark::RegisterBenchmark(("BlitLinearHalve_2048_to_1024" + suffix).c_str(), Blit, d, 2048, 1024,
		                             VK_FILTER_LINEAR, false, rgba8)
		    ->UseRealTime();
		// A mip level of an sRGB texture, as engines and ANGLE make them.
		benchmark::RegisterBenchmark(("BlitLinearHalveSrgb_2048_to_1024" + suffix).c_str(), Blit, d, 2048, 1024,
		                             VK_FILTER_LINEAR, false, VK_FORMAT_R8G8B8A8_SRGB)
		    ->UseRealTime();
		benchmark::RegisterBenchmark(("BlitLinearDouble_1024_to_2048" + suffix).c_str(), Blit, d, 1024, 2048,
		                             VK_FILTER_LINEAR, false, rgba8)
		    ->UseRealTime();
		benchmark::RegisterBenchmark(("BlitNearestFlip_2048" + suffix).c_str(), Blit, d, 2048, 2048, VK_FILTER_NEAREST,
		                             true, rgba8)
		    ->UseRealTime();
	}
	return 0;
}
const int registered = Register();

}  // namespace
