// vkCmdBlitImage on Tessera compared with lavapipe: bit-exact for NEAREST
// blits between images of one format, within stated tolerances where the
// spec allows freedom (filtering precision, float and fixed-point rounding).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "image_helpers.h"

using namespace tessera::test;
using namespace tessera::test::transfer;

namespace {

struct BlitCase {
	ImageSpec src, dst;
	uint32_t src_texel_bytes, dst_texel_bytes;
	Fill fill;
	std::vector<VkImageBlit> regions;
	VkFilter filter = VK_FILTER_NEAREST;
	bool use_blit2 = false;
	VkImageAspectFlags readback = 0;  // aspects read back; 0: all of dst's
};

VkImageBlit Region(VkImageAspectFlags aspect, VkOffset3D s0, VkOffset3D s1, VkOffset3D d0, VkOffset3D d1,
                   uint32_t layers = 1, uint32_t src_mip = 0, uint32_t dst_mip = 0) {
	VkImageBlit r{};
	r.srcSubresource = {aspect, src_mip, 0, layers};
	r.dstSubresource = {aspect, dst_mip, 0, layers};
	r.srcOffsets[0] = s0;
	r.srcOffsets[1] = s1;
	r.dstOffsets[0] = d0;
	r.dstOffsets[1] = d1;
	return r;
}

VkImageBlit Color2D(int32_t sx0, int32_t sy0, int32_t sx1, int32_t sy1, int32_t dx0, int32_t dy0, int32_t dx1,
                    int32_t dy1) {
	return Region(VK_IMAGE_ASPECT_COLOR_BIT, {sx0, sy0, 0}, {sx1, sy1, 1}, {dx0, dy0, 0}, {dx1, dy1, 1});
}

// Uploads random texels to both images, blits, reads the destination's
// first level back.
std::vector<uint8_t> RunBlit(Context& ctx, const BlitCase& c) {
	VkFormatFeatureFlags src_needs = VK_FORMAT_FEATURE_BLIT_SRC_BIT;
	if (c.filter == VK_FILTER_LINEAR) src_needs |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
	if (!Supports(ctx, c.src.format, src_needs) || !Supports(ctx, c.dst.format, VK_FORMAT_FEATURE_BLIT_DST_BIT))
		return {};
	TestImage src = MakeImage(ctx, c.src), dst = MakeImage(ctx, c.dst);
	// The destination gets its own pattern so texels the blit leaves alone
	// are defined.
	TestBuffer staging = ctx.CreateBuffer(2 << 20), dst_staging = ctx.CreateBuffer(2 << 20);
	TestBuffer out = ctx.CreateBuffer(2 << 20);
	VkDeviceSize size = 0;
	ImageSpec readback = c.dst;
	if (c.readback) readback.aspects = c.readback;
	ctx.Submit([&](VkCommandBuffer cb) {
		RecordUpload(ctx, cb, src, c.src, staging, c.src_texel_bytes, c.fill, 1);
		RecordUpload(ctx, cb, dst, c.dst, dst_staging, c.dst_texel_bytes,
		             c.dst.aspects == VK_IMAGE_ASPECT_COLOR_BIT ? Fill::Bytes : c.fill, 2);
		ctx.Transition(cb, src.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		               c.src.aspects);
		ctx.Transition(cb, dst.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		               c.dst.aspects);
		if (c.use_blit2) {
			std::vector<VkImageBlit2> regions;
			for (const VkImageBlit& r : c.regions)
				regions.push_back({VK_STRUCTURE_TYPE_IMAGE_BLIT_2,
				                   nullptr,
				                   r.srcSubresource,
				                   {r.srcOffsets[0], r.srcOffsets[1]},
				                   r.dstSubresource,
				                   {r.dstOffsets[0], r.dstOffsets[1]}});
			VkBlitImageInfo2 info{VK_STRUCTURE_TYPE_BLIT_IMAGE_INFO_2};
			info.srcImage = src.image;
			info.srcImageLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
			info.dstImage = dst.image;
			info.dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
			info.regionCount = uint32_t(regions.size());
			info.pRegions = regions.data();
			info.filter = c.filter;
			vkCmdBlitImage2(cb, &info);
		} else {
			vkCmdBlitImage(cb, src.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst.image,
			               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, uint32_t(c.regions.size()), c.regions.data(),
			               c.filter);
		}
		ctx.Transition(cb, dst.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		               c.dst.aspects);
		size = RecordReadback(cb, dst, readback, 0, out, c.dst_texel_bytes);
		ctx.TransferBarrier(cb);
	});
	std::vector<uint8_t> bytes = TakeBytes(out, size, readback);
	ctx.Destroy(staging);
	ctx.Destroy(dst_staging);
	ctx.Destroy(out);
	ctx.Destroy(src);
	ctx.Destroy(dst);
	return bytes;
}

ImageSpec Image2D(VkFormat format, uint32_t w, uint32_t h, uint32_t layers = 1) {
	return {format, {w, h, 1}, VK_IMAGE_TYPE_2D, layers};
}

// Vulkan 1.3 "Fixed-Point Data Conversions": a float converted to a
// normalized fixed-point value may become either of the two closest values,
// and LINEAR filter weights are only as precise as subTexelPrecisionBits (8
// on both drivers), so filtered or converted UNORM results may differ by one
// unit in the last place.
const Tolerance kRgba8OneUlp = Channels(4, 8, 1);
// Vulkan 1.3 "Floating-Point Format Conversions": conversion to a 16-bit
// float may round either way: one unit in the last place.
const Tolerance kHalf4OneUlp = Channels(4, 16, 1);

}  // namespace

