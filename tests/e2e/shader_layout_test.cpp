// Block layouts that only some enabled features make valid (Vulkan 1.3
// §15.6.4 "Offset and Stride Assignment"): vkCreateShaderModule must accept
// them when the application enabled the feature, and the shader must read
// the bytes at the offsets its decorations give. Checked against the host's
// values on Tessera and on lavapipe, with the validation layer on.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// Runs a corpus shader over buffers (uniform where the mask says so) on a
// device with uniformBufferStandardLayout and scalarBlockLayout enabled;
// returns the last buffer's contents.
std::vector<float> RunWithLayouts(Driver driver, const char* shader, const std::vector<std::vector<float>>& inputs,
                                  uint32_t uniform_bindings) {
	VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	features12.uniformBufferStandardLayout = VK_TRUE;
	features12.scalarBlockLayout = VK_TRUE;
	ContextOptions options;
	options.device_features = &features12;
	auto ctx = Context::Create(driver, options);
	REQUIRE(ctx);
	std::vector<uint32_t> spirv = LoadCorpusShader(TESSERA_SHADER_DIR, shader);
	REQUIRE(!spirv.empty());
	ComputeKernel kernel(*ctx, spirv, uint32_t(inputs.size()), 0, VK_NULL_HANDLE, 0, uniform_bindings);
	REQUIRE(kernel.ok());
	std::vector<TestBuffer> buffers;
	for (uint32_t i = 0; i < inputs.size(); ++i) {
		VkBufferUsageFlags usage =
		    (uniform_bindings >> i) & 1 ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
		buffers.push_back(ctx->CreateBuffer(inputs[i].size() * sizeof(float), usage));
		std::memcpy(buffers[i].data, inputs[i].data(), inputs[i].size() * sizeof(float));
		kernel.Bind(i, buffers[i].buffer);
	}
	ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, nullptr, 0, 1); });
	std::vector<float> out(inputs.back().size());
	std::memcpy(out.data(), buffers.back().data, out.size() * sizeof(float));
	for (TestBuffer& b : buffers) ctx->Destroy(b);
	CHECK(ctx->validation_errors() == 0);
	return out;
}

}  // namespace

TEST_CASE("a std430 uniform block is accepted with uniformBufferStandardLayout and read at its offsets",
          "[compute][spirv]") {
	// U.v is float[4] with ArrayStride 4: element i at byte 4 * i.
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		INFO(DriverName(driver));
		std::vector<float> out = RunWithLayouts(driver, "ubo_std430.spv", {{1, 2, 3, 4}, {0, 0, 0, 0}}, 1u);
		CHECK(out == std::vector<float>{2, 4, 6, 8});
	}
}

TEST_CASE("a scalar-layout storage block is accepted with scalarBlockLayout and read at its offsets",
          "[compute][spirv]") {
	// In.a at byte 0, In.b (a vec4) at byte 4.
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		INFO(DriverName(driver));
		std::vector<float> out = RunWithLayouts(driver, "scalar_layout.spv", {{5, 1, 2, 3, 4}, {0, 0, 0, 0, 0}}, 0u);
		CHECK(out == std::vector<float>{1, 2, 3, 4, 5});
	}
}
