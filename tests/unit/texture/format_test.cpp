// The generated format table against the spec's format descriptions
// (Vulkan 1.3 "Format Definition" and the "Compatible Formats" table):
// block sizes, extents and where each component's bits are.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "texture/format.h"

using namespace tessera::texture;

namespace {

struct ExpectedComponent {
	char name;
	uint8_t bits;
	uint8_t offset;
	NumericFormat numeric;
};

struct Expected {
	VkFormat format;
	uint8_t block_size;
	uint8_t extent_x, extent_y;
	std::vector<ExpectedComponent> components;  // empty: do not check (compressed)
};

constexpr auto UNORM = NumericFormat::UNORM;
constexpr auto SNORM = NumericFormat::SNORM;
constexpr auto UINT = NumericFormat::UINT;
constexpr auto SINT = NumericFormat::SINT;
constexpr auto UFLOAT = NumericFormat::UFLOAT;
constexpr auto SFLOAT = NumericFormat::SFLOAT;
constexpr auto SRGB = NumericFormat::SRGB;
constexpr auto USCALED = NumericFormat::USCALED;

// Written from the format descriptions in Vulkan 1.3 ("Packed Formats"
// list the most significant component first).
const Expected kExpected[] = {
    {VK_FORMAT_R4G4_UNORM_PACK8, 1, 1, 1, {{'R', 4, 4, UNORM}, {'G', 4, 0, UNORM}}},
    {VK_FORMAT_R4G4B4A4_UNORM_PACK16,
     2,
     1,
     1,
     {{'R', 4, 12, UNORM}, {'G', 4, 8, UNORM}, {'B', 4, 4, UNORM}, {'A', 4, 0, UNORM}}},
    {VK_FORMAT_A4R4G4B4_UNORM_PACK16,
     2,
     1,
     1,
     {{'A', 4, 12, UNORM}, {'R', 4, 8, UNORM}, {'G', 4, 4, UNORM}, {'B', 4, 0, UNORM}}},
    {VK_FORMAT_A4B4G4R4_UNORM_PACK16,
     2,
     1,
     1,
     {{'A', 4, 12, UNORM}, {'B', 4, 8, UNORM}, {'G', 4, 4, UNORM}, {'R', 4, 0, UNORM}}},
    {VK_FORMAT_R5G6B5_UNORM_PACK16, 2, 1, 1, {{'R', 5, 11, UNORM}, {'G', 6, 5, UNORM}, {'B', 5, 0, UNORM}}},
    {VK_FORMAT_B5G6R5_UNORM_PACK16, 2, 1, 1, {{'B', 5, 11, UNORM}, {'G', 6, 5, UNORM}, {'R', 5, 0, UNORM}}},
    // vk.xml 1.3.239 swaps R and G here; the spec does not.
    {VK_FORMAT_B5G5R5A1_UNORM_PACK16,
     2,
     1,
     1,
     {{'B', 5, 11, UNORM}, {'G', 5, 6, UNORM}, {'R', 5, 1, UNORM}, {'A', 1, 0, UNORM}}},
    {VK_FORMAT_R5G5B5A1_UNORM_PACK16,
     2,
     1,
     1,
     {{'R', 5, 11, UNORM}, {'G', 5, 6, UNORM}, {'B', 5, 1, UNORM}, {'A', 1, 0, UNORM}}},
    {VK_FORMAT_A1R5G5B5_UNORM_PACK16,
     2,
     1,
     1,
     {{'A', 1, 15, UNORM}, {'R', 5, 10, UNORM}, {'G', 5, 5, UNORM}, {'B', 5, 0, UNORM}}},
    {VK_FORMAT_R8_SRGB, 1, 1, 1, {{'R', 8, 0, SRGB}}},
    {VK_FORMAT_R8G8B8_USCALED, 3, 1, 1, {{'R', 8, 0, USCALED}, {'G', 8, 8, USCALED}, {'B', 8, 16, USCALED}}},
    {VK_FORMAT_B8G8R8A8_SRGB, 4, 1, 1, {{'B', 8, 0, SRGB}, {'G', 8, 8, SRGB}, {'R', 8, 16, SRGB}, {'A', 8, 24, SRGB}}},
    {VK_FORMAT_A8B8G8R8_SNORM_PACK32,
     4,
     1,
     1,
     {{'A', 8, 24, SNORM}, {'B', 8, 16, SNORM}, {'G', 8, 8, SNORM}, {'R', 8, 0, SNORM}}},
    {VK_FORMAT_A2R10G10B10_UINT_PACK32,
     4,
     1,
     1,
     {{'A', 2, 30, UINT}, {'R', 10, 20, UINT}, {'G', 10, 10, UINT}, {'B', 10, 0, UINT}}},
    {VK_FORMAT_A2B10G10R10_SINT_PACK32,
     4,
     1,
     1,
     {{'A', 2, 30, SINT}, {'B', 10, 20, SINT}, {'G', 10, 10, SINT}, {'R', 10, 0, SINT}}},
    {VK_FORMAT_R16G16B16_SFLOAT, 6, 1, 1, {{'R', 16, 0, SFLOAT}, {'G', 16, 16, SFLOAT}, {'B', 16, 32, SFLOAT}}},
    {VK_FORMAT_R32G32B32A32_SINT,
     16,
     1,
     1,
     {{'R', 32, 0, SINT}, {'G', 32, 32, SINT}, {'B', 32, 64, SINT}, {'A', 32, 96, SINT}}},
    // vk.xml 1.3.239 names the second component B.
    {VK_FORMAT_R64G64_SFLOAT, 16, 1, 1, {{'R', 64, 0, SFLOAT}, {'G', 64, 64, SFLOAT}}},
    {VK_FORMAT_R64G64B64A64_UINT,
     32,
     1,
     1,
     {{'R', 64, 0, UINT}, {'G', 64, 64, UINT}, {'B', 64, 128, UINT}, {'A', 64, 192, UINT}}},
    // vk.xml 1.3.239 says R is 10 bits.
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, 1, 1, {{'B', 10, 22, UFLOAT}, {'G', 11, 11, UFLOAT}, {'R', 11, 0, UFLOAT}}},
    {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 4, 1, 1, {{'B', 9, 18, UFLOAT}, {'G', 9, 9, UFLOAT}, {'R', 9, 0, UFLOAT}}},
    {VK_FORMAT_D16_UNORM, 2, 1, 1, {{'D', 16, 0, UNORM}}},
    // "X8_D24": the depth is the low 24 bits, the 8 unused bits the high ones.
    {VK_FORMAT_X8_D24_UNORM_PACK32, 4, 1, 1, {{'D', 24, 0, UNORM}}},
    {VK_FORMAT_D32_SFLOAT, 4, 1, 1, {{'D', 32, 0, SFLOAT}}},
    {VK_FORMAT_S8_UINT, 1, 1, 1, {{'S', 8, 0, UINT}}},
    {VK_FORMAT_D16_UNORM_S8_UINT, 3, 1, 1, {{'D', 16, 0, UNORM}, {'S', 8, 16, UINT}}},
    {VK_FORMAT_D24_UNORM_S8_UINT, 4, 1, 1, {{'D', 24, 0, UNORM}, {'S', 8, 24, UINT}}},
    {VK_FORMAT_D32_SFLOAT_S8_UINT, 5, 1, 1, {{'D', 32, 0, SFLOAT}, {'S', 8, 32, UINT}}},
    {VK_FORMAT_R10X6_UNORM_PACK16, 2, 1, 1, {{'R', 10, 6, UNORM}}},
    {VK_FORMAT_R10X6G10X6_UNORM_2PACK16, 4, 1, 1, {{'R', 10, 6, UNORM}, {'G', 10, 22, UNORM}}},
    {VK_FORMAT_R12X4G12X4B12X4A12X4_UNORM_4PACK16,
     8,
     1,
     1,
     {{'R', 12, 4, UNORM}, {'G', 12, 20, UNORM}, {'B', 12, 36, UNORM}, {'A', 12, 52, UNORM}}},
    {VK_FORMAT_G8B8G8R8_422_UNORM,
     4,
     2,
     1,
     {{'G', 8, 0, UNORM}, {'B', 8, 8, UNORM}, {'G', 8, 16, UNORM}, {'R', 8, 24, UNORM}}},
    // A plane's components sit where its compatible format's do.
    {VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16,
     6,
     1,
     1,
     {{'G', 10, 6, UNORM}, {'B', 10, 6, UNORM}, {'R', 10, 22, UNORM}}},
    {VK_FORMAT_BC1_RGB_UNORM_BLOCK, 8, 4, 4, {}},
    {VK_FORMAT_BC7_SRGB_BLOCK, 16, 4, 4, {}},
    {VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, 8, 4, 4, {}},
    {VK_FORMAT_EAC_R11G11_SNORM_BLOCK, 16, 4, 4, {}},
    {VK_FORMAT_ASTC_12x10_SRGB_BLOCK, 16, 12, 10, {}},
    {VK_FORMAT_ASTC_5x4_SFLOAT_BLOCK, 16, 5, 4, {}},
};

}  // namespace

