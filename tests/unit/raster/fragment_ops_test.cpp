// Per-sample operations: depth compare ops on D16/D24/D32, stencil tests
// and ops, every blend factor and op against the spec's equations, logic
// ops, write masks, early and late tests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "raster_test_util.h"

using namespace tessera::raster;
using namespace tessera::raster::test;

namespace {

// Two triangles covering an 8x8 target at depth z.
Mesh FullScreen(const Target& t, float z) {
	Mesh m;
	m.Add(t, -1, -1, z), m.Add(t, 20, -1, z), m.Add(t, -1, 20, z);
	m.Add(t, 20, -1, z), m.Add(t, 20, 20, z), m.Add(t, -1, 20, z);
	return m;
}

bool CompareRef(VkCompareOp op, double a, double b) {
	switch (op) {
	case VK_COMPARE_OP_NEVER: return false;
	case VK_COMPARE_OP_LESS: return a < b;
	case VK_COMPARE_OP_EQUAL: return a == b;
	case VK_COMPARE_OP_LESS_OR_EQUAL: return a <= b;
	case VK_COMPARE_OP_GREATER: return a > b;
	case VK_COMPARE_OP_NOT_EQUAL: return a != b;
	case VK_COMPARE_OP_GREATER_OR_EQUAL: return a >= b;
	default: return true;
	}
}

}  // namespace

TEST_CASE("raster: depth compare ops on D16, D24 and D32", "[raster]") {
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT}) {
		for (int op = VK_COMPARE_OP_NEVER; op <= VK_COMPARE_OP_ALWAYS; ++op) {
			for (float z : {0.25f, 0.5f, 0.75f}) {
				for (bool write : {false, true}) {
					Target t(8, 8);
					t.AddDepth(format, 0.5f);
					DrawState state = CountingState(t);
					state.depth_stencil.depth_test = true;
					state.depth_stencil.depth_write = write;
					state.depth_stencil.depth_compare = VkCompareOp(op);
					Draw(state, t, FullScreen(t, z).Input());
					bool pass = CompareRef(VkCompareOp(op), z, 0.5);
					INFO("format " << format << " op " << op << " z " << z << " write " << write);
					CHECK(t.At(3, 3) == (pass ? 1.0f : 0.0f));
					float stored = t.DepthAt(3, 3);
					float expected = pass && write ? z : 0.5f;
					CHECK(stored == Approx(expected).margin(1e-4));
				}
			}
		}
	}
}

TEST_CASE("raster: depth test quantizes to the format before comparing", "[raster]") {
	// 0.5 + 1e-6 rounds to the same D16 value as 0.5: EQUAL passes on D16,
	// fails on D32.
	for (auto [format, pass] : {std::pair{VK_FORMAT_D16_UNORM, true}, {VK_FORMAT_D32_SFLOAT, false}}) {
		Target t(8, 8);
		t.AddDepth(format, 0.5f);
		DrawState state = CountingState(t);
		state.depth_stencil.depth_test = true;
		state.depth_stencil.depth_compare = VK_COMPARE_OP_EQUAL;
		Draw(state, t, FullScreen(t, 0.5f + 1e-6f).Input());
		CHECK(t.At(3, 3) == (pass ? 1.0f : 0.0f));
	}
}

namespace {

uint8_t StencilOpRef(VkStencilOp op, uint8_t s, uint8_t ref) {
	switch (op) {
	case VK_STENCIL_OP_KEEP: return s;
	case VK_STENCIL_OP_ZERO: return 0;
	case VK_STENCIL_OP_REPLACE: return ref;
	case VK_STENCIL_OP_INCREMENT_AND_CLAMP: return uint8_t(std::min(s + 1, 255));
	case VK_STENCIL_OP_DECREMENT_AND_CLAMP: return uint8_t(std::max(s - 1, 0));
	case VK_STENCIL_OP_INVERT: return uint8_t(~s);
	case VK_STENCIL_OP_INCREMENT_AND_WRAP: return uint8_t((s + 1) & 255);
	default: return uint8_t((s + 255) & 255);
	}
}

}  // namespace

