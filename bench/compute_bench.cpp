// Compute through the Vulkan API, Tessera next to lavapipe in one run:
// SAXPY over 16M floats (GB/s of x and y traffic), a 512x512 shared-memory
// matmul (GFLOP/s), a 16M-element workgroup reduction, and the latency of
// creating a pipeline plus its first dispatch (lavapipe compiles at first
// use, so both are counted together), without and with a warm VkPipelineCache.
// Mesa's on-disk shader cache would make lavapipe's "cold" figure warm:
//
//   MESA_SHADER_CACHE_DISABLE=true build/bench/tessera_compute_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <memory>
#include <numeric>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

Context* GetContext(Driver driver) {
	static std::map<Driver, std::unique_ptr<Context>> contexts;
	auto& ctx = contexts[driver];
	if (!ctx) {
		static VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
		features13.maintenance4 = VK_TRUE;  // LocalSizeId in glslang's SPIR-V 1.6
		ContextOptions options;
		options.validation = false;
		options.device_features = &features13;
		ctx = Context::Create(driver, options);
	}
	return ctx.get();
}

std::vector<uint32_t> Shader(const char* name) { return LoadCorpusShader(TESSERA_SHADER_DIR, name); }

// Times one recorded command buffer per iteration (submit + wait).
template <typename Record>
void TimeCommands(benchmark::State& state, Context& ctx, Record record) {
	VkCommandBuffer cb = ctx.BeginOneTime();
	vkEndCommandBuffer(cb);
	VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	vkBeginCommandBuffer(cb, &bi);
	record(cb);
	vkEndCommandBuffer(cb);
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
	vkDestroyFence(ctx.device(), fence, nullptr);
}

// Times one recorded dispatch per iteration.
void TimeDispatch(benchmark::State& state, Context& ctx, const ComputeKernel& kernel, const void* push,
                  uint32_t push_size, uint32_t gx, uint32_t gy = 1) {
	TimeCommands(state, ctx, [&](VkCommandBuffer cb) { kernel.Record(cb, push, push_size, gx, gy); });
}

void Saxpy(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	const uint32_t n = 16u << 20;
	TestBuffer x = ctx->CreateBuffer(n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer y = ctx->CreateBuffer(n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	std::fill_n(reinterpret_cast<float*>(x.data), n, 1.0f);
	std::fill_n(reinterpret_cast<float*>(y.data), n, 2.0f);
	ComputeKernel kernel(*ctx, Shader("saxpy.spv"), 2);
	if (!kernel.ok()) return state.SkipWithError("pipeline creation failed");
	kernel.Bind(0, x.buffer);
	kernel.Bind(1, y.buffer);
	struct {
		float a;
		uint32_t n;
	} push{0.5f, n};
	TimeDispatch(state, *ctx, kernel, &push, sizeof push, n / 64);
	// x read, y read and written: 12 bytes per element.
	state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n) * 12);
	ctx->Destroy(x);
	ctx->Destroy(y);
}

