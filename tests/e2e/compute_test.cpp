// Compute pipelines through the loader: the corpus shaders of shaders/ run on
// Tessera and on lavapipe with the same inputs, and results are checked
// against the host and against each other.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "compute_kernel.h"
#include "texture/float_formats.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

std::vector<uint32_t> LoadSpirv(const char* name) {
	std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, name);
	REQUIRE(!words.empty());
	return words;
}

// One dispatch of a corpus shader over storage buffers; returns the buffers'
// contents afterwards.
struct ComputeRun {
	const char* shader;
	std::vector<std::vector<uint8_t>> buffers;  // initial contents
	std::vector<uint8_t> push_constants;
	uint32_t groups = 1;
};

std::vector<std::vector<uint8_t>> Run(Context& ctx, const ComputeRun& run) {
	ComputeKernel kernel(ctx, LoadSpirv(run.shader), uint32_t(run.buffers.size()));
	REQUIRE(kernel.ok());
	std::vector<TestBuffer> buffers;
	for (uint32_t i = 0; i < run.buffers.size(); ++i) {
		buffers.push_back(ctx.CreateBuffer(run.buffers[i].size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT));
		std::memcpy(buffers[i].data, run.buffers[i].data(), run.buffers[i].size());
		kernel.Bind(i, buffers[i].buffer);
	}
	ctx.Submit([&](VkCommandBuffer cb) {
		kernel.Record(cb, run.push_constants.data(), uint32_t(run.push_constants.size()), run.groups);
	});
	std::vector<std::vector<uint8_t>> out;
	for (TestBuffer& b : buffers) {
		out.emplace_back(b.data, b.data + b.size);
		ctx.Destroy(b);
	}
	return out;
}

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
	std::vector<uint8_t> bytes(values.size() * sizeof(T));
	std::memcpy(bytes.data(), values.data(), bytes.size());
	return bytes;
}

template <typename T>
std::vector<T> Values(const std::vector<uint8_t>& bytes) {
	std::vector<T> values(bytes.size() / sizeof(T));
	std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
	return values;
}

// glslang's SPIR-V 1.6 output declares the workgroup size with LocalSizeId,
// which needs maintenance4 (VUID-RuntimeSpirv-LocalSizeId-06434).
ContextOptions ComputeOptions() {
	static VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	features13.maintenance4 = VK_TRUE;
	ContextOptions options;
	options.device_features = &features13;
	return options;
}

// Runs on both drivers; returns {Tessera's, lavapipe's} results.
std::pair<std::vector<std::vector<uint8_t>>, std::vector<std::vector<uint8_t>>> RunBoth(const ComputeRun& run) {
	auto ours = Context::Create(Driver::Tessera, ComputeOptions());
	auto reference = Context::Create(Driver::Lavapipe, ComputeOptions());
	REQUIRE(ours);
	REQUIRE(reference);
	auto a = Run(*ours, run);
	auto b = Run(*reference, run);
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
	return {a, b};
}

}  // namespace

TEST_CASE("SAXPY through a compute pipeline matches the host and lavapipe", "[compute]") {
	const uint32_t n = 10000;
	std::mt19937 rng(1);
	std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
	std::vector<float> x(n), y(n);
	for (uint32_t i = 0; i < n; ++i) x[i] = dist(rng), y[i] = dist(rng);
	const float a = 2.5f;
	std::vector<uint8_t> push(8);
	std::memcpy(push.data(), &a, 4);
	std::memcpy(push.data() + 4, &n, 4);
	ComputeRun run{"saxpy.spv", {Bytes(x), Bytes(y)}, push, (n + 63) / 64};
	auto [ours, reference] = RunBoth(run);
	std::vector<float> got = Values<float>(ours[1]), expected = Values<float>(reference[1]);
	for (uint32_t i = 0; i < n; ++i) {
		INFO("element " << i);
		// The spec lets a * x + y be fused or not (no NoContraction): within an
		// ulp or two of the host's unfused result.
		float host = a * x[i] + y[i];
		REQUIRE(std::fabs(got[i] - host) <= 2e-6f * std::fmax(1.0f, std::fabs(host)) + 1e-5f);
		REQUIRE(std::fabs(got[i] - expected[i]) <= 2e-6f * std::fmax(1.0f, std::fabs(host)) + 1e-5f);
	}
}

