// Depth and stencil against lavapipe: every compare op, every depth format,
// depth writes off, depth clamp, depth bias, gl_FragDepth; stencil ops,
// masks, references and the two faces. The depth (and stencil) aspects are
// read back and compared too.
//
// Tolerances: coverage and the result of each test exact; colors within 2
// codes (interpolated, see draw_scene_helpers.h); stencil values exact (no
// freedom in §28.9.x stencil ops). Depth values: UNORM depth within 2 codes
// (the interpolated z_f is computed at the implementation's precision,
// §28.7.x, then converted with §3.9.2's rounding freedom); D32_SFLOAT within
// 2^-20 (z interpolation in single precision over the triangle, a few ulp
// near 1.0, well under one D24 code). Sloped triangles add kSnapSlack:
// Tessera interpolates z from the vertices snapped to 1/256 pixel
// (subPixelPrecisionBits = 8, §28.7), lavapipe from the unsnapped ones; both
// are allowed, and they differ by up to 2^-8 pixel times the z slope per
// pixel (these scenes: under 0.025 per pixel -> 1e-4).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"

using namespace tessera::test;
using namespace tessera::test::scenes;

namespace {

constexpr double kSnapSlack = 1e-4;

// Depth readback as floats (D16: 2 bytes, D24: low 24 bits of 4, D32: float).
std::vector<double> DepthValues(VkFormat format, const std::vector<uint8_t>& bytes) {
	std::vector<double> out;
	if (format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_D16_UNORM_S8_UINT) {
		for (size_t i = 0; i + 2 <= bytes.size(); i += 2) out.push_back((bytes[i] | bytes[i + 1] << 8) / 65535.0);
	} else if (format == VK_FORMAT_X8_D24_UNORM_PACK32 || format == VK_FORMAT_D24_UNORM_S8_UINT) {
		for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
			uint32_t v;
			std::memcpy(&v, &bytes[i], 4);
			out.push_back((v & 0xffffff) / 16777215.0);
		}
	} else {
		for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
			float v;
			std::memcpy(&v, &bytes[i], 4);
			out.push_back(v);
		}
	}
	return out;
}

double DepthTolerance(VkFormat format) {
	if (format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_D16_UNORM_S8_UINT) return 2.0 / 65535.0;
	if (format == VK_FORMAT_X8_D24_UNORM_PACK32 || format == VK_FORMAT_D24_UNORM_S8_UINT) return 2.0 / 16777215.0;
	return std::ldexp(1.0, -20);
}

void CompareDepth(const std::string& name, VkFormat format, const SceneResult& a, const SceneResult& b,
                  double extra = 0) {
	std::vector<double> da = DepthValues(format, a.depth), db = DepthValues(format, b.depth);
	REQUIRE(da.size() == db.size());
	REQUIRE(!da.empty());
	double worst = 0;
	size_t at = 0;
	for (size_t i = 0; i < da.size(); ++i)
		if (std::fabs(da[i] - db[i]) > worst) worst = std::fabs(da[i] - db[i]), at = i;
	INFO(name << ": depth at pixel " << at << ": tessera " << da[at] << ", lavapipe " << db[at]);
	CHECK(worst <= DepthTolerance(format) + extra);
}

void CompareStencil(const std::string& name, const SceneResult& a, const SceneResult& b) {
	REQUIRE(!a.stencil.empty());
	REQUIRE(a.stencil.size() == b.stencil.size());
	size_t bad = 0, first = 0;
	for (size_t i = 0; i < a.stencil.size(); ++i)
		if (a.stencil[i] != b.stencil[i] && bad++ == 0) first = i;
	INFO(name << ": " << bad << " stencil values differ, first at pixel " << first << ": tessera "
	          << int(a.stencil[first]) << ", lavapipe " << int(b.stencil[first]));
	CHECK(bad == 0);
}

// Three overlapping triangles: one sloped through z = 0.5 (the clear
// value), one flat at 0.5, one flat at 0.3 - each op gives its own picture.
Scene DepthScene(VkFormat format) {
	std::vector<Vertex> v;
	v.push_back({-0.9f, -0.8f, 0.1f, 1, 1, 0, 0, 1});
	v.push_back({0.9f, -0.6f, 0.9f, 1, 1, 0.5f, 0, 1});
	v.push_back({-0.2f, 0.9f, 0.6f, 1, 1, 0, 0.5f, 1});
	Triangle(v, -0.7f, 0.7f, 0.2f, -0.9f, 0.8f, 0.6f, 0.5f, 0, 1, 0);
	Triangle(v, -0.95f, -0.1f, 0.6f, 0.2f, -0.3f, 0.95f, 0.3f, 0, 0, 1);
	Scene s = ColorScene(v);
	s.depth_format = format;
	s.clear_depth_stencil = {0.5f, 0};
	s.draws = {{9, 1, 0, 0, 0}};
	return s;
}

}  // namespace

