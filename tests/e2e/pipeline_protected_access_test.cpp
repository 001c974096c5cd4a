// VK_EXT_pipeline_protected_access (pipelineProtectedAccess): pipelines made
// with VK_PIPELINE_CREATE_NO_PROTECTED_ACCESS_BIT_EXT run as without it, in
// the unprotected command buffers Tessera has (protectedMemory is false); a
// PROTECTED_ACCESS_ONLY pipeline can be made (binding it there would be
// invalid). Lavapipe 22.3 lacks the extension (lavapipe 25 offers it the
// same way), so Tessera's own pipelines without the flag are the reference.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

TEST_CASE("VK_EXT_pipeline_protected_access: pipelines without protected access run unchanged",
          "[pipeline][protected]") {
	SceneFeatures features;
	features.v13.maintenance4 = VK_TRUE;  // (reduce.spv's LocalSizeId)
	VkPhysicalDevicePipelineProtectedAccessFeaturesEXT access{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_PROTECTED_ACCESS_FEATURES_EXT};
	access.pipelineProtectedAccess = VK_TRUE;
	auto ctx = Context::Create(Driver::Tessera,
	                           features.OptionsWith(&access, VK_EXT_PIPELINE_PROTECTED_ACCESS_EXTENSION_NAME));
	REQUIRE(ctx);
	VkPhysicalDevicePipelineProtectedAccessFeaturesEXT offered{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_PROTECTED_ACCESS_FEATURES_EXT};
	VkPhysicalDeviceProtectedMemoryFeatures protected_memory{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES, &offered};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &protected_memory};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &f2);
	CHECK(offered.pipelineProtectedAccess == VK_TRUE);
	CHECK(protected_memory.protectedMemory == VK_FALSE);

	// Graphics: two overlapping colored triangles with and without the flag.
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.8f, 0.9f, 0.6f, 1.0f, 0.2f, 0.1f, 0.6f);
	Triangle(v, 0.9f, 0.9f, -0.7f, 0.8f, 0.8f, -0.9f, 0.3f, 0.1f, 0.6f, 0.9f, 0.5f);
	Scene s = ColorScene(v);
	s.draws = {{6, 1, 0, 0, 0}};
	const SceneResult plain = RenderScene(*ctx, s);
	s.pipeline_flags = VK_PIPELINE_CREATE_NO_PROTECTED_ACCESS_BIT_EXT;
	CHECK(RenderScene(*ctx, s).colors[0] == plain.colors[0]);
	size_t drawn = 0;
	for (size_t i = 0; i < plain.colors[0].size(); i += 4) drawn += plain.colors[0][i] != 0;
	CHECK(drawn > 1000);

	// Compute: a workgroup sum.
	for (VkPipelineCreateFlags flags :
	     {VkPipelineCreateFlags(0), VkPipelineCreateFlags(VK_PIPELINE_CREATE_NO_PROTECTED_ACCESS_BIT_EXT)}) {
		CAPTURE(flags);
		ComputeKernel kernel(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "reduce.spv"), 2, 0, VK_NULL_HANDLE, flags);
		REQUIRE(kernel.ok());
		TestBuffer in = ctx->CreateBuffer(256 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		TestBuffer out = ctx->CreateBuffer(4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		for (uint32_t i = 0; i < 256; ++i) {
			const uint32_t value = i * 3 + 1;
			std::memcpy(in.data + 4 * i, &value, 4);
		}
		kernel.Bind(0, in.buffer);
		kernel.Bind(1, out.buffer);
		ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, nullptr, 0, 1); });
		uint32_t sum = 0;
		std::memcpy(&sum, out.data, 4);
		CHECK(sum == 3u * 255u * 256u / 2u + 256u);
		ctx->Destroy(in);
		ctx->Destroy(out);
	}

	// A pipeline only for protected command buffers is made (never bound).
	ComputeKernel protected_only(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "reduce.spv"), 2, 0, VK_NULL_HANDLE,
	                             VK_PIPELINE_CREATE_PROTECTED_ACCESS_ONLY_BIT_EXT);
	CHECK(protected_only.ok());
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx->validation_errors() == 0);
}