TEST_CASE("raster: stencil test, ops and masks", "[raster]") {
	// Each op in each of the three outcomes (stencil fail, depth fail, pass),
	// on the edge values 0, 255 and one in between.
	for (int op = VK_STENCIL_OP_KEEP; op <= VK_STENCIL_OP_DECREMENT_AND_WRAP; ++op) {
		for (uint8_t clear : {uint8_t(0), uint8_t(0x35), uint8_t(255)}) {
			for (int outcome = 0; outcome < 3; ++outcome) {
				Target t(8, 8);
				t.AddDepth(VK_FORMAT_D32_SFLOAT, 0.5f);
				t.AddStencil(clear);
				DrawState state = CountingState(t);
				DepthStencilState& ds = state.depth_stencil;
				ds.depth_test = true;
				ds.depth_compare = outcome == 1 ? VK_COMPARE_OP_NEVER : VK_COMPARE_OP_ALWAYS;
				ds.stencil_test = true;
				StencilFaceState f;
				f.compare_op = outcome == 0 ? VK_COMPARE_OP_NOT_EQUAL : VK_COMPARE_OP_EQUAL;
				f.reference = 0x1b5;  // only the low bits count through the compare mask
				f.compare_mask = 0x0f;
				f.write_mask = 0xf3;
				f.fail_op = f.pass_op = f.depth_fail_op = VK_STENCIL_OP_KEEP;
				(outcome == 0 ? f.fail_op : outcome == 1 ? f.depth_fail_op : f.pass_op) = VkStencilOp(op);
				// Make EQUAL hold: reference & 0x0f == clear & 0x0f.
				f.reference = (f.reference & ~0x0fu) | (clear & 0x0f);
				// FullScreen's triangles are back-facing (see the test below).
				ds.back = f;
				ds.front = f;
				ds.front.pass_op = ds.front.fail_op = ds.front.depth_fail_op = VK_STENCIL_OP_ZERO;  // unused
				Draw(state, t, FullScreen(t, 0.25f).Input());
				uint8_t n = StencilOpRef(VkStencilOp(op), clear, uint8_t(f.reference));
				uint8_t expected = uint8_t((clear & ~0xf3) | (n & 0xf3));
				INFO("op " << op << " clear " << int(clear) << " outcome " << outcome);
				CHECK(int(t.StencilAt(2, 5)) == int(expected));
				CHECK(t.At(2, 5) == (outcome == 2 ? 1.0f : 0.0f));
			}
		}
	}
}

TEST_CASE("raster: back faces use the back stencil state", "[raster]") {
	// FullScreen's triangles run (-1,-1) -> (20,-1) -> (-1,20): clockwise
	// with y down, so back-facing under the default counter-clockwise front.
	for (bool flip : {false, true}) {
		Target t(8, 8);
		t.AddStencil(7);
		DrawState state = CountingState(t);
		DepthStencilState& ds = state.depth_stencil;
		ds.stencil_test = true;
		ds.front.pass_op = VK_STENCIL_OP_INCREMENT_AND_CLAMP;
		ds.back.pass_op = VK_STENCIL_OP_DECREMENT_AND_CLAMP;
		Mesh m = FullScreen(t, 0.5f);
		if (flip)
			for (size_t k = 0; k < m.positions.size(); k += 12)
				for (int c = 0; c < 4; ++c) std::swap(m.positions[k + 4 + c], m.positions[k + 8 + c]);
		Draw(state, t, m.Input());
		CHECK(int(t.StencilAt(4, 4)) == (flip ? 8 : 6));
	}
}

namespace {

// Vulkan 1.3 §29.13.2, table "Blend Factors", one component at a time.
double FactorRef(VkBlendFactor f, int c, const double s[4], const double s1[4], const double d[4], const double k[4]) {
	switch (f) {
	case VK_BLEND_FACTOR_ZERO: return 0;
	case VK_BLEND_FACTOR_ONE: return 1;
	case VK_BLEND_FACTOR_SRC_COLOR: return s[c];
	case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1 - s[c];
	case VK_BLEND_FACTOR_DST_COLOR: return d[c];
	case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1 - d[c];
	case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
	case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1 - s[3];
	case VK_BLEND_FACTOR_DST_ALPHA: return d[3];
	case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1 - d[3];
	case VK_BLEND_FACTOR_CONSTANT_COLOR: return k[c];
	case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1 - k[c];
	case VK_BLEND_FACTOR_CONSTANT_ALPHA: return k[3];
	case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1 - k[3];
	case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return c == 3 ? 1 : std::min(s[3], 1 - d[3]);
	case VK_BLEND_FACTOR_SRC1_COLOR: return s1[c];
	case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 1 - s1[c];
	case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
	default: return 1 - s1[3];
	}
}

// §29.13.3, table "Blend Operations".
double OpRef(VkBlendOp op, double s, double d, double sf, double df) {
	switch (op) {
	case VK_BLEND_OP_ADD: return s * sf + d * df;
	case VK_BLEND_OP_SUBTRACT: return s * sf - d * df;
	case VK_BLEND_OP_REVERSE_SUBTRACT: return d * df - s * sf;
	case VK_BLEND_OP_MIN: return std::min(s, d);
	default: return std::max(s, d);
	}
}

}  // namespace