TEST_CASE("every depth compare op matches lavapipe", "[draw][depth]") {
	ScenePair pair;
	for (int op = VK_COMPARE_OP_NEVER; op <= VK_COMPARE_OP_ALWAYS; ++op) {
		CAPTURE(op);
		Scene s = DepthScene(VK_FORMAT_D32_SFLOAT);
		s.configure = [op](PipelineState& p) {
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VkCompareOp(op);
		};
		auto [a, b] = pair.Render(s);
		CompareImages("depth-op-" + std::to_string(op), s.width, s.height, a.colors[0], b.colors[0], 2);
		CompareDepth("depth-op", s.depth_format, a, b, kSnapSlack);
	}
}

TEST_CASE("every depth format, and depth writes off, match lavapipe", "[draw][depth]") {
	ScenePair pair;
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT,
	                        VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT}) {
		for (bool write : {true, false}) {
			CAPTURE(format, write);
			Scene s = DepthScene(format);
			s.clear_depth_stencil = {0.75f, 0};
			s.configure = [write](PipelineState& p) {
				p.depth_stencil.depthTestEnable = VK_TRUE;
				p.depth_stencil.depthWriteEnable = write;
				p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
			};
			auto [a, b] = pair.Render(s);
			const std::string name = "depth-format-" + std::to_string(format) + (write ? "" : "-nowrite");
			CompareImages(name, s.width, s.height, a.colors[0], b.colors[0], 2);
			CompareDepth(name, format, a, b, kSnapSlack);
		}
	}
}

TEST_CASE("depth clamp matches lavapipe", "[draw][depth]") {
	// §27.2 / §28.x: with depthClampEnable, no clipping against z and z_f
	// clamped to the viewport's [minDepth, maxDepth].
	std::vector<Vertex> v;
	v.push_back({-0.9f, -0.9f, -0.8f, 1, 1, 0, 0, 1});
	v.push_back({0.9f, -0.7f, 1.7f, 1, 0, 1, 0, 1});
	v.push_back({0.0f, 0.9f, 0.4f, 1, 0, 0, 1, 1});
	Triangle(v, -0.8f, 0.8f, 0.9f, 0.9f, 0.3f, -0.9f, 0.55f, 1, 1, 0);
	ScenePair pair;
	for (bool clamp : {true, false}) {
		CAPTURE(clamp);
		Scene s = ColorScene(v);
		s.depth_format = VK_FORMAT_D32_SFLOAT;
		s.viewport = {0, 0, 64, 64, 0.2f, 0.9f};
		s.draws = {{6, 1, 0, 0, 0}};
		s.configure = [clamp](PipelineState& p) {
			p.rasterization.depthClampEnable = clamp;
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
		};
		auto [a, b] = pair.Render(s);
		CompareImages(clamp ? "depth-clamp" : "depth-noclamp", s.width, s.height, a.colors[0], b.colors[0], 2);
		CompareDepth("depth-clamp", s.depth_format, a, b, kSnapSlack);
	}
}