void Matmul(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	const uint32_t n = 512;
	TestBuffer a = ctx->CreateBuffer(n * n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer b = ctx->CreateBuffer(n * n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer c = ctx->CreateBuffer(n * n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	for (uint32_t i = 0; i < n * n; ++i) {
		reinterpret_cast<float*>(a.data)[i] = float(i % 7) * 0.25f;
		reinterpret_cast<float*>(b.data)[i] = float(i % 5) * 0.5f;
	}
	ComputeKernel kernel(*ctx, Shader("matmul.spv"), 3);
	if (!kernel.ok()) return state.SkipWithError("pipeline creation failed");
	kernel.Bind(0, a.buffer);
	kernel.Bind(1, b.buffer);
	kernel.Bind(2, c.buffer);
	TimeDispatch(state, *ctx, kernel, &n, 4, n / 16, n / 16);
	state.counters["GFLOP/s"] =
	    benchmark::Counter(2.0 * n * n * n * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
	ctx->Destroy(a);
	ctx->Destroy(b);
	ctx->Destroy(c);
}

void Reduce(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	const uint32_t n = 16u << 20, groups = n / 256;
	TestBuffer in = ctx->CreateBuffer(n * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer out = ctx->CreateBuffer(groups * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	std::iota(reinterpret_cast<uint32_t*>(in.data), reinterpret_cast<uint32_t*>(in.data) + n, 0u);
	ComputeKernel kernel(*ctx, Shader("reduce.spv"), 2);
	if (!kernel.ok()) return state.SkipWithError("pipeline creation failed");
	kernel.Bind(0, in.buffer);
	kernel.Bind(1, out.buffer);
	TimeDispatch(state, *ctx, kernel, nullptr, 0, groups);
	state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n) * 4);
	ctx->Destroy(in);
	ctx->Destroy(out);
}

// The filter benchmarks' 1920x1080 picture, and their set of two bindings
// (the source at 0, the result at 1, of `types`): the pipeline of `shader`
// over it, timed over the whole picture in 8x8 workgroups. point(writes)
// names the resources in the two writes. Mpix/s of output.
constexpr uint32_t kFilterWidth = 1920, kFilterHeight = 1080;
void TimeFilter(benchmark::State& state, Context& ctx, const char* shader, const VkDescriptorType types[2],
                const std::function<void(VkWriteDescriptorSet* writes)>& point) {
	VkDevice device = ctx.device();
	VkDescriptorSetLayoutBinding bindings[2] = {{0, types[0], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
	                                            {1, types[1], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = 2;
	dslci.pBindings = bindings;
	VkDescriptorSetLayout set_layout;
	vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout);
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	VkPipelineLayout layout;
	vkCreatePipelineLayout(device, &plci, nullptr, &layout);
	VkDescriptorPoolSize pool_sizes[2] = {{types[0], 1}, {types[1], 1}};
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	dpci.maxSets = 1;
	dpci.poolSizeCount = 2;
	dpci.pPoolSizes = pool_sizes;
	VkDescriptorPool pool;
	vkCreateDescriptorPool(device, &dpci, nullptr, &pool);
	VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	dsai.descriptorPool = pool;
	dsai.descriptorSetCount = 1;
	dsai.pSetLayouts = &set_layout;
	VkDescriptorSet set;
	vkAllocateDescriptorSets(device, &dsai, &set);
	VkWriteDescriptorSet writes[2];
	for (int n = 0; n < 2; ++n) {
		writes[n] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		writes[n].dstSet = set;
		writes[n].dstBinding = uint32_t(n);
		writes[n].descriptorCount = 1;
		writes[n].descriptorType = types[n];
	}
	point(writes);
	vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);
	VkPipeline pipeline = CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, shader, layout);
	if (pipeline != VK_NULL_HANDLE) {
		TimeCommands(state, ctx, [&](VkCommandBuffer cb) {
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
			vkCmdDispatch(cb, kFilterWidth / 8, kFilterHeight / 8, 1);
		});
		state.counters["Mpix/s"] = benchmark::Counter(
		    double(kFilterWidth) * kFilterHeight * double(state.iterations()) / 1e6, benchmark::Counter::kIsRate);
		vkDestroyPipeline(device, pipeline, nullptr);
	} else {
		state.SkipWithError("pipeline creation failed");
	}
	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
}

// The filters' source picture: the same bytes for every driver.
void FillPicture(uint8_t* bytes, uint64_t size) {
	for (uint64_t i = 0; i < size; ++i) bytes[i] = uint8_t((i * 2654435761u) >> 13);
}

// An image filter over storage images, as image-processing programs write
// one: each invocation of bench_image_filter.comp loads five texels of a
// 1920x1080 RGBA8 image (imageLoad) and stores their weighted mean into
// another (imageStore).
void ImageFilter(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	const uint32_t width = kFilterWidth, height = kFilterHeight;
	VkDevice device = ctx->device();
	const VkImageUsageFlags usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	TestImage images[2] = {ctx->CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, width, height, usage),
	                       ctx->CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, width, height, usage)};
	TestBuffer pixels = ctx->CreateBuffer(uint64_t(width) * height * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
	FillPicture(pixels.data, pixels.size);
	VkImageView views[2];
	for (int n = 0; n < 2; ++n) {
		VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		vci.image = images[n].image;
		vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
		vci.format = VK_FORMAT_R8G8B8A8_UNORM;
		vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		vkCreateImageView(device, &vci, nullptr, &views[n]);
	}
	// The source's pixels, both images in GENERAL.
	ctx->Submit([&](VkCommandBuffer cb) {
		VkImageMemoryBarrier barriers[2];
		for (int n = 0; n < 2; ++n) {
			barriers[n] = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
			barriers[n].dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
			barriers[n].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
			barriers[n].newLayout = VK_IMAGE_LAYOUT_GENERAL;
			barriers[n].srcQueueFamilyIndex = barriers[n].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
			barriers[n].image = images[n].image;
			barriers[n].subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		}
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
		                     nullptr, 2, barriers);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
		region.imageExtent = {width, height, 1};
		vkCmdCopyBufferToImage(cb, pixels.buffer, images[0].image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
		VkMemoryBarrier done{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		done.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		done.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &done, 0,
		                     nullptr, 0, nullptr);
	});
	VkDescriptorImageInfo image_infos[2] = {{VK_NULL_HANDLE, views[0], VK_IMAGE_LAYOUT_GENERAL},
	                                        {VK_NULL_HANDLE, views[1], VK_IMAGE_LAYOUT_GENERAL}};
	const VkDescriptorType types[2] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
	TimeFilter(state, *ctx, "bench_image_filter.spv", types, [&](VkWriteDescriptorSet* writes) {
		for (int n = 0; n < 2; ++n) writes[n].pImageInfo = &image_infos[n];
	});
	for (int n = 0; n < 2; ++n) {
		vkDestroyImageView(device, views[n], nullptr);
		ctx->Destroy(images[n]);
	}
	ctx->Destroy(pixels);
}

// The image filter over texel buffers (bench_texel_buffer_filter.comp): the
// same picture, fetched from a uniform texel buffer and stored into a
// storage texel buffer.
void TexelBufferFilter(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	VkDevice device = ctx->device();
	const uint64_t bytes = uint64_t(kFilterWidth) * kFilterHeight * 4;
	TestBuffer buffers[2] = {ctx->CreateBuffer(bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT),
	                         ctx->CreateBuffer(bytes, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT)};
	FillPicture(buffers[0].data, bytes);
	VkBufferView views[2];
	for (int n = 0; n < 2; ++n) {
		VkBufferViewCreateInfo bvci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
		bvci.buffer = buffers[n].buffer;
		bvci.format = VK_FORMAT_R8G8B8A8_UNORM;
		bvci.range = VK_WHOLE_SIZE;
		vkCreateBufferView(device, &bvci, nullptr, &views[n]);
	}
	const VkDescriptorType types[2] = {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
	                                   VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER};
	TimeFilter(state, *ctx, "bench_texel_buffer_filter.spv", types, [&](VkWriteDescriptorSet* writes) {
		for (int n = 0; n < 2; ++n) writes[n].pTexelBufferView = &views[n];
	});
	for (int n = 0; n < 2; ++n) {
		vkDestroyBufferView(device, views[n], nullptr);
		ctx->Destroy(buffers[n]);
	}
}

// Shader module + pipeline creation + the first (tiny) dispatch, each
// iteration with new objects and no VkPipelineCache. The same SPIR-V each
// time, as a test suite makes the same pipeline test after test: both
// drivers keep what they translated (Tessera in memory, lavapipe also in
// Mesa's disk cache). `cold`: each iteration's module differs in its
// generator word (SPIR-V header word 2, which means nothing): Tessera's key
// includes it, so Tessera translates each module again; lavapipe's cache
// keys on the translated shader, which the word does not change.
void PipelineCreation(benchmark::State& state, Driver driver, bool cold) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	std::vector<uint32_t> spirv = Shader("reduce.spv");
	TestBuffer in = ctx->CreateBuffer(256 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer out = ctx->CreateBuffer(4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	static uint32_t generator = 0x7e550000;  // (across runs of the benchmark, too)
	for (auto _ : state) {
		if (cold) spirv[2] = ++generator;
		ComputeKernel kernel(*ctx, spirv, 2);
		kernel.Bind(0, in.buffer);
		kernel.Bind(1, out.buffer);
		ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, nullptr, 0, 1); });
	}
	ctx->Destroy(in);
	ctx->Destroy(out);
}

// The same through a VkPipelineCache that already holds the pipeline (warmed
// by one creation before timing). Tessera then reads the compiled program
// instead of running the front end; lavapipe still compiles with LLVM at the
// first dispatch (its cache holds NIR).
void PipelineCreationCached(benchmark::State& state, Driver driver) {
	Context* ctx = GetContext(driver);
	if (!ctx) return state.SkipWithError("driver not found");
	std::vector<uint32_t> spirv = Shader("reduce.spv");
	TestBuffer in = ctx->CreateBuffer(256 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer out = ctx->CreateBuffer(4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
	VkPipelineCache cache = VK_NULL_HANDLE;
	if (vkCreatePipelineCache(ctx->device(), &info, nullptr, &cache) != VK_SUCCESS)
		return state.SkipWithError("no pipeline cache");
	auto create_and_dispatch = [&] {
		ComputeKernel kernel(*ctx, spirv, 2, 0, cache);
		kernel.Bind(0, in.buffer);
		kernel.Bind(1, out.buffer);
		ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, nullptr, 0, 1); });
	};
	create_and_dispatch();  // warms the cache
	for (auto _ : state) create_and_dispatch();
	vkDestroyPipelineCache(ctx->device(), cache, nullptr);
	ctx->Destroy(in);
	ctx->Destroy(out);
}