TEST_CASE("raster: every blend factor and op follows the spec's equations", "[raster]") {
	std::mt19937 rng(11);
	std::uniform_real_distribution<float> unit(0, 1);
	const uint32_t n = 37;
	float src[4][n], src1[4][n], dst[4][n];
	for (int c = 0; c < 4; ++c)
		for (uint32_t i = 0; i < n; ++i) src[c][i] = unit(rng), src1[c][i] = unit(rng), dst[c][i] = unit(rng);
	const float constants[4] = {0.2f, 0.4f, 0.6f, 0.8f};
	for (int op = VK_BLEND_OP_ADD; op <= VK_BLEND_OP_MAX; ++op) {
		for (int fs = VK_BLEND_FACTOR_ZERO; fs <= VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA; ++fs) {
			for (int fd = VK_BLEND_FACTOR_ZERO; fd <= VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA; ++fd) {
				// Color takes (fs, fd, op); alpha a different pair and op.
				BlendAttachmentState b;
				b.blend_enable = true;
				b.src_color = VkBlendFactor(fs), b.dst_color = VkBlendFactor(fd), b.color_op = VkBlendOp(op);
				b.src_alpha = VkBlendFactor(fd), b.dst_alpha = VkBlendFactor(fs);
				b.alpha_op = VkBlendOp((op + 1) % 5);
				float out[4][n];
				for (int c = 0; c < 4; ++c) std::copy_n(dst[c], n, out[c]);
				const float* s[4] = {src[0], src[1], src[2], src[3]};
				const float* s1[4] = {src1[0], src1[1], src1[2], src1[3]};
				float* d[4] = {out[0], out[1], out[2], out[3]};
				BlendLanes(b, constants, s, s1, d, n);
				for (uint32_t i = 0; i < n; ++i) {
					double sv[4], s1v[4], dv[4], kv[4];
					for (int c = 0; c < 4; ++c)
						sv[c] = src[c][i], s1v[c] = src1[c][i], dv[c] = dst[c][i], kv[c] = constants[c];
					for (int c = 0; c < 4; ++c) {
						VkBlendOp o = c < 3 ? b.color_op : b.alpha_op;
						VkBlendFactor a = c < 3 ? b.src_color : b.src_alpha, z = c < 3 ? b.dst_color : b.dst_alpha;
						double expected =
						    OpRef(o, sv[c], dv[c], FactorRef(a, c, sv, s1v, dv, kv), FactorRef(z, c, sv, s1v, dv, kv));
						if (std::abs(out[c][i] - expected) > 1e-6)
							FAIL("op " << o << " src factor " << a << " dst factor " << z << " component " << c << ": "
							           << out[c][i] << " != " << expected);
					}
				}
			}
		}
	}
}

TEST_CASE("raster: blending through an attachment, with clamping on UNORM", "[raster]") {
	// RGBA8: the source (1.5, -0.5, 0.25, 0.5) is clamped to [0, 1] first
	// (§29.13.1), then src*alpha + dst*(1-alpha) with dst (0.2, 0.4, 0.6, 1.0).
	static const float kColor[4] = {1.5f, -0.5f, 0.25f, 0.5f};
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R16G16B16A16_UNORM,
	                        VK_FORMAT_R32G32B32A32_SFLOAT}) {
		Target t(8, 8, format);
		const tessera::texture::FormatInfo& info = *tessera::texture::FindFormat(format);
		tessera::texture::TexelValue clear;
		clear.f[0] = 0.2f, clear.f[1] = 0.4f, clear.f[2] = 0.6f, clear.f[3] = 1.0f;
		for (size_t i = 0; i < 64; ++i) tessera::texture::PackTexel(info, clear, t.color.data() + i * t.texel_size);
		DrawState state = MakeState(t);
		state.shader.run = ConstantColorShader;
		state.shader.user = kColor;
		state.blend.attachment_count = 1;
		BlendAttachmentState& b = state.blend.attachments[0];
		b.blend_enable = true;
		b.src_color = VK_BLEND_FACTOR_SRC_ALPHA;
		b.dst_color = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		b.src_alpha = VK_BLEND_FACTOR_ONE;
		b.dst_alpha = VK_BLEND_FACTOR_ZERO;
		Draw(state, t, FullScreen(t, 0.5f).Input());
		bool unorm = format != VK_FORMAT_R32G32B32A32_SFLOAT;
		double s[4] = {unorm ? 1.0 : 1.5, unorm ? 0.0 : -0.5, 0.25, 0.5};
		double d[3] = {0.2, 0.4, 0.6};
		double tolerance = format == VK_FORMAT_R32G32B32A32_SFLOAT  ? 1e-6
		                   : format == VK_FORMAT_R16G16B16A16_UNORM ? 1e-4
		                                                            : 0.003;
		INFO("format " << format);
		for (int c = 0; c < 3; ++c) CHECK(t.At(3, 3, c) == Approx(s[c] * 0.5 + d[c] * 0.5).margin(tolerance));
		CHECK(t.At(3, 3, 3) == Approx(0.5).margin(tolerance));
	}
}