// §28.9.x "Depth Bias": o = m * depthBiasSlopeFactor + r * depthBiasConstantFactor,
// clamped by depthBiasClamp. r is one depth code for UNORM formats; for
// D32_SFLOAT it is 2^(e - 23) with e the triangle's largest z exponent. m
// may be computed as max(|dz/dx|, |dz/dy|) or the root of their squares
// (§28.9.x): these scenes keep slopes along one axis, where both agree.
// Extra depth tolerance: 1e-6 for the slope term's precision.
TEST_CASE("depth bias (constant, slope, clamp) matches lavapipe", "[draw][depth]") {
	std::vector<Vertex> v;
	v.push_back({-0.9f, -0.9f, 0.2f, 1, 1, 0, 0, 1});
	v.push_back({0.9f, -0.9f, 0.8f, 1, 0, 1, 0, 1});
	v.push_back({-0.9f, 0.9f, 0.2f, 1, 0, 0, 1, 1});
	struct Bias {
		float constant, slope, clamp;
	};
	ScenePair pair;
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT}) {
		// The unbiased depth of each driver, to compare the biases themselves
		// (the snapping slack of the z interpolation cancels out).
		Scene base = ColorScene(v);
		base.depth_format = format;
		base.configure = [](PipelineState& p) {
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
		};
		auto [base_a, base_b] = pair.Render(base);
		const std::vector<double> za = DepthValues(format, base_a.depth), zb = DepthValues(format, base_b.depth);
		for (Bias bias : {Bias{100, 0, 0}, Bias{-50, 0, 0}, Bias{0, 2, 0}, Bias{1000, 4, 0.01f},
		                  Bias{-1000, -4, -0.005f}, Bias{3e6f, 0, 0.001f}}) {
			CAPTURE(format, bias.constant, bias.slope, bias.clamp);
			Scene s = base;
			s.configure = [bias](PipelineState& p) {
				p.rasterization.depthBiasEnable = VK_TRUE;
				p.rasterization.depthBiasConstantFactor = bias.constant;
				p.rasterization.depthBiasSlopeFactor = bias.slope;
				p.rasterization.depthBiasClamp = bias.clamp;
				p.depth_stencil.depthTestEnable = VK_TRUE;
				p.depth_stencil.depthWriteEnable = VK_TRUE;
				p.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
			};
			auto [a, b] = pair.Render(s);
			CompareImages("depth-bias", s.width, s.height, a.colors[0], b.colors[0], 2);
			const double code = format == VK_FORMAT_D16_UNORM           ? 1 / 65535.0
			                    : format == VK_FORMAT_D24_UNORM_S8_UINT ? 1 / 16777215.0
			                                                            : 0.0;
			CompareDepth("depth-bias", format, a, b, kSnapSlack + 1e-6 + std::fabs(bias.constant) * code);
			// The bias each driver added. For UNORM depth r is
			// implementation-dependent between 2^-n and 2 x 2^-n (§28.9.x; the
			// reason VK_EXT_depth_bias_control exists): lavapipe's D16 bias is
			// twice Tessera's, so allow |constant| x 2^-n more there, plus 2
			// codes of rounding. For D32_SFLOAT r = 2^(e - 23), e the largest z
			// exponent of the triangle (no freedom): 1e-7 covers rounding. The
			// slope m = |dz/dx| (0.0104 per pixel here) comes from snapped
			// vertices in Tessera, unsnapped in lavapipe: 1e-4 of it apart
			// (2^-8 pixel over a 57.6-pixel run), 1e-6 per unit of slope factor.
			const std::vector<double> ba = DepthValues(format, a.depth), bb = DepthValues(format, b.depth);
			// With r's smallest choice already past the clamp, both give the clamp.
			double r_freedom = std::fabs(bias.constant) * code;
			if (bias.clamp != 0 && r_freedom >= std::fabs(bias.clamp)) r_freedom = 0;
			const double tolerance = r_freedom + 2 * code + 1e-7 + std::fabs(bias.slope) * 1e-6;
			double worst = 0;
			size_t at = 0;
			for (size_t i = 0; i < ba.size(); ++i) {
				const double d = std::fabs((ba[i] - za[i]) - (bb[i] - zb[i]));
				if (d > worst) worst = d, at = i;
			}
			INFO("bias at pixel " << at << ": tessera " << ba[at] - za[at] << ", lavapipe " << bb[at] - zb[at]);
			CHECK(worst <= tolerance);
		}
	}
}

TEST_CASE("gl_FragDepth writes match lavapipe", "[draw][depth]") {
	// frag_depth.frag: depth = the color's alpha (interpolated), tested LESS.
	std::vector<Vertex> v;
	v.push_back({-0.9f, -0.9f, 0.9f, 1, 1, 0, 0, 0.1f});
	v.push_back({0.9f, -0.5f, 0.9f, 1, 1, 0, 0, 0.9f});
	v.push_back({-0.4f, 0.9f, 0.9f, 1, 1, 0, 0, 0.5f});
	Triangle(v, -0.9f, 0.6f, 0.8f, 0.9f, 0.5f, -0.9f, 0.1f, 0, 1, 0, 0.45f);
	ScenePair pair;
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT}) {
		CAPTURE(format);
		Scene s = ColorScene(v);
		s.fragment_shader = "frag_depth.frag.spv";
		s.depth_format = format;
		s.clear_depth_stencil = {0.7f, 0};
		s.draws = {{6, 1, 0, 0, 0}};
		s.configure = [](PipelineState& p) {
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
		};
		auto [a, b] = pair.Render(s);
		// Pixels where the two interpolated depths are within rounding of
		// each other may go either way: at most a few along that line.
		CompareImages("frag-depth", s.width, s.height, a.colors[0], b.colors[0], 2, 4);
		CompareDepth("frag-depth", format, a, b, kSnapSlack);
	}
}