TEST_CASE("the format table matches the spec's format descriptions", "[texture][format]") {
	for (const Expected& e : kExpected) {
		const FormatInfo* info = FindFormat(e.format);
		REQUIRE(info);
		CAPTURE(info->name);
		CHECK(info->block_size == e.block_size);
		CHECK(info->block_extent[0] == e.extent_x);
		CHECK(info->block_extent[1] == e.extent_y);
		CHECK(info->block_extent[2] == 1);
		if (e.components.empty()) continue;
		REQUIRE(info->component_count == e.components.size());
		for (size_t i = 0; i < e.components.size(); ++i) {
			CAPTURE(i);
			CHECK(info->components[i].name == e.components[i].name);
			CHECK(info->components[i].bits == e.components[i].bits);
			CHECK(info->components[i].offset == e.components[i].offset);
			CHECK(info->components[i].numeric == e.components[i].numeric);
		}
	}
}

TEST_CASE("every core format is in the table and found by value", "[texture][format]") {
	CHECK(FindFormat(VK_FORMAT_UNDEFINED) == nullptr);
	CHECK(FindFormat(VkFormat(185)) == nullptr);
	CHECK(FindFormat(VkFormat(0x7ffffffe)) == nullptr);
	for (int f = VK_FORMAT_R4G4_UNORM_PACK8; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; ++f) {
		CAPTURE(f);
		const FormatInfo* info = FindFormat(VkFormat(f));
		REQUIRE(info);
		CHECK(info->format == VkFormat(f));
	}
	for (size_t i = 0; i < kFormatTableSize; ++i) CHECK(FindFormat(kFormatTable[i].format) == &kFormatTable[i]);
	// The 1.3 formats promoted from extensions.
	for (VkFormat f : {VK_FORMAT_A4R4G4B4_UNORM_PACK16, VK_FORMAT_G8_B8R8_2PLANE_444_UNORM,
	                   VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK, VK_FORMAT_G16_B16_R16_3PLANE_420_UNORM})
		CHECK(FindFormat(f));
}

