// vkCmdClearColorImage then vkCmdCopyImageToBuffer over every color format
// that Tessera and lavapipe both support as a transfer destination, with
// clear values chosen at the edges of each numeric class, compared byte for
// byte with lavapipe.
//
// Where the spec gives the implementation a choice, the test says so:
// - float narrowing (16-, 11-, 10-bit) may round either way and overflow to
//   the largest finite value or to infinity (§3.9.2): one ULP of tolerance;
// - NaN and Inf are "unspecified" inputs to commands other than the float
//   formats' own conversions (§3.9 "General Requirements"), so they are
//   only cleared into float formats;
// - SCALED formats get integer values (no conversion rule rounds them);
// - UNORM/SNORM may take either of the two nearest codes (§3.10.2); one
//   code of slack is given only where the scaled value lies within 0.01 of
//   a half-way point (lavapipe scales in float and lands on either side);
// - SCALED formats get integer values (no conversion rule rounds them);
// - SINT values outside the component's range are undefined (§19.3 "Clear
//   Values") and not used.
// Where lavapipe 22.3 itself departs from the spec (UINT values clamped
// instead of cast; unsigned 11-/10-bit denormals flushed to 0), it is given
// an equivalent value or not used as the reference: see ReferenceValue and
// the denormal test below.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "compare.h"
#include "icd/vulkan_newer.h"
#include "texture/format.h"
#include "vk_context.h"

using namespace tessera::test;
using tessera::texture::FormatComponent;
using tessera::texture::FormatInfo;
using tessera::texture::NumericFormat;

namespace {

constexpr uint32_t kWidth = 5, kHeight = 3;
constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

int Slot(char name) { return name == 'R' ? 0 : name == 'G' ? 1 : name == 'B' ? 2 : 3; }

// The clear values for a format, one per array layer.
std::vector<VkClearColorValue> ClearValues(const FormatInfo& info) {
	std::vector<VkClearColorValue> values;
	auto floats = [&](std::initializer_list<std::array<float, 4>> list) {
		for (const auto& v : list) values.push_back(VkClearColorValue{.float32 = {v[0], v[1], v[2], v[3]}});
	};
	switch (info.Numeric()) {
	case NumericFormat::UNORM:
	case NumericFormat::SRGB:
		floats({{0.0f, 1.0f, 0.5f, 0.25f},
		        {-0.5f, 2.0f, 1e-5f, 0.7f},
		        {0.2f, 0.0031308f, 0.04045f, 0.999f},
		        {0.1f, 0.3f, 0.6f, 0.9f},
		        {1.0f / 3, 2.0f / 3, 0.8f, 0.05f}});
		break;
	case NumericFormat::SNORM:
		floats({{-1.0f, 1.0f, 0.0f, -0.5f},
		        {-2.0f, 2.0f, -0.3f, 0.7f},
		        {-0.0f, 1e-5f, -0.999f, 0.25f},
		        {-1.0f / 3, 0.6f, -0.1f, -0.9f}});
		break;
	case NumericFormat::SFLOAT:
		floats({{0.0f, 1.0f, 0.5f, -2.0f},
		        {65504.0f, 65519.0f, 70000.0f, -70000.0f},  // half: max, rounds to max, past max
		        {3e-5f, 1e-8f, 6e-8f, -0.0f},               // half denormals and underflow
		        {kNaN, kInf, -kInf, 1e-3f},
		        {0.1f, 0.2f, 1.0f / 3, 1e30f},
		        {-kNaN, std::numeric_limits<float>::denorm_min(), -1e-30f, 2049.0f}});
		break;
	case NumericFormat::UFLOAT:
		// No values below 2^-14 that round to a denormal: see the test of
		// unsigned float denormals below.
		floats({{0.0f, 1.0f, 0.5f, 0.25f},
		        {65024.0f, 64512.0f, 65408.0f, 70000.0f},  // uf11, uf10, RGB9E5 maxima; past them
		        {-1.0f, -0.0f, 1e-8f, 6e-8f},              // negatives and underflow
		        {kNaN, kInf, -kInf, 1e-3f},
		        {0.1f, 0.2f, 1.0f / 3, 1e30f},
		        {1.999f, 1e-4f, 511.75f / 65536, 3.0f}});  // RGB9E5 mantissa overflow
		break;
	case NumericFormat::USCALED:
	case NumericFormat::SSCALED:
	case NumericFormat::UINT:
	case NumericFormat::SINT: {
		bool is_signed = info.IsSigned(), is_float = info.IsScaled();
		// Per component: the largest, the smallest, one, minus one or a middle
		// value, rotated over the components from layer to layer.
		for (int rotation = 0; rotation < 4; ++rotation) {
			VkClearColorValue v{};
			for (uint8_t c = 0; c < info.component_count; ++c) {
				const FormatComponent& comp = info.components[c];
				int64_t max = is_signed ? (int64_t(1) << (comp.bits - 1)) - 1 : (int64_t(1) << comp.bits) - 1;
				int64_t min = is_signed ? -max - 1 : 0;
				int64_t choices[4] = {max, min, 1, is_signed ? -1 : max / 2};
				int64_t x = choices[(c + rotation) % 4];
				int slot = Slot(comp.name);
				if (is_float)
					v.float32[slot] = float(x);
				else
					v.int32[slot] = int32_t(x);
			}
			values.push_back(v);
		}
		// UINT: values too wide for the component are "cast to the integer
		// type with fewer bits" (§19.3), i.e. keep the low bits.
		if (info.Numeric() == NumericFormat::UINT)
			values.push_back(VkClearColorValue{.uint32 = {0xffffffffu, 300u, 65536u + 7, 0x12345678u}});
		break;
	}
	}
	return values;
}

// What lavapipe is asked to clear so that a conformant result equals ours:
// the same value, except that lavapipe 22.3 clamps UINT clear values to the
// component's range where §19.3 says they are cast to the smaller type
// (observed: {0xffffffff, 300, 65543, 0x12345678} clears R8G8B8A8_UINT to
// 0xff each, {0xffffffff, 65543} clears R16G16_UINT to 0xffff each). For
// those, lavapipe gets the low bits already cast, which it stores unchanged.
VkClearColorValue ReferenceValue(const FormatInfo& info, VkClearColorValue value) {
	if (info.Numeric() != NumericFormat::UINT) return value;
	for (uint8_t c = 0; c < info.component_count; ++c) {
		const FormatComponent& comp = info.components[c];
		if (comp.bits < 32) value.uint32[Slot(comp.name)] &= (1u << comp.bits) - 1;
	}
	return value;
}

double SrgbEncode(double l) { return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1 / 2.4) - 0.055; }