namespace {

// Overlapping triangles, front (CCW in framebuffer y-down: §28.7.1) and
// back facing, with stencil state from configure.
Scene StencilScene(VkFormat format) {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.8f, -0.7f, -0.6f, 0.8f, 0.5f, 1, 0, 0);   // one winding
	Triangle(v, -0.5f, -0.85f, 0.2f, 0.9f, 0.9f, -0.3f, 0.5f, 0, 1, 0);   // the other
	Triangle(v, -0.95f, 0.1f, 0.95f, 0.2f, 0.0f, -0.95f, 0.5f, 0, 0, 1);  // the first again
	Scene s = ColorScene(v);
	s.depth_format = format;
	s.clear_depth_stencil = {0.4f, 0x35};
	s.draws = {{9, 1, 0, 0, 0}};
	return s;
}

}  // namespace

// §28.9.x stencil test and ops: no implementation freedom, stencil exact.
TEST_CASE("stencil ops, masks, references and faces match lavapipe", "[draw][stencil]") {
	ScenePair pair;
	for (VkFormat format : {VK_FORMAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT}) {
		for (int op = VK_STENCIL_OP_KEEP; op <= VK_STENCIL_OP_DECREMENT_AND_WRAP; ++op) {
			CAPTURE(format, op);
			Scene s = StencilScene(format);
			s.configure = [op, format](PipelineState& p) {
				p.depth_stencil.stencilTestEnable = VK_TRUE;
				// Depth (when there is one) fails for z 0.5 > 0.4: depthFailOp.
				p.depth_stencil.depthTestEnable = format != VK_FORMAT_S8_UINT;
				p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
				VkStencilOpState& f = p.depth_stencil.front;
				f.failOp = VK_STENCIL_OP_INVERT;
				f.passOp = VkStencilOp(op);
				f.depthFailOp = VkStencilOp(op);
				f.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
				f.compareMask = 0x3c;
				f.writeMask = 0xf3;
				f.reference = 0x14;
				VkStencilOpState& b = p.depth_stencil.back;
				b.failOp = VkStencilOp(op);
				b.passOp = VK_STENCIL_OP_INCREMENT_AND_WRAP;
				b.depthFailOp = VK_STENCIL_OP_DECREMENT_AND_CLAMP;
				b.compareOp = VK_COMPARE_OP_NOT_EQUAL;
				b.compareMask = 0xff;
				b.writeMask = 0x7f;
				b.reference = 0x35;
			};
			auto [a, b] = pair.Render(s);
			CompareImages("stencil-" + std::to_string(op), s.width, s.height, a.colors[0], b.colors[0], 2);
			CompareStencil("stencil", a, b);
		}
	}
	SECTION("every stencil compare op, with culling of back faces") {
		for (int op = VK_COMPARE_OP_NEVER; op <= VK_COMPARE_OP_ALWAYS; ++op) {
			CAPTURE(op);
			Scene s = StencilScene(VK_FORMAT_S8_UINT);
			s.configure = [op](PipelineState& p) {
				p.rasterization.cullMode = VK_CULL_MODE_BACK_BIT;
				p.depth_stencil.stencilTestEnable = VK_TRUE;
				VkStencilOpState& f = p.depth_stencil.front;
				f.failOp = VK_STENCIL_OP_DECREMENT_AND_WRAP;
				f.passOp = VK_STENCIL_OP_INCREMENT_AND_CLAMP;
				f.compareOp = VkCompareOp(op);
				f.compareMask = 0xff;
				f.writeMask = 0xff;
				f.reference = 0x35;
				p.depth_stencil.back = f;
			};
			auto [a, b] = pair.Render(s);
			CompareImages("stencil-compare-" + std::to_string(op), s.width, s.height, a.colors[0], b.colors[0], 2);
			CompareStencil("stencil-compare", a, b);
		}
	}
}

