// VK_KHR_dynamic_rendering_local_read: color attachment locations remapped
// inside dynamic rendering (the attachment's blend state and write mask stay
// with it), and the input attachment index command accepted. Tessera alone,
// without the validation layer: lavapipe 22.3 and the layer's 1.3.239
// release predate the extension. The references are scenes drawn without
// it. Input attachment reads inside dynamic rendering are judged by the
// CTS's renderpasses.dynamic_rendering.*.local_read group
// (tests/cts/README.md).
#include <catch2/catch.hpp>

#include <vector>

#include "draw_scene_helpers.h"
#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

struct LocalRead {
	VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR};
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &features};
	LocalRead() {
		features.dynamicRenderingLocalRead = VK_TRUE;
		v13.dynamicRendering = VK_TRUE;
	}
	ContextOptions Options() const {
		ContextOptions options;
		options.validation = false;
		options.device_extensions = {VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME};
		options.device_features = &v13;
		return options;
	}
};

// Two attachments drawn by scene_mrt.frag: Location 0 the color, Location 1
// its channels reversed; attachment 0 blends nothing and writes only R and A
// so that the blend state visibly stays with the attachment.
Scene TwoOutputs() {
	std::vector<Vertex> v;
	Triangle(v, -0.8f, -0.8f, 0.9f, -0.6f, -0.2f, 0.9f, 0.5f, 0.9f, 0.3f, 0.1f);
	Scene s = ColorScene(v);
	s.dynamic_rendering = true;
	s.fragment_shader = "scene_mrt.frag.spv";
	s.color_attachments = 2;
	return s;
}

}  // namespace

TEST_CASE("VK_KHR_dynamic_rendering_local_read: remapped locations reach the attachments they name",
          "[draw][local_read]") {
	LocalRead lr;
	auto ctx = Context::Create(Driver::Tessera, lr.Options());
	REQUIRE(ctx);
	auto set_locations =
	    ctx->Proc<PFN_vkCmdSetRenderingAttachmentLocationsKHR>("vkCmdSetRenderingAttachmentLocationsKHR");
	auto set_indices =
	    ctx->Proc<PFN_vkCmdSetRenderingInputAttachmentIndicesKHR>("vkCmdSetRenderingInputAttachmentIndicesKHR");
	REQUIRE(set_locations);
	REQUIRE(set_indices);

	const Scene plain = TwoOutputs();
	const SceneResult identity = RenderScene(*ctx, plain);
	REQUIRE(identity.colors.size() == 2);
	REQUIRE(identity.colors[0] != identity.colors[1]);

	for (const std::vector<uint32_t>& locations :
	     {std::vector<uint32_t>{1, 0}, std::vector<uint32_t>{VK_ATTACHMENT_UNUSED, 0}}) {
		CAPTURE(locations[0]);
		Scene s = TwoOutputs();
		VkRenderingAttachmentLocationInfoKHR info{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR};
		info.colorAttachmentCount = 2;
		info.pColorAttachmentLocations = locations.data();
		s.configure = [&](PipelineState& p) { p.rendering_next = &info; };
		s.before_draws = [&](VkCommandBuffer cb) { set_locations(cb, &info); };
		const SceneResult remapped = RenderScene(*ctx, s);
		// Attachment 1 takes Location 0: what attachment 0 got unmapped.
		CompareImages("local-read-remap-1", s.width, s.height, remapped.colors[1], identity.colors[0], 0);
		if (locations[0] == 1) {
			CompareImages("local-read-remap-0", s.width, s.height, remapped.colors[0], identity.colors[1], 0);
		} else {
			// No Location: attachment 0 keeps its clear color everywhere.
			Scene cleared = TwoOutputs();
			cleared.draws.clear();
			const SceneResult untouched = RenderScene(*ctx, cleared);
			CompareImages("local-read-unused-0", s.width, s.height, remapped.colors[0], untouched.colors[0], 0);
		}
	}

	// The blend state stays with the attachment: attachment 0, taking
	// Location 1 (the reversed color), writes only its R and A.
	Scene masked = TwoOutputs();
	const uint32_t swap[2] = {1, 0};
	VkRenderingAttachmentLocationInfoKHR info{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR, nullptr, 2,
	                                          swap};
	masked.configure = [&](PipelineState& p) {
		p.blend_attachments[0].colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT;
		p.rendering_next = &info;
	};
	masked.before_draws = [&](VkCommandBuffer cb) { set_locations(cb, &info); };
	const SceneResult remapped = RenderScene(*ctx, masked);
	// Expected: Location 1's values (attachment 1 unmapped) with G and B
	// left at the clear color, which pixel (0, 0), outside the triangle, has.
	std::vector<uint8_t> expected = identity.colors[1];
	for (size_t i = 0; i < expected.size(); i += 4) {
		expected[i + 1] = identity.colors[1][1];
		expected[i + 2] = identity.colors[1][2];
	}
	CompareImages("local-read-mask", masked.width, masked.height, remapped.colors[0], expected, 0);
	// vkCmdSetRenderingInputAttachmentIndicesKHR is accepted; input
	// attachments are read through their descriptors whatever it says.
	Scene indexed = TwoOutputs();
	const uint32_t inputs[2] = {1, 0};
	VkRenderingInputAttachmentIndexInfoKHR input_info{
	    VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR, nullptr, 2, inputs, nullptr, nullptr};
	indexed.configure = [&](PipelineState& p) { p.rendering_next = &input_info; };
	indexed.before_draws = [&](VkCommandBuffer cb) { set_indices(cb, &input_info); };
	const SceneResult with_indices = RenderScene(*ctx, indexed);
	CompareImages("local-read-indices", indexed.width, indexed.height, with_indices.colors[0], identity.colors[0], 0);
}