// The fields of one texel that may differ from lavapipe's by a code for
// this clear value (see Tolerance).
Tolerance LayerTolerance(const FormatInfo& info, const VkClearColorValue& value) {
	Tolerance t;
	for (uint8_t c = 0; c < info.component_count; ++c) {
		const FormatComponent& comp = info.components[c];
		bool is_float = comp.numeric == NumericFormat::SFLOAT || comp.numeric == NumericFormat::UFLOAT;
		if (is_float && comp.bits < 32 && info.format != VK_FORMAT_E5B9G9R9_UFLOAT_PACK32)
			t.float_fields.push_back({comp.offset, comp.bits});
		// Normalized values whose scaled value lies within float rounding of
		// a half-way point: lavapipe scales in float, we in double.
		bool srgb = comp.numeric == NumericFormat::SRGB && comp.name != 'A';
		bool normalized = comp.numeric == NumericFormat::UNORM || comp.numeric == NumericFormat::SNORM ||
		                  comp.numeric == NumericFormat::SRGB;
		if (!normalized) continue;
		double f = value.float32[Slot(comp.name)];
		double low = comp.numeric == NumericFormat::SNORM ? -1.0 : 0.0;
		f = std::isnan(f) ? 0.0 : std::min(1.0, std::max(low, f));
		double max =
		    comp.numeric == NumericFormat::SNORM ? std::ldexp(1.0, comp.bits - 1) - 1 : std::ldexp(1.0, comp.bits) - 1;
		double scaled = (srgb ? SrgbEncode(f) : f) * max;
		if (std::abs(scaled - std::floor(scaled) - 0.5) < 0.01) t.code_fields.push_back({comp.offset, comp.bits});
	}
	if (!t.float_fields.empty() || !t.code_fields.empty()) t.word_bytes = info.block_size;
	return t;
}

