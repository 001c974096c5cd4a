// Blending against lavapipe (Vulkan 1.3 §28.7.x "Blending", "Logical
// Operations", "Color Write Mask"): every blend factor (but the dual-source
// ones, dualSrcBlend is not advertised) on both sides, every blend op,
// constant color (static and dynamic), independent blend over two
// attachments, write masks, and every logic op on UNORM formats of 5, 6, 8,
// 10 and 16 bits.
//
// Tolerances: coverage exact. Blended colors within 3 codes: §28.7.x lets
// blending run at the destination's precision, and lavapipe blends UNORM8 in
// 8-bit fixed point (each product rounded, about 1 code each) on top of the
// 2 codes interpolated colors may differ by. Logic ops and write masks of
// unblended, constant colors are exact: the colors are whole codes of each
// channel (code / (2^b - 1) converts exactly, §3.9.2; any other value may
// round either way - lavapipe rounds 0.8 to 51 of 63 where Tessera gives
// 50 - and logic ops work on the converted bits, §28.7.x).
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"
#include "texture/format.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

void FlatTriangle(std::vector<Vertex>& out, float x0, float y0, float x1, float y1, float x2, float y2, float r,
                  float g, float b, float a) {
	for (auto [x, y] : {std::pair{x0, y0}, std::pair{x1, y1}, std::pair{x2, y2}})
		out.push_back({x, y, 0.5f, 1, r, g, b, a});
}

// Three overlapping triangles with varying colors and alphas, over a clear
// color with alpha 0.6.
Scene BlendScene() {
	std::vector<Vertex> v;
	v.push_back({-0.9f, -0.9f, 0.5f, 1, 1.0f, 0.2f, 0.1f, 0.3f});
	v.push_back({0.8f, -0.7f, 0.5f, 1, 0.1f, 0.9f, 0.4f, 0.8f});
	v.push_back({-0.6f, 0.8f, 0.5f, 1, 0.5f, 0.5f, 1.0f, 0.6f});
	v.push_back({-0.3f, -0.95f, 0.5f, 1, 0.9f, 0.9f, 0.1f, 1.0f});
	v.push_back({0.95f, 0.1f, 0.5f, 1, 0.2f, 0.1f, 0.7f, 0.1f});
	v.push_back({0.1f, 0.9f, 0.5f, 1, 0.6f, 0.3f, 0.3f, 0.5f});
	v.push_back({-0.95f, 0.2f, 0.5f, 1, 0.3f, 0.7f, 0.9f, 0.9f});
	v.push_back({0.5f, 0.95f, 0.5f, 1, 0.8f, 0.4f, 0.2f, 0.2f});
	v.push_back({0.3f, -0.5f, 0.5f, 1, 0.0f, 1.0f, 0.5f, 0.7f});
	Scene s = ColorScene(v);
	s.width = s.height = 32;
	s.clear_color = {{0.4f, 0.25f, 0.8f, 0.6f}};
	s.draws = {{9, 1, 0, 0, 0}};
	return s;
}

VkPipelineColorBlendAttachmentState Blend(VkBlendFactor src, VkBlendFactor dst, VkBlendOp op = VK_BLEND_OP_ADD) {
	VkPipelineColorBlendAttachmentState b{};
	b.blendEnable = VK_TRUE;
	b.srcColorBlendFactor = src;
	b.dstColorBlendFactor = dst;
	b.colorBlendOp = op;
	b.srcAlphaBlendFactor = src;
	b.dstAlphaBlendFactor = dst;
	b.alphaBlendOp = op;
	b.colorWriteMask = 0xf;
	return b;
}

constexpr int kBlendTolerance = 3;

}  // namespace

