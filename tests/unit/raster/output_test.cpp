// Integer color attachments, the depth bounds test, alpha to coverage and
// alpha to one, and depth/stencil in separate planes (X8_D24 + S8,
// D32 + S8, S8 alone).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include "raster_test_util.h"

using namespace tessera::raster;
using namespace tessera::raster::test;

namespace {

Mesh FullScreen(const Target& t, float z) {
	Mesh m;
	m.Add(t, -1, -1, z), m.Add(t, 40, -1, z), m.Add(t, -1, 40, z);
	m.Add(t, 40, -1, z), m.Add(t, 40, 40, z), m.Add(t, -1, 40, z);
	return m;
}

// Writes the 4 integers `user` points at as the bits of color output 0.
void IntegerShader(const void* user, FragmentBatch& b) {
	const uint32_t* v = static_cast<const uint32_t*>(user);
	for (uint32_t c = 0; c < 4; ++c)
		for (uint32_t i = 0; i < 4 * b.quad_count; ++i) std::memcpy(&b.color[0][c][i], &v[c], 4);
}

std::vector<uint8_t> TexelBytes(const Target& t, uint32_t x, uint32_t y) {
	const uint8_t* p = t.color.data() + (size_t(y) * t.width + x) * t.samples * t.texel_size;
	return std::vector<uint8_t>(p, p + t.texel_size);
}

}  // namespace

TEST_CASE("raster: integer attachments store the shader's integers, saturated, never blended", "[raster]") {
	struct Case {
		VkFormat format;
		uint32_t values[4];
		std::vector<uint8_t> bytes;
	};
	// Vulkan "Fragment Output Interface": integers are converted to the
	// attachment's bit depth (values out of range are undefined there; they
	// saturate, as in the CTS's references). 32-bit components keep every
	// bit: a NaN bit pattern passes through untouched.
	const Case cases[] = {
	    {VK_FORMAT_R32G32B32A32_UINT,
	     {0xdeadbeef, 0x7fc00001, 0xffffffff, 0},
	     {0xef, 0xbe, 0xad, 0xde, 1, 0, 0xc0, 0x7f, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}},
	    {VK_FORMAT_R8G8B8A8_UINT, {0x1ff, 300, 7, 0xffffffff}, {0xff, 0xff, 7, 0xff}},
	    {VK_FORMAT_R16G16_SINT, {0xfffffffe, 40000, 5, 6}, {0xfe, 0xff, 0xff, 0x7f}},
	    {VK_FORMAT_R8_SINT, {0xffffff80, 0, 0, 0}, {0x80}},
	    {VK_FORMAT_R8G8B8A8_SINT, {255, uint32_t(-300), 127, uint32_t(-128)}, {0x7f, 0x80, 0x7f, 0x80}},
	    {VK_FORMAT_A2B10G10R10_UINT_PACK32, {1024, 5, 1023, 4}, {0xff, 0x17, 0xf0, 0xff}},
	};
	for (const Case& c : cases) {
		Target t(8, 8, c.format);
		std::fill(t.color.begin(), t.color.end(), uint8_t(3));
		DrawState state = MakeState(t);
		state.shader.run = IntegerShader;
		state.shader.user = c.values;
		// Blending is only defined for float and normalized formats
		// (§29.13); an enabled blend must not touch integer bits.
		state.blend.attachment_count = 1;
		BlendAttachmentState& b = state.blend.attachments[0];
		b.blend_enable = true;
		b.src_color = b.dst_color = b.src_alpha = b.dst_alpha = VK_BLEND_FACTOR_ONE;
		Mesh m = FullScreen(t, 0.5f);
		Draw(state, t, m.Input());
		INFO("format " << c.format);
		CHECK(TexelBytes(t, 0, 0) == c.bytes);
		CHECK(TexelBytes(t, 7, 5) == c.bytes);
	}
}

TEST_CASE("raster: logic ops on integer attachments", "[raster]") {
	Target t(8, 8, VK_FORMAT_R8G8B8A8_UINT);
	std::fill(t.color.begin(), t.color.end(), uint8_t(0x0f));
	DrawState state = MakeState(t);
	const uint32_t values[4] = {0xff, 0x3c, 0x100, 0x1};
	state.shader.run = IntegerShader;
	state.shader.user = values;
	state.blend.logic_op_enable = true;
	state.blend.logic_op = VK_LOGIC_OP_XOR;
	Mesh m = FullScreen(t, 0.5f);
	Draw(state, t, m.Input());
	// 0x100 saturates to 0xff before the XOR.
	CHECK(TexelBytes(t, 3, 3) == std::vector<uint8_t>{0xf0, 0x33, 0xf0, 0x0e});
}