// VK_EXT_shader_stencil_export: the shader's reference replaces the state's
// in the test and in VK_STENCIL_OP_REPLACE; exact, like the other stencil tests.
TEST_CASE("stencil references exported by the fragment shader match lavapipe", "[draw][stencil]") {
	ScenePair pair;
	for (VkFormat format : {VK_FORMAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT}) {
		for (uint32_t odd_zero : {0u, 1u}) {
			CAPTURE(format, odd_zero);
			Scene s = StencilScene(format);
			s.fragment_shader = "stencil_export.frag.spv";
			s.push_constants.assign(4, 0);
			std::memcpy(s.push_constants.data(), &odd_zero, 4);
			s.configure = [](PipelineState& p) {
				p.depth_stencil.stencilTestEnable = VK_TRUE;
				VkStencilOpState& f = p.depth_stencil.front;
				// Front faces: REPLACE with the exported reference everywhere.
				f.failOp = VK_STENCIL_OP_KEEP;
				f.passOp = VK_STENCIL_OP_REPLACE;
				f.compareOp = VK_COMPARE_OP_ALWAYS;
				f.compareMask = 0xff;
				f.writeMask = 0xff;
				f.reference = 0x99;  // not used: the shader's is
				// Back faces: the exported reference tested GREATER against the
				// stored value; passes increment, failures invert.
				VkStencilOpState& b = p.depth_stencil.back;
				b = f;
				b.compareOp = VK_COMPARE_OP_GREATER;
				b.passOp = VK_STENCIL_OP_INCREMENT_AND_CLAMP;
				b.failOp = VK_STENCIL_OP_INVERT;
			};
			auto [a, b] = pair.Render(s);
			CompareImages("stencil-export", s.width, s.height, a.colors[0], b.colors[0], 2);
			CompareStencil("stencil-export", a, b);
			// Where only the first (front-facing) triangle drew, the value is
			// the exported one: look for it.
			bool exported = false;
			for (uint32_t y = 0; y < s.height && !exported; ++y)
				for (uint32_t x = 0; x < s.width; ++x) {
					const uint8_t reference = (odd_zero && (x & 1)) ? 0 : uint8_t(x * 7 + y * 3);
					if (a.stencil[y * s.width + x] == reference && reference != 0x35 && reference != 0x99) {
						exported = true;
						break;
					}
				}
			CHECK(exported);
		}
	}
}

// VK_EXT_post_depth_coverage: a full-screen quad drawn with early depth
// tests over a nearer triangle, 4 samples. Along the triangle's edges the
// quad's pixels pass the depth test on some samples only: with
// PostDepthCoverage gl_SampleMaskIn counts those, without it every covered
// sample.
TEST_CASE("gl_SampleMaskIn with and without PostDepthCoverage matches lavapipe", "[draw][depth][msaa]") {
	std::vector<Vertex> v;
	Triangle(v, -0.9f, -0.9f, 0.9f, -0.8f, -0.7f, 0.9f, 0.3f, 0.2f, 0.2f, 0.2f);  // near
	Triangle(v, -1.0f, -1.0f, 1.0f, -1.0f, -1.0f, 1.0f, 0.5f, 0.9f, 0.9f, 0.9f);  // the quad, behind
	Triangle(v, 1.0f, -1.0f, 1.0f, 1.0f, -1.0f, 1.0f, 0.5f, 0.9f, 0.9f, 0.9f);
	ScenePair pair;
	std::vector<uint8_t> results[2];
	for (bool post : {false, true}) {
		CAPTURE(post);
		Scene s = ColorScene(v);
		s.fragment_shader = post ? "post_depth_coverage.frag.spv" : "early_coverage.frag.spv";
		s.samples = VK_SAMPLE_COUNT_4_BIT;
		s.depth_format = VK_FORMAT_D32_SFLOAT;
		s.clear_depth_stencil = {1.0f, 0};
		s.draws = {{9, 1, 0, 0, 0}};
		s.configure = [](PipelineState& p) {
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
		};
		auto [a, b] = pair.Render(s);
		// Resolved 4x: averages of 4 samples, 3 codes (draw_commands_test.cpp).
		CompareImages(post ? "post-depth-coverage" : "early-coverage", s.width, s.height, a.colors[0], b.colors[0], 3);
		results[post] = a.colors[0];
	}
	// Without the mode an edge pixel's quad samples all read 4 of 4 (red
	// 1.0); with it fewer: the two pictures differ along the edges.
	size_t differ = 0;
	for (size_t i = 0; i < results[0].size(); i += 4) differ += results[0][i] != results[1][i];
	CHECK(differ > 20);
}