TEST_CASE("every blend factor matches lavapipe", "[draw][blend]") {
	ScenePair pair;
	for (int f = VK_BLEND_FACTOR_ZERO; f <= VK_BLEND_FACTOR_SRC_ALPHA_SATURATE; ++f) {
		for (bool as_src : {true, false}) {
			// SRC_ALPHA_SATURATE as a destination factor is valid too.
			CAPTURE(f, as_src);
			Scene s = BlendScene();
			const VkBlendFactor factor = VkBlendFactor(f);
			s.configure = [factor, as_src](PipelineState& p) {
				p.blend_attachments[0] = as_src ? Blend(factor, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA)
				                                : Blend(VK_BLEND_FACTOR_SRC_ALPHA, factor);
				const float constants[4] = {0.2f, 0.45f, 0.7f, 0.35f};
				std::copy(constants, constants + 4, p.color_blend.blendConstants);
			};
			pair.Compare("blend-factor-" + std::to_string(f) + (as_src ? "-src" : "-dst"), s, kBlendTolerance);
		}
	}
}

TEST_CASE("every blend op, and dynamic blend constants, match lavapipe", "[draw][blend]") {
	ScenePair pair;
	for (int op = VK_BLEND_OP_ADD; op <= VK_BLEND_OP_MAX; ++op) {
		CAPTURE(op);
		Scene s = BlendScene();
		s.configure = [op](PipelineState& p) {
			p.blend_attachments[0] =
			    Blend(VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR, VkBlendOp(op));
			// Different ops for color and alpha.
			p.blend_attachments[0].alphaBlendOp = VkBlendOp(VK_BLEND_OP_MAX - op);
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_BLEND_CONSTANTS);
		};
		s.before_draws = [](VkCommandBuffer cb) {
			const float constants[4] = {0.6f, 0.1f, 0.3f, 0.9f};
			vkCmdSetBlendConstants(cb, constants);
		};
		pair.Compare("blend-op-" + std::to_string(op), s, kBlendTolerance);
	}
}

TEST_CASE("independent blend and write masks over two attachments match lavapipe", "[draw][blend]") {
	ScenePair pair;
	for (int mask = 0; mask < 16; mask += 3) {
		CAPTURE(mask);
		Scene s = BlendScene();
		s.fragment_shader = "scene_mrt.frag.spv";
		s.color_attachments = 2;
		s.configure = [mask](PipelineState& p) {
			p.blend_attachments[0] = Blend(VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA);
			p.blend_attachments[0].colorWriteMask = VkColorComponentFlags(mask);
			p.blend_attachments[1] = Blend(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_REVERSE_SUBTRACT);
			p.blend_attachments[1].colorWriteMask = VkColorComponentFlags(15 - mask);
		};
		auto [a, b] = pair.Render(s);
		CompareImages("independent-blend-0", s.width, s.height, a.colors[0], b.colors[0], kBlendTolerance);
		CompareImages("independent-blend-1", s.width, s.height, a.colors[1], b.colors[1], kBlendTolerance);
	}
	SECTION("write masks without blending are exact") {
		for (int i = 0; i < 32; ++i) {
			const int mask = i % 16;
			// B8G8R8A8: the mask names components, not memory order.
			const VkFormat format = i < 16 ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_B8G8R8A8_UNORM;
			std::vector<Vertex> v;
			FlatTriangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.2f, 0.9f, 0.2f, 0.6f, 1.0f, 0.4f);
			Scene s = ColorScene(v);
			s.width = s.height = 32;
			// k/255: no rounding freedom in the clear either (0.1 x 255 = 25.5
			// may round either way, §3.9.2).
			s.clear_color = {{26 / 255.0f, 51 / 255.0f, 77 / 255.0f, 1.0f}};
			s.color_format = format;
			s.configure = [mask](PipelineState& p) {
				p.blend_attachments[0].colorWriteMask = VkColorComponentFlags(mask);
			};
			CAPTURE(mask, format);
			pair.Compare("write-mask-" + std::to_string(i), s, 0);
		}
	}
}

