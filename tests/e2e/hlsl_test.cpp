// SPIR-V from an HLSL compiler (shaders/*.hlsl through glslang's HLSL front
// end with SPV_GOOGLE_hlsl_functionality1): VK_GOOGLE_decorate_string and
// VK_GOOGLE_hlsl_functionality1, on Tessera and on lavapipe.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "simple_pipeline.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

ContextOptions HlslOptions(const void* features = nullptr) {
	ContextOptions options;
	options.device_features = features;
	options.device_extensions = {VK_GOOGLE_DECORATE_STRING_EXTENSION_NAME,
	                             VK_GOOGLE_HLSL_FUNCTIONALITY_1_EXTENSION_NAME};
	return options;
}

struct AppendResult {
	uint32_t counter = 0;
	std::vector<uint32_t> squares, odd;
};

AppendResult ExpectedAppend(uint32_t n) {
	AppendResult expected;
	expected.counter = n / 2;
	for (uint32_t i = 0; i < n; ++i) {
		expected.squares.push_back(i * i);
		if (i & 1) expected.odd.push_back(i);
	}
	return expected;
}

// hlsl_append.comp.hlsl over n invocations: squares[i] = i * i, and each odd
// i appended to `odd` (binding 2) through its counter (binding 0).
AppendResult RunAppend(Context& ctx, uint32_t n, const char* shader = "hlsl_append.spv") {
	std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, shader);
	REQUIRE(!words.empty());
	ComputeKernel kernel(ctx, words, 3);
	REQUIRE(kernel.ok());
	TestBuffer counter = ctx.CreateBuffer(4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer squares = ctx.CreateBuffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer odd = ctx.CreateBuffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	std::memset(counter.data, 0, 4);
	std::memset(squares.data, 0xff, n * 4);
	std::memset(odd.data, 0xff, n * 4);
	kernel.Bind(0, counter.buffer);
	kernel.Bind(1, squares.buffer);
	kernel.Bind(2, odd.buffer);
	ctx.Submit([&](VkCommandBuffer cb) { kernel.Record(cb, &n, 4, (n + 63) / 64); });
	AppendResult result;
	std::memcpy(&result.counter, counter.data, 4);
	result.squares.resize(n);
	std::memcpy(result.squares.data(), squares.data, n * 4);
	result.odd.resize(std::min(result.counter, n));
	if (!result.odd.empty()) std::memcpy(result.odd.data(), odd.data, result.odd.size() * 4);
	std::sort(result.odd.begin(), result.odd.end());  // appends come in any order
	ctx.Destroy(counter);
	ctx.Destroy(squares);
	ctx.Destroy(odd);
	return result;
}

constexpr uint32_t kSize = 32;

// hlsl_triangle.vert/.frag into a kSize x kSize RGBA8 image cleared to black.
std::vector<uint8_t> DrawHlslTriangle(Driver driver) {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.dynamicRendering = VK_TRUE;
	auto ctx = Context::Create(driver, HlslOptions(&v13));
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	TestImage image = ctx->CreateImage2D(VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize,
	                                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
	VkImageView view = CreateColorView(device, image.image, VK_FORMAT_R8G8B8A8_UNORM);
	VkPipelineLayout layout = CreateEmptyLayout(device);
	VkPipeline pipeline =
	    CreateSimplePipeline(device, {"hlsl_triangle.vert.spv", "hlsl_triangle.frag.spv", layout, kSize, kSize});
	REQUIRE(pipeline != VK_NULL_HANDLE);
	TestBuffer readback = ctx->CreateBuffer(kSize * kSize * 4);
	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
		RecordDrawAndReadBack(cb, pipeline, image.image, view, kSize, kSize, VK_ATTACHMENT_LOAD_OP_CLEAR,
		                      {{0.0f, 0.0f, 0.0f, 1.0f}}, readback.buffer);
	});
	std::vector<uint8_t> texels(readback.data, readback.data + kSize * kSize * 4);
	CHECK(ctx->validation_errors() == 0);
	ctx->Destroy(readback);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyImageView(device, view, nullptr);
	ctx->Destroy(image);
	return texels;
}

}  // namespace

TEST_CASE("HLSL compute with semantic strings and an append buffer's counter runs as on lavapipe", "[hlsl]") {
	const uint32_t n = 1000;
	const AppendResult expected = ExpectedAppend(n);
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = Context::Create(driver, HlslOptions());
		REQUIRE(ctx);
		AppendResult got = RunAppend(*ctx, n);
		CHECK(got.counter == expected.counter);
		CHECK(got.squares == expected.squares);
		CHECK(got.odd == expected.odd);
		CHECK(ctx->validation_errors() == 0);
	}
}

TEST_CASE("an HLSL vertex and fragment shader pair draws what lavapipe draws", "[hlsl][draw]") {
	std::vector<uint8_t> ours = DrawHlslTriangle(Driver::Tessera), reference = DrawHlslTriangle(Driver::Lavapipe);
	REQUIRE(ours.size() == reference.size());
	// The same pixels covered; colors within 1 of lavapipe's (interpolation
	// rounding differs by at most that in the draw tests).
	uint32_t covered = 0;
	for (size_t p = 0; p < ours.size(); p += 4) {
		INFO("pixel " << p / 4 % kSize << ", " << p / 4 / kSize);
		const bool drawn = ours[p] || ours[p + 1] || ours[p + 2];
		REQUIRE(drawn == (reference[p] || reference[p + 1] || reference[p + 2]));
		covered += drawn;
		for (size_t c = 0; c < 4; ++c) REQUIRE(std::abs(int(ours[p + c]) - int(reference[p + c])) <= 1);
	}
	CHECK(covered > kSize * kSize / 4);  // the triangle is there
}

TEST_CASE("HLSL type strings (VK_GOOGLE_user_type) change nothing in what a kernel computes", "[hlsl]") {
	// Lavapipe 22.3 lacks the extension: the reference is the host's result.
	ContextOptions options = HlslOptions();
	options.device_extensions.push_back(VK_GOOGLE_USER_TYPE_EXTENSION_NAME);
	static VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.maintenance4 = VK_TRUE;  // (LocalSize only, but the same options as the corpus)
	options.device_features = &v13;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	const uint32_t n = 777;
	const AppendResult expected = ExpectedAppend(n);
	AppendResult got = RunAppend(*ctx, n, "hlsl_user_type.spv");
	CHECK(got.counter == expected.counter);
	CHECK(got.squares == expected.squares);
	CHECK(got.odd == expected.odd);
	CHECK(ctx->validation_errors() == 0);
}
