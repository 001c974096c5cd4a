// Clear and copy throughput, Tessera next to lavapipe and next to memset /
// memcpy of the same bytes, in one run. Each iteration submits one
// prerecorded command buffer and waits for its fence, so the figures include
// submission and wake-up latency, as an application sees them.
//
//   build/bench/tessera_transfer_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kSide = 4096;  // 4096x4096 RGBA8: 64 MiB
constexpr size_t kBytes = size_t(kSide) * kSide * 4;

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

// Submits a recorded command buffer once per iteration.
void RunRecorded(benchmark::State& state, Context& ctx, VkCommandBuffer cb, size_t bytes) {
	VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	vkCreateFence(ctx.device(), &fci, nullptr, &fence);
	VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
	si.commandBufferCount = 1;
	si.pCommandBuffers = &cb;
	for (auto _ : state) {
		vkQueueSubmit(ctx.queue(), 1, &si, fence);
		vkWaitForFences(ctx.device(), 1, &fence, VK_TRUE, UINT64_MAX);
		vkResetFences(ctx.device(), 1, &fence);
	}
	state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes));
	vkDestroyFence(ctx.device(), fence, nullptr);
}

VkCommandBuffer Record(Context& ctx, VkCommandPool pool, const std::function<void(VkCommandBuffer)>& record) {
	VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	cai.commandPool = pool;
	cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
	cai.commandBufferCount = 1;
	VkCommandBuffer cb;
	vkAllocateCommandBuffers(ctx.device(), &cai, &cb);
	VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	vkBeginCommandBuffer(cb, &bi);
	record(cb);
	vkEndCommandBuffer(cb);
	return cb;
}

VkCommandPool CreatePool(Context& ctx) {
	VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkCommandPool pool;
	vkCreateCommandPool(ctx.device(), &pci, nullptr, &pool);
	return pool;
}

void ClearColorImage(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	TestImage image = ctx->CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, kSide, kSide);
	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	});
	VkCommandPool pool = CreatePool(*ctx);
	VkCommandBuffer cb = Record(*ctx, pool, [&](VkCommandBuffer cb) {
		VkClearColorValue color{{0.25f, 0.5f, 0.75f, 1.0f}};
		VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
	});
	RunRecorded(state, *ctx, cb, kBytes);
	vkDestroyCommandPool(ctx->device(), pool, nullptr);
	ctx->Destroy(image);
}

void CopyBuffer(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	TestBuffer src = ctx->CreateBuffer(kBytes), dst = ctx->CreateBuffer(kBytes);
	std::memset(src.data, 1, kBytes);
	std::memset(dst.data, 2, kBytes);
	VkCommandPool pool = CreatePool(*ctx);
	VkCommandBuffer cb = Record(*ctx, pool, [&](VkCommandBuffer cb) {
		VkBufferCopy region{0, 0, kBytes};
		vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, &region);
	});
	RunRecorded(state, *ctx, cb, kBytes);
	vkDestroyCommandPool(ctx->device(), pool, nullptr);
	ctx->Destroy(src);
	ctx->Destroy(dst);
}

void FillBuffer(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	TestBuffer dst = ctx->CreateBuffer(kBytes);
	std::memset(dst.data, 2, kBytes);
	VkCommandPool pool = CreatePool(*ctx);
	VkCommandBuffer cb =
	    Record(*ctx, pool, [&](VkCommandBuffer cb) { vkCmdFillBuffer(cb, dst.buffer, 0, VK_WHOLE_SIZE, 0x3f800000u); });
	RunRecorded(state, *ctx, cb, kBytes);
	vkDestroyCommandPool(ctx->device(), pool, nullptr);
	ctx->Destroy(dst);
}

