// Format tables against lavapipe: every vertex format Tessera gives
// VERTEX_BUFFER_BIT read by a vertex shader, and every color format with
// COLOR_ATTACHMENT_BIT rendered to (and blended into where it has
// COLOR_ATTACHMENT_BLEND_BIT). Formats lavapipe lacks are listed and skipped.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <sstream>
#include <vector>

#include "draw_scene_helpers.h"
#include "render_scene.h"
#include "texture/format.h"
#include "texture/texel.h"

using namespace tessera::test;
using namespace tessera::test::scenes;
using tessera::texture::FormatInfo;
using tessera::texture::NumericFormat;

namespace {

// Core formats 1..184 and the two Vulkan 1.3 4-bit ones.
std::vector<VkFormat> AllFormats() {
	std::vector<VkFormat> out;
	for (int f = 1; f <= 184; ++f) out.push_back(VkFormat(f));
	out.push_back(VK_FORMAT_A4R4G4B4_UNORM_PACK16);
	out.push_back(VK_FORMAT_A4B4G4R4_UNORM_PACK16);
	return out;
}

VkFormatProperties Properties(Context& ctx, VkFormat format) {
	VkFormatProperties p{};
	vkGetPhysicalDeviceFormatProperties(ctx.physical_device(), format, &p);
	return p;
}

uint32_t Rng(uint32_t& state) {
	state = state * 1664525u + 1013904223u;
	return state >> 8 ^ state << 13;
}

// Attribute data for instance i: patterns first (all ones, zero, sign bits
// only), then pseudo-random fields. Float components keep their exponent
// below all-ones (no Inf/NaN, whose payloads the spec leaves free).
std::vector<uint8_t> AttributeData(const FormatInfo& info, uint32_t stride, uint32_t count) {
	std::vector<uint8_t> out(size_t(stride) * count, 0);
	uint32_t state = 12345u + uint32_t(info.format);
	for (uint32_t i = 0; i < count; ++i) {
		uint8_t* texel = out.data() + size_t(i) * stride;
		for (uint32_t c = 0; c < info.component_count; ++c) {
			const auto& comp = info.components[c];
			uint64_t mask = comp.bits == 64 ? ~0ull : (1ull << comp.bits) - 1;
			uint64_t v = i == 0 ? mask : i == 1 ? 0 : i == 2 ? 1ull << (comp.bits - 1) : (uint64_t(Rng(state)) & mask);
			if (comp.numeric == NumericFormat::SFLOAT) v &= ~(1ull << (comp.bits - 2));
			if (comp.numeric == NumericFormat::UFLOAT) v &= ~(1ull << (comp.bits - 1));
			if (info.packed) {
				// Fields of packed words, little-endian words.
				for (uint32_t b = 0; b < comp.bits; ++b)
					if (v >> b & 1) texel[(comp.offset + b) / 8] |= uint8_t(1u << ((comp.offset + b) % 8));
			} else {
				for (uint32_t b = 0; b < comp.bits / 8; ++b) texel[comp.offset / 8 + b] = uint8_t(v >> (8 * b));
			}
		}
	}
	return out;
}

// The value §3.9.3 gives a normalized component of attribute `texel`
// (UNORM: c / (2^b - 1); SNORM: max(c / (2^(b-1) - 1), -1)), or NaN for
// other numeric formats.
float SpecNormalized(const FormatInfo& info, const uint8_t* texel, int channel) {
	for (uint32_t c = 0; c < info.component_count; ++c) {
		const auto& comp = info.components[c];
		if ((comp.name == 'R' ? 0 : comp.name == 'G' ? 1 : comp.name == 'B' ? 2 : 3) != channel) continue;
		uint64_t v = 0;
		for (uint32_t b = 0; b < comp.bits; ++b)
			v |= uint64_t(texel[(comp.offset + b) / 8] >> ((comp.offset + b) % 8) & 1) << b;
		if (comp.numeric == NumericFormat::UNORM) return float(double(v) / double((1ull << comp.bits) - 1));
		if (comp.numeric == NumericFormat::SNORM) {
			int64_t sv = v >> (comp.bits - 1) ? int64_t(v) - (int64_t(1) << comp.bits) : int64_t(v);
			return std::max(-1.0f, float(double(sv) / double((1ull << (comp.bits - 1)) - 1)));
		}
	}
	return NAN;
}

// Units in the last place between two floats (same sign: bits apart).
int64_t UlpDistance(float a, float b) {
	int32_t ia, ib;
	std::memcpy(&ia, &a, 4);
	std::memcpy(&ib, &b, 4);
	if (ia < 0) ia = int32_t(0x80000000u - uint32_t(ia));
	if (ib < 0) ib = int32_t(0x80000000u - uint32_t(ib));
	return std::llabs(int64_t(ia) - int64_t(ib));
}

}  // namespace

