// Draw commands and render pass forms against lavapipe: vkCmdDrawIndirect,
// vkCmdDrawIndexedIndirect and their *Count forms with several draws,
// vkCmdClearAttachments, two subpasses, imageless framebuffers, dynamic
// rendering, and 4x MSAA resolved by a render pass and by dynamic
// rendering. Tolerances: draw_ids scenes write flat integers converted
// exactly (tolerance 0); color scenes 2 codes (draw_scene_helpers.h);
// MSAA: the standard 4-sample locations (§28.4, both drivers report
// standardSampleLocations) give exact coverage per sample, and the resolve
// averages 4 samples (§19.x: implementation rounding, 1 more code).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

Scene IdsScene() {
	std::vector<float> positions;
	for (int i = 0; i < 12; ++i) {
		float x = -0.95f + 0.3f * float(i % 3), y = -0.95f + 0.45f * float(i / 3);
		positions.insert(positions.end(),
		                 {x, y, 0.5f, 1, x + 0.25f, y + 0.05f, 0.5f, 1, x + 0.05f, y + 0.35f, 0.5f, 1});
	}
	Scene s;
	s.vertex_shader = "draw_ids.vert.spv";
	s.fragment_shader = "draw_ids.frag.spv";
	s.vertices = Bytes(positions);
	s.vertex_stride = 16;
	s.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
	return s;
}

template <typename T>
void Append(std::vector<uint8_t>& out, const T& value) {
	const uint8_t* p = reinterpret_cast<const uint8_t*>(&value);
	out.insert(out.end(), p, p + sizeof value);
}

}  // namespace

// §21.3.x: gl_DrawID is the draw's index within the indirect command;
// firstInstance from the buffer (drawIndirectFirstInstance); stride between
// records; the count read from the count buffer, capped by maxDrawCount.
TEST_CASE("indirect draws and their count forms match lavapipe", "[draw][commands]") {
	ScenePair pair;
	SECTION("vkCmdDrawIndirect and vkCmdDrawIndirectCount") {
		Scene s = IdsScene();
		// Records 20 bytes apart (stride 20: 16 + 4 bytes of padding).
		const VkDrawIndirectCommand records[] = {{6, 2, 0, 1}, {3, 1, 9, 0}, {6, 1, 18, 5}, {3, 3, 30, 2}};
		for (const auto& r : records) {
			Append(s.indirect_data, r);
			Append(s.indirect_data, uint32_t(0xdeadbeef));
		}
		const uint32_t count_offset = uint32_t(s.indirect_data.size());
		Append(s.indirect_data, uint32_t(3));
		s.record_draws = [count_offset](VkCommandBuffer cb, const Scene::Buffers& buffers) {
			const VkBuffer indirect = buffers.indirect;
			vkCmdDrawIndirect(cb, indirect, 0, 2, 20);
			// Count 3 from the buffer, capped at 2: records 2 and 3 (offset 40).
			vkCmdDrawIndirectCount(cb, indirect, 40, indirect, count_offset, 2, 20);
			// Count 3 capped at maxDrawCount 1: record 1 alone.
			vkCmdDrawIndirectCount(cb, indirect, 20, indirect, count_offset, 1, 20);
		};
		pair.Compare("draw-indirect", s, 0);
	}
	SECTION("vkCmdDrawIndexedIndirect and vkCmdDrawIndexedIndirectCount") {
		Scene s = IdsScene();
		s.indices = {5, 6, 7, 2, 1, 0, 11, 10, 9, 20, 21, 22, 33, 34, 35};
		const VkDrawIndexedIndirectCommand records[] = {
		    {6, 2, 0, -2, 5}, {3, 1, 6, 3, 1}, {3, 2, 12, -30, 9}, {6, 1, 6, 10, 0}, {3, 1, 0, 20, 3}};
		for (const auto& r : records) Append(s.indirect_data, r);
		const uint32_t count_offset = uint32_t(s.indirect_data.size());
		Append(s.indirect_data, uint32_t(1));
		s.record_draws = [count_offset](VkCommandBuffer cb, const Scene::Buffers& buffers) {
			const VkBuffer indirect = buffers.indirect;
			vkCmdDrawIndexedIndirect(cb, indirect, 0, 3, sizeof(VkDrawIndexedIndirectCommand));
			// maxDrawCount 2, the buffer's count 1: record 3 only.
			vkCmdDrawIndexedIndirectCount(cb, indirect, 3 * sizeof(VkDrawIndexedIndirectCommand), indirect,
			                              count_offset, 2, sizeof(VkDrawIndexedIndirectCommand));
		};
		pair.Compare("draw-indexed-indirect", s, 0);
	}
}