TEST_CASE("a shared-memory reduction with barriers matches the host and lavapipe exactly", "[compute]") {
	const uint32_t groups = 40, n = groups * 256;
	std::vector<uint32_t> v(n);
	std::iota(v.begin(), v.end(), 7u);
	ComputeRun run{"reduce.spv", {Bytes(v), Bytes(std::vector<uint32_t>(groups, 0xdeadbeef))}, {}, groups};
	auto [ours, reference] = RunBoth(run);
	std::vector<uint32_t> sums = Values<uint32_t>(ours[1]);
	for (uint32_t g = 0; g < groups; ++g) {
		uint32_t expected = 0;
		for (uint32_t i = 0; i < 256; ++i) expected += v[g * 256 + i];
		REQUIRE(sums[g] == expected);
	}
	REQUIRE(ours[1] == reference[1]);
}

TEST_CASE("a 1 x 1 x 1024 workgroup runs every invocation and its barrier", "[compute]") {
	// maxComputeWorkGroupSize[2] is 1024 on Tessera and lavapipe;
	// workgroup_z_1024.spvasm writes v[z] = 4z, then v[1024 + z] = v[1023 - z].
	ComputeRun run{"workgroup_z_1024.spv", {Bytes(std::vector<uint32_t>(2048, 0xdeadbeef))}, {}, 1};
	auto [ours, reference] = RunBoth(run);
	std::vector<uint32_t> v = Values<uint32_t>(ours[0]);
	uint32_t wrong = 0;
	for (uint32_t z = 0; z < 1024; ++z) wrong += v[z] != 4 * z || v[1024 + z] != 4 * (1023 - z);
	CHECK(wrong == 0);
	CHECK(ours[0] == reference[0]);
}

TEST_CASE("atomics under contention give lavapipe's results", "[compute]") {
	const uint32_t groups = 16;
	std::vector<uint32_t> counters(6 + groups, 0);
	counters[2] = 0x7fffffff;  // minimum starts high
	ComputeRun run{"atomics.spv", {Bytes(counters)}, {}, groups};
	auto [ours, reference] = RunBoth(run);
	std::vector<uint32_t> a = Values<uint32_t>(ours[0]), b = Values<uint32_t>(reference[0]);
	const uint32_t n = groups * 128;
	CHECK(a[0] == n * (n - 1) / 2);
	CHECK(a[1] == (n - 1) * 3);
	CHECK(int32_t(a[2]) == -int32_t(n - 1));
	CHECK(a[3] == 0xffffffffu);
	CHECK(a[4] == 1u);
	CHECK(a[5] >= 1u);  // which invocation wins the compare-swap is unordered
	for (uint32_t i = 0; i < 5; ++i) CHECK(a[i] == b[i]);
	for (uint32_t g = 0; g < groups; ++g) CHECK(a[6 + g] == 256u);
}

TEST_CASE("invalid SPIR-V is refused by vkCreateShaderModule with a message, not a crash", "[compute][robustness]") {
	ContextOptions options = ComputeOptions();
	options.validation = false;  // the layer would (rightly) flag the module first
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	std::vector<uint32_t> words = LoadSpirv("saxpy.spv");
	words.resize(words.size() - 3);  // cut the function off mid-instruction
	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = words.size() * 4;
	smci.pCode = words.data();
	VkShaderModule module = VK_NULL_HANDLE;
	CHECK(vkCreateShaderModule(ctx->device(), &smci, nullptr, &module) != VK_SUCCESS);
	CHECK(module == VK_NULL_HANDLE);
}