// NEAREST takes floor(u) (§16 "Texel Filtering"); where u falls exactly on
// an edge between texels (scales whose reduced numerator is even), the
// rounding of the coordinate within subTexelPrecisionBits decides, and
// lavapipe's float arithmetic may land on either side. The scales here keep
// every sample off texel edges, so the result is unique.
TEST_CASE("NEAREST blits of one format match lavapipe exactly", "[blit]") {
	const VkFormat rgba8 = VK_FORMAT_R8G8B8A8_UNORM;
	std::vector<BlitCase> cases = {
	    // scale up by a non-integer factor
	    {Image2D(rgba8, 7, 5), Image2D(rgba8, 17, 13), 4, 4, Fill::Bytes, {Color2D(0, 0, 7, 5, 0, 0, 17, 13)}},
	    // scale down 3:1 (samples land on texel centers)
	    {Image2D(rgba8, 21, 15), Image2D(rgba8, 7, 5), 4, 4, Fill::Bytes, {Color2D(0, 0, 21, 15, 0, 0, 7, 5)}},
	    // flips on either side, inside regions of larger images, two regions
	    {Image2D(rgba8, 16, 12),
	     Image2D(rgba8, 20, 14),
	     4,
	     4,
	     Fill::Bytes,
	     {Color2D(2, 1, 12, 9, 15, 10, 3, 2), Color2D(12, 0, 4, 3, 16, 11, 20, 14)}},
	    // the same through vkCmdBlitImage2
	    {Image2D(rgba8, 16, 12),
	     Image2D(rgba8, 20, 14),
	     4,
	     4,
	     Fill::Bytes,
	     {Color2D(2, 1, 12, 9, 15, 10, 3, 2), Color2D(12, 0, 4, 3, 16, 11, 20, 14)},
	     VK_FILTER_NEAREST,
	     true},
	    // integer and float formats (bytes move unchanged)
	    {Image2D(VK_FORMAT_R16G16_UINT, 9, 9),
	     Image2D(VK_FORMAT_R16G16_UINT, 4, 13),
	     4,
	     4,
	     Fill::Bytes,
	     {Color2D(9, 0, 0, 9, 0, 0, 4, 13)}},
	    {Image2D(VK_FORMAT_R32G32B32A32_SFLOAT, 7, 6),
	     Image2D(VK_FORMAT_R32G32B32A32_SFLOAT, 11, 4),
	     16,
	     16,
	     Fill::Float32,
	     {Color2D(0, 6, 7, 0, 0, 0, 11, 4)}},
	    // array layers, each to its own layer, from mip 1
	    {{rgba8, {16, 16, 1}, VK_IMAGE_TYPE_2D, 3, 2},
	     Image2D(rgba8, 10, 10, 3),
	     4,
	     4,
	     Fill::Bytes,
	     {Region(VK_IMAGE_ASPECT_COLOR_BIT, {1, 0, 0}, {8, 7, 1}, {10, 0, 0}, {0, 10, 1}, 3, 1, 0)}},
	    // 1D array
	    {{rgba8, {24, 1, 1}, VK_IMAGE_TYPE_1D, 2},
	     {rgba8, {9, 1, 1}, VK_IMAGE_TYPE_1D, 2},
	     4,
	     4,
	     Fill::Bytes,
	     {Region(VK_IMAGE_ASPECT_COLOR_BIT, {0, 0, 0}, {21, 1, 1}, {9, 0, 0}, {0, 1, 1}, 2)}},
	    // 3D, scaled in depth too
	    {{rgba8, {6, 6, 6}, VK_IMAGE_TYPE_3D},
	     {rgba8, {8, 4, 5}, VK_IMAGE_TYPE_3D},
	     4,
	     4,
	     Fill::Bytes,
	     {Region(VK_IMAGE_ASPECT_COLOR_BIT, {0, 0, 6}, {6, 6, 0}, {0, 0, 1}, {8, 4, 5})}},
	};
	DriverPair drivers;
	for (size_t i = 0; i < cases.size(); ++i) {
		CAPTURE(i);
		CompareWithLavapipe(drivers, [&](Context& ctx) { return RunBlit(ctx, cases[i]); });
	}
}