TEST_CASE("raster: constant blend color and the color write mask", "[raster]") {
	static const float kColor[4] = {0.1f, 0.2f, 0.3f, 0.4f};
	Target t(8, 8, VK_FORMAT_R32G32B32A32_SFLOAT);
	std::fill(reinterpret_cast<float*>(t.color.data()), reinterpret_cast<float*>(t.color.data() + t.color.size()),
	          0.5f);
	DrawState state = MakeState(t);
	state.shader.run = ConstantColorShader;
	state.shader.user = kColor;
	state.blend.attachment_count = 1;
	state.blend.constants[0] = 2, state.blend.constants[1] = 3, state.blend.constants[2] = 4,
	state.blend.constants[3] = 5;
	BlendAttachmentState& b = state.blend.attachments[0];
	b.blend_enable = true;
	b.src_color = VK_BLEND_FACTOR_CONSTANT_COLOR;
	b.dst_color = VK_BLEND_FACTOR_ONE;
	b.src_alpha = VK_BLEND_FACTOR_CONSTANT_ALPHA;
	b.dst_alpha = VK_BLEND_FACTOR_ZERO;
	b.write_mask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
	Draw(state, t, FullScreen(t, 0.5f).Input());
	CHECK(t.At(1, 1, 0) == Approx(0.1 * 2 + 0.5));
	CHECK(t.At(1, 1, 1) == 0.5f);  // masked
	CHECK(t.At(1, 1, 2) == Approx(0.3 * 4 + 0.5));
	CHECK(t.At(1, 1, 3) == Approx(0.4 * 5));
}

TEST_CASE("raster: logic ops combine the packed bits", "[raster]") {
	// Source (0.2, 0.4, 0.6, 0.8) packs to RGBA8 bytes 51, 102, 153, 204.
	static const float kColor[4] = {0.2f, 0.4f, 0.6f, 0.8f};
	const uint8_t s[4] = {51, 102, 153, 204}, d[4] = {0x0f, 0xf0, 0x55, 0xaa};
	for (int op = VK_LOGIC_OP_CLEAR; op <= VK_LOGIC_OP_SET; ++op) {
		Target t(8, 8, VK_FORMAT_R8G8B8A8_UNORM);
		for (size_t i = 0; i < t.color.size(); ++i) t.color[i] = d[i % 4];
		DrawState state = MakeState(t);
		state.shader.run = ConstantColorShader;
		state.shader.user = kColor;
		state.blend.logic_op_enable = true;
		state.blend.logic_op = VkLogicOp(op);
		state.blend.attachment_count = 1;
		state.blend.attachments[0].blend_enable = true;  // ignored under a logic op
		state.blend.attachments[0].src_color = VK_BLEND_FACTOR_ZERO;
		state.blend.attachments[0].write_mask = 0xb;  // not blue
		Draw(state, t, FullScreen(t, 0.5f).Input());
		for (int c = 0; c < 4; ++c) {
			uint32_t expected;
			switch (op) {
			case VK_LOGIC_OP_CLEAR: expected = 0; break;
			case VK_LOGIC_OP_AND: expected = s[c] & d[c]; break;
			case VK_LOGIC_OP_AND_REVERSE: expected = s[c] & ~d[c]; break;
			case VK_LOGIC_OP_COPY: expected = s[c]; break;
			case VK_LOGIC_OP_AND_INVERTED: expected = ~s[c] & d[c]; break;
			case VK_LOGIC_OP_NO_OP: expected = d[c]; break;
			case VK_LOGIC_OP_XOR: expected = s[c] ^ d[c]; break;
			case VK_LOGIC_OP_OR: expected = s[c] | d[c]; break;
			case VK_LOGIC_OP_NOR: expected = ~(s[c] | d[c]); break;
			case VK_LOGIC_OP_EQUIVALENT: expected = ~(s[c] ^ d[c]); break;
			case VK_LOGIC_OP_INVERT: expected = ~d[c]; break;
			case VK_LOGIC_OP_OR_REVERSE: expected = s[c] | ~d[c]; break;
			case VK_LOGIC_OP_COPY_INVERTED: expected = ~s[c]; break;
			case VK_LOGIC_OP_OR_INVERTED: expected = ~s[c] | d[c]; break;
			case VK_LOGIC_OP_NAND: expected = ~(s[c] & d[c]); break;
			default: expected = 0xff; break;
			}
			if (c == 2) expected = d[c];
			INFO("op " << op << " component " << c);
			CHECK(int(t.color[(3 * 8 + 3) * 4 + c]) == int(expected & 0xff));
		}
	}
}

namespace {

// Discards the left column of every quad and writes depth 0.1 + x / 100.
void DiscardShader(const void*, FragmentBatch& b) {
	for (uint32_t i = 0; i < 4 * b.quad_count; ++i) {
		b.discarded[i] = (i & 1) == 0;
		b.frag_depth[i] = 0.1f + b.frag_coord[0][i] / 100;
		for (int c = 0; c < 4; ++c) b.color[0][c][i] = 1;
	}
}

}  // namespace