TEST_CASE("a shader that never ends loses the device instead of hanging the process", "[compute][robustness]") {
	setenv("TESSERA_SHADER_STEP_LIMIT", "20000", 1);
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	v12.timelineSemaphore = VK_TRUE;
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &v12};
	v13.maintenance4 = VK_TRUE;
	ContextOptions options;
	options.device_features = &v13;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	ComputeRun run{"forever.spv", {std::vector<uint8_t>(64 * 4, 0)}, {}, 2};
	VkDevice device = ctx->device();
	auto out = Run(*ctx, run);
	CHECK(Values<uint32_t>(out[0])[1] > 0);  // what ran before the loss stays written
	VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	vkCreateFence(device, &fci, nullptr, &fence);
	CHECK(vkQueueSubmit(ctx->queue(), 0, nullptr, fence) == VK_ERROR_DEVICE_LOST);
	CHECK(vkDeviceWaitIdle(device) == VK_ERROR_DEVICE_LOST);
	// Every command that may report the loss reports it from then on
	// (VK_KHR_maintenance5, Vulkan "Lost Device").
	CHECK(vkGetFenceStatus(device, fence) == VK_ERROR_DEVICE_LOST);
	CHECK(vkQueueWaitIdle(ctx->queue()) == VK_ERROR_DEVICE_LOST);
	CHECK(vkQueueBindSparse(ctx->queue(), 0, nullptr, VK_NULL_HANDLE) == VK_ERROR_DEVICE_LOST);
	VkEventCreateInfo eci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
	VkEvent event;
	REQUIRE(vkCreateEvent(device, &eci, nullptr, &event) == VK_SUCCESS);
	CHECK(vkGetEventStatus(device, event) == VK_ERROR_DEVICE_LOST);
	vkDestroyEvent(device, event, nullptr);
	VkSemaphoreTypeCreateInfo timeline{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr,
	                                   VK_SEMAPHORE_TYPE_TIMELINE, 0};
	VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &timeline};
	VkSemaphore semaphore;
	REQUIRE(vkCreateSemaphore(device, &sci, nullptr, &semaphore) == VK_SUCCESS);
	uint64_t value = 0;
	CHECK(vkGetSemaphoreCounterValue(device, semaphore, &value) == VK_ERROR_DEVICE_LOST);
	VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &semaphore, &value};
	CHECK(vkWaitSemaphores(device, &wait, 0) == VK_ERROR_DEVICE_LOST);
	vkDestroySemaphore(device, semaphore, nullptr);
	vkDestroyFence(device, fence, nullptr);
	unsetenv("TESSERA_SHADER_STEP_LIMIT");
}

TEST_CASE("a tiled shared-memory matmul matches the host and lavapipe", "[compute]") {
	const uint32_t n = 48;
	std::vector<float> a(n * n), b(n * n);
	for (uint32_t i = 0; i < n * n; ++i) a[i] = float(i % 7) - 3.0f, b[i] = float(i % 5) * 0.5f;
	std::vector<uint8_t> push(4);
	std::memcpy(push.data(), &n, 4);
	ComputeRun run{"matmul.spv", {Bytes(a), Bytes(b), Bytes(std::vector<float>(n * n, -1.0f))}, push, 0};
	// matmul is 2D: n/16 x n/16 workgroups.
	auto ours_ctx = Context::Create(Driver::Tessera, ComputeOptions());
	auto ref_ctx = Context::Create(Driver::Lavapipe, ComputeOptions());
	REQUIRE(ours_ctx);
	REQUIRE(ref_ctx);
	auto run2d = [&](Context& ctx) {
		ComputeKernel kernel(ctx, LoadSpirv(run.shader), 3);
		REQUIRE(kernel.ok());
		std::vector<TestBuffer> buffers;
		for (uint32_t i = 0; i < 3; ++i) {
			buffers.push_back(ctx.CreateBuffer(run.buffers[i].size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT));
			std::memcpy(buffers[i].data, run.buffers[i].data(), run.buffers[i].size());
			kernel.Bind(i, buffers[i].buffer);
		}
		ctx.Submit([&](VkCommandBuffer cb) { kernel.Record(cb, push.data(), 4, n / 16, n / 16); });
		std::vector<float> c = Values<float>(std::vector<uint8_t>(buffers[2].data, buffers[2].data + buffers[2].size));
		for (TestBuffer& buffer : buffers) ctx.Destroy(buffer);
		return c;
	};
	std::vector<float> ours = run2d(*ours_ctx), reference = run2d(*ref_ctx);
	for (uint32_t r = 0; r < n; ++r)
		for (uint32_t c = 0; c < n; ++c) {
			float expected = 0.0f;
			for (uint32_t k = 0; k < n; ++k) expected += a[r * n + k] * b[k * n + c];
			// Small integers and halves: every partial sum is exact in float.
			INFO("row " << r << " column " << c);
			REQUIRE(ours[r * n + c] == expected);
			REQUIRE(reference[r * n + c] == expected);
		}
	CHECK(ours_ctx->validation_errors() == 0);
}