TEST_CASE("raster: the depth bounds test reads the stored depth", "[raster]") {
	// Vulkan 1.3 §29.6: a sample passes when min <= stored depth <= max;
	// failing samples lose coverage and take no stencil op.
	for (VkFormat f : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT}) {
		Target t(16, 4);
		t.AddDepth(f, 0.0f);
		t.AddStencil(1);
		const uint32_t size = f == VK_FORMAT_D16_UNORM ? 2 : 4;
		for (uint32_t y = 0; y < 4; ++y)
			for (uint32_t x = 0; x < 16; ++x)
				tessera::texture::PackDepth(f, x / 16.0f, t.depth.data() + (y * 16 + x) * size);
		DrawState state = CountingState(t);
		state.depth_stencil.depth_bounds_test = true;
		state.depth_stencil.min_depth_bounds = 0.2f;
		state.depth_stencil.max_depth_bounds = 0.55f;
		state.depth_stencil.stencil_test = true;
		state.depth_stencil.front.pass_op = state.depth_stencil.back.pass_op = VK_STENCIL_OP_INCREMENT_AND_CLAMP;
		Mesh m = FullScreen(t, 0.5f);
		Draw(state, t, m.Input());
		for (uint32_t x = 0; x < 16; ++x) {
			bool in = x >= 4 && x <= 8;
			INFO("format " << f << " pixel " << x);
			CHECK(t.At(x, 2) == (in ? 1.0f : 0.0f));
			CHECK(t.StencilAt(x, 2) == (in ? 2 : 1));
			CHECK(t.DepthAt(x, 2) == Approx(x / 16.0).margin(1e-4));  // no depth test: nothing written
		}
	}
	// No depth attachment: the test passes.
	Target t(16, 4);
	DrawState state = CountingState(t);
	state.depth_stencil.depth_bounds_test = true;
	state.depth_stencil.min_depth_bounds = state.depth_stencil.max_depth_bounds = 0.9f;
	Mesh m = FullScreen(t, 0.5f);
	Draw(state, t, m.Input());
	CHECK(t.At(0, 0) == 1.0f);
	CHECK(t.At(15, 3) == 1.0f);
}

TEST_CASE("raster: the alpha-to-coverage mask", "[raster]") {
	// Ours (§29.3 leaves it to the implementation): the first
	// round(alpha * samples) samples, no dither.
	CHECK(AlphaToCoverageMask(0.0f, 4) == 0);
	CHECK(AlphaToCoverageMask(-1.0f, 4) == 0);
	CHECK(AlphaToCoverageMask(std::nanf(""), 4) == 0);
	CHECK(AlphaToCoverageMask(0.1f, 4) == 0);
	CHECK(AlphaToCoverageMask(0.125f, 4) == 0x1);
	CHECK(AlphaToCoverageMask(0.3f, 4) == 0x1);
	CHECK(AlphaToCoverageMask(0.5f, 4) == 0x3);
	CHECK(AlphaToCoverageMask(0.7f, 4) == 0x7);
	CHECK(AlphaToCoverageMask(0.9f, 4) == 0xf);
	CHECK(AlphaToCoverageMask(1.0f, 4) == 0xf);
	CHECK(AlphaToCoverageMask(2.0f, 4) == 0xf);
	CHECK(AlphaToCoverageMask(0.49f, 1) == 0);
	CHECK(AlphaToCoverageMask(0.5f, 1) == 1);
	CHECK(AlphaToCoverageMask(1.0f, 1) == 1);
}

TEST_CASE("raster: alpha to coverage drops samples before the depth write", "[raster]") {
	static const float kColor[4] = {1, 1, 1, 0.5f};
	Target t(8, 8, VK_FORMAT_R32_SFLOAT, 4);
	t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
	DrawState state = CountingState(t);
	state.shader.user = kColor;
	state.raster.alpha_to_coverage = true;
	state.depth_stencil.depth_test = true;
	state.depth_stencil.depth_write = true;
	Mesh m = FullScreen(t, 0.25f);
	Draw(state, t, m.Input());
	for (uint32_t s = 0; s < 4; ++s) {
		INFO("sample " << s);
		CHECK(t.At(3, 5, 0, s) == (s < 2 ? 1.0f : 0.0f));
		CHECK(t.DepthAt(3, 5, s) == (s < 2 ? 0.25f : 1.0f));
	}
}

TEST_CASE("raster: alpha to one replaces the alpha of every output", "[raster]") {
	static const float kColor[4] = {1, 0, 0, 0.25f};
	for (bool to_one : {false, true}) {
		Target t(8, 8, VK_FORMAT_R8G8B8A8_UNORM);
		DrawState state = MakeState(t);
		state.shader.run = ConstantColorShader;
		state.shader.user = kColor;
		state.raster.alpha_to_one = to_one;
		state.blend.attachment_count = 1;
		BlendAttachmentState& b = state.blend.attachments[0];
		b.blend_enable = true;
		b.src_color = b.src_alpha = VK_BLEND_FACTOR_SRC_ALPHA;
		b.dst_color = b.dst_alpha = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		Mesh m = FullScreen(t, 0.5f);
		Draw(state, t, m.Input());
		INFO("alpha to one " << to_one);
		// Blending sees alpha 1: the source replaces the destination.
		CHECK(TexelBytes(t, 2, 2) ==
		      (to_one ? std::vector<uint8_t>{255, 0, 0, 255} : std::vector<uint8_t>{64, 0, 0, 16}));
	}
}