int Register() {
	for (Driver d : {Driver::Tessera, Driver::Lavapipe, Driver::SwiftShader}) {
		std::string suffix = std::string("/") + DriverName(d);
		benchmark::RegisterBenchmark(("Saxpy_16M" + suffix).c_str(), Saxpy, d)
		    ->UseRealTime()
		    ->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(("MatmulShared_512" + suffix).c_str(), Matmul, d)
		    ->UseRealTime()
		    ->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(("Reduce_16M" + suffix).c_str(), Reduce, d)
		    ->UseRealTime()
		    ->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(("ImageFilter_1080p" + suffix).c_str(), ImageFilter, d)
		    ->UseRealTime()
		    ->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(("TexelBufferFilter_1080p" + suffix).c_str(), TexelBufferFilter, d)
		    ->UseRealTime()
		    ->Unit(benchmark::kMillisecond);
		benchmark::RegisterBenchmark(("PipelineCreateAndFirstDispatch" + suffix).c_str(), PipelineCreation, d, false)
		    ->UseRealTime()
		    ->Unit(benchmark::kMicrosecond);
		benchmark::RegisterBenchmark(("PipelineCreateAndFirstDispatchCold" + suffix).c_str(), PipelineCreation, d, true)
		    ->UseRealTime()
		    ->Unit(benchmark::kMicrosecond);
		benchmark::RegisterBenchmark(("PipelineCreateAndFirstDispatchCached" + suffix).c_str(), PipelineCreationCached,
		                             d)
		    ->UseRealTime()
		    ->Unit(benchmark::kMicrosecond);
	}
	return 0;
}
const int registered = Register();

}  // namespace