TEST_CASE("8/16-bit integers and 16-bit floats in buffers and arithmetic match lavapipe", "[compute][features]") {
	// The features the shader needs, on both drivers.
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	v12.storageBuffer8BitAccess = VK_TRUE;
	v12.shaderFloat16 = VK_TRUE;
	v12.shaderInt8 = VK_TRUE;
	VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	v11.pNext = &v12;
	v11.storageBuffer16BitAccess = VK_TRUE;
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.pNext = &v11;
	v13.maintenance4 = VK_TRUE;
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	f2.pNext = &v13;
	f2.features.shaderInt16 = VK_TRUE;
	ContextOptions options;
	options.device_features = &f2;

	const uint32_t n = 32;
	std::mt19937 rng(3);
	std::vector<uint16_t> halves(2 * n);  // f16vec2: finite values of moderate size
	for (auto& h : halves) h = uint16_t((rng() % 0x5000) | (rng() & 1 ? 0x8000 : 0));
	std::vector<int16_t> shorts(n);
	for (auto& v : shorts) v = int16_t(rng());
	std::vector<uint8_t> bytes(n);
	for (auto& v : bytes) v = uint8_t(rng());
	ComputeRun run{"small_types.spv",
	               {Bytes(halves), Bytes(shorts), bytes, std::vector<uint8_t>(n * 2), std::vector<uint8_t>(n * 4),
	                std::vector<uint8_t>(n), std::vector<uint8_t>(n * 24)},
	               {},
	               1};
	auto ours_ctx = Context::Create(Driver::Tessera, options);
	auto ref_ctx = Context::Create(Driver::Lavapipe, options);
	REQUIRE(ours_ctx);
	REQUIRE(ref_ctx);
	auto ours = Run(*ours_ctx, run);
	auto reference = Run(*ref_ctx, run);
	CHECK(ours_ctx->validation_errors() == 0);
	CHECK(ref_ctx->validation_errors() == 0);
	// Integer results are exact.
	CHECK(ours[4] == reference[4]);
	CHECK(ours[5] == reference[5]);
	std::vector<uint32_t> a = Values<uint32_t>(ours[6]), b = Values<uint32_t>(reference[6]);
	for (uint32_t i = 0; i < n; ++i) {
		INFO("invocation " << i);
		for (uint32_t k : {0u, 1u, 3u, 4u, 5u}) CHECK(a[i * 6 + k] == b[i * 6 + k]);
		CHECK(a[i * 6 + 2] == b[i * 6 + 2]);  // v * 2: exact in half precision
	}
	// v.x * v.y + 0.1 in half precision: without NoContraction the
	// multiply-add may be fused or not, so each driver must give one of the
	// two results (computed here with correctly rounded half conversions).
	using tessera::texture::FloatToHalf;
	using tessera::texture::HalfToFloat;
	std::vector<uint16_t> ha = Values<uint16_t>(ours[3]), hb = Values<uint16_t>(reference[3]);
	const float tenth = HalfToFloat(FloatToHalf(0.1f));
	for (uint32_t i = 0; i < n; ++i) {
		float x = HalfToFloat(halves[2 * i]), y = HalfToFloat(halves[2 * i + 1]);
		uint16_t unfused = FloatToHalf(HalfToFloat(FloatToHalf(x * y)) + tenth);
		uint16_t fused = FloatToHalf(float(double(x) * double(y) + double(tenth)));
		INFO("half " << i << ": Tessera " << ha[i] << ", lavapipe " << hb[i] << ", unfused " << unfused << ", fused "
		             << fused);
		CHECK((ha[i] == unfused || ha[i] == fused));
		CHECK((hb[i] == unfused || hb[i] == fused));
	}
}