// vkCmdResolveImage of a 1920x1080 4-sample image (what every antialiased
// WebGL frame pays): `format` as a render target would have it.
void ResolveImage(benchmark::State& state, Driver driver, VkFormat format) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	constexpr uint32_t kWidth = 1920, kHeight = 1080;
	VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
	ici.imageType = VK_IMAGE_TYPE_2D;
	ici.format = format;
	ici.extent = {kWidth, kHeight, 1};
	ici.mipLevels = 1;
	ici.arrayLayers = 1;
	ici.samples = VK_SAMPLE_COUNT_4_BIT;
	ici.tiling = VK_IMAGE_TILING_OPTIMAL;
	ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	TestImage ms = ctx->CreateImage(ici);
	TestImage ss = ctx->CreateImage2D(format, kWidth, kHeight);
	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, ms.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		VkClearColorValue color{{0.25f, 0.5f, 0.75f, 1.0f}};
		VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		vkCmdClearColorImage(cb, ms.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
		ctx->Transition(cb, ms.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		ctx->Transition(cb, ss.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
	});
	VkCommandPool pool = CreatePool(*ctx);
	VkCommandBuffer cb = Record(*ctx, pool, [&](VkCommandBuffer cb) {
		VkImageResolve region{};
		region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.extent = {kWidth, kHeight, 1};
		vkCmdResolveImage(cb, ms.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, ss.image,
		                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
	});
	RunRecorded(state, *ctx, cb, size_t(kWidth) * kHeight * 4);  // bytes: of the 4-byte resolved texels
	state.counters["Mpix/s"] =
	    benchmark::Counter(double(kWidth) * kHeight * 1e-6, benchmark::Counter::kIsIterationInvariantRate);
	vkDestroyCommandPool(ctx->device(), pool, nullptr);
	ctx->Destroy(ms);
	ctx->Destroy(ss);
}

// The host baselines: the same bytes with memset / memcpy.
void Memset(benchmark::State& state) {
	std::vector<uint8_t> dst(kBytes, 1);
	for (auto _ : state) {
		std::memset(dst.data(), 0x40, kBytes);
		benchmark::ClobberMemory();
	}
	state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kBytes));
}

void Memcpy(benchmark::State& state) {
	std::vector<uint8_t> src(kBytes, 1), dst(kBytes, 2);
	for (auto _ : state) {
		std::memcpy(dst.data(), src.data(), kBytes);
		benchmark::ClobberMemory();
	}
	state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kBytes));
}

int Register() {
	benchmark::RegisterBenchmark("memset_64MiB", Memset)->UseRealTime();
	benchmark::RegisterBenchmark("memcpy_64MiB", Memcpy)->UseRealTime();
	for (Driver d : {Driver::Tessera, Driver::Lavapipe, Driver::SwiftShader}) {
		std::string suffix = std::string("/") + DriverName(d);
		benchmark::RegisterBenchmark(("ClearColorImage_4096x4096_RGBA8" + suffix).c_str(), ClearColorImage, d)
		    ->UseRealTime();
		benchmark::RegisterBenchmark(("FillBuffer_64MiB" + suffix).c_str(), FillBuffer, d)->UseRealTime();
		benchmark::RegisterBenchmark(("CopyBuffer_64MiB" + suffix).c_str(), CopyBuffer, d)->UseRealTime();
		benchmark::RegisterBenchmark(("ResolveImage_1920x1080x4_RGBA8" + suffix).c_str(), ResolveImage, d,
		                             VK_FORMAT_R8G8B8A8_UNORM)
		    ->UseRealTime();
		benchmark::RegisterBenchmark(("ResolveImage_1920x1080x4_BGRA8_SRGB" + suffix).c_str(), ResolveImage, d,
		                             VK_FORMAT_B8G8R8A8_SRGB)
		    ->UseRealTime();
		benchmark::RegisterBenchmark(("ResolveImage_1920x1080x4_RGBA16F" + suffix).c_str(), ResolveImage, d,
		                             VK_FORMAT_R16G16B16A16_SFLOAT)
		    ->UseRealTime();
	}
	return 0;
}
const int registered = Register();

}  // namespace