// §22.4-22.5: each attribute is converted as the format's numeric type says
// (normalized: §3.9.3 c / (2^b - 1), SNORM's most negative code -> -1.0;
// SCALED: the integer as float; SINT/UINT: unchanged; float formats exactly).
// Tolerance: integer, scaled and float formats exact (the values are exact
// in a float; 32-bit integers go out as float(v), which rounds to nearest in
// both drivers); normalized ones within 2 ulp, as §3.9.3 does not say how
// the division is carried out (c * (1/255) vs c / 255).
TEST_CASE("every vertex buffer format reads as lavapipe reads it", "[draw][format]") {
	ScenePair pair;
	std::ostringstream skipped, lavapipe_deviations;
	uint32_t tested = 0;
	for (VkFormat format : AllFormats()) {
		const FormatInfo* info = tessera::texture::FindFormat(format);
		if (!info || !(Properties(pair.tessera(), format).bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT))
			continue;
		if (!(Properties(pair.lavapipe(), format).bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT)) {
			skipped << info->name << " ";
			continue;
		}
		CAPTURE(info->name);
		const uint32_t stride = std::max<uint32_t>(4, (info->block_size + 3) / 4 * 4);
		Scene s;
		s.width = 8;
		s.height = 4;
		s.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
		s.clear_color = {{-7, -7, -7, -7}};
		const NumericFormat numeric = info->Numeric();
		s.vertex_shader = numeric == NumericFormat::UINT   ? "attr_uint.vert.spv"
		                  : numeric == NumericFormat::SINT ? "attr_int.vert.spv"
		                                                   : "attr_float.vert.spv";
		s.fragment_shader = "flat_value.frag.spv";
		s.attributes = {{0, 1, format, 0}};
		s.instance_data = AttributeData(*info, stride, 32);
		s.instance_stride = stride;
		s.draws = {{3, 32, 0, 0, 0}};
		auto [ours, reference] = pair.Render(s);
		const bool normalized = info->IsNormalized();
		std::vector<float> a(32 * 4), b(32 * 4);
		std::memcpy(a.data(), ours.colors[0].data(), a.size() * 4);
		std::memcpy(b.data(), reference.colors[0].data(), b.size() * 4);
		int64_t worst = 0;
		size_t worst_at = 0;
		bool lavapipe_wrong = false;
		for (size_t i = 0; i < a.size(); ++i) {
			int64_t d = UlpDistance(a[i], b[i]);
			if (d > (normalized ? 2 : 0)) {
				// lavapipe's vertex fetch departs from §3.9.3 in two places:
				// SNORM's most negative code reads below -1.0, and the alpha of
				// 16-bit packed formats (B4G4R4A4, R5G5B5A1, B5G5R5A1). There,
				// Tessera must give the spec's value.
				const float spec = SpecNormalized(*info, s.instance_data.data() + i / 4 * stride, int(i % 4));
				if (!std::isnan(spec) && UlpDistance(b[i], spec) > 2) {
					lavapipe_wrong = true;
					d = UlpDistance(a[i], spec) > 2 ? d : 0;
				}
			}
			if (d > worst) worst = d, worst_at = i;
		}
		if (lavapipe_wrong) lavapipe_deviations << info->name << " ";
		const size_t wi = worst_at / 4 * 4;
		uint32_t raw = 0;
		std::memcpy(&raw, s.instance_data.data() + worst_at / 4 * stride, std::min<uint32_t>(4, info->block_size));
		INFO("instance " << worst_at / 4 << " component " << worst_at % 4 << " (data 0x" << std::hex << raw << std::dec
		                 << "): tessera " << a[wi] << "," << a[wi + 1] << "," << a[wi + 2] << "," << a[wi + 3]
		                 << ", lavapipe " << b[wi] << "," << b[wi + 1] << "," << b[wi + 2] << "," << b[wi + 3]);
		CHECK(worst <= (normalized ? 2 : 0));
		++tested;
	}
	WARN("vertex formats tested: " << tested << "; not in lavapipe: " << skipped.str()
	                               << "; compared with the spec where lavapipe departs from it: "
	                               << lavapipe_deviations.str());
	CHECK(tested > 40);
}