TEST_CASE("components of uncompressed formats fit their block and do not overlap", "[texture][format]") {
	for (size_t i = 0; i < kFormatTableSize; ++i) {
		const FormatInfo& info = kFormatTable[i];
		if (info.IsCompressed() || info.IsMultiPlanar()) continue;
		CAPTURE(info.name);
		REQUIRE(info.component_count > 0);
		std::vector<bool> used(info.block_size * 8);
		uint32_t bits = 0;
		for (uint8_t c = 0; c < info.component_count; ++c) {
			const FormatComponent& comp = info.components[c];
			REQUIRE(comp.bits > 0);
			REQUIRE(comp.offset + comp.bits <= info.block_size * 8);
			if (info.packed)  // a field never straddles two packed words
				CHECK(comp.offset / info.packed == (comp.offset + comp.bits - 1) / info.packed);
			for (uint32_t b = comp.offset; b < comp.offset + comp.bits; ++b) {
				CHECK_FALSE(used[b]);
				used[b] = true;
			}
			bits += comp.bits;
		}
		// Only the X bits of the name and E5B9G9R9's exponent are not components.
		std::string name = info.name;
		bool padded = name.find('X') != std::string::npos || info.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32;
		if (!padded) CHECK(bits == info.block_size * 8u);
	}
}