TEST_CASE("LINEAR blits match lavapipe within one unit", "[blit]") {
	const VkFormat rgba8 = VK_FORMAT_R8G8B8A8_UNORM;
	struct Case {
		BlitCase blit;
		Tolerance tolerance;
	};
	std::vector<Case> cases = {
	    {{Image2D(rgba8, 5, 4),
	      Image2D(rgba8, 17, 11),
	      4,
	      4,
	      Fill::Bytes,
	      {Color2D(0, 0, 5, 4, 0, 0, 17, 11)},
	      VK_FILTER_LINEAR},
	     kRgba8OneUlp},
	    {{Image2D(rgba8, 20, 16),
	      Image2D(rgba8, 7, 5),
	      4,
	      4,
	      Fill::Bytes,
	      {Color2D(20, 0, 0, 16, 0, 0, 7, 5)},
	      VK_FILTER_LINEAR},
	     kRgba8OneUlp},
	    // a region inside the image filters with the texels next to it
	    {{Image2D(rgba8, 16, 16),
	      Image2D(rgba8, 16, 16),
	      4,
	      4,
	      Fill::Bytes,
	      {Color2D(4, 4, 8, 8, 0, 0, 16, 16)},
	      VK_FILTER_LINEAR},
	     kRgba8OneUlp},
	    // sRGB filters decoded values
	    {{Image2D(VK_FORMAT_R8G8B8A8_SRGB, 9, 7),
	      Image2D(VK_FORMAT_R8G8B8A8_SRGB, 4, 12),
	      4,
	      4,
	      Fill::Bytes,
	      {Color2D(0, 0, 9, 7, 0, 0, 4, 12)},
	      VK_FILTER_LINEAR},
	     kRgba8OneUlp},
	    {{Image2D(VK_FORMAT_R16G16B16A16_SFLOAT, 6, 6),
	      Image2D(VK_FORMAT_R16G16B16A16_SFLOAT, 13, 5),
	      8,
	      8,
	      Fill::Half,
	      {Color2D(0, 0, 6, 6, 0, 0, 13, 5)},
	      VK_FILTER_LINEAR},
	     kHalf4OneUlp},
	    // 3D: trilinear
	    {{{rgba8, {4, 4, 4}, VK_IMAGE_TYPE_3D},
	      {rgba8, {7, 3, 7}, VK_IMAGE_TYPE_3D},
	      4,
	      4,
	      Fill::Bytes,
	      {Region(VK_IMAGE_ASPECT_COLOR_BIT, {0, 0, 0}, {4, 4, 4}, {0, 0, 0}, {7, 3, 7})},
	      VK_FILTER_LINEAR},
	     kRgba8OneUlp},
	};
	DriverPair drivers;
	for (size_t i = 0; i < cases.size(); ++i) {
		CAPTURE(i);
		CompareWithLavapipe(
		    drivers, [&](Context& ctx) { return RunBlit(ctx, cases[i].blit); }, cases[i].tolerance);
	}
}