TEST_CASE("raster: depth and stencil in separate planes (X8_D24 + S8, D32 + S8, S8 alone)", "[raster]") {
	// A D24_UNORM_S8_UINT or D32_SFLOAT_S8_UINT image keeps depth and
	// stencil in two planes (texture/image_layout.h): the depth plane is
	// X8_D24 or D32, the stencil plane S8, and the tests use both.
	for (VkFormat f : {VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT, VK_FORMAT_UNDEFINED}) {
		for (uint32_t samples : {1u, 4u}) {
			Target t(8, 8, VK_FORMAT_R32_SFLOAT, samples);
			if (f != VK_FORMAT_UNDEFINED) t.AddDepth(f, 1.0f);
			t.AddStencil(0);
			DrawState state = CountingState(t);
			DepthStencilState& ds = state.depth_stencil;
			ds.depth_test = ds.depth_write = true;
			ds.stencil_test = true;
			StencilFaceState face;
			face.pass_op = VK_STENCIL_OP_REPLACE;
			face.depth_fail_op = VK_STENCIL_OP_INCREMENT_AND_CLAMP;
			auto pass = [&](float z, uint32_t reference, VkCompareOp op) {
				face.reference = reference;
				face.compare_op = op;
				ds.front = ds.back = face;
				Mesh m = FullScreen(t, z);
				Draw(state, t, m.Input());
			};
			pass(0.5f, 7, VK_COMPARE_OP_ALWAYS);  // writes depth 0.5, stencil 7
			pass(0.7f, 9, VK_COMPARE_OP_ALWAYS);  // depth fails: 8 (no depth plane: passes, 9)
			pass(0.3f, 8, VK_COMPARE_OP_EQUAL);   // stencil 8 passes, depth passes: 8, depth 0.3
			const bool depth = f != VK_FORMAT_UNDEFINED;
			INFO("format " << f << " samples " << samples);
			for (uint32_t s = 0; s < samples; ++s) {
				CHECK(t.StencilAt(4, 4, s) == (depth ? 8 : 9));
				CHECK(t.At(4, 4, 0, s) == 2.0f);  // passes 1 and 3, or 1 and 2
				if (depth) CHECK(t.DepthAt(4, 4, s) == Approx(0.3).margin(1e-6));
			}
			if (f == VK_FORMAT_X8_D24_UNORM_PACK32)  // the X8 bits stay zero
				for (size_t i = 3; i < t.depth.size(); i += 4) CHECK(t.depth[i] == 0);
		}
	}
}

namespace {

// Color = (SampleId, varying 0, SamplePosition x, y); counts invocations,
// and the live lanes whose FragCoord.x is not varying 0 (x_f, interpolated
// where FragCoord should be: at the sample with sample shading, else at the
// pixel's center).
struct SampleShaderData {
	uint32_t invocations = 0;
	uint32_t frag_coord_off = 0;
};
void SampleShader(const void* user, FragmentBatch& b) {
	auto* data = static_cast<SampleShaderData*>(const_cast<void*>(user));
	for (uint32_t i = 0; i < 4 * b.quad_count; ++i) {
		data->invocations += b.live[i];
		data->frag_coord_off += b.live[i] && std::abs(b.frag_coord[0][i] - b.varyings[0][i]) > 1e-4f;
		b.color[0][0][i] = float(b.sample_id[i]);
		b.color[0][1][i] = b.varyings[0][i];
		b.color[0][2][i] = b.sample_position[0][i];
		b.color[0][3][i] = b.sample_position[1][i];
	}
}

}  // namespace