TEST_CASE("vkCmdClearAttachments matches lavapipe", "[draw][commands]") {
	ScenePair pair;
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.1f, 0.9f, 0.3f, 1, 0, 0);
	Triangle(v, 0.9f, 0.9f, -0.9f, 0.5f, 0.2f, -0.9f, 0.6f, 0, 1, 0);
	for (bool dynamic_rendering : {false, true}) {
		CAPTURE(dynamic_rendering);
		Scene s = ColorScene(v);
		s.dynamic_rendering = dynamic_rendering;
		s.color_attachments = 2;
		s.fragment_shader = "scene_mrt.frag.spv";
		s.depth_format = VK_FORMAT_D24_UNORM_S8_UINT;
		s.configure = DepthLess;
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			vkCmdDraw(cb, 3, 1, 0, 0);
			// Colors of k/255 (exact), depth 0.4 in a rect the second
			// triangle then fails in, attachment 1 in two rects.
			VkClearAttachment clears[3] = {};
			clears[0].aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
			clears[0].colorAttachment = 0;
			clears[0].clearValue.color = {{51 / 255.0f, 102 / 255.0f, 1.0f, 1.0f}};
			clears[1].aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
			clears[1].clearValue.depthStencil = {0.4f, 7};
			clears[2].aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
			clears[2].colorAttachment = 1;
			clears[2].clearValue.color = {{1.0f, 0.0f, 153 / 255.0f, 0.0f}};
			VkClearRect rects[2] = {{{{8, 4}, {20, 30}}, 0, 1}, {{{30, 40}, {34, 10}}, 0, 1}};
			vkCmdClearAttachments(cb, 3, clears, 2, rects);
			vkCmdDraw(cb, 3, 1, 3, 0);
		};
		auto [a, b] = pair.Render(s);
		CompareImages("clear-attachments-0", s.width, s.height, a.colors[0], b.colors[0], 2);
		CompareImages("clear-attachments-1", s.width, s.height, a.colors[1], b.colors[1], 2);
		CHECK(a.stencil == b.stencil);
	}
}

// §19.x: each rect clears layers [baseArrayLayer, +layerCount) of the
// attachments as the framebuffer (or rendering) sees them.
TEST_CASE("vkCmdClearAttachments on several layers matches lavapipe", "[draw][commands]") {
	ScenePair pair;
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.1f, 0.9f, 0.3f, 1, 0, 0);
	for (bool dynamic_rendering : {false, true}) {
		CAPTURE(dynamic_rendering);
		Scene s = ColorScene(v);
		s.width = s.height = 32;
		s.layers = 3;
		s.dynamic_rendering = dynamic_rendering;
		s.depth_format = VK_FORMAT_S8_UINT;
		s.clear_color = {{0, 51 / 255.0f, 0, 1}};
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			vkCmdDraw(cb, 3, 1, 0, 0);
			VkClearAttachment clears[2] = {};
			clears[0].aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
			clears[0].clearValue.color = {{1.0f, 102 / 255.0f, 0.0f, 1.0f}};
			clears[1].aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
			clears[1].clearValue.depthStencil = {0.0f, 9};
			VkClearRect rects[3] = {{{{2, 3}, {10, 20}}, 0, 1}, {{{12, 5}, {15, 9}}, 1, 2}, {{{0, 20}, {32, 4}}, 2, 1}};
			vkCmdClearAttachments(cb, 2, clears, 3, rects);
		};
		auto [a, b] = pair.Render(s);
		CompareImages("clear-attachments-layers", s.width, s.height * s.layers, a.colors[0], b.colors[0], 2);
		CHECK(a.stencil == b.stencil);
	}
}