TEST_CASE("pipelineCreationCacheControl: asking not to compile gives VK_PIPELINE_COMPILE_REQUIRED",
          "[compute][features]") {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.maintenance4 = VK_TRUE;
	v13.pipelineCreationCacheControl = VK_TRUE;
	ContextOptions options;
	options.device_features = &v13;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	std::vector<uint32_t> words = LoadSpirv("reduce.spv");
	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = words.size() * 4;
	smci.pCode = words.data();
	VkShaderModule module;
	REQUIRE(vkCreateShaderModule(device, &smci, nullptr, &module) == VK_SUCCESS);
	VkDescriptorSetLayoutBinding bindings[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
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
	VkComputePipelineCreateInfo infos[2]{};
	for (auto& info : infos) {
		info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
		info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		              nullptr,
		              0,
		              VK_SHADER_STAGE_COMPUTE_BIT,
		              module,
		              "main",
		              nullptr};
		info.layout = layout;
	}
	infos[0].flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
	VkPipeline pipelines[2] = {};
	// The first asks not to compile; the second is an ordinary create and
	// still happens (no EARLY_RETURN flag).
	CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 2, infos, nullptr, pipelines) ==
	      VK_PIPELINE_COMPILE_REQUIRED);
	CHECK(pipelines[0] == VK_NULL_HANDLE);
	CHECK(pipelines[1] != VK_NULL_HANDLE);
	vkDestroyPipeline(device, pipelines[1], nullptr);
	// With EARLY_RETURN, nothing after the failing one is created.
	infos[0].flags |= VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT;
	pipelines[1] = VK_NULL_HANDLE;
	CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 2, infos, nullptr, pipelines) ==
	      VK_PIPELINE_COMPILE_REQUIRED);
	CHECK(pipelines[0] == VK_NULL_HANDLE);
	CHECK(pipelines[1] == VK_NULL_HANDLE);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	vkDestroyShaderModule(device, module, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

namespace {

// std140: vec4 scale at 0, uint offset at 16, int bias[3] at 32 (stride 16).
struct InlineParams {
	float scale[4];
	uint32_t offset;
	uint32_t pad[3];
	int32_t bias[3][4];
};
static_assert(sizeof(InlineParams) == 80);
constexpr uint32_t kInlineInvocations = 32;

// Runs inline_block.comp with `params` in an inline uniform block. With
// update_after_bind, the block is first written with other values, and
// `params` written after vkCmdBindDescriptorSets was recorded (before the
// submission), through an UPDATE_AFTER_BIND binding.
std::vector<float> RunInlineBlock(Context& ctx, const InlineParams& params, bool update_after_bind) {
	VkDevice device = ctx.device();
	std::vector<uint32_t> words = LoadSpirv("inline_block.spv");
	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = words.size() * 4;
	smci.pCode = words.data();
	VkShaderModule module;
	REQUIRE(vkCreateShaderModule(device, &smci, nullptr, &module) == VK_SUCCESS);
	VkDescriptorSetLayoutBinding bindings[2] = {
	    {0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, sizeof(InlineParams), VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
	VkDescriptorBindingFlags binding_flags[2] = {VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT, 0};
	VkDescriptorSetLayoutBindingFlagsCreateInfo flags_info{
	    VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
	flags_info.bindingCount = 2;
	flags_info.pBindingFlags = binding_flags;
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	if (update_after_bind) {
		dslci.pNext = &flags_info;
		dslci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT;
	}
	dslci.bindingCount = 2;
	dslci.pBindings = bindings;
	VkDescriptorSetLayout set_layout;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	VkPipelineLayout layout;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
	              nullptr,
	              0,
	              VK_SHADER_STAGE_COMPUTE_BIT,
	              module,
	              "main",
	              nullptr};
	cpci.layout = layout;
	VkPipeline pipeline;
	REQUIRE(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline) == VK_SUCCESS);

	VkDescriptorPoolInlineUniformBlockCreateInfo inline_pool{
	    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO};
	inline_pool.maxInlineUniformBlockBindings = 1;
	VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, sizeof(InlineParams)},
	                                 {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	dpci.pNext = &inline_pool;
	if (update_after_bind) dpci.flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT;
	dpci.maxSets = 1;
	dpci.poolSizeCount = 2;
	dpci.pPoolSizes = sizes;
	VkDescriptorPool pool;
	REQUIRE(vkCreateDescriptorPool(device, &dpci, nullptr, &pool) == VK_SUCCESS);
	VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	dsai.descriptorPool = pool;
	dsai.descriptorSetCount = 1;
	dsai.pSetLayouts = &set_layout;
	VkDescriptorSet set;
	REQUIRE(vkAllocateDescriptorSets(device, &dsai, &set) == VK_SUCCESS);

	TestBuffer out = ctx.CreateBuffer(kInlineInvocations * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	auto write_block = [&](const InlineParams& values) {
		VkWriteDescriptorSetInlineUniformBlock block{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK};
		block.dataSize = sizeof(InlineParams);
		block.pData = &values;
		VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		write.pNext = &block;
		write.dstSet = set;
		write.dstBinding = 0;
		write.descriptorCount = sizeof(InlineParams);
		write.descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
		vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
	};
	InlineParams stale{{9, 9, 9, 9}, 1000, {}, {{5}, {5}, {5}}};
	write_block(update_after_bind ? stale : params);
	VkDescriptorBufferInfo out_info{out.buffer, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet out_write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
	out_write.dstSet = set;
	out_write.dstBinding = 1;
	out_write.descriptorCount = 1;
	out_write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
	out_write.pBufferInfo = &out_info;
	vkUpdateDescriptorSets(device, 1, &out_write, 0, nullptr);

	ctx.Submit([&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
		vkCmdDispatch(cb, kInlineInvocations / 16, 1, 1);
		VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
		                     nullptr, 0, nullptr);
		// Vulkan 1.3 §14.2.1: an UPDATE_AFTER_BIND binding may be written
		// after the set is bound, until the command buffer is submitted.
		if (update_after_bind) write_block(params);
	});
	std::vector<float> result = Values<float>(std::vector<uint8_t>(out.data, out.data + out.size));
	ctx.Destroy(out);
	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	vkDestroyShaderModule(device, module, nullptr);
	return result;
}

void CheckInlineResult(const std::vector<float>& got, const InlineParams& params) {
	for (uint32_t i = 0; i < kInlineInvocations; ++i)
		for (uint32_t c = 0; c < 4; ++c) {
			// Every value here is exact in float, fused or not.
			float expected = params.scale[c] * float(i + params.offset) + float(params.bias[i % 3][0]);
			INFO("invocation " << i << " component " << c);
			REQUIRE(got[i * 4 + c] == expected);
		}
}

const InlineParams kInlineParams{{0.5f, 2.0f, -1.0f, 0.25f}, 3, {}, {{-2}, {7}, {100}}};

}  // namespace

TEST_CASE("inlineUniformBlock: a shader reads a uniform block stored in the descriptor set", "[compute][features]") {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.maintenance4 = VK_TRUE;
	v13.inlineUniformBlock = VK_TRUE;
	ContextOptions options;
	options.device_features = &v13;
	auto ours = Context::Create(Driver::Tessera, options);
	auto reference = Context::Create(Driver::Lavapipe, options);
	REQUIRE(ours);
	REQUIRE(reference);
	CheckInlineResult(RunInlineBlock(*ours, kInlineParams, false), kInlineParams);
	CheckInlineResult(RunInlineBlock(*reference, kInlineParams, false), kInlineParams);
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
}

TEST_CASE("descriptorBindingInlineUniformBlockUpdateAfterBind: a block written after binding is what the shader reads",
          "[compute][features]") {
	// Lavapipe 22.3 reports no update-after-bind features: checked against
	// the host's values alone.
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.maintenance4 = VK_TRUE;
	v13.inlineUniformBlock = VK_TRUE;
	v13.descriptorBindingInlineUniformBlockUpdateAfterBind = VK_TRUE;
	ContextOptions options;
	options.device_features = &v13;
	auto ours = Context::Create(Driver::Tessera, options);
	REQUIRE(ours);
	CheckInlineResult(RunInlineBlock(*ours, kInlineParams, true), kInlineParams);
	CHECK(ours->validation_errors() == 0);
}

TEST_CASE("shaderZeroInitializeWorkgroupMemory: null-initialized shared memory reads as zero", "[compute][features]") {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.maintenance4 = VK_TRUE;
	v13.shaderZeroInitializeWorkgroupMemory = VK_TRUE;
	ContextOptions options;
	options.device_features = &v13;
	const uint32_t groups = 3;
	ComputeRun run{"zero_shared.spv", {std::vector<uint8_t>(groups * 64 * 4, 0xff)}, {}, groups};
	auto ours_ctx = Context::Create(Driver::Tessera, options);
	auto ref_ctx = Context::Create(Driver::Lavapipe, options);
	REQUIRE(ours_ctx);
	REQUIRE(ref_ctx);
	std::vector<uint32_t> ours = Values<uint32_t>(Run(*ours_ctx, run)[0]);
	std::vector<uint32_t> reference = Values<uint32_t>(Run(*ref_ctx, run)[0]);
	for (uint32_t i = 0; i < groups * 64; ++i) {
		uint32_t l = i % 64, expected = 0;
		if (l < 8)
			for (uint32_t k = l; k < 64; k += 8) expected += k;  // each group starts from zero
		INFO("invocation " << i);
		REQUIRE(ours[i] == expected);
		REQUIRE(reference[i] == expected);
	}
	CHECK(ours_ctx->validation_errors() == 0);
	CHECK(ref_ctx->validation_errors() == 0);
}

namespace {

// SAXPY (64-invocation workgroups, pushed a = 0 and n = 0, so every
// invocation returns at once) on a device with pipeline statistics queries,
// and a pool of `queries` queries counting compute shader invocations.
struct StatisticsRun {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v13};
	std::unique_ptr<Context> ctx;
	std::optional<ComputeKernel> kernel;
	TestBuffer x{}, y{};
	VkQueryPool pool = VK_NULL_HANDLE;
	const uint32_t push[2] = {0, 0};

	StatisticsRun(Driver driver, uint32_t queries, bool inherited_queries) {
		v13.maintenance4 = VK_TRUE;  // saxpy.comp's LocalSizeId
		features.features.pipelineStatisticsQuery = VK_TRUE;
		features.features.inheritedQueries = inherited_queries;
		ContextOptions options;
		options.device_features = &features;
		ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		kernel.emplace(*ctx, LoadSpirv("saxpy.spv"), 2);
		REQUIRE(kernel->ok());
		x = ctx->CreateBuffer(4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		y = ctx->CreateBuffer(4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		kernel->Bind(0, x.buffer);
		kernel->Bind(1, y.buffer);
		VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
		qi.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
		qi.queryCount = queries;
		qi.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
		REQUIRE(vkCreateQueryPool(ctx->device(), &qi, nullptr, &pool) == VK_SUCCESS);
	}
	~StatisticsRun() {
		if (!ctx) return;
		if (pool) vkDestroyQueryPool(ctx->device(), pool, nullptr);
		kernel.reset();
		ctx->Destroy(x);
		ctx->Destroy(y);
	}
	void Dispatch(VkCommandBuffer cb, uint32_t groups_x, uint32_t groups_y) const {
		kernel->Record(cb, push, 8, groups_x, groups_y);
	}
	std::vector<uint64_t> Results(uint32_t queries) const {
		std::vector<uint64_t> results(queries);
		REQUIRE(vkGetQueryPoolResults(ctx->device(), pool, 0, queries, queries * 8, results.data(), 8,
		                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
		return results;
	}
};

}  // namespace

TEST_CASE("a pipeline statistics query counts compute shader invocations", "[compute][query]") {
	// 7 x 3 workgroups: 1344 invocations, on Tessera as on lavapipe.
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		StatisticsRun run(driver, 1, false);
		run.ctx->Submit([&](VkCommandBuffer cb) {
			vkCmdResetQueryPool(cb, run.pool, 0, 1);
			vkCmdBeginQuery(cb, run.pool, 0, 0);
			run.Dispatch(cb, 7, 3);
			vkCmdEndQuery(cb, run.pool, 0);
		});
		CHECK(run.Results(1)[0] == 7 * 3 * 64);
		CHECK(run.ctx->validation_errors() == 0);
	}
}

TEST_CASE("queries active in a primary count its secondaries' dispatches (inheritedQueries)", "[compute][query]") {
	// A secondary dispatches 7 x 3 workgroups; query 0 holds one run of it,
	// query 1 a 2 x 1 dispatch of the primary's and the secondary again.
	// Tessera alone: lavapipe 22.3 lacks inheritedQueries (the CTS's
	// query_pool cases with inherited queries are the wider check).
	StatisticsRun run(Driver::Tessera, 2, true);
	Context& ctx = *run.ctx;
	VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
	VkCommandPool command_pool;
	REQUIRE(vkCreateCommandPool(ctx.device(), &pci, nullptr, &command_pool) == VK_SUCCESS);
	VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
	ai.commandPool = command_pool;
	ai.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
	ai.commandBufferCount = 1;
	VkCommandBuffer secondary;
	REQUIRE(vkAllocateCommandBuffers(ctx.device(), &ai, &secondary) == VK_SUCCESS);
	VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
	inheritance.pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
	VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	bi.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;  // run twice by one primary
	bi.pInheritanceInfo = &inheritance;
	REQUIRE(vkBeginCommandBuffer(secondary, &bi) == VK_SUCCESS);
	run.Dispatch(secondary, 7, 3);
	REQUIRE(vkEndCommandBuffer(secondary) == VK_SUCCESS);

	ctx.Submit([&](VkCommandBuffer cb) {
		vkCmdResetQueryPool(cb, run.pool, 0, 2);
		vkCmdBeginQuery(cb, run.pool, 0, 0);
		vkCmdExecuteCommands(cb, 1, &secondary);
		vkCmdEndQuery(cb, run.pool, 0);
		vkCmdBeginQuery(cb, run.pool, 1, 0);
		run.Dispatch(cb, 2, 1);
		vkCmdExecuteCommands(cb, 1, &secondary);
		vkCmdEndQuery(cb, run.pool, 1);
	});
	const std::vector<uint64_t> invocations = run.Results(2);
	CHECK(invocations[0] == 7 * 3 * 64);
	CHECK(invocations[1] == 2 * 64 + 7 * 3 * 64);
	vkDestroyCommandPool(ctx.device(), command_pool, nullptr);
	for (const std::string& m : ctx.validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx.validation_errors() == 0);
}

TEST_CASE("availability and visibility chains publish a payload across workgroups, as on lavapipe", "[compute]") {
	// vulkanMemoryModelAvailabilityVisibilityChains: memory_model_chains.comp
	// makes workgroup 0's payload available to its workgroup, then to the
	// device, and releases a flag; workgroup 1 acquires the flag and makes
	// the payload visible to the device, then to its workgroup. Whether
	// workgroup 1 runs before or after workgroup 0 is the driver's; if it
	// saw the flag, every word of the payload must be the written one.
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	v12.vulkanMemoryModel = VK_TRUE;
	v12.vulkanMemoryModelDeviceScope = VK_TRUE;
	v12.vulkanMemoryModelAvailabilityVisibilityChains = VK_TRUE;
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &v12};
	v13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	ContextOptions options;
	options.device_features = &v13;
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		for (int run = 0; run < 8; ++run) {
			const BufferContents out =
			    RunCorpusKernel(*ctx, TESSERA_SHADER_DIR, "memory_model_chains.spv",
			                    {std::vector<uint8_t>(65 * 4, 0), std::vector<uint8_t>(128 * 4, 0xee)}, 2);
			REQUIRE(out.size() == 2);
			std::vector<uint32_t> words(128);
			std::memcpy(words.data(), out[1].data(), 128 * 4);
			uint32_t wrong = 0;
			for (uint32_t i = 0; i < 64; ++i) {
				const uint32_t flag = words[64 + i], seen = words[i];
				wrong += flag > 1 || (flag == 1 ? seen != 3 * i + 1 : seen != 0xffffffffu);
			}
			CHECK(wrong == 0);
		}
		CHECK(ctx->validation_errors() == 0);
	}
}