// §28.x (depth test, "Depth Clamping and Range"): with depthClampEnable the
// fragment's z_f - gl_FragDepth included - is clamped to the viewport's
// [min(minDepth, maxDepth), max(minDepth, maxDepth)] before the test; a
// fixed-point attachment clamps to [0, 1] in any case.
TEST_CASE("gl_FragDepth outside the depth range is clamped as on lavapipe", "[draw][depth]") {
	std::vector<Vertex> v;
	v.push_back({-0.9f, -0.9f, 0.5f, 1, 1, 0, 0, -0.5f});
	v.push_back({0.9f, -0.5f, 0.5f, 1, 1, 0, 0, 1.5f});
	v.push_back({-0.4f, 0.9f, 0.5f, 1, 1, 0, 0, 0.5f});
	ScenePair pair;
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT}) {
		for (bool flip : {false, true}) {
			CAPTURE(format, flip);
			Scene s = ColorScene(v);
			s.fragment_shader = "frag_depth.frag.spv";
			s.depth_format = format;
			s.viewport = flip ? VkViewport{0, 0, 64, 64, 0.8f, 0.2f} : VkViewport{0, 0, 64, 64, 0.2f, 0.8f};
			s.configure = [](PipelineState& p) {
				p.rasterization.depthClampEnable = VK_TRUE;
				p.depth_stencil.depthTestEnable = VK_TRUE;
				p.depth_stencil.depthWriteEnable = VK_TRUE;
				p.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
			};
			auto [a, b] = pair.Render(s);
			CompareImages("frag-depth-clamp", s.width, s.height, a.colors[0], b.colors[0], 2);
			CompareDepth("frag-depth-clamp", format, a, b, kSnapSlack);
		}
	}
}

// Invariance (Vulkan 1.3 appendix "Invariance"): the same primitive drawn
// twice with the same state gives the same depths, so a second pass with
// EQUAL hits every pixel of the first. Sloped triangles, each depth format.
TEST_CASE("a second pass with depth compare EQUAL covers the first as on lavapipe", "[draw][depth]") {
	std::vector<Vertex> v;
	v.push_back({-0.9f, -0.9f, 0.13f, 1, 1, 0, 0, 1});
	v.push_back({0.9f, -0.6f, 0.87f, 1, 1, 0, 0, 1});
	v.push_back({-0.2f, 0.9f, 0.51f, 1, 1, 0, 0, 1});
	v.push_back({0.9f, 0.9f, 0.3f, 0.7f, 0, 0, 1, 1});
	v.push_back({-0.9f, 0.3f, 0.95f, 1.3f, 0, 0, 1, 1});
	v.push_back({0.4f, -0.9f, 0.1f, 1.0f, 0, 0, 1, 1});
	ScenePair pair;
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT}) {
		CAPTURE(format);
		Scene s = ColorScene(v);
		s.fragment_shader = "frag_coord.frag.spv";  // the second pass's color differs by gl_FrontFacing
		s.depth_format = format;
		s.configure = [](PipelineState& p) {
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_DEPTH_COMPARE_OP);
			p.dynamic_states.push_back(VK_DYNAMIC_STATE_FRONT_FACE);
		};
		s.record_draws = [](VkCommandBuffer cb, const Scene::Buffers&) {
			vkCmdSetDepthCompareOp(cb, VK_COMPARE_OP_LESS);
			vkCmdSetFrontFace(cb, VK_FRONT_FACE_COUNTER_CLOCKWISE);
			vkCmdDraw(cb, 6, 1, 0, 0);
			vkCmdSetDepthCompareOp(cb, VK_COMPARE_OP_EQUAL);
			vkCmdSetFrontFace(cb, VK_FRONT_FACE_CLOCKWISE);
			vkCmdDraw(cb, 6, 1, 0, 0);
		};
		auto [a, b] = pair.Render(s);
		CompareImages("depth-equal-pass", s.width, s.height, a.colors[0], b.colors[0], 2);
	}
}