namespace {

// One code of a component as a float step (normalized), or its relative
// precision (float formats).
double Step(const tessera::texture::FormatComponent& c, double value) {
	switch (c.numeric) {
	case NumericFormat::UNORM:
	case NumericFormat::SRGB: return 1.0 / double((1ull << c.bits) - 1);
	case NumericFormat::SNORM: return 1.0 / double((1ull << (c.bits - 1)) - 1);
	case NumericFormat::SFLOAT:
	case NumericFormat::UFLOAT: {
		const int mantissa = c.bits == 32 ? 23 : c.bits == 16 ? 10 : c.bits == 11 ? 6 : 5;
		return std::max(std::fabs(value), 1e-4) * std::ldexp(1.0, -mantissa);
	}
	default: return 0;
	}
}

// A format lavapipe renders with the same components (at least as wide)
// and numeric format, for those it cannot render; UNDEFINED when none.
VkFormat WiderFormat(VkFormat format) {
	switch (format) {
	case VK_FORMAT_R4G4_UNORM_PACK8: return VK_FORMAT_R8G8_UNORM;
	case VK_FORMAT_R4G4B4A4_UNORM_PACK16: return VK_FORMAT_R8G8B8A8_UNORM;
	case VK_FORMAT_R8_SRGB:
	case VK_FORMAT_R8G8_SRGB:
	case VK_FORMAT_R8G8B8_SRGB:
	case VK_FORMAT_B8G8R8_SRGB: return VK_FORMAT_R8G8B8A8_SRGB;
	case VK_FORMAT_R8G8B8_UNORM:
	case VK_FORMAT_B8G8R8_UNORM: return VK_FORMAT_R8G8B8A8_UNORM;
	case VK_FORMAT_R8G8B8_SNORM:
	case VK_FORMAT_B8G8R8_SNORM: return VK_FORMAT_R8G8B8A8_SNORM;
	case VK_FORMAT_R16G16B16_UNORM: return VK_FORMAT_R16G16B16A16_UNORM;
	case VK_FORMAT_R16G16B16_SNORM: return VK_FORMAT_R16G16B16A16_SNORM;
	case VK_FORMAT_R16G16B16_SFLOAT: return VK_FORMAT_R16G16B16A16_SFLOAT;
	default: return VK_FORMAT_UNDEFINED;
	}
}

// Linear to sRGB-encoded (the sRGB EOTF's inverse), to compare sRGB
// attachments code by code.
double SrgbEncode(double linear) {
	if (linear <= 0.0031308) return 12.92 * linear;
	return 1.055 * std::pow(linear, 1.0 / 2.4) - 0.055;
}

// Constant-color and gradient triangles over a 16x16 image, the gradient
// reaching past [0, 1] on both sides.
Scene FormatScene(VkFormat format, bool blend) {
	std::vector<Vertex> v;
	v.push_back({-1, -1, 0.5f, 1, 0.2f, 0.6f, 0.9f, 0.4f});
	v.push_back({0.9f, -1, 0.5f, 1, 0.2f, 0.6f, 0.9f, 0.4f});
	v.push_back({-1, 0.7f, 0.5f, 1, 0.2f, 0.6f, 0.9f, 0.4f});
	v.push_back({-0.8f, 1, 0.5f, 1, -0.25f, 1.25f, 0.5f, 0.0f});
	v.push_back({1, -0.6f, 0.5f, 1, 1.25f, -0.25f, 0.0f, 1.0f});
	v.push_back({1, 1, 0.5f, 1, 0.5f, 0.5f, 1.25f, 0.7f});
	Scene s = ColorScene(v);
	s.width = s.height = 16;
	s.color_format = format;
	s.clear_color = {{0.3f, 0.1f, 0.7f, 0.5f}};
	s.draws = {{6, 1, 0, 0, 0}};
	s.configure = [blend](PipelineState& p) {
		VkPipelineColorBlendAttachmentState& b = p.blend_attachments[0];
		b.blendEnable = blend;
		b.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
		b.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		b.colorBlendOp = VK_BLEND_OP_ADD;
		b.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
		b.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		b.alphaBlendOp = VK_BLEND_OP_ADD;
	};
	return s;
}

}  // namespace