TEST_CASE("every logic op on UNORM formats matches lavapipe", "[draw][blend]") {
	ScenePair pair;
	for (int op = VK_LOGIC_OP_CLEAR; op <= VK_LOGIC_OP_SET; ++op) {
		for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_A2B10G10R10_UNORM_PACK32,
		                        VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R5G6B5_UNORM_PACK16}) {
			CAPTURE(op, format);
			// Colors that are whole codes of each channel (code / (2^b - 1)):
			// §3.9.2 lets any other value round either way, and logic ops
			// would turn that one-code freedom into arbitrary bits.
			const tessera::texture::FormatInfo& info = *tessera::texture::FindFormat(format);
			auto exact = [&info](uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
				std::array<float, 4> out{};
				const uint32_t codes[4] = {r, g, b, a};
				for (int c = 0; c < 4; ++c) {
					const uint32_t bits = info.ComponentBits("RGBA"[c]);
					const uint32_t max = bits ? (1u << bits) - 1 : 1;
					out[c] = float(double(codes[c] & max) / double(max));
				}
				return out;
			};
			const auto c1 = exact(0xb3, 0xcc5a, 0xffff, 0x55a5), c2 = exact(0x2aa, 0x0f3c, 0xf0f1, 0xffff),
			           clear = exact(0x25a, 0x3c3c, 0, 0xffff);
			std::vector<Vertex> v;
			FlatTriangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.2f, 0.9f, c1[0], c1[1], c1[2], c1[3]);
			FlatTriangle(v, 0.9f, 0.9f, -0.9f, 0.6f, 0.3f, -0.9f, c2[0], c2[1], c2[2], c2[3]);
			Scene s = ColorScene(v);
			s.width = s.height = 32;
			s.color_format = format;
			s.clear_color = {{clear[0], clear[1], clear[2], clear[3]}};
			s.draws = {{6, 1, 0, 0, 0}};
			s.configure = [op](PipelineState& p) {
				p.color_blend.logicOpEnable = VK_TRUE;
				p.color_blend.logicOp = VkLogicOp(op);
				// §28.7.x: with logicOpEnable, blending is off for the attachment.
				p.blend_attachments[0].blendEnable = VK_TRUE;
				p.blend_attachments[0].colorWriteMask = op == VK_LOGIC_OP_XOR ? 0xb : 0xf;
			};
			// Bytes exact: logic ops work on the stored bits (§28.7.x).
			auto [ours, reference] = pair.Render(s);
			size_t bad = 0, first = 0;
			for (size_t i = 0; i < ours.colors[0].size(); ++i)
				if (ours.colors[0][i] != reference.colors[0][i] && bad++ == 0) first = i;
			const size_t texel = first / 4 * 4;
			uint32_t x = 0, y = 0;
			std::memcpy(&x, &ours.colors[0][texel], 4);
			std::memcpy(&y, &reference.colors[0][texel], 4);
			INFO("first different bytes at " << first << ": tessera 0x" << std::hex << x << ", lavapipe 0x" << y);
			CHECK(bad == 0);
		}
	}
}