TEST_CASE("format predicates answer what the driver asks", "[texture][format]") {
	const FormatInfo& d24s8 = *FindFormat(VK_FORMAT_D24_UNORM_S8_UINT);
	CHECK(d24s8.HasDepth());
	CHECK(d24s8.HasStencil());
	CHECK(d24s8.IsDepthOrStencil());
	CHECK_FALSE(d24s8.IsColor());
	CHECK(d24s8.ComponentBits('D') == 24);
	CHECK(d24s8.ComponentBits('S') == 8);
	CHECK(d24s8.ComponentBits('R') == 0);

	const FormatInfo& s8 = *FindFormat(VK_FORMAT_S8_UINT);
	CHECK_FALSE(s8.HasDepth());
	CHECK(s8.HasStencil());

	const FormatInfo& bc1 = *FindFormat(VK_FORMAT_BC1_RGBA_SRGB_BLOCK);
	CHECK(bc1.IsCompressed());
	CHECK(bc1.IsSrgb());
	CHECK(bc1.TexelsPerBlock() == 16);
	CHECK(bc1.compression == Compression::BC);
	CHECK(FindFormat(VK_FORMAT_ASTC_8x8_SFLOAT_BLOCK)->compression == Compression::ASTC_HDR);

	CHECK(FindFormat(VK_FORMAT_R8G8B8A8_UINT)->IsInteger());
	CHECK(FindFormat(VK_FORMAT_R16_SINT)->IsSigned());
	CHECK(FindFormat(VK_FORMAT_R16_SNORM)->IsNormalized());
	CHECK(FindFormat(VK_FORMAT_R8_SSCALED)->IsScaled());
	CHECK(FindFormat(VK_FORMAT_B10G11R11_UFLOAT_PACK32)->IsFloat());
	CHECK_FALSE(FindFormat(VK_FORMAT_B10G11R11_UFLOAT_PACK32)->IsSigned());
	CHECK(FindFormat(VK_FORMAT_R64_UINT)->Has64BitComponents());
	CHECK_FALSE(FindFormat(VK_FORMAT_R32G32_UINT)->Has64BitComponents());

	const FormatInfo& nv12 = *FindFormat(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM);
	CHECK(nv12.IsMultiPlanar());
	CHECK(nv12.NeedsYcbcrConversion());
	REQUIRE(nv12.plane_count == 2);
	CHECK(nv12.planes[1].width_divisor == 2);
	CHECK(nv12.planes[1].height_divisor == 2);
	CHECK(nv12.planes[1].compatible == VK_FORMAT_R8G8_UNORM);
	CHECK(FindFormat(VK_FORMAT_G8B8G8R8_422_UNORM)->TexelsPerBlock() == 2);
	CHECK(FindFormat(VK_FORMAT_R10X6G10X6B10X6A10X6_UNORM_4PACK16)->NeedsYcbcrConversion());
	CHECK(FindFormat(VK_FORMAT_R10X6G10X6B10X6A10X6_UNORM_4PACK16)->TexelsPerBlock() == 1);
	CHECK_FALSE(FindFormat(VK_FORMAT_R10X6_UNORM_PACK16)->NeedsYcbcrConversion());

	// Copy-compatibility classes come from the registry.
	CHECK(std::string(FindFormat(VK_FORMAT_R32_UINT)->compatibility_class) ==
	      FindFormat(VK_FORMAT_A2B10G10R10_UNORM_PACK32)->compatibility_class);
	CHECK(std::string(FindFormat(VK_FORMAT_D24_UNORM_S8_UINT)->compatibility_class) != "32-bit");
}

TEST_CASE("depth/stencil aspects copy as their own formats", "[texture][format]") {
	// Vulkan 1.3 §20.4: buffer copies of D24 depth use 4 bytes, stencil 1.
	const FormatInfo& d24s8 = *FindFormat(VK_FORMAT_D24_UNORM_S8_UINT);
	CHECK(AspectElementSize(d24s8, VK_IMAGE_ASPECT_DEPTH_BIT) == 4);
	CHECK(AspectElementSize(d24s8, VK_IMAGE_ASPECT_STENCIL_BIT) == 1);
	CHECK(AspectElementSize(*FindFormat(VK_FORMAT_D16_UNORM_S8_UINT), VK_IMAGE_ASPECT_DEPTH_BIT) == 2);
	CHECK(AspectElementSize(*FindFormat(VK_FORMAT_D32_SFLOAT_S8_UINT), VK_IMAGE_ASPECT_DEPTH_BIT) == 4);
	CHECK(AspectFormat(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT) == VK_FORMAT_X8_D24_UNORM_PACK32);
	CHECK(AspectFormat(VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT) == VK_FORMAT_D32_SFLOAT);
	CHECK(AspectFormat(VK_FORMAT_D16_UNORM_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT) == VK_FORMAT_S8_UINT);
	CHECK(AspectFormat(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_IMAGE_ASPECT_PLANE_1_BIT) == VK_FORMAT_R8G8_UNORM);
	CHECK(AspectElementSize(*FindFormat(VK_FORMAT_G16_B16R16_2PLANE_420_UNORM), VK_IMAGE_ASPECT_PLANE_1_BIT) == 4);
	CHECK(AspectFormat(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_ASPECT_COLOR_BIT) == VK_FORMAT_R8G8B8A8_UNORM);
}

TEST_CASE("BC4 and BC5 SNORM are signed normalized, whatever vk.xml 1.3.239 says", "[texture][format]") {
	for (VkFormat f : {VK_FORMAT_BC4_SNORM_BLOCK, VK_FORMAT_BC5_SNORM_BLOCK}) {
		const FormatInfo* info = FindFormat(f);
		REQUIRE(info);
		CHECK(info->Numeric() == NumericFormat::SNORM);
		CHECK_FALSE(info->IsSrgb());
	}
}