TEST_CASE("two subpasses and imageless framebuffers match lavapipe", "[draw][commands]") {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.1f, 0.9f, 0.5f, 1, 0, 0);
	Triangle(v, 0.9f, 0.9f, -0.9f, 0.5f, 0.2f, -0.9f, 0.3f, 0, 1, 0, 0.5f);
	ScenePair pair;
	for (bool imageless : {false, true}) {
		CAPTURE(imageless);
		Scene s = ColorScene(v);
		s.imageless_framebuffer = imageless;
		s.depth_format = VK_FORMAT_D32_SFLOAT;
		// Subpass 0 draws the first triangle; subpass 1 (same attachments,
		// reads nothing) blends the second over it, depth-tested against
		// subpass 0's depth.
		s.draws = {{3, 1, 0, 0, 0}};
		s.second_subpass_draws = {{3, 1, 3, 0, 0}};
		s.configure = [](PipelineState& p) {
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
			p.blend_attachments[0].blendEnable = VK_TRUE;
			p.blend_attachments[0].srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
			p.blend_attachments[0].dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
			p.blend_attachments[0].srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
			p.blend_attachments[0].dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
		};
		pair.Compare(imageless ? "subpasses-imageless" : "subpasses", s, 2);
	}
	SECTION("imageless, one subpass, MSAA resolve") {
		Scene s = ColorScene(v);
		s.imageless_framebuffer = true;
		s.samples = VK_SAMPLE_COUNT_4_BIT;
		s.draws = {{6, 1, 0, 0, 0}};
		pair.Compare("imageless-msaa", s, 3);
	}
}

TEST_CASE("4x MSAA resolved by a render pass and by dynamic rendering matches lavapipe", "[draw][commands]") {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.7f, -0.3f, 0.9f, 0.5f, 1, 0, 0);
	Triangle(v, 0.95f, 0.9f, -0.9f, 0.55f, 0.25f, -0.95f, 0.4f, 0, 1, 0, 0.5f);
	// Thin slivers: edges through many sample positions.
	Triangle(v, -0.95f, 0.0f, 0.95f, 0.05f, 0.95f, 0.08f, 0.3f, 0, 0, 1);
	ScenePair pair;
	for (bool dynamic_rendering : {false, true}) {
		for (VkFormat depth : {VK_FORMAT_UNDEFINED, VK_FORMAT_D32_SFLOAT}) {
			CAPTURE(dynamic_rendering, depth);
			Scene s = ColorScene(v);
			s.dynamic_rendering = dynamic_rendering;
			s.samples = VK_SAMPLE_COUNT_4_BIT;
			s.depth_format = depth;
			s.draws = {{9, 1, 0, 0, 0}};
			s.configure = [](PipelineState& p) {
				p.depth_stencil.depthTestEnable = VK_TRUE;
				p.depth_stencil.depthWriteEnable = VK_TRUE;
				p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
				p.sample_mask = 0xd;  // sample 1 never written: stays the clear color
			};
			pair.Compare(dynamic_rendering ? "msaa-dynamic" : "msaa", s, 3);
		}
	}
}