TEST_CASE("a dynamic logic op (extendedDynamicState2LogicOp) draws as lavapipe's static one", "[draw][blend]") {
	// VK_EXT_extended_dynamic_state2: with VK_DYNAMIC_STATE_LOGIC_OP_EXT the
	// pipeline's logicOp is ignored and vkCmdSetLogicOpEXT's applies. Lavapipe
	// renders the same op set statically. Bytes exact (§28.7.x).
	SceneFeatures features;
	VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
	eds2.extendedDynamicState2 = VK_TRUE;
	eds2.extendedDynamicState2LogicOp = VK_TRUE;
	features.v13.pNext = &eds2;
	ContextOptions options = features.Options();
	options.device_extensions.push_back(VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME);
	auto ours = Context::Create(Driver::Tessera, options);
	REQUIRE(ours);
	features.v13.pNext = nullptr;
	auto reference = Context::Create(Driver::Lavapipe, features.Options());
	REQUIRE(reference);
	auto set_logic_op = ours->Proc<PFN_vkCmdSetLogicOpEXT>("vkCmdSetLogicOpEXT");
	REQUIRE(set_logic_op);
	for (VkLogicOp op : {VK_LOGIC_OP_XOR, VK_LOGIC_OP_INVERT, VK_LOGIC_OP_AND_REVERSE, VK_LOGIC_OP_NOR}) {
		CAPTURE(op);
		std::vector<Vertex> v;
		// Whole UNORM8 codes (0x33/255, ...): no rounding freedom (§3.9.2).
		FlatTriangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.2f, 0.9f, 0.2f, 0.8f, 0.4f, 1.0f);
		FlatTriangle(v, 0.9f, 0.9f, -0.9f, 0.6f, 0.3f, -0.9f, 0.6f, 0.0f, 1.0f, 0.2f);
		Scene s = ColorScene(v);
		s.width = s.height = 32;
		s.clear_color = {{0.4f, 0.2f, 1.0f, 0.6f}};
		s.draws = {{6, 1, 0, 0, 0}};
		Scene dynamic = s;
		s.configure = [op](PipelineState& p) {
			p.color_blend.logicOpEnable = VK_TRUE;
			p.color_blend.logicOp = op;
		};
		dynamic.configure = [](PipelineState& p) {
			p.color_blend.logicOpEnable = VK_TRUE;
			p.color_blend.logicOp = VK_LOGIC_OP_COPY;  // ignored: the state is dynamic
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_LOGIC_OP_EXT);
		};
		dynamic.before_draws = [&](VkCommandBuffer cb) { set_logic_op(cb, op); };
		SceneResult a = RenderScene(*ours, dynamic), b = RenderScene(*reference, s);
		CHECK(a.colors[0] == b.colors[0]);
	}
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
}

TEST_CASE("VK_EXT_color_write_enable: static and dynamic write enables match lavapipe", "[draw][blend]") {
	// A disabled attachment is not written, as with a zero write mask: the
	// pipeline's VkPipelineColorWriteCreateInfoEXT, or
	// vkCmdSetColorWriteEnableEXT with the dynamic state.
	VkPhysicalDeviceColorWriteEnableFeaturesEXT color_write{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT};
	color_write.colorWriteEnable = VK_TRUE;
	SceneFeatures features;
	features.v13.pNext = &color_write;
	ContextOptions options = features.Options();
	options.device_extensions = {"VK_EXT_color_write_enable"};
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.1f, 0.9f, 0.3f, 1, 0, 0);
	for (bool dynamic : {false, true}) {
		CAPTURE(dynamic);
		SceneResult results[2];
		for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
			auto ctx = Context::Create(driver, options);
			REQUIRE(ctx);
			static const VkBool32 kStatic[2] = {VK_TRUE, VK_FALSE};
			static VkPipelineColorWriteCreateInfoEXT write_info{VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT,
			                                                    nullptr, 2, kStatic};
			auto set = reinterpret_cast<PFN_vkCmdSetColorWriteEnableEXT>(
			    vkGetDeviceProcAddr(ctx->device(), "vkCmdSetColorWriteEnableEXT"));
			REQUIRE(set);
			Scene s = ColorScene(v);
			s.color_attachments = 2;
			s.fragment_shader = "scene_mrt.frag.spv";
			s.configure = [dynamic](PipelineState& p) {
				if (dynamic)
					p.dynamic_states.push_back(VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT);
				else
					p.color_blend.pNext = &write_info;
			};
			if (dynamic)
				s.before_draws = [set](VkCommandBuffer cb) {
					const VkBool32 enables[2] = {VK_FALSE, VK_TRUE};
					set(cb, 2, enables);
				};
			results[driver == Driver::Tessera ? 0 : 1] = RenderScene(*ctx, s);
			CHECK(ctx->validation_errors() == 0);
		}
		const SceneResult& a = results[0];
		for (uint32_t att = 0; att < 2; ++att)
			CompareImages("color-write-enable-" + std::to_string(att), 64, 64, a.colors[att], results[1].colors[att],
			              2);
		// The disabled attachment holds the clear color everywhere.
		const std::vector<uint8_t>& off = a.colors[dynamic ? 0 : 1];
		size_t written = 0;
		for (size_t i = 0; i < off.size(); i += 4) written += std::memcmp(&off[i], off.data(), 4) != 0;
		CHECK(written == 0);
	}
}