TEST_CASE("raster: discarded fragments and shader depth take the late tests", "[raster]") {
	Target t(8, 8);
	t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
	DrawState state = MakeState(t);
	state.shader.run = DiscardShader;
	state.shader.may_discard = true;
	state.shader.writes_depth = true;
	state.depth_stencil.depth_test = state.depth_stencil.depth_write = true;
	Draw(state, t, FullScreen(t, 0.9f).Input());
	for (uint32_t x = 0; x < 8; ++x) {
		INFO("x " << x);
		CHECK(t.At(x, 2) == ((x & 1) ? 1.0f : 0.0f));
		CHECK(t.DepthAt(x, 2) == ((x & 1) ? Approx(0.1 + (x + 0.5) / 100) : Approx(1.0)));
	}
}

TEST_CASE("raster: MSAA depth is tested per sample", "[raster]") {
	// A depth ramp across pixel 3: z = x_f / 8. With the depth cleared to
	// 0.45 (x_f = 3.6) and LESS, samples of pixel 3 left of x = 3.6 pass:
	// the standard locations at x 3.375 and 3.125 (samples 0 and 2).
	Target t(8, 8, VK_FORMAT_R32_SFLOAT, 4);
	t.AddDepth(VK_FORMAT_D32_SFLOAT, 0.45f);
	DrawState state = CountingState(t);
	state.depth_stencil.depth_test = true;
	state.depth_stencil.depth_compare = VK_COMPARE_OP_LESS;
	Mesh m;
	m.Add(t, -8, -8, -1), m.Add(t, 24, -8, 3), m.Add(t, -8, 24, -1);
	Draw(state, t, m.Input());
	CHECK(t.At(3, 3, 0, 0) == 1.0f);
	CHECK(t.At(3, 3, 0, 1) == 0.0f);
	CHECK(t.At(3, 3, 0, 2) == 1.0f);
	CHECK(t.At(3, 3, 0, 3) == 0.0f);
}

TEST_CASE("raster: the sRGB store gives PackTexel's bytes", "[raster]") {
	// Every 1021st float in [0, 1] and a neighbourhood of each step.
	const tessera::texture::FormatInfo& info = *tessera::texture::FindFormat(VK_FORMAT_R8G8B8A8_SRGB);
	auto reference = [&](float l) {
		tessera::texture::TexelValue v;
		v.f[0] = l, v.f[1] = v.f[2] = 0, v.f[3] = 1;
		uint8_t out[4];
		tessera::texture::PackTexel(info, v, out);
		return out[0];
	};
	uint32_t bad = 0, checked = 0;
	auto check = [&](uint32_t bits) {
		float l;
		std::memcpy(&l, &bits, 4);
		++checked;
		if (EncodeSrgb8(l) != reference(l) && bad++ < 5) UNSCOPED_INFO("bits " << std::hex << bits);
	};
	for (uint32_t bits = 0; bits <= 0x3f800000u; bits += 1021) check(bits);
	for (int k = 1; k < 256; ++k) {
		// The first input of step k, by bisection against the reference.
		uint32_t lo = 0, hi = 0x3f800000u;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			float l;
			std::memcpy(&l, &mid, 4);
			if (reference(l) >= k)
				hi = mid;
			else
				lo = mid + 1;
		}
		for (uint32_t d = 0; d < 64; ++d) check(lo - 32 + d);
	}
	for (float l :
	     {-1.0f, -0.0f, 1.0f, 2.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()})
		CHECK(EncodeSrgb8(l) == reference(l));
	CHECK(checked > 1000000);
	CHECK(bad == 0);
}

TEST_CASE("raster: blending on sRGB attachments works in linear space", "[raster]") {
	// §29.13: the destination is decoded to linear, blended, encoded again.
	static const float kColor[4] = {0.5f, 0.25f, 1.0f, 0.5f};
	for (VkFormat format : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB}) {
		Target t(8, 8, format);
		const tessera::texture::FormatInfo& info = *tessera::texture::FindFormat(format);
		tessera::texture::TexelValue clear;
		clear.f[0] = 0.2f, clear.f[1] = 0.4f, clear.f[2] = 0.6f, clear.f[3] = 1.0f;
		for (size_t i = 0; i < 64; ++i) tessera::texture::PackTexel(info, clear, t.color.data() + i * 4);
		tessera::texture::TexelValue dst = tessera::texture::UnpackTexel(info, t.color.data());
		DrawState state = MakeState(t);
		state.shader.run = ConstantColorShader;
		state.shader.user = kColor;
		state.blend.attachment_count = 1;
		BlendAttachmentState& b = state.blend.attachments[0];
		b.blend_enable = true;
		b.src_color = VK_BLEND_FACTOR_SRC_ALPHA;
		b.dst_color = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		Draw(state, t, FullScreen(t, 0.5f).Input());
		tessera::texture::TexelValue expected;
		for (int c = 0; c < 3; ++c) expected.f[c] = kColor[c] * 0.5f + dst.f[c] * 0.5f;
		expected.f[3] = kColor[3] * 1.0f;  // src_alpha ONE, dst_alpha ZERO by default
		uint8_t bytes[4];
		tessera::texture::PackTexel(info, expected, bytes);
		INFO("format " << format);
		for (int c = 0; c < 4; ++c) CHECK(int(t.color[(2 * 8 + 5) * 4 + c]) == int(bytes[c]));
	}
}