TEST_CASE("VK_EXT_depth_range_unrestricted: a D32_SFLOAT attachment keeps depths outside [0, 1]", "[draw][depth]") {
	// Vulkan "Depth Clamping and Range Adjustment": with the extension
	// enabled a floating-point attachment keeps z_f, here in the viewport's
	// range [-1, 3]; the clear value 5 (VkClearDepthStencilValue allows it
	// with the extension) stays where nothing is drawn.
	SceneFeatures features;
	ContextOptions options = features.Options();
	options.device_extensions.push_back("VK_EXT_depth_range_unrestricted");
	Scene s = DepthScene(VK_FORMAT_D32_SFLOAT);
	s.clear_depth_stencil = {5.0f, 0};
	s.viewport = {0, 0, float(s.width), float(s.height), -1.0f, 3.0f};
	s.configure = [](PipelineState& p) {
		p.depth_stencil.depthTestEnable = VK_TRUE;
		p.depth_stencil.depthWriteEnable = VK_TRUE;
		p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS;
	};
	SceneResult results[2];
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		results[driver == Driver::Tessera ? 0 : 1] = RenderScene(*ctx, s);
		CHECK(ctx->validation_errors() == 0);
	}
	std::vector<double> depth = DepthValues(s.depth_format, results[0].depth);
	size_t above = 0, below = 0, cleared = 0;
	for (double z : depth) {
		above += z > 1.0 && z < 5.0;
		below += z < 0.0;
		cleared += z == 5.0;
	}
	// The scene's clip z lies in [0.1, 0.95]: z_f in [-0.6, 2.8].
	CHECK(above > 0);
	CHECK(below > 0);
	CHECK(cleared > 0);
	CompareImages("depth-unrestricted", s.width, s.height, results[0].colors[0], results[1].colors[0], 2);
	CompareDepth("depth-unrestricted", s.depth_format, results[0], results[1], 4 * kSnapSlack);
}