// VK_EXT_filter_cubic on Tessera alone (lavapipe 22.3 has no cubic
// filtering): the format and image-view queries, then CUBIC blits of random
// RGBA8 texels against Catmull-Rom weights computed here ("Texel Cubic
// Filtering": texels floor(u - 3/2) .. + 3, CLAMP_TO_EDGE, weights of
// frac(u - 1/2)); a 1:1 CUBIC blit reads each texel at its center, a copy.
TEST_CASE("CUBIC blits weigh 4 x 4 texels by Catmull-Rom weights, and the queries say so", "[blit][cubic]") {
	ContextOptions options;
	options.device_extensions = {VK_EXT_FILTER_CUBIC_EXTENSION_NAME};
	std::unique_ptr<Context> ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	const VkFormat rgba8 = VK_FORMAT_R8G8B8A8_UNORM;
	VkFormatProperties properties;
	vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), rgba8, &properties);
	CHECK((properties.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_CUBIC_BIT_EXT) != 0);
	vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), VK_FORMAT_R8G8B8A8_UINT, &properties);
	CHECK((properties.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_CUBIC_BIT_EXT) == 0);
	auto filters_cubic = [&](VkImageViewType view_type, VkImageCreateFlags flags) {
		VkPhysicalDeviceImageViewImageFormatInfoEXT view{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_VIEW_IMAGE_FORMAT_INFO_EXT};
		view.imageViewType = view_type;
		VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, &view};
		info.format = rgba8;
		info.type = VK_IMAGE_TYPE_2D;
		info.tiling = VK_IMAGE_TILING_OPTIMAL;
		info.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
		info.flags = flags;
		VkFilterCubicImageViewImageFormatPropertiesEXT cubic{
		    VK_STRUCTURE_TYPE_FILTER_CUBIC_IMAGE_VIEW_IMAGE_FORMAT_PROPERTIES_EXT};
		VkImageFormatProperties2 out{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, &cubic};
		REQUIRE(vkGetPhysicalDeviceImageFormatProperties2(ctx->physical_device(), &info, &out) == VK_SUCCESS);
		return cubic.filterCubic == VK_TRUE && cubic.filterCubicMinmax == VK_TRUE;
	};
	CHECK(filters_cubic(VK_IMAGE_VIEW_TYPE_2D, 0));
	CHECK(filters_cubic(VK_IMAGE_VIEW_TYPE_2D_ARRAY, 0));
	CHECK_FALSE(filters_cubic(VK_IMAGE_VIEW_TYPE_CUBE, VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT));

	auto blit = [&](uint32_t w, uint32_t h, VkFilter filter) {
		BlitCase c{Image2D(rgba8, 9, 7),
		           Image2D(rgba8, w, h),
		           4,
		           4,
		           Fill::Bytes,
		           {Color2D(0, 0, 9, 7, 0, 0, int32_t(w), int32_t(h))},
		           filter};
		return RunBlit(*ctx, c);
	};
	const std::vector<uint8_t> source = blit(9, 7, VK_FILTER_NEAREST);
	REQUIRE(source.size() == 9 * 7 * 4);
	CHECK(blit(9, 7, VK_FILTER_CUBIC_EXT) == source);
	for (const auto& [w, h] : {std::pair{20u, 15u}, std::pair{5u, 4u}}) {
		const std::vector<uint8_t> scaled = blit(w, h, VK_FILTER_CUBIC_EXT);
		REQUIRE(scaled.size() == size_t(w) * h * 4);
		auto taps = [](uint32_t d, uint32_t src_size, uint32_t dst_size, int32_t* i0, double* weights) {
			const double shifted = (d + 0.5) * src_size / dst_size - 0.5, a = shifted - std::floor(shifted);
			*i0 = int32_t(std::floor(shifted)) - 1;
			weights[0] = 0.5 * (-a + 2 * a * a - a * a * a);
			weights[1] = 0.5 * (2 - 5 * a * a + 3 * a * a * a);
			weights[2] = 0.5 * (a + 4 * a * a - 3 * a * a * a);
			weights[3] = 0.5 * (a * a * a - a * a);
		};
		int mismatches = 0;
		for (uint32_t y = 0; y < h; ++y)
			for (uint32_t x = 0; x < w; ++x) {
				int32_t i0, j0;
				double wx[4], wy[4];
				taps(x, 9, w, &i0, wx);
				taps(y, 7, h, &j0, wy);
				for (int c = 0; c < 4; ++c) {
					double sum = 0;
					for (int j = 0; j < 4; ++j)
						for (int i = 0; i < 4; ++i) {
							const int32_t sx = std::clamp(i0 + i, 0, 8), sy = std::clamp(j0 + j, 0, 6);
							sum += wx[i] * wy[j] * source[(size_t(sy) * 9 + sx) * 4 + c] / 255.0;
						}
					const int expected = int(std::lround(std::clamp(sum, 0.0, 1.0) * 255));
					const int got = scaled[(size_t(y) * w + x) * 4 + c];
					if (std::abs(got - expected) > 1) {
						if (mismatches++ < 5)
							UNSCOPED_INFO("texel " << x << ", " << y << " component " << c << ": " << got
							                       << ", expected " << expected);
					}
				}
			}
		CHECK(mismatches == 0);
	}
}