// §8.x (render pass and dynamic rendering resolve) with VkPhysicalDeviceDepthStencilResolve-
// Properties: SAMPLE_ZERO is the mode both drivers support; the resolved
// depth/stencil is sample 0 of each pixel. Stencil exact; depth within 1e-4
// (z interpolated from snapped or unsnapped vertices, see
// draw_depth_test.cpp) and coverage of sample 0 exact.
TEST_CASE("depth/stencil resolve in render passes and dynamic rendering matches lavapipe", "[draw][commands]") {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.7f, -0.3f, 0.9f, 0.5f, 1, 0, 0);
	Triangle(v, 0.95f, 0.9f, -0.9f, 0.55f, 0.25f, -0.95f, 0.25f, 0, 1, 0);
	ScenePair pair;
	for (auto [format, dynamic_rendering] :
	     {std::pair{VK_FORMAT_D32_SFLOAT, true}, std::pair{VK_FORMAT_D24_UNORM_S8_UINT, true},
	      std::pair{VK_FORMAT_S8_UINT, true}, std::pair{VK_FORMAT_D32_SFLOAT, false},
	      std::pair{VK_FORMAT_D24_UNORM_S8_UINT, false}}) {
		CAPTURE(format, dynamic_rendering);
		Scene s = ColorScene(v);
		s.dynamic_rendering = dynamic_rendering;
		s.samples = VK_SAMPLE_COUNT_4_BIT;
		s.depth_format = format;
		s.resolve_depth_stencil = true;
		s.clear_depth_stencil = {0.75f, 1};
		s.draws = {{6, 1, 0, 0, 0}};
		s.configure = [](PipelineState& p) { DepthLessStencilCount(p); };
		auto [a, b] = pair.Render(s);
		CompareImages("resolve-ds", s.width, s.height, a.colors[0], b.colors[0], 3);
		CHECK(a.stencil == b.stencil);
		REQUIRE(a.depth.size() == b.depth.size());
		if (format == VK_FORMAT_D32_SFLOAT) {
			std::vector<float> da(a.depth.size() / 4), db(b.depth.size() / 4);
			std::memcpy(da.data(), a.depth.data(), a.depth.size());
			std::memcpy(db.data(), b.depth.data(), b.depth.size());
			float worst = 0;
			for (size_t i = 0; i < da.size(); ++i) worst = std::max(worst, std::fabs(da[i] - db[i]));
			CHECK(worst <= 1e-4f);
		} else if (format == VK_FORMAT_D24_UNORM_S8_UINT) {
			int worst = 0;
			for (size_t i = 0; i + 4 <= a.depth.size(); i += 4) {
				uint32_t x, y;
				std::memcpy(&x, &a.depth[i], 4);
				std::memcpy(&y, &b.depth[i], 4);
				worst = std::max(worst, std::abs(int(x & 0xffffff) - int(y & 0xffffff)));
			}
			CHECK(worst <= int(1e-4 * 16777215));
		}
	}
}

// VkResolveModeFlagBits beyond SAMPLE_ZERO, with independentResolve (depth
// and stencil by different modes). The triangles have constant depths
// (0.5, 0.25; clear 0.75) and stencil counts 1 to 3, so every sample holds
// one of a few values. Checked against each other: MIN and MAX give a value
// some sample holds (one sample 0 holds somewhere), min <= sample 0 <= max,
// min <= average <= max, and at edge pixels (min < max) the average lies
// strictly between. Lavapipe (22.3 and 25.0, tried) resolves AVERAGE depth
// as sample 0: an edge pixel whose samples hold 0.5, 0.5, 0.5, 0.75 gives
// 0.5 where the spec's average is 0.5625. So AVERAGE is compared with it
// only where all samples agree (within 2 D24 codes), and lavapipe, which
// resolves both aspects by one mode, renders a depth-only format.
TEST_CASE("depth AVERAGE, MIN, MAX and stencil MIN, MAX resolves", "[draw][commands]") {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.7f, -0.3f, 0.9f, 0.5f, 1, 0, 0);
	Triangle(v, 0.95f, 0.9f, -0.9f, 0.55f, 0.25f, -0.95f, 0.25f, 0, 1, 0);
	auto depth = [](const SceneResult& r, size_t i) {
		uint32_t x;
		std::memcpy(&x, &r.depth[i * 4], 4);
		return int(x & 0xffffff);
	};
	ScenePair pair;
	for (bool dynamic_rendering : {false, true}) {
		CAPTURE(dynamic_rendering);
		Scene s = ColorScene(v);
		s.dynamic_rendering = dynamic_rendering;
		s.samples = VK_SAMPLE_COUNT_4_BIT;
		s.depth_format = VK_FORMAT_D24_UNORM_S8_UINT;
		s.resolve_depth_stencil = true;
		s.clear_depth_stencil = {0.75f, 1};
		s.draws = {{6, 1, 0, 0, 0}};
		s.configure = [](PipelineState& p) { DepthLessStencilCount(p, true); };
		const SceneResult zero = RenderScene(pair.tessera(), s);
		s.depth_resolve_mode = VK_RESOLVE_MODE_AVERAGE_BIT;
		const SceneResult average = RenderScene(pair.tessera(), s);
		s.depth_resolve_mode = VK_RESOLVE_MODE_MIN_BIT;
		s.stencil_resolve_mode = VK_RESOLVE_MODE_MAX_BIT;
		const SceneResult min_max = RenderScene(pair.tessera(), s);
		s.depth_resolve_mode = VK_RESOLVE_MODE_MAX_BIT;
		s.stencil_resolve_mode = VK_RESOLVE_MODE_MIN_BIT;
		const SceneResult max_min = RenderScene(pair.tessera(), s);
		CHECK(pair.tessera().validation_errors() == 0);
		std::vector<int> held;  // the depths sample 0 holds somewhere
		for (size_t i = 0; i < zero.depth.size() / 4; ++i) held.push_back(depth(zero, i));
		std::sort(held.begin(), held.end());
		held.erase(std::unique(held.begin(), held.end()), held.end());
		CHECK(held.size() == 3);
		uint32_t edges = 0, bad = 0;
		for (size_t i = 0; i < zero.stencil.size(); ++i) {
			const int lo = depth(min_max, i), hi = depth(max_min, i), mean = depth(average, i);
			bad +=
			    !std::binary_search(held.begin(), held.end(), lo) || !std::binary_search(held.begin(), held.end(), hi);
			bad += lo > depth(zero, i) || depth(zero, i) > hi || lo > mean || mean > hi;
			bad += max_min.stencil[i] > zero.stencil[i] || zero.stencil[i] > min_max.stencil[i];
			if (lo < hi) {
				++edges;
				bad += !(lo < mean && mean < hi);
			}
		}
		CHECK(bad == 0);
		CHECK(edges > 20);

		Scene d = s;
		d.depth_format = VK_FORMAT_X8_D24_UNORM_PACK32;
		d.depth_resolve_mode = d.stencil_resolve_mode = VK_RESOLVE_MODE_AVERAGE_BIT;
		d.configure = DepthLess;
		auto [ours, reference] = pair.Render(d);
		REQUIRE(ours.depth.size() == reference.depth.size());
		CHECK(ours.depth == average.depth);
		int worst = 0;
		for (size_t i = 0; i < ours.depth.size() / 4; ++i)
			if (depth(min_max, i) == depth(max_min, i))
				worst = std::max(worst, std::abs(depth(ours, i) - depth(reference, i)));
		CHECK(worst <= 2);
	}
}

