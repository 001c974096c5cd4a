// VK_EXT_discard_rectangles (Vulkan "Discard Rectangles Test"): a sample
// inside none of the discard rectangles (inclusive) or inside one of them
// (exclusive) loses its coverage; the scissor test still applies. A white
// quad over the whole framebuffer (three 64-pixel tiles across, two down)
// against rectangles that overlap, cross tile edges, run past the
// framebuffer and are empty: every pixel must be white exactly where the
// test keeps it and the clear color elsewhere, per pixel from the spec's
// rule. Lavapipe 22.3 lacks the extension, so the rule is the reference.
// Specification version 1 (static and dynamic rectangles) runs with the
// validation layer; version 2's dynamic enable and mode without it (the
// layer's 1.3.239 release predates them).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "draw_scene_helpers.h"
#include "icd/vulkan_newer.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

constexpr uint32_t kWidth = 160, kHeight = 96;

const VkRect2D kRectangles[] = {
    {{10, 5}, {50, 40}},      // overlaps the next
    {{40, 30}, {80, 50}},     // crosses the tile edges at x = 64 and 128
    {{130, 70}, {100, 100}},  // runs past the framebuffer
    {{20, 80}, {0, 0}},       // empty: never holds a pixel
};
constexpr uint32_t kCount = uint32_t(std::size(kRectangles));

bool Inside(const VkRect2D& r, int64_t x, int64_t y) {
	return x >= r.offset.x && x < int64_t(r.offset.x) + r.extent.width && y >= r.offset.y &&
	       y < int64_t(r.offset.y) + r.extent.height;
}

// A quad over the whole framebuffer at z = 0.5, white.
Scene WhiteQuad() {
	std::vector<Vertex> v;
	Triangle(v, -1, -1, 1, -1, -1, 1, 0.5f, 1, 1, 1);
	Triangle(v, 1, -1, 1, 1, -1, 1, 0.5f, 1, 1, 1);
	Scene s = ColorScene(v);
	s.width = kWidth, s.height = kHeight;
	s.clear_color = {{0, 0, 0, 1}};
	s.draws = {{uint32_t(v.size()), 1, 0, 0, 0}};
	return s;
}

// Pixels that differ from what the rule gives: white where a pixel inside
// the scissor passes the test (count rectangles, inclusive or exclusive),
// black elsewhere.
uint32_t WrongPixels(const std::vector<uint8_t>& image, const VkRect2D* rectangles, uint32_t count, bool inclusive,
                     const VkRect2D& scissor) {
	uint32_t wrong = 0;
	for (uint32_t y = 0; y < kHeight; ++y)
		for (uint32_t x = 0; x < kWidth; ++x) {
			bool inside = false;
			for (uint32_t k = 0; k < count; ++k) inside |= Inside(rectangles[k], x, y);
			const bool kept = (count == 0 || inside == inclusive) && Inside(scissor, x, y);
			const uint8_t* p = &image[4 * (size_t(y) * kWidth + x)];
			const uint8_t want = kept ? 255 : 0;
			if (p[0] != want || p[1] != want || p[2] != want) ++wrong;
		}
	return wrong;
}

}  // namespace