TEST_CASE("raster: RoundUnorm8 rounds every float in [0, 1] as the double form does", "[raster]") {
	// Every bit pattern from +0 to 1.0: zeros, subnormals, and each value's
	// neighbours at the halfway points k + 1/2.
	const uint32_t one = std::bit_cast<uint32_t>(1.0f);
	uint32_t mismatches = 0, first = 0;
	for (uint32_t bits = 0; bits <= one; ++bits) {
		const float x = std::bit_cast<float>(bits);
		if (RoundUnorm8(x) != uint32_t(int32_t(double(x) * 255.0 + 0.5)) && mismatches++ == 0) first = bits;
	}
	INFO("first mismatch at bits " << first);
	CHECK(mismatches == 0);
}

TEST_CASE("raster: RoundUnorm8Fma rounds every float in [0, 1] as RoundUnorm8 does", "[raster]") {
	// The FMA builds of the 8-bit UNORM writes use it (here fmaf computes
	// the same single-rounded values in whatever instructions it has).
	const uint32_t one = std::bit_cast<uint32_t>(1.0f);
	uint32_t mismatches = 0, first = 0;
	for (uint32_t bits = 0; bits <= one; ++bits) {
		const float x = std::bit_cast<float>(bits);
		if (tessera::texture::RoundUnorm8Fma(x) != RoundUnorm8(x) && mismatches++ == 0) first = bits;
	}
	INFO("first mismatch at bits " << first);
	CHECK(mismatches == 0);
}

TEST_CASE("raster: the RGBA8 fast paths write the generic path's bytes", "[raster]") {
	// A8B8G8R8_UNORM_PACK32 has RGBA8's byte layout on a little-endian host
	// and goes through texture::PackTexel/UnpackTexel, so the specialized
	// RGBA8 stores (opaque, blended, and the fused blends of the common
	// factor sets) must match it byte for byte.
	struct Factors {
		VkBlendFactor sc, dc, sa, da;
		VkBlendOp alpha_op;
	};
	const Factors kFactors[] = {
	    {VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA,
	     VK_BLEND_FACTOR_DST_COLOR, VK_BLEND_OP_REVERSE_SUBTRACT},  // BlendUnorm8SingleSample
	    {VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_FACTOR_ONE,
	     VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD},  // the fused ones
	    {VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_FACTOR_SRC_ALPHA,
	     VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD},
	    {VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_FACTOR_ONE,
	     VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD},
	    {VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD},
	};
	for (const Factors& f : kFactors)
		for (bool blend : {false, true}) {
			auto render = [&](VkFormat format) {
				Target t(70, 50, format);
				for (size_t i = 0; i < t.color.size(); ++i) t.color[i] = uint8_t(i * 37 + 11);
				DrawState state = MakeState(t);
				state.shader.run = VaryingColorShader;
				state.raster.varying_count = 4;
				state.blend.attachment_count = 1;
				BlendAttachmentState& b = state.blend.attachments[0];
				b.blend_enable = blend;
				b.src_color = f.sc, b.dst_color = f.dc, b.src_alpha = f.sa, b.dst_alpha = f.da;
				b.alpha_op = f.alpha_op;
				std::mt19937 rng(9);
				std::uniform_real_distribution<float> pos(-10, 80), color(-0.2f, 1.2f);
				Mesh m;
				for (int i = 0; i < 60; ++i)
					for (int k = 0; k < 3; ++k)
						m.Add(t, pos(rng), pos(rng), 0.5f, 1, {color(rng), color(rng), color(rng), color(rng)});
				// Triangles whose red, then alpha, is NaN (converted to 0, §3.9.2).
				const float nan = std::numeric_limits<float>::quiet_NaN();
				for (int k = 0; k < 3; ++k)
					m.Add(t, 5 + 50 * (k == 1), 5 + 30 * (k == 2), 0.5f, 1, {nan, 0.5f, 0.25f, 0.75f});
				for (int k = 0; k < 3; ++k)
					m.Add(t, 60 - 40 * (k == 1), 45 - 30 * (k == 2), 0.5f, 1, {0.5f, 0.25f, 1, nan});
				Draw(state, t, m.Input());
				return t.color;
			};
			INFO("blend " << blend << " factors " << f.sc << " " << f.dc << " " << f.sa << " " << f.da);
			CHECK(render(VK_FORMAT_R8G8B8A8_UNORM) == render(VK_FORMAT_A8B8G8R8_UNORM_PACK32));
		}
}