TEST_CASE("format-converting blits match lavapipe", "[blit]") {
	struct Case {
		BlitCase blit;
		Tolerance tolerance;
	};
	auto same_size = [](VkFormat from, uint32_t from_bytes, VkFormat to, uint32_t to_bytes, Fill fill) {
		return BlitCase{
		    Image2D(from, 9, 6), Image2D(to, 9, 6), from_bytes, to_bytes, fill, {Color2D(0, 0, 9, 6, 9, 0, 0, 6)}};
	};
	std::vector<Case> cases = {
	    // a swizzle only: exact
	    {same_size(VK_FORMAT_R8G8B8A8_UNORM, 4, VK_FORMAT_B8G8R8A8_UNORM, 4, Fill::Bytes), {}},
	    // integers widen exactly
	    {same_size(VK_FORMAT_R8G8B8A8_UINT, 4, VK_FORMAT_R16G16B16A16_UINT, 8, Fill::Bytes), {}},
	    {same_size(VK_FORMAT_R8G8B8A8_SINT, 4, VK_FORMAT_R32G32B32A32_SINT, 16, Fill::Bytes), {}},
	    // narrowing integers saturate to the destination's range (§20.6 does
	    // not say how; lavapipe saturates, and so does Tessera)
	    {same_size(VK_FORMAT_R16G16B16A16_UINT, 8, VK_FORMAT_R8G8B8A8_UINT, 4, Fill::Bytes), {}},
	    {same_size(VK_FORMAT_R16G16B16A16_SINT, 8, VK_FORMAT_R8G8B8A8_SINT, 4, Fill::Bytes), {}},
	    // "Fixed-Point Data Conversions": float -> UNORM may round either way
	    {same_size(VK_FORMAT_R8G8B8A8_SRGB, 4, VK_FORMAT_R8G8B8A8_UNORM, 4, Fill::Bytes), kRgba8OneUlp},
	    {same_size(VK_FORMAT_R8G8B8A8_UNORM, 4, VK_FORMAT_R8G8B8A8_SRGB, 4, Fill::Bytes), kRgba8OneUlp},
	    {same_size(VK_FORMAT_R32G32B32A32_SFLOAT, 16, VK_FORMAT_R8G8B8A8_UNORM, 4, Fill::Float32), kRgba8OneUlp},
	    {same_size(VK_FORMAT_R8G8B8A8_SNORM, 4, VK_FORMAT_R8G8B8A8_UNORM, 4, Fill::Snorm8), kRgba8OneUlp},
	    // "Floating-Point Format Conversions": float -> half may round either way
	    {same_size(VK_FORMAT_R8G8B8A8_UNORM, 4, VK_FORMAT_R16G16B16A16_SFLOAT, 8, Fill::Bytes), kHalf4OneUlp},
	    {same_size(VK_FORMAT_R5G6B5_UNORM_PACK16, 2, VK_FORMAT_R8G8B8A8_UNORM, 4, Fill::Bytes), kRgba8OneUlp},
	};
	DriverPair drivers;
	for (size_t i = 0; i < cases.size(); ++i) {
		CAPTURE(i);
		CompareWithLavapipe(
		    drivers, [&](Context& ctx) { return RunBlit(ctx, cases[i].blit); }, cases[i].tolerance);
	}
}