bool CanClearAndCopy(Context& ctx, VkFormat format) {
	VkFormatProperties props;
	vkGetPhysicalDeviceFormatProperties(ctx.physical_device(), format, &props);
	VkFormatFeatureFlags need = VK_FORMAT_FEATURE_TRANSFER_DST_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
	if ((props.optimalTilingFeatures & need) != need) return false;
	VkImageFormatProperties image;
	return vkGetPhysicalDeviceImageFormatProperties(
	           ctx.physical_device(), format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
	           VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &image) == VK_SUCCESS &&
	       image.maxArrayLayers >= 8;
}

// Clears layer i of a kWidth x kHeight image to values[i] and returns the
// image's bytes as vkCmdCopyImageToBuffer writes them.
std::vector<uint8_t> ClearAndRead(Context& ctx, const FormatInfo& info, const std::vector<VkClearColorValue>& values) {
	uint32_t layers = uint32_t(values.size());
	TestImage image = ctx.CreateImage2D(info.format, kWidth, kHeight,
	                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 1, layers);
	TestBuffer out = ctx.CreateBuffer(VkDeviceSize(info.block_size) * kWidth * kHeight * layers);
	ctx.Submit([&](VkCommandBuffer cb) {
		ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		for (uint32_t layer = 0; layer < layers; ++layer) {
			VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, layer, 1};
			vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &values[layer], 1, &range);
		}
		ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		VkBufferImageCopy region{};
		region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, layers};
		region.imageExtent = {kWidth, kHeight, 1};
		vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
		ctx.TransferBarrier(cb);
	});
	std::vector<uint8_t> bytes(out.data, out.data + out.size);
	ctx.Destroy(out);
	ctx.Destroy(image);
	return bytes;
}

std::string Hex(const uint8_t* bytes, size_t n) {
	std::string s;
	char buffer[4];
	for (size_t i = n; i-- > 0;) {
		std::snprintf(buffer, sizeof buffer, "%02x", bytes[i]);
		s += buffer;
	}
	return s;
}

}  // namespace

TEST_CASE("clearing every transfer-destination color format matches lavapipe", "[transfer][image][format]") {
	auto tessera = Context::Create(Driver::Tessera);
	auto lavapipe = Context::Create(Driver::Lavapipe);
	REQUIRE(tessera);
	REQUIRE(lavapipe);
	int compared = 0;
	std::string tessera_only;
	for (size_t f = 0; f < tessera::texture::kFormatTableSize; ++f) {
		const FormatInfo& info = tessera::texture::kFormatTable[f];
		// vkCmdClearColorImage takes neither compressed, depth/stencil nor
		// Y'CbCr-conversion formats (VUID-vkCmdClearColorImage-image-00007, -01545).
		if (info.IsCompressed() || info.IsDepthOrStencil() || info.NeedsYcbcrConversion() || info.IsMultiPlanar())
			continue;
		// VK_KHR_maintenance5's A1B5G5R5 and A8 are newer than lavapipe 22.3
		// and the validation layer, to which their values are invalid
		// (maintenance5_test.cpp checks their clears).
		if (info.format == VK_FORMAT_A1B5G5R5_UNORM_PACK16_KHR || info.format == VK_FORMAT_A8_UNORM_KHR) continue;
		if (!CanClearAndCopy(*tessera, info.format)) continue;
		if (!CanClearAndCopy(*lavapipe, info.format)) {
			tessera_only += std::string(" ") + info.name;
			continue;
		}
		CAPTURE(info.name);
		std::vector<VkClearColorValue> values = ClearValues(info), reference_values;
		for (const VkClearColorValue& v : values) reference_values.push_back(ReferenceValue(info, v));
		std::vector<uint8_t> ours = ClearAndRead(*tessera, info, values);
		std::vector<uint8_t> reference = ClearAndRead(*lavapipe, info, reference_values);
		REQUIRE(ours.size() == reference.size());
		const size_t layer_bytes = size_t(info.block_size) * kWidth * kHeight;
		for (size_t layer = 0; layer < values.size(); ++layer) {
			std::vector<uint8_t> a(ours.begin() + layer * layer_bytes, ours.begin() + (layer + 1) * layer_bytes);
			std::vector<uint8_t> b(reference.begin() + layer * layer_bytes,
			                       reference.begin() + (layer + 1) * layer_bytes);
			size_t first = FirstDifference(a, b, LayerTolerance(info, values[layer]));
			if (first == a.size()) continue;
			size_t texel = first / info.block_size * info.block_size;
			const VkClearColorValue& v = values[layer];
			INFO("clear value " << v.float32[0] << ", " << v.float32[1] << ", " << v.float32[2] << ", " << v.float32[3]
			                    << " (as uint " << v.uint32[0] << ", " << v.uint32[1] << ", " << v.uint32[2] << ", "
			                    << v.uint32[3] << "): ours 0x" << Hex(&a[texel], info.block_size) << ", lavapipe 0x"
			                    << Hex(&b[texel], info.block_size));
			CHECK(first == a.size());
		}
		++compared;
	}
	if (!tessera_only.empty()) WARN("not compared (lavapipe has no transfer support):" << tessera_only);
	CHECK(compared > 60);
	CHECK(tessera->validation_errors() == 0);
	CHECK(lavapipe->validation_errors() == 0);
}