namespace {

// Output 0 = (0.5, 0.25, 2, 1), second source (index 1) = (0.2, 4, 0.5, 0.75).
void DualSourceShader(const void*, FragmentBatch& b) {
	const float s0[4] = {0.5f, 0.25f, 2.0f, 1.0f}, s1[4] = {0.2f, 4.0f, 0.5f, 0.75f};
	for (uint32_t i = 0; i < 4 * b.quad_count; ++i)
		for (int c = 0; c < 4; ++c) b.color[0][c][i] = s0[c], b.color[1][c][i] = s1[c];
}

}  // namespace

TEST_CASE("raster: dual-source blending reads the second output", "[raster]") {
	// RGB: src * SRC1_COLOR + dst * ONE_MINUS_SRC1_ALPHA; alpha: src * SRC1_ALPHA.
	Target t(8, 8, VK_FORMAT_R32G32B32A32_SFLOAT);
	std::fill(reinterpret_cast<float*>(t.color.data()), reinterpret_cast<float*>(t.color.data() + t.color.size()),
	          1.0f);
	DrawState state = MakeState(t);
	state.shader.run = DualSourceShader;
	state.blend.attachment_count = 1;
	BlendAttachmentState& b = state.blend.attachments[0];
	b.blend_enable = true;
	b.src_color = VK_BLEND_FACTOR_SRC1_COLOR;
	b.dst_color = VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
	b.src_alpha = VK_BLEND_FACTOR_SRC1_ALPHA;
	b.dst_alpha = VK_BLEND_FACTOR_ZERO;
	Draw(state, t, FullScreen(t, 0.5f).Input());
	CHECK(t.At(4, 4, 0) == Approx(0.5 * 0.2 + 0.25));
	CHECK(t.At(4, 4, 1) == Approx(0.25 * 4 + 0.25));
	CHECK(t.At(4, 4, 2) == Approx(2 * 0.5 + 0.25));
	CHECK(t.At(4, 4, 3) == Approx(1 * 0.75));
}

TEST_CASE("raster: dual-source blending on RGBA8 clamps both sources", "[raster]") {
	// §29.13.1: on UNORM both sources clamp to [0, 1]: (0.5, 0.25, 1, 1) and
	// (0.2, 1, 0.5, 0.75), over a white destination.
	Target t(8, 8, VK_FORMAT_R8G8B8A8_UNORM);
	std::fill(t.color.begin(), t.color.end(), uint8_t(255));
	DrawState state = MakeState(t);
	state.shader.run = DualSourceShader;
	state.blend.attachment_count = 1;
	BlendAttachmentState& b = state.blend.attachments[0];
	b.blend_enable = true;
	b.src_color = VK_BLEND_FACTOR_SRC1_COLOR;
	b.dst_color = VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
	b.src_alpha = VK_BLEND_FACTOR_SRC1_ALPHA;
	b.dst_alpha = VK_BLEND_FACTOR_ZERO;
	Draw(state, t, FullScreen(t, 0.5f).Input());
	tessera::texture::TexelValue expected;
	expected.f[0] = 0.5f * 0.2f + 0.25f, expected.f[1] = 0.25f * 1.0f + 0.25f;
	expected.f[2] = 1.0f * 0.5f + 0.25f, expected.f[3] = 1.0f * 0.75f;
	uint8_t bytes[4];
	tessera::texture::PackTexel(*tessera::texture::FindFormat(VK_FORMAT_R8G8B8A8_UNORM), expected, bytes);
	for (int c = 0; c < 4; ++c) CHECK(int(t.color[(4 * 8 + 4) * 4 + c]) == int(bytes[c]));
}

TEST_CASE("raster: MSAA stencil ops apply per covered sample", "[raster]") {
	// Left edge at x = 3.5 inside pixel 3: samples 1 (x 3.875) and 3 (x 3.625)
	// are covered, 0 and 2 are not; each covered sample increments its own
	// stencil value.
	Target t(8, 8, VK_FORMAT_R32_SFLOAT, 4);
	t.AddStencil(5);
	DrawState state = CountingState(t);
	state.depth_stencil.stencil_test = true;
	for (StencilFaceState* f : {&state.depth_stencil.front, &state.depth_stencil.back})
		f->pass_op = VK_STENCIL_OP_INCREMENT_AND_CLAMP;
	Mesh m;
	m.Add(t, 3.5, -4), m.Add(t, 20, -4), m.Add(t, 3.5, 20);
	Draw(state, t, m.Input());
	CHECK(int(t.StencilAt(3, 3, 0)) == 5);
	CHECK(int(t.StencilAt(3, 3, 1)) == 6);
	CHECK(int(t.StencilAt(3, 3, 2)) == 5);
	CHECK(int(t.StencilAt(3, 3, 3)) == 6);
	for (uint32_t s = 0; s < 4; ++s) CHECK(int(t.StencilAt(5, 3, s)) == 6);
	for (uint32_t s = 0; s < 4; ++s) CHECK(int(t.StencilAt(2, 3, s)) == 5);
}