// §28.7.4/§3.9: the fragment's color converts to the attachment format
// (clamped to [0,1] for UNORM/SRGB, [-1,1] for SNORM, §3.9.2 rounding either
// way; floats rounded to the format's precision, sRGB compared encoded).
// Tolerance per component: one code of the format (the rounding freedom)
// plus 2e-3 for the gradient's interpolation (§28.5 leaves its precision to
// the implementation; 2e-3 is half an 8-bit code). Blended: two codes, as
// §28.7.4 lets blending run at the destination's precision (lavapipe blends
// UNORM8 in 8-bit fixed point, rounding each product) and the destination
// was itself rounded when written.
TEST_CASE("every color attachment format renders and blends as on lavapipe", "[draw][format]") {
	ScenePair pair;
	std::ostringstream skipped, substituted;
	uint32_t tested = 0;
	for (VkFormat format : AllFormats()) {
		const FormatInfo* info = tessera::texture::FindFormat(format);
		const VkFormatFeatureFlags ours = Properties(pair.tessera(), format).optimalTilingFeatures;
		if (!info || !(ours & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)) continue;
		// Where lavapipe cannot render the format, it renders a wider one
		// with the same components and numeric format (in any order); the
		// comparison then reads both through their own formats and allows
		// the narrower format's codes.
		VkFormat reference = format;
		VkFormatFeatureFlags theirs = Properties(pair.lavapipe(), format).optimalTilingFeatures;
		if (!(theirs & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)) {
			reference = WiderFormat(format);
			theirs = reference ? Properties(pair.lavapipe(), reference).optimalTilingFeatures : 0;
			if (!(theirs & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)) {
				skipped << info->name << " ";
				continue;
			}
			substituted << info->name << " ";
		}
		const FormatInfo* reference_info = tessera::texture::FindFormat(reference);
		for (bool blend : {false, true}) {
			if (blend && !((ours & theirs) & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT)) continue;
			CAPTURE(info->name, reference_info->name, blend);
			Scene s = FormatScene(format, blend);
			const SceneResult a = RenderScene(pair.tessera(), s);
			s.color_format = reference;
			const SceneResult b = RenderScene(pair.lavapipe(), s);
			CHECK(pair.tessera().validation_errors() == 0);
			CHECK(pair.lavapipe().validation_errors() == 0);
			const uint32_t size = info->block_size;
			double worst = 0;
			uint32_t worst_pixel = 0, worst_c = 0;
			float worst_a = 0, worst_b = 0;
			for (uint32_t p = 0; p < s.width * s.height; ++p) {
				auto ta = tessera::texture::UnpackTexel(*info, a.colors[0].data() + p * size);
				auto tb =
				    tessera::texture::UnpackTexel(*reference_info, b.colors[0].data() + p * reference_info->block_size);
				for (uint32_t c = 0; c < info->component_count; ++c) {
					const auto& comp = info->components[c];
					const int channel = comp.name == 'R' ? 0 : comp.name == 'G' ? 1 : comp.name == 'B' ? 2 : 3;
					double va = ta.f[channel], vb = tb.f[channel];
					if (comp.numeric == NumericFormat::SRGB) va = SrgbEncode(va), vb = SrgbEncode(vb);
					const double d = std::fabs(va - vb);
					const double excess = d - ((blend ? 2 : 1) * Step(comp, vb) + 2e-3);
					if (excess > worst)
						worst = excess, worst_pixel = p, worst_c = channel, worst_a = ta.f[channel],
						worst_b = tb.f[channel];
				}
			}
			INFO("pixel (" << worst_pixel % s.width << ", " << worst_pixel / s.width << ") channel " << worst_c
			               << ": tessera " << worst_a << ", lavapipe " << worst_b);
			CHECK(worst == 0);
		}
		++tested;
	}
	WARN("color formats tested: " << tested << "; against a wider format on lavapipe: " << substituted.str()
	                              << "; not compared: " << skipped.str());
	CHECK(tested > 20);
}