// Formats lavapipe cannot be the reference for, checked against the spec.
namespace {

std::vector<uint8_t> ClearOneTexel(Context& ctx, VkFormat format, const VkClearColorValue& value) {
	const FormatInfo& info = *tessera::texture::FindFormat(format);
	std::vector<uint8_t> bytes = ClearAndRead(ctx, info, {value});
	return std::vector<uint8_t>(bytes.begin(), bytes.begin() + info.block_size);
}

template <typename T>
std::vector<uint8_t> Bytes(std::initializer_list<T> words) {
	std::vector<uint8_t> bytes(words.size() * sizeof(T));
	std::memcpy(bytes.data(), words.begin(), bytes.size());
	return bytes;
}

}  // namespace

TEST_CASE("unsigned 11- and 10-bit float clears keep denormals", "[transfer][image][format]") {
	// Below 2^-14 the formats have denormals (Data Format Specification
	// "Unsigned 11-bit floating-point numbers"): 3e-5 = 31.46 * 2^-20 (the
	// uf11 denormal unit), 1e-5 = 10.49 * 2^-20, 2e-5 = 10.49 * 2^-19 (uf10).
	// §3.9.2 allows rounding to either neighbour, so 31 or 32, 10 or 11.
	// lavapipe 22.3 writes 0 for all three (observed: the word is 0; it
	// flushes values below 2^-14), which is neither neighbour, so it is not
	// the reference here.
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	std::vector<uint8_t> texel =
	    ClearOneTexel(*ctx, VK_FORMAT_B10G11R11_UFLOAT_PACK32, VkClearColorValue{.float32 = {3e-5f, 1e-5f, 2e-5f, 0}});
	CHECK(texel == Bytes<uint32_t>({31u | 10u << 11 | 10u << 22}));
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("64-bit formats clear from two words of VkClearColorValue per component", "[transfer][image][format]") {
	// Vulkan 1.3 §19.3 (since 1.3.287): for 64-bit components, uint32[0..1] is R and
	// uint32[2..3] is G, as one little-endian 64-bit value each. lavapipe
	// has no transfer support for these formats.
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkFormatProperties props;
	vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), VK_FORMAT_R64G64_UINT, &props);
	if (!(props.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_DST_BIT)) return;
	VkClearColorValue value{.uint32 = {0x89abcdef, 0x01234567, 0xfffffffe, 0xffffffff}};
	CHECK(ClearOneTexel(*ctx, VK_FORMAT_R64G64_UINT, value) ==
	      Bytes<uint64_t>({0x0123456789abcdefull, 0xfffffffffffffffeull}));
	CHECK(ClearOneTexel(*ctx, VK_FORMAT_R64G64_SINT, value) ==
	      Bytes<uint64_t>({0x0123456789abcdefull, 0xfffffffffffffffeull}));
	double d = -1.5;
	std::memcpy(&value.uint32[0], &d, 8);
	CHECK(ClearOneTexel(*ctx, VK_FORMAT_R64_SFLOAT, value) == Bytes<double>({-1.5}));
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("depth/stencil clears copied out per aspect match lavapipe", "[transfer][image][format]") {
	struct Value {
		float depth;
		uint32_t stencil;
	};
	// 0.7 and 0.9 scale to within rounding of a half-way point in D16
	// (45874.5, 58981.5): §3.10.2 lets either neighbour be chosen there.
	const Value values[] = {{0.0f, 0}, {1.0f, 255}, {0.5f, 0x5a}, {1.0f / 3, 1}, {0.7f, 128}, {0.9f, 7}, {1e-7f, 254}};
	const uint32_t layers = uint32_t(std::size(values));
	auto tessera = Context::Create(Driver::Tessera);
	auto lavapipe = Context::Create(Driver::Lavapipe);
	REQUIRE(tessera);
	REQUIRE(lavapipe);
	int compared = 0;
	std::string compared_names;
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT, VK_FORMAT_S8_UINT,
	                        VK_FORMAT_D16_UNORM_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT}) {
		const FormatInfo& info = *tessera::texture::FindFormat(format);
		if (!CanClearAndCopy(*tessera, format) || !CanClearAndCopy(*lavapipe, format)) continue;
		CAPTURE(info.name);
		VkImageAspectFlags aspects =
		    (info.HasDepth() ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) | (info.HasStencil() ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
		for (VkImageAspectFlagBits aspect : {VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT}) {
			if (!(aspects & aspect)) continue;
			CAPTURE(aspect);
			uint32_t element = tessera::texture::AspectElementSize(info, aspect);
			auto run = [&](Context& ctx) {
				TestImage image =
				    ctx.CreateImage2D(format, kWidth, kHeight,
				                      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 1, layers);
				TestBuffer out = ctx.CreateBuffer(VkDeviceSize(element) * kWidth * kHeight * layers);
				ctx.Submit([&](VkCommandBuffer cb) {
					ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
					               aspects);
					for (uint32_t layer = 0; layer < layers; ++layer) {
						VkClearDepthStencilValue v{values[layer].depth, values[layer].stencil};
						VkImageSubresourceRange range{aspects, 0, 1, layer, 1};
						vkCmdClearDepthStencilImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &v, 1,
						                            &range);
					}
					ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
					               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, aspects);
					VkBufferImageCopy region{};
					region.imageSubresource = {VkImageAspectFlags(aspect), 0, 0, layers};
					region.imageExtent = {kWidth, kHeight, 1};
					vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1,
					                       &region);
					ctx.TransferBarrier(cb);
				});
				std::vector<uint8_t> bytes(out.data, out.data + out.size);
				ctx.Destroy(out);
				ctx.Destroy(image);
				return bytes;
			};
			std::vector<uint8_t> ours = run(*tessera), reference = run(*lavapipe);
			REQUIRE(ours.size() == reference.size());
			// D24 is copied as X8_D24_UNORM_PACK32 (§20.4 "Depth/Stencil Aspect
			// Copy"); its 8 X bits are unused and given no value by the spec.
			// Tessera writes them 0 (PackDepth); lavapipe's are not compared.
			bool d24 = aspect == VK_IMAGE_ASPECT_DEPTH_BIT && info.ComponentBits('D') == 24;
			if (d24)
				for (size_t i = 3; i < ours.size(); i += 4) {
					CHECK(ours[i] == 0);
					reference[i] = 0;
				}
			const size_t layer_bytes = size_t(element) * kWidth * kHeight;
			for (uint32_t layer = 0; layer < layers; ++layer) {
				Tolerance t;
				if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT && info.Numeric() == NumericFormat::UNORM) {
					double scaled = values[layer].depth * (std::ldexp(1.0, info.ComponentBits('D')) - 1);
					if (std::abs(scaled - std::floor(scaled) - 0.5) < 0.01)
						t = {element, {}, {{0, element * 8 - (d24 ? 8 : 0)}}};
				}
				std::vector<uint8_t> a(ours.begin() + layer * layer_bytes, ours.begin() + (layer + 1) * layer_bytes);
				std::vector<uint8_t> b(reference.begin() + layer * layer_bytes,
				                       reference.begin() + (layer + 1) * layer_bytes);
				size_t first = FirstDifference(a, b, t);
				if (first < a.size()) {
					size_t texel = first / element * element;
					INFO("depth " << values[layer].depth << " stencil " << values[layer].stencil << ": ours 0x"
					              << Hex(&a[texel], element) << ", lavapipe 0x" << Hex(&b[texel], element));
					CHECK(first == a.size());
				}
			}
			++compared;
			compared_names +=
			    std::string(" ") + info.name + (aspect == VK_IMAGE_ASPECT_DEPTH_BIT ? ".depth" : ".stencil");
		}
	}
	INFO("compared:" << compared_names);
	CHECK(compared >= 3);
	CHECK(tessera->validation_errors() == 0);
	CHECK(lavapipe->validation_errors() == 0);
}