TEST_CASE("depth and stencil blits match lavapipe exactly", "[blit][depth]") {
	const VkImageAspectFlags ds = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
	auto spec = [](VkFormat f, uint32_t w, uint32_t h, VkImageAspectFlags aspects) {
		return ImageSpec{f, {w, h, 1}, VK_IMAGE_TYPE_2D, 1, 1, aspects};
	};
	auto region = [](VkImageAspectFlags aspects) {
		return Region(aspects, {0, 0, 0}, {7, 5, 1}, {12, 0, 0}, {0, 9, 1});
	};
	struct Case {
		BlitCase blit;
		Tolerance tolerance;
	};
	// Lavapipe blits D24 depth through 32-bit floats, which cannot hold
	// every 24-bit UNORM value's quotient exactly (the "Fixed-Point Data
	// Conversions" then carry float rounding): its depth may be one unit off
	// the texel it copies.
	const Tolerance d24_one_ulp{4, {{0, 24, 1}}};
	std::vector<Case> cases = {
	    {{spec(VK_FORMAT_D32_SFLOAT, 7, 5, VK_IMAGE_ASPECT_DEPTH_BIT),
	      spec(VK_FORMAT_D32_SFLOAT, 12, 9, VK_IMAGE_ASPECT_DEPTH_BIT),
	      4,
	      4,
	      Fill::Depth32,
	      {region(VK_IMAGE_ASPECT_DEPTH_BIT)}},
	     {}},
	    {{spec(VK_FORMAT_D16_UNORM, 7, 5, VK_IMAGE_ASPECT_DEPTH_BIT),
	      spec(VK_FORMAT_D16_UNORM, 12, 9, VK_IMAGE_ASPECT_DEPTH_BIT),
	      2,
	      2,
	      Fill::Bytes,
	      {region(VK_IMAGE_ASPECT_DEPTH_BIT)}},
	     {}},
	    {{spec(VK_FORMAT_D24_UNORM_S8_UINT, 7, 5, ds),
	      spec(VK_FORMAT_D24_UNORM_S8_UINT, 12, 9, ds),
	      4,
	      4,
	      Fill::Depth24,
	      {region(ds)},
	      VK_FILTER_NEAREST,
	      false,
	      VK_IMAGE_ASPECT_DEPTH_BIT},
	     d24_one_ulp},
	    {{spec(VK_FORMAT_D24_UNORM_S8_UINT, 7, 5, ds),
	      spec(VK_FORMAT_D24_UNORM_S8_UINT, 12, 9, ds),
	      4,
	      4,
	      Fill::Depth24,
	      {region(ds)},
	      VK_FILTER_NEAREST,
	      false,
	      VK_IMAGE_ASPECT_STENCIL_BIT},
	     {}},
	    // A stencil-only blit. Lavapipe also rewrites the depth of D32S8 here
	    // (seen: depth texels differ from what was uploaded), against §20.6,
	    // which touches only the named aspects; so only stencil is compared.
	    {{spec(VK_FORMAT_D32_SFLOAT_S8_UINT, 7, 5, ds),
	      spec(VK_FORMAT_D32_SFLOAT_S8_UINT, 12, 9, ds),
	      4,
	      4,
	      Fill::Depth32,
	      {region(VK_IMAGE_ASPECT_STENCIL_BIT)},
	      VK_FILTER_NEAREST,
	      false,
	      VK_IMAGE_ASPECT_STENCIL_BIT},
	     {}},
	    {{spec(VK_FORMAT_D32_SFLOAT_S8_UINT, 7, 5, ds),
	      spec(VK_FORMAT_D32_SFLOAT_S8_UINT, 12, 9, ds),
	      4,
	      4,
	      Fill::Depth32,
	      {region(ds)}},
	     {}},
	    {{spec(VK_FORMAT_S8_UINT, 7, 5, VK_IMAGE_ASPECT_STENCIL_BIT),
	      spec(VK_FORMAT_S8_UINT, 12, 9, VK_IMAGE_ASPECT_STENCIL_BIT),
	      1,
	      1,
	      Fill::Bytes,
	      {region(VK_IMAGE_ASPECT_STENCIL_BIT)}},
	     {}},
	};
	DriverPair drivers;
	for (size_t i = 0; i < cases.size(); ++i) {
		CAPTURE(i);
		CompareWithLavapipe(
		    drivers, [&](Context& ctx) { return RunBlit(ctx, cases[i].blit); }, cases[i].tolerance);
	}
}