TEST_CASE("VK_EXT_discard_rectangles: inclusive and exclusive rectangles, static or dynamic",
          "[draw][discard_rectangles]") {
	SceneFeatures features;
	VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT library{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
	library.graphicsPipelineLibrary = VK_TRUE;
	ContextOptions options = features.OptionsWith(&library, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME);
	options.device_extensions.push_back(VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME);
	options.device_extensions.push_back(VK_EXT_DISCARD_RECTANGLES_EXTENSION_NAME);
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	{
		VkPhysicalDeviceDiscardRectanglePropertiesEXT props{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DISCARD_RECTANGLE_PROPERTIES_EXT};
		VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &props};
		vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p2);
		REQUIRE(props.maxDiscardRectangles >= 4);  // the spec's minimum
	}
	auto set_rectangles = ctx->Proc<PFN_vkCmdSetDiscardRectangleEXT>("vkCmdSetDiscardRectangleEXT");
	REQUIRE(set_rectangles);

	struct Case {
		std::string name;
		bool inclusive = true;
		bool dynamic = false;      // VK_DYNAMIC_STATE_DISCARD_RECTANGLE_EXT
		bool libraries = false;    // four graphics pipeline libraries, linked
		bool depth = false;        // a depth test (the early-test paths)
		bool multisample = false;  // 4 samples, resolved
		bool scissor = false;      // a scissor the test keeps
		uint32_t count = kCount;
	};
	const Case cases[] = {
	    {"inclusive", true},
	    {"exclusive", false},
	    {"dynamic-exclusive", false, true},
	    {"dynamic-inclusive", true, true},
	    {"libraries", true, false, true},
	    {"libraries-dynamic", false, true, true},
	    {"depth-inclusive", true, false, false, true},
	    {"depth-exclusive", false, false, false, true},
	    {"multisample", false, false, false, false, true},
	    {"multisample-depth", true, false, false, true, true},
	    {"scissor", true, false, false, false, false, true},
	    {"no-rectangles-inclusive", true, false, false, false, false, false, 0},
	    {"one-rectangle-exclusive", false, false, false, false, false, false, 1},
	};
	for (const Case& c : cases) {
		CAPTURE(c.name);
		Scene s = WhiteQuad();
		const VkRect2D whole{{0, 0}, {kWidth, kHeight}};
		const VkRect2D scissor = c.scissor ? VkRect2D{{25, 12}, {100, 60}} : whole;
		if (c.scissor) s.scissor = scissor;
		if (c.depth) s.depth_format = VK_FORMAT_D32_SFLOAT;
		if (c.multisample) s.samples = VK_SAMPLE_COUNT_4_BIT;
		s.pipeline_libraries = c.libraries;
		// The pipeline's rectangles: garbage-free but wrong where they are
		// dynamic (the dynamic ones must replace them).
		static const VkRect2D kDecoys[kCount] = {{{0, 0}, {kWidth, kHeight}}, {}, {}, {}};
		VkPipelineDiscardRectangleStateCreateInfoEXT discard{
		    VK_STRUCTURE_TYPE_PIPELINE_DISCARD_RECTANGLE_STATE_CREATE_INFO_EXT};
		discard.discardRectangleMode =
		    c.inclusive ? VK_DISCARD_RECTANGLE_MODE_INCLUSIVE_EXT : VK_DISCARD_RECTANGLE_MODE_EXCLUSIVE_EXT;
		discard.discardRectangleCount = c.count;
		discard.pDiscardRectangles = c.count == 0 ? nullptr : c.dynamic ? kDecoys : kRectangles;
		s.configure = [&](PipelineState& p) {
			p.pipeline_next = &discard;
			if (c.depth) DepthLess(p);
			if (c.dynamic) p.dynamic_states.push_back(VK_DYNAMIC_STATE_DISCARD_RECTANGLE_EXT);
		};
		if (c.dynamic)
			s.before_draws = [&](VkCommandBuffer cb) {
				set_rectangles(cb, 0, 2, kRectangles);  // two calls: each sets its range
				set_rectangles(cb, 2, c.count - 2, kRectangles + 2);
			};
		const SceneResult r = RenderScene(*ctx, s);
		REQUIRE(r.colors[0].size() == size_t(kWidth) * kHeight * 4);
		CHECK(WrongPixels(r.colors[0], kRectangles, c.count, c.inclusive, scissor) == 0);
	}
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("VK_EXT_discard_rectangles: the dynamic enable and mode (specification version 2)",
          "[draw][discard_rectangles]") {
	SceneFeatures features;
	ContextOptions options = features.Options();
	options.device_extensions.push_back(VK_EXT_DISCARD_RECTANGLES_EXTENSION_NAME);
	options.validation = false;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	{
		uint32_t n = 0;
		vkEnumerateDeviceExtensionProperties(ctx->physical_device(), nullptr, &n, nullptr);
		std::vector<VkExtensionProperties> extensions(n);
		vkEnumerateDeviceExtensionProperties(ctx->physical_device(), nullptr, &n, extensions.data());
		uint32_t version = 0;
		for (const VkExtensionProperties& e : extensions)
			if (std::string(e.extensionName) == VK_EXT_DISCARD_RECTANGLES_EXTENSION_NAME) version = e.specVersion;
		REQUIRE(version >= 2);
	}
	auto set_rectangles = ctx->Proc<PFN_vkCmdSetDiscardRectangleEXT>("vkCmdSetDiscardRectangleEXT");
	auto set_enable = ctx->Proc<PFN_vkCmdSetDiscardRectangleEnableEXT>("vkCmdSetDiscardRectangleEnableEXT");
	auto set_mode = ctx->Proc<PFN_vkCmdSetDiscardRectangleModeEXT>("vkCmdSetDiscardRectangleModeEXT");
	REQUIRE(set_rectangles);
	REQUIRE(set_enable);
	REQUIRE(set_mode);
	VkPhysicalDeviceDiscardRectanglePropertiesEXT props{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DISCARD_RECTANGLE_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &props};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p2);
	// All of [0, maxDiscardRectangles) set, as the spec asks when the
	// pipeline has no structure: ours, then empty ones.
	std::vector<VkRect2D> all(props.maxDiscardRectangles, VkRect2D{});
	std::copy(kRectangles, kRectangles + kCount, all.begin());

	struct Case {
		std::string name;
		bool structure;  // the pipeline has a VkPipelineDiscardRectangleStateCreateInfoEXT
		bool enable;
		bool inclusive;
	};
	const Case cases[] = {
	    {"all-dynamic-off", false, false, true},
	    {"all-dynamic-inclusive", false, true, true},
	    {"all-dynamic-exclusive", false, true, false},
	    // The structure's mode (inclusive) is ignored: the dynamic one counts.
	    {"structure-exclusive", true, true, false},
	    {"structure-off", true, false, false},
	};
	for (const Case& c : cases) {
		CAPTURE(c.name);
		Scene s = WhiteQuad();
		VkPipelineDiscardRectangleStateCreateInfoEXT discard{
		    VK_STRUCTURE_TYPE_PIPELINE_DISCARD_RECTANGLE_STATE_CREATE_INFO_EXT};
		discard.discardRectangleMode = VK_DISCARD_RECTANGLE_MODE_INCLUSIVE_EXT;
		discard.discardRectangleCount = kCount;
		s.configure = [&](PipelineState& p) {
			if (c.structure) p.pipeline_next = &discard;
			for (VkDynamicState d :
			     {VK_DYNAMIC_STATE_DISCARD_RECTANGLE_EXT, VK_DYNAMIC_STATE_DISCARD_RECTANGLE_ENABLE_EXT,
			      VK_DYNAMIC_STATE_DISCARD_RECTANGLE_MODE_EXT})
				p.dynamic_states.push_back(d);
		};
		s.before_draws = [&](VkCommandBuffer cb) {
			set_rectangles(cb, 0, uint32_t(all.size()), all.data());
			set_mode(cb,
			         c.inclusive ? VK_DISCARD_RECTANGLE_MODE_INCLUSIVE_EXT : VK_DISCARD_RECTANGLE_MODE_EXCLUSIVE_EXT);
			set_enable(cb, c.enable ? VK_TRUE : VK_FALSE);
		};
		const SceneResult r = RenderScene(*ctx, s);
		REQUIRE(r.colors[0].size() == size_t(kWidth) * kHeight * 4);
		const VkRect2D whole{{0, 0}, {kWidth, kHeight}};
		CHECK(WrongPixels(r.colors[0], kRectangles, c.enable ? kCount : 0, c.inclusive, whole) == 0);
	}
}