// 4x MSAA with fragment work that changes coverage or depth per pixel:
// discard drops all samples of the pixel, gl_FragDepth replaces every
// sample's depth (§28.x). Sample 0's depth read back through a resolve.
TEST_CASE("4x MSAA with discard and gl_FragDepth matches lavapipe", "[draw][commands]") {
	std::vector<Vertex> v;
	v.push_back({-0.9f, -0.9f, 0.9f, 1, 1, 0.2f, 0, 0.1f});
	v.push_back({0.9f, -0.5f, 0.9f, 1, 0.3f, 0.9f, 0, 0.9f});
	v.push_back({-0.4f, 0.9f, 0.9f, 1, 0.6f, 0, 1, 0.5f});
	Triangle(v, -0.9f, 0.6f, 0.8f, 0.9f, 0.5f, -0.9f, 0.1f, 0, 1, 0, 0.45f);
	ScenePair pair;
	for (const char* shader : {"checker_discard.frag.spv", "frag_depth.frag.spv"}) {
		CAPTURE(shader);
		Scene s = ColorScene(v);
		s.fragment_shader = shader;
		s.samples = VK_SAMPLE_COUNT_4_BIT;
		s.dynamic_rendering = true;
		s.depth_format = VK_FORMAT_D32_SFLOAT;
		s.resolve_depth_stencil = true;
		s.clear_depth_stencil = {0.7f, 0};
		s.draws = {{6, 1, 0, 0, 0}};
		s.configure = DepthLess;
		auto [a, b] = pair.Render(s);
		// Discard depends on an interpolated red (> 0.8) and the depth
		// written on an interpolated alpha: pixels within interpolation
		// precision of those thresholds may differ (at most 4).
		CompareImages(std::string("msaa-") + shader, s.width, s.height, a.colors[0], b.colors[0], 3, 4);
		std::vector<float> da(a.depth.size() / 4), db(b.depth.size() / 4);
		REQUIRE(a.depth.size() == b.depth.size());
		std::memcpy(da.data(), a.depth.data(), a.depth.size());
		std::memcpy(db.data(), b.depth.data(), b.depth.size());
		uint32_t off = 0;
		for (size_t i = 0; i < da.size(); ++i) off += std::fabs(da[i] - db[i]) > 1e-4f;
		CHECK(off <= 4);
	}
}
