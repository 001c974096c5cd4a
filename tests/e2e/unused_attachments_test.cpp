// VK_EXT_dynamic_rendering_unused_attachments: a pipeline's color formats
// and a render pass instance's views may disagree where one side has no
// attachment. A view the pipeline has no format for (past its count, or
// VK_FORMAT_UNDEFINED) is not written; a format with no view writes
// nothing. (The CTS's renderpasses.dynamic_rendering.*.unused_attachments.*
// checks the same: its extra_render_att cases failed while Tessera wrote
// every bound view.) Tessera alone, without the validation layer: lavapipe
// 22.3 and the layer's 1.3.239 release predate the extension.
#include <catch2/catch.hpp>

#include <vector>

#include "draw_scene_helpers.h"
#include "icd/vulkan_newer.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

TEST_CASE("VK_EXT_dynamic_rendering_unused_attachments: views the pipeline has no format for keep their values",
          "[draw][rendering]") {
	VkPhysicalDeviceDynamicRenderingUnusedAttachmentsFeaturesEXT unused{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_UNUSED_ATTACHMENTS_FEATURES_EXT};
	unused.dynamicRenderingUnusedAttachments = VK_TRUE;
	SceneFeatures features;
	ContextOptions options = features.OptionsWith(&unused, VK_EXT_DYNAMIC_RENDERING_UNUSED_ATTACHMENTS_EXTENSION_NAME);
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);

	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.1f, 0.9f, 0.3f, 1, 0, 0);
	Triangle(v, 0.9f, 0.9f, -0.9f, 0.5f, 0.2f, -0.9f, 0.6f, 0, 1, 0.5f);
	Scene s = ColorScene(v);
	s.dynamic_rendering = true;
	s.color_attachments = 2;
	s.fragment_shader = "scene_mrt.frag.spv";  // writes both locations
	const SceneResult both = RenderScene(*ctx, s);
	Scene cleared = s;
	cleared.draws.clear();
	const SceneResult none = RenderScene(*ctx, cleared);
	REQUIRE(both.colors[0] != none.colors[0]);  // the draws show
	REQUIRE(both.colors[1] != none.colors[1]);

	const VkFormat f = s.color_format, undefined = VK_FORMAT_UNDEFINED;
	struct Case {
		std::vector<VkFormat> formats;  // the pipeline's
		bool writes[2];                 // which views it writes
	};
	const Case cases[] = {
	    {{f}, {true, false}},             // fewer formats than views
	    {{f, undefined}, {true, false}},  // an UNDEFINED format
	    {{undefined, f}, {false, true}},
	    {{undefined, undefined}, {false, false}},
	    {{f, f, f}, {true, true}},  // a format past the views: nothing to write there
	};
	for (const Case& c : cases) {
		CAPTURE(c.formats.size(), c.formats[0], c.formats[1 % c.formats.size()]);
		Scene t = s;
		t.configure = [&c](PipelineState& p) {
			p.color_formats = c.formats;
			p.blend_attachments.resize(c.formats.size(), p.blend_attachments[0]);
		};
		const SceneResult r = RenderScene(*ctx, t);
		for (int a = 0; a < 2; ++a) {
			CAPTURE(a);
			CHECK(r.colors[a] == (c.writes[a] ? both.colors[a] : none.colors[a]));
		}
	}
}