TEST_CASE("blit format features agree with image format properties", "[blit][format]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkFormatProperties p;
	vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), VK_FORMAT_R8G8B8A8_UNORM, &p);
	REQUIRE((p.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT));
	REQUIRE((p.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT));
	REQUIRE((p.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT));  // shaders sample it
	vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), VK_FORMAT_R8G8B8A8_UINT, &p);
	REQUIRE((p.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT));
	REQUIRE_FALSE((p.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT));
	vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), VK_FORMAT_D24_UNORM_S8_UINT, &p);
	REQUIRE((p.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT));
	REQUIRE(p.linearTilingFeatures == 0);
	vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), VK_FORMAT_BC1_RGBA_UNORM_BLOCK, &p);
	REQUIRE((p.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT));
	// Compressed formats are blit sources (decoded first), never destinations.
	REQUIRE((p.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT));
	REQUIRE_FALSE((p.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_DST_BIT));
	vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), VK_FORMAT_R64_UINT, &p);
	REQUIRE_FALSE((p.optimalTilingFeatures & VK_FORMAT_FEATURE_BLIT_SRC_BIT));
	// SCALED formats are vertex attributes only, as on lavapipe (format_support.cpp).
	for (VkFormat scaled :
	     {VK_FORMAT_R8_USCALED, VK_FORMAT_R16G16B16A16_SSCALED, VK_FORMAT_A2B10G10R10_USCALED_PACK32}) {
		vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), scaled, &p);
		CHECK(p.optimalTilingFeatures == 0);
		CHECK(p.linearTilingFeatures == 0);
		CHECK(p.bufferFeatures == VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT);
	}

	VkImageFormatProperties props;
	REQUIRE(vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D,
	                                                 VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0,
	                                                 &props) == VK_SUCCESS);
	REQUIRE(vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_2D,
	                                                 VK_IMAGE_TILING_LINEAR, VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0,
	                                                 &props) == VK_ERROR_FORMAT_NOT_SUPPORTED);
	REQUIRE(vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D,
	                                                 VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT, 0,
	                                                 &props) == VK_SUCCESS);
	REQUIRE(vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), VK_FORMAT_R64_UINT, VK_IMAGE_TYPE_2D,
	                                                 VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT, 0,
	                                                 &props) == VK_ERROR_FORMAT_NOT_SUPPORTED);  // not sampled
	REQUIRE(vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), VK_FORMAT_BC7_UNORM_BLOCK,
	                                                 VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
	                                                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 0, &props) == VK_SUCCESS);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("NEAREST scaled blits of many formats match lavapipe exactly", "[blit]") {
	struct Format {
		VkFormat format;
		uint32_t bytes;
		Fill fill;
	};
	// SNORM formats take the float path (their most negative value aside,
	// which the fill avoids); the others move texel bytes.
	const Format formats[] = {
	    {VK_FORMAT_R8_UNORM, 1, Fill::Bytes},
	    {VK_FORMAT_R8G8_SNORM, 2, Fill::Snorm8},
	    {VK_FORMAT_R8G8B8A8_SNORM, 4, Fill::Snorm8},
	    {VK_FORMAT_B8G8R8A8_SRGB, 4, Fill::Bytes},
	    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, Fill::Bytes},
	    {VK_FORMAT_A2R10G10B10_UINT_PACK32, 4, Fill::Bytes},
	    {VK_FORMAT_R5G6B5_UNORM_PACK16, 2, Fill::Bytes},
	    {VK_FORMAT_A1R5G5B5_UNORM_PACK16, 2, Fill::Bytes},
	    {VK_FORMAT_R4G4B4A4_UNORM_PACK16, 2, Fill::Bytes},
	    {VK_FORMAT_R16_UNORM, 2, Fill::Bytes},
	    {VK_FORMAT_R16G16_SINT, 4, Fill::Bytes},
	    {VK_FORMAT_R16G16B16A16_SFLOAT, 8, Fill::Half},
	    {VK_FORMAT_R32_SFLOAT, 4, Fill::Float32},
	    {VK_FORMAT_R32G32_UINT, 8, Fill::Bytes},
	};
	DriverPair drivers;
	for (const Format& f : formats) {
		CAPTURE(f.format);
		BlitCase c{Image2D(f.format, 7, 5),           Image2D(f.format, 9, 11), f.bytes, f.bytes, f.fill,
		           {Color2D(0, 5, 7, 0, 0, 0, 9, 11)}};
		CompareWithLavapipe(drivers, [&](Context& ctx) { return RunBlit(ctx, c); });
	}
}

TEST_CASE("a mip chain generated by LINEAR blits within one image matches lavapipe", "[blit]") {
	// Each level halves the one before it: a one-unit difference a blit may
	// make (kRgba8OneUlp) carries into the next level, so level n may be n
	// units apart.
	const uint32_t levels = 4;
	CompareWithLavapipe(
	    [&](Context& ctx) -> std::vector<uint8_t> {
		    if (!Supports(ctx, VK_FORMAT_R8G8B8A8_SRGB,
		                  VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
		                      VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
			    return {};
		    ImageSpec spec{VK_FORMAT_R8G8B8A8_SRGB, {40, 24, 1}, VK_IMAGE_TYPE_2D, 2, levels};
		    TestImage image = MakeImage(ctx, spec);
		    TestBuffer up = ctx.CreateBuffer(1 << 16), out = ctx.CreateBuffer(1 << 16);
		    VkDeviceSize size = 0;
		    ctx.Submit([&](VkCommandBuffer cb) {
			    RecordUpload(ctx, cb, image, spec, up, 4, Fill::Bytes, 91);
			    for (uint32_t mip = 1; mip < levels; ++mip) {
				    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
				    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
				    b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
				    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
				    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
				    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
				    b.image = image.image;
				    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, mip - 1, 1, 0, 2};
				    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
				                         nullptr, 0, nullptr, 1, &b);
				    VkExtent3D from = MipExtent(spec, mip - 1), to = MipExtent(spec, mip);
				    VkImageBlit r =
				        Region(VK_IMAGE_ASPECT_COLOR_BIT, {0, 0, 0}, {int32_t(from.width), int32_t(from.height), 1},
				               {0, 0, 0}, {int32_t(to.width), int32_t(to.height), 1}, 2, mip - 1, mip);
				    vkCmdBlitImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image.image,
				                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r, VK_FILTER_LINEAR);
			    }
			    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
			    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
			    b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
			    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
			    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
			    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
			    b.image = image.image;
			    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, levels - 1, 1, 0, 2};
			    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
			                         0, nullptr, 1, &b);
			    size = RecordReadback(cb, image, spec, 0, out, 4, levels);
			    ctx.TransferBarrier(cb);
		    });
		    std::vector<uint8_t> bytes(out.data, out.data + size);
		    ctx.Destroy(up);
		    ctx.Destroy(out);
		    ctx.Destroy(image);
		    return bytes;
	    },
	    Channels(4, 8, levels - 1));
}

