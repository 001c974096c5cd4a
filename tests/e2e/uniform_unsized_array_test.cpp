// VK_EXT_shader_uniform_buffer_unsized_array: a uniform block whose last
// member is an unsized array takes the array's length from the bound range
// (shaders/uniform_unsized_array.spvasm: Out.o[i] = U.tail[i] * U.head +
// U.tail[3]). Through the loader with the feature enabled, over two bound
// ranges of different lengths of one buffer; checked against the host's
// arithmetic. Tessera alone, without the validation layer: lavapipe 22.3 and
// the layer's 1.3.239 release predate the extension (the CTS's ubo cases
// with unsized arrays are the wider check).
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

TEST_CASE("VK_EXT_shader_uniform_buffer_unsized_array: an unsized array ends a uniform block",
          "[compute][uniform_unsized_array]") {
	VkPhysicalDeviceShaderUniformBufferUnsizedArrayFeaturesEXT feature{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_UNIFORM_BUFFER_UNSIZED_ARRAY_FEATURES_EXT};
	{
		auto probe = Context::Create(Driver::Tessera);
		REQUIRE(probe);
		VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &feature};
		vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
		REQUIRE(feature.shaderUniformBufferUnsizedArray == VK_TRUE);
	}
	ContextOptions options;
	options.validation = false;
	options.device_features = &feature;
	options.device_extensions = {VK_EXT_SHADER_UNIFORM_BUFFER_UNSIZED_ARRAY_EXTENSION_NAME};
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	const std::vector<uint32_t> spirv = LoadCorpusShader(TESSERA_SHADER_DIR, "uniform_unsized_array.spv");
	REQUIRE(!spirv.empty());
	ComputeKernel kernel(*ctx, spirv, 2, 0, VK_NULL_HANDLE, 0, 1u);
	REQUIRE(kernel.ok());

	for (uint32_t length : {64u, 192u}) {
		INFO("array length " << length);
		const size_t uniform_floats = 4 + 4 * size_t(length);
		TestBuffer uniform = ctx->CreateBuffer(uniform_floats * 4, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
		TestBuffer out = ctx->CreateBuffer(size_t(length) * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		std::vector<float> u(uniform_floats);
		for (size_t k = 0; k < u.size(); ++k) u[k] = float((k * 7 + length) % 41) - 9.0f;
		std::memcpy(uniform.data, u.data(), u.size() * 4);
		std::memset(out.data, 0xcd, size_t(length) * 16);
		kernel.Bind(0, uniform.buffer);
		kernel.Bind(1, out.buffer);
		ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, nullptr, 0, length / 64); });
		std::vector<float> o(size_t(length) * 4);
		std::memcpy(o.data(), out.data, o.size() * 4);
		for (uint32_t i = 0; i < length; ++i)
			for (uint32_t c = 0; c < 4; ++c) {
				INFO("element " << i << ", component " << c);
				CHECK(o[4 * i + c] == u[4 + 4 * i + c] * u[c] + u[4 + 4 * 3 + c]);
			}
		ctx->Destroy(uniform);
		ctx->Destroy(out);
	}
}