namespace {

// The value §3.9 / §22.5 gives component `channel` of an attribute, for
// the numeric formats of the vertex formats lavapipe lacks: UNORM, SNORM,
// SRGB (R, G, B through the sRGB EOTF, alpha UNORM), UINT/SINT (as float,
// as attr_*int.vert writes them); (0, 0, 0, 1) for missing components.
double SpecValue(const FormatInfo& info, const uint8_t* texel, int channel) {
	for (uint32_t c = 0; c < info.component_count; ++c) {
		const auto& comp = info.components[c];
		if ((comp.name == 'R' ? 0 : comp.name == 'G' ? 1 : comp.name == 'B' ? 2 : 3) != channel) continue;
		uint64_t v = 0;
		for (uint32_t b = 0; b < comp.bits; ++b)
			v |= uint64_t(texel[(comp.offset + b) / 8] >> ((comp.offset + b) % 8) & 1) << b;
		const int64_t sv = v >> (comp.bits - 1) ? int64_t(v) - (int64_t(1) << comp.bits) : int64_t(v);
		const double unorm = double(v) / double((1ull << comp.bits) - 1);
		switch (comp.numeric) {
		case NumericFormat::UNORM: return unorm;
		case NumericFormat::SNORM: return std::max(-1.0, double(sv) / double((1ull << (comp.bits - 1)) - 1));
		case NumericFormat::SRGB:
			if (channel == 3) return unorm;
			return unorm <= 0.04045 ? unorm / 12.92 : std::pow((unorm + 0.055) / 1.055, 2.4);
		case NumericFormat::UINT: return double(float(v));
		case NumericFormat::SINT: return double(float(sv));
		default: return NAN;
		}
	}
	return channel == 3 ? 1.0 : 0.0;
}

}  // namespace

// For the vertex formats Tessera reads and lavapipe does not, the values the
// spec gives. Tolerance: integers exact; UNORM/SNORM within 2 ulp (as
// above). (sRGB formats are not vertex formats: vk/format_support.cpp.)
TEST_CASE("vertex formats lavapipe lacks read as the spec says", "[draw][format]") {
	SceneFeatures features;
	auto ctx = Context::Create(Driver::Tessera, features.Options());
	REQUIRE(ctx);
	auto lavapipe = Context::Create(Driver::Lavapipe, features.Options());
	REQUIRE(lavapipe);
	uint32_t tested = 0;
	for (VkFormat format : AllFormats()) {
		const FormatInfo* info = tessera::texture::FindFormat(format);
		if (!info || !(Properties(*ctx, format).bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT) ||
		    (Properties(*lavapipe, format).bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT))
			continue;
		CAPTURE(info->name);
		const uint32_t stride = std::max<uint32_t>(4, (info->block_size + 3) / 4 * 4);
		Scene s;
		s.width = 8;
		s.height = 4;
		s.color_format = VK_FORMAT_R32G32B32A32_SFLOAT;
		const NumericFormat numeric = info->Numeric();
		s.vertex_shader = numeric == NumericFormat::UINT   ? "attr_uint.vert.spv"
		                  : numeric == NumericFormat::SINT ? "attr_int.vert.spv"
		                                                   : "attr_float.vert.spv";
		s.fragment_shader = "flat_value.frag.spv";
		s.attributes = {{0, 1, format, 0}};
		s.instance_data = AttributeData(*info, stride, 32);
		s.instance_stride = stride;
		s.draws = {{3, 32, 0, 0, 0}};
		const SceneResult ours = RenderScene(*ctx, s);
		std::vector<float> a(32 * 4);
		std::memcpy(a.data(), ours.colors[0].data(), a.size() * 4);
		for (size_t i = 0; i < a.size(); ++i) {
			const double spec = SpecValue(*info, s.instance_data.data() + i / 4 * stride, int(i % 4));
			REQUIRE(!std::isnan(spec));
			CAPTURE(i / 4, i % 4, a[i], spec);
			if (numeric == NumericFormat::SRGB && i % 4 != 3)
				CHECK(std::fabs(a[i] - spec) <= std::ldexp(std::max(std::fabs(spec), 1e-3), -20));
			else
				CHECK(UlpDistance(a[i], float(spec)) <= (info->IsNormalized() ? 2 : 0));
		}
		++tested;
	}
	CHECK(ctx->validation_errors() == 0);
	WARN("vertex formats checked against the spec alone: " << tested);
}