TEST_CASE("VK_EXT_depth_clip_enable and VK_EXT_depth_clip_control match lavapipe", "[draw][depth]") {
	// Vulkan "Primitive Clipping": clipping against z follows
	// depthClipEnable when VkPipelineRasterizationDepthClipStateCreateInfoEXT
	// is given (else it is off exactly when depth clamp is on), and
	// negativeOneToOne makes the view volume's z run from -w_c, with the
	// viewport mapping z_d in [-1, 1] onto [minDepth, maxDepth].
	VkPhysicalDeviceDepthClipControlFeaturesEXT control_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT};
	control_features.depthClipControl = VK_TRUE;
	VkPhysicalDeviceDepthClipEnableFeaturesEXT clip_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT, &control_features};
	clip_features.depthClipEnable = VK_TRUE;
	SceneFeatures features;
	features.v13.pNext = &clip_features;
	ContextOptions options = features.Options();
	options.device_extensions = {"VK_EXT_depth_clip_enable", "VK_EXT_depth_clip_control"};
	std::unique_ptr<Context> contexts[2] = {Context::Create(Driver::Tessera, options),
	                                        Context::Create(Driver::Lavapipe, options)};
	REQUIRE(contexts[0]);
	REQUIRE(contexts[1]);

	static VkPipelineRasterizationDepthClipStateCreateInfoEXT clip_on{
	    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT, nullptr, 0, VK_TRUE};
	static VkPipelineViewportDepthClipControlCreateInfoEXT minus_one{
	    VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT, nullptr, VK_TRUE};
	struct Case {
		const char* name;
		bool clamp, explicit_clip, negative_one_to_one;
		float z0, z1;  // clip z at the left and right vertices
	};
	const Case cases[] = {
	    {"clamp-no-clip", true, false, false, 0.2f, 1.6f},  // the far part is clamped to 1
	    {"clamp-and-clip", true, true, false, 0.2f, 1.6f},  // the far part is clipped
	    {"zero-to-one", false, false, false, -0.8f, 0.6f},  // z < 0 clipped
	    {"minus-one-to-one", false, false, true, -0.8f, 0.6f},
	};
	size_t covered[4] = {};
	for (size_t c = 0; c < 4; ++c) {
		const Case& k = cases[c];
		CAPTURE(k.name);
		std::vector<Vertex> v = {{-0.9f, -0.9f, k.z0, 1, 1, 0, 0, 1},
		                         {0.9f, -0.7f, k.z1, 1, 0, 1, 0, 1},
		                         {-0.8f, 0.9f, k.z0, 1, 0, 0, 1, 1},
		                         {0.85f, 0.8f, k.z1, 1, 1, 1, 0, 1}};
		Scene s = ColorScene(v);
		s.depth_format = VK_FORMAT_D32_SFLOAT;
		s.draws = {{3, 1, 0, 0, 0}, {3, 1, 1, 0, 0}};
		s.configure = [k](PipelineState& p) {
			p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
			p.rasterization.depthClampEnable = k.clamp;
			p.rasterization.pNext = k.explicit_clip ? &clip_on : nullptr;
			p.viewport_next = k.negative_one_to_one ? &minus_one : nullptr;
			p.depth_stencil.depthTestEnable = VK_TRUE;
			p.depth_stencil.depthWriteEnable = VK_TRUE;
			p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
		};
		SceneResult a = RenderScene(*contexts[0], s), b = RenderScene(*contexts[1], s);
		CompareImages(std::string("depth-clip-") + k.name, s.width, s.height, a.colors[0], b.colors[0], 2);
		CompareDepth(std::string("depth-clip-") + k.name, s.depth_format, a, b, 4 * kSnapSlack);
		const std::vector<uint8_t>& color = a.colors[0];
		const uint8_t* clear = color.data();  // pixel (0, 0): no triangle reaches the corner
		for (size_t i = 0; i < color.size(); i += 4) covered[c] += std::memcmp(&color[i], clear, 3) != 0;
	}
	CHECK(covered[1] < covered[0]);  // clipping removed the far part
	CHECK(covered[2] < covered[3]);  // [-1, 1] keeps what [0, 1] clips
	for (auto& ctx : contexts) CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("VK_EXT_depth_clamp_zero_one: unclipped depths outside [0, 1] are clamped to it", "[draw][depth]") {
	// Vulkan "Depth Clamping and Range Adjustment": with depthClampZeroOne
	// enabled, z_f is clamped to [0, 1] (after the depth clamp, which is
	// off here), unless the attachment is floating-point and
	// VK_EXT_depth_range_unrestricted is enabled. Depth clipping is off
	// (VK_EXT_depth_clip_enable) so the triangle's z in [-0.5, 1.5] reaches
	// the depth test. Lavapipe 22.3 lacks the extension: Tessera alone,
	// against the rule.
	VkPhysicalDeviceDepthClampZeroOneFeaturesEXT zero_one{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_ZERO_ONE_FEATURES_EXT};
	zero_one.depthClampZeroOne = VK_TRUE;
	VkPhysicalDeviceDepthClipEnableFeaturesEXT clip_features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT, &zero_one};
	clip_features.depthClipEnable = VK_TRUE;
	static VkPipelineRasterizationDepthClipStateCreateInfoEXT clip_off{
	    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT, nullptr, 0, VK_FALSE};
	for (bool unrestricted : {false, true}) {
		for (VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM}) {
			CAPTURE(unrestricted, format);
			SceneFeatures features;
			features.v13.pNext = &clip_features;
			ContextOptions options = features.Options();
			options.device_extensions = {"VK_EXT_depth_clip_enable", "VK_EXT_depth_clamp_zero_one"};
			if (unrestricted) options.device_extensions.push_back("VK_EXT_depth_range_unrestricted");
			auto ctx = Context::Create(Driver::Tessera, options);
			REQUIRE(ctx);
			std::vector<Vertex> v = {{-0.9f, -0.9f, -0.5f, 1, 1, 0, 0, 1},
			                         {0.9f, -0.9f, 1.5f, 1, 0, 1, 0, 1},
			                         {-0.9f, 0.9f, 0.5f, 1, 0, 0, 1, 1}};
			Scene s = ColorScene(v);
			s.depth_format = format;
			s.clear_depth_stencil = {0.5f, 0};
			s.configure = [](PipelineState& p) {
				p.rasterization.pNext = &clip_off;
				p.depth_stencil.depthTestEnable = VK_TRUE;
				p.depth_stencil.depthWriteEnable = VK_TRUE;
				p.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
			};
			SceneResult r = RenderScene(*ctx, s);
			CHECK(ctx->validation_errors() == 0);
			size_t zeros = 0, ones = 0, below = 0, above = 0;
			for (double z : DepthValues(format, r.depth)) {
				zeros += z == 0.0;
				ones += z == 1.0;
				below += z < 0.0;
				above += z > 1.0;
			}
			if (unrestricted && format == VK_FORMAT_D32_SFLOAT) {
				CHECK(below > 0);  // kept as they are
				CHECK(above > 0);
			} else {
				CHECK(below == 0);
				CHECK(above == 0);
				CHECK(zeros > 0);  // the clamped corners
				CHECK(ones > 0);
			}
		}
	}
}