TEST_CASE("format features are consistent for every format", "[blit][format]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	std::vector<VkFormat> formats;
	for (uint32_t f = 1; f <= uint32_t(VK_FORMAT_ASTC_12x12_SRGB_BLOCK); ++f) formats.push_back(VkFormat(f));
	for (VkFormat f : {VK_FORMAT_A4R4G4B4_UNORM_PACK16, VK_FORMAT_A4B4G4R4_UNORM_PACK16, VK_FORMAT_G8B8G8R8_422_UNORM,
	                   VK_FORMAT_ASTC_4x4_SFLOAT_BLOCK, VK_FORMAT_PVRTC1_2BPP_UNORM_BLOCK_IMG})
		formats.push_back(f);
	// Sampling, storage and texel buffers are checked in image_shader_test.cpp
	// and image_sampling_test.cpp, attachments and vertex buffers format by
	// format in draw_format_test.cpp; here, the rules between the bits.
	for (VkFormat format : formats) {
		CAPTURE(format);
		VkFormatProperties p;
		vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), format, &p);
		for (VkFormatFeatureFlags features : {p.linearTilingFeatures, p.optimalTilingFeatures}) {
			// Blits only where copies work; FILTER_LINEAR only with BLIT_SRC
			// or SAMPLED_IMAGE (VkFormatFeatureFlagBits); atomics only with
			// storage.
			if (features & (VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT))
				REQUIRE((features & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT));
			if (features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT)
				REQUIRE((features & (VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)));
			if (features & VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT)
				REQUIRE((features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT));
		}
		REQUIRE((p.linearTilingFeatures & ~p.optimalTilingFeatures) == 0);
		if (p.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT)
			REQUIRE((p.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT));
		// vkGetPhysicalDeviceImageFormatProperties agrees with the features.
		for (VkImageTiling tiling : {VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_TILING_LINEAR}) {
			VkFormatFeatureFlags features =
			    tiling == VK_IMAGE_TILING_OPTIMAL ? p.optimalTilingFeatures : p.linearTilingFeatures;
			VkImageFormatProperties props;
			VkResult result = vkGetPhysicalDeviceImageFormatProperties(
			    ctx->physical_device(), format, VK_IMAGE_TYPE_2D, tiling,
			    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &props);
			bool transfer =
			    (features & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT) && (features & VK_FORMAT_FEATURE_TRANSFER_DST_BIT);
			REQUIRE(result == (transfer ? VK_SUCCESS : VK_ERROR_FORMAT_NOT_SUPPORTED));
			result = vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), format, VK_IMAGE_TYPE_2D, tiling,
			                                                  VK_IMAGE_USAGE_SAMPLED_BIT, 0, &props);
			REQUIRE(result ==
			        ((features & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) ? VK_SUCCESS : VK_ERROR_FORMAT_NOT_SUPPORTED));
			result = vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), format, VK_IMAGE_TYPE_2D, tiling,
			                                                  VK_IMAGE_USAGE_STORAGE_BIT, 0, &props);
			REQUIRE(result ==
			        ((features & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) ? VK_SUCCESS : VK_ERROR_FORMAT_NOT_SUPPORTED));
		}
	}
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("an unsupported image format combination leaves every property zero", "[format]") {
	// Vulkan 1.3 vkGetPhysicalDeviceImageFormatProperties: on
	// VK_ERROR_FORMAT_NOT_SUPPORTED all members are 0 (CTS
	// api.info.image_format_properties.*: a linear 1D image, unsupported
	// then, kept the 1D limits). Compressed 1D images and depth 3D images
	// are not supported.
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	const std::pair<VkFormat, VkImageType> unsupported[] = {{VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_TYPE_1D},
	                                                        {VK_FORMAT_D32_SFLOAT, VK_IMAGE_TYPE_3D}};
	for (auto [format, type] : unsupported) {
		VkImageFormatProperties props;
		std::memset(&props, 0xcd, sizeof props);
		CHECK(vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), format, type, VK_IMAGE_TILING_OPTIMAL,
		                                               VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 0,
		                                               &props) == VK_ERROR_FORMAT_NOT_SUPPORTED);
		const VkImageFormatProperties zero{};
		CHECK(std::memcmp(&props, &zero, sizeof props) == 0);
	}
}