TEST_CASE("raster: sample shading runs the shader once a covered sample", "[raster]") {
	// Vulkan 1.3 "Sample Shading": max(ceil(minSampleShading * samples), 1)
	// invocations a fragment at least; above 1 we shade every sample, with
	// inputs at the sample's location.
	struct Case {
		bool shader_per_sample, enable;
		float min;
		bool per_sample;
	};
	for (const Case& c : {Case{true, false, 0, true}, Case{false, true, 1.0f, true}, Case{false, true, 0.5f, true},
	                      Case{false, true, 0.25f, false}, Case{false, false, 1.0f, false}}) {
		Target t(8, 8, VK_FORMAT_R32G32B32A32_SFLOAT, 4);
		SampleShaderData data;
		DrawState state = MakeState(t);
		state.shader.run = SampleShader;
		state.shader.user = &data;
		state.shader.per_sample = c.shader_per_sample;
		state.raster.sample_shading = c.enable;
		state.raster.min_sample_shading = c.min;
		state.raster.varying_count = 1;
		state.raster.interpolation[0] = Interpolation::NoPerspective;
		Mesh m;  // varying 0 = x_f
		m.Add(t, -1, -1, 0.5f, 1, {-1}), m.Add(t, 40, -1, 0.5f, 1, {40}), m.Add(t, -1, 40, 0.5f, 1, {-1});
		m.Add(t, 40, -1, 0.5f, 1, {40}), m.Add(t, 40, 40, 0.5f, 1, {40}), m.Add(t, -1, 40, 0.5f, 1, {-1});
		Draw(state, t, m.Input());
		INFO("per-sample shader " << c.shader_per_sample << " enable " << c.enable << " min " << c.min);
		CHECK(data.invocations == (c.per_sample ? 8 * 8 * 4 : 8 * 8));
		CHECK(data.frag_coord_off == 0);
		if (!c.per_sample) continue;
		const SampleLocation* loc = StandardSampleLocations(4);
		for (uint32_t s = 0; s < 4; ++s) {
			INFO("sample " << s);
			CHECK(t.At(3, 6, 0, s) == float(s));
			CHECK(t.At(3, 6, 1, s) == Approx(3 + loc[s].x / 256.0).margin(1e-5));
			CHECK(t.At(3, 6, 2, s) == loc[s].x / 256.0f);
			CHECK(t.At(3, 6, 3, s) == loc[s].y / 256.0f);
		}
	}
}

TEST_CASE("raster: sample shading writes the same bytes on any thread count", "[raster]") {
	auto render = [](tessera::runtime::ThreadPool* pool) {
		Target t(200, 130, VK_FORMAT_R8G8B8A8_UNORM, 4);
		t.AddDepth(VK_FORMAT_D32_SFLOAT, 1.0f);
		DrawState state = MakeState(t);
		state.shader.run = VaryingColorShader;
		state.raster.varying_count = 4;
		state.raster.sample_shading = true;
		state.raster.min_sample_shading = 1.0f;
		state.raster.alpha_to_coverage = true;
		state.depth_stencil.depth_test = state.depth_stencil.depth_write = true;
		std::mt19937 rng(4);
		std::uniform_real_distribution<float> pos(-20, 220), unit(0, 1);
		Mesh m;
		for (int i = 0; i < 600; ++i) {
			float cx = pos(rng), cy = pos(rng) * 0.66f;
			for (int k = 0; k < 3; ++k)
				m.Add(t, cx + unit(rng) * 40, cy + unit(rng) * 40, unit(rng), 0.5f + unit(rng),
				      {unit(rng), unit(rng), unit(rng), unit(rng)});
		}
		Draw(state, t, m.Input(), pool);
		return t.color;
	};
	std::vector<uint8_t> single = render(nullptr);
	tessera::runtime::ThreadPool pool4(4), pool3(3);
	CHECK(render(&pool4) == single);
	CHECK(render(&pool3) == single);
	size_t nonzero = 0;
	for (uint8_t v : single) nonzero += v != 0;
	CHECK(nonzero > single.size() / 4);
}

TEST_CASE("raster: blending into SNORM clamps source and constants to [-1, 1]", "[raster]") {
	// Vulkan "Blend Operations": for a signed normalized attachment the
	// source and the constants are clamped to [-1, 1] before blending (as
	// [0, 1] for unsigned ones). CONSTANT_COLOR x source, nothing of dst.
	static const float kColor[4] = {2.0f, 0.5f, 1.0f, -2.0f};
	Target t(32, 32, VK_FORMAT_R8G8B8A8_SNORM);
	DrawState s = MakeState(t);
	s.shader.run = ConstantColorShader;
	s.shader.user = kColor;
	s.blend.attachment_count = 1;
	BlendAttachmentState& b = s.blend.attachments[0];
	b.blend_enable = true;
	b.src_color = b.src_alpha = VK_BLEND_FACTOR_CONSTANT_COLOR;
	b.dst_color = b.dst_alpha = VK_BLEND_FACTOR_ZERO;
	const float constants[4] = {0.5f, 2.0f, -2.0f, 1.0f};
	std::copy(constants, constants + 4, s.blend.constants);
	Draw(s, t, FullScreen(t, 0.5f).Input());
	const float expected[4] = {0.5f, 0.5f, -1.0f, -1.0f};  // clamp(constant) * clamp(source)
	for (int c = 0; c < 4; ++c) CHECK(std::abs(t.At(5, 7, uint32_t(c)) - expected[c]) <= 1.0f / 127.0f);
}