TEST_CASE("raster: tests run before the shader only where nothing can tell", "[raster]") {
	// Vulkan 1.3 §29.4: without EarlyFragmentTests the tests follow the
	// shader; running them first is allowed only where no shader can see the
	// difference. Buffer or image writes (the writes of failing fragments
	// would be lost) and input-attachment reads (an input attachment may be
	// the depth/stencil attachment being written) keep them late.
	Framebuffer fb;
	fb.width = fb.height = 8;
	fb.samples = 1;
	auto early = [&](auto change) {
		DrawState state;
		change(state.shader);
		return CompileDraw(state, fb).early_tests;
	};
	CHECK(early([](FragmentShader&) {}));
	CHECK_FALSE(early([](FragmentShader& s) { s.may_discard = true; }));
	CHECK_FALSE(early([](FragmentShader& s) { s.writes_depth = true; }));
	CHECK_FALSE(early([](FragmentShader& s) { s.writes_memory = true; }));
	CHECK_FALSE(early([](FragmentShader& s) { s.reads_attachments = true; }));
	CHECK(early([](FragmentShader& s) {
		s.reads_attachments = true;
		s.early_fragment_tests = true;  // the shader asks
	}));
}

TEST_CASE("raster: early depth tests of whole-quad runs equal the per-quad late tests", "[raster]") {
	// The early tests take runs of whole single-sample quads together
	// (depth_test_run); a shader that may discard keeps the tests late, one
	// quad at a time. Overlapping triangles with sloped depth, large ones
	// covering whole tiles among them, must leave the same depth and color
	// bytes both ways, for every format, compare op, write and depth clamp.
	std::mt19937 rng(7);
	std::uniform_real_distribution<double> px(-20, 170), py(-20, 120), depth(-0.2, 1.2);
	Mesh m;
	for (int i = 0; i < 60; ++i) {
		const double cx = px(rng), cy = py(rng), size = i % 3 == 0 ? 120 : i % 3 == 1 ? 30 : 6;
		std::uniform_real_distribution<double> offset(-size, size);
		for (int k = 0; k < 3; ++k) m.Add(Target(150, 100), cx + offset(rng), cy + offset(rng), float(depth(rng)));
	}
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT})
		for (int op = VK_COMPARE_OP_NEVER; op <= VK_COMPARE_OP_ALWAYS; ++op)
			for (bool write : {false, true})
				for (bool clamp : {false, true}) {
					Target early(150, 100), late(150, 100);
					for (Target* t : {&early, &late}) {
						t->AddDepth(format, 0.5f);
						DrawState state = CountingState(*t);
						state.depth_stencil.depth_test = true;
						state.depth_stencil.depth_write = write;
						state.depth_stencil.depth_compare = VkCompareOp(op);
						state.raster.depth_clamp = clamp;
						state.raster.viewport.min_depth = clamp ? 0.3f : 0.0f;
						state.raster.viewport.max_depth = clamp ? 0.7f : 1.0f;
						state.shader.may_discard = t == &late;
						REQUIRE(CompileDraw(state, t->Get()).early_tests == (t == &early));
						Draw(state, *t, m.Input());
					}
					INFO("format " << format << " op " << op << " write " << write << " clamp " << clamp);
					CHECK(early.depth == late.depth);
					CHECK(early.color == late.color);
				}
}

TEST_CASE("raster: depth tests store the depth texture::PackDepth packs", "[raster]") {
	// The early tests of whole-quad runs (vectorized) and the per-quad late
	// tests round a fragment's depth to D16 and D24 as PackDepth does (to
	// nearest, clamped), on values near the halfway points between two
	// stored values and at the ends of [0, 1].
	std::vector<float> values = {0.0f, -0.0f, 1.0f, 1e-30f, 0.999999f, 0.5f, 0.25f, 1.0f / 3.0f};
	for (uint32_t bits : {16u, 24u}) {
		const double max = double((1u << bits) - 1);
		for (uint32_t k : {0u, 1u, 2u, 1000u, 12345u, (1u << bits) - 3u}) {
			const float half = float((double(k) + 0.5) / max);
			values.push_back(half);
			values.push_back(std::nextafter(half, 0.0f));
			values.push_back(std::nextafter(half, 1.0f));
		}
	}
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32})
		for (float z : values)
			for (bool early : {true, false}) {
				Target t(16, 8);
				t.AddDepth(format, 1.0f);
				DrawState state = CountingState(t);
				state.depth_stencil.depth_test = true;
				state.depth_stencil.depth_write = true;
				state.depth_stencil.depth_compare = VK_COMPARE_OP_ALWAYS;
				state.shader.may_discard = !early;
				REQUIRE(CompileDraw(state, t.Get()).early_tests == early);
				Draw(state, t, FullScreen(t, z).Input());
				uint8_t expected[4] = {};
				tessera::texture::PackDepth(format, z, expected);
				const size_t size = format == VK_FORMAT_D16_UNORM ? 2 : 4;
				INFO("format " << format << " z " << z << " early " << early);
				CHECK(std::memcmp(t.depth.data() + (3 * 16 + 5) * size, expected, size) == 0);
			}
}
