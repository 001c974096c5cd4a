// Sampler min/max reduction (samplerFilterMinmax, VK_EXT_sampler_filter_minmax)
// through the loader, compared with lavapipe (Mesa 22.3 supports it): LINEAR
// filtering with NEAREST and LINEAR mipmaps, every address mode, swizzled
// views (filterMinmaxImageComponentMapping), MIN and MAX.
//
// Tolerance. A min/max result is one texel's value (of the texels and levels
// with non-zero weights), so the drivers must agree exactly, up to the UNORM8
// conversion (lavapipe computes k * (1 / 255.0f), an ulp from k / 255). The
// coordinates keep every weight at least 3 steps of 2^-8 away from 0 at
// every level, and the LODs (0, 0.5, 2.25) are exact, so both drivers pick
// the same texels and levels.
#include "image_scene.h"

using namespace tessera::test;
using namespace tessera::test::image;

namespace {

std::unique_ptr<Context> MinmaxContext(Driver driver) {
	ContextOptions options = Options(driver);
	// Options' chain: VkPhysicalDeviceFeatures2 -> Vulkan 1.2 -> 1.3 features.
	for (auto* s = static_cast<VkBaseOutStructure*>(const_cast<void*>(options.device_features)); s; s = s->pNext)
		if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)
			reinterpret_cast<VkPhysicalDeviceVulkan12Features*>(s)->samplerFilterMinmax = VK_TRUE;
	return Context::Create(driver, options);
}

std::vector<uint8_t> RunReduction(Context& ctx, VkSamplerReductionMode mode, VkSamplerAddressMode address,
                                  VkSamplerMipmapMode mip, VkComponentMapping swizzle, float scale) {
	Scene scene{"reduction_sample.spv"};
	ImageSpec tex = MippedTexture(23);
	tex.swizzle = swizzle;
	scene.images = {tex};
	VkSamplerReductionModeCreateInfo reduction{VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO};
	reduction.reductionMode = mode;
	VkSamplerCreateInfo sampler = Sampler(VK_FILTER_LINEAR, address, mip);
	sampler.pNext = &reduction;
	scene.samplers = {sampler};
	scene.buffers = {std::vector<uint8_t>(256 * 4 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}}};
	const float push[4] = {scale, 0.0f, 0.5f, 2.25f};
	scene.push.resize(sizeof(push));
	std::memcpy(scene.push.data(), push, sizeof(push));
	scene.groups[0] = 4;
	return Run(ctx, scene).buffers[0];
}

}  // namespace

TEST_CASE("samplerFilterMinmax and its formats are reported", "[e2e][reduction]") {
	auto ctx = MinmaxContext(Driver::Tessera);
	REQUIRE(ctx);
	VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
	VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p12};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p);
	CHECK(p12.filterMinmaxSingleComponentFormats == VK_TRUE);
	CHECK(p12.filterMinmaxImageComponentMapping == VK_TRUE);
	// filterMinmaxSingleComponentFormats: these formats have the bit when
	// they can be sampled.
	for (VkFormat format :
	     {VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SNORM, VK_FORMAT_R16_UNORM, VK_FORMAT_R16_SNORM, VK_FORMAT_R16_SFLOAT,
	      VK_FORMAT_R32_SFLOAT, VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT,
	      VK_FORMAT_D16_UNORM_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT}) {
		CAPTURE(format);
		VkFormatProperties f;
		vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), format, &f);
		if (f.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT)
			CHECK((f.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_MINMAX_BIT));
	}
	// Not where there is no filtering: integer and stencil-only formats.
	for (VkFormat format : {VK_FORMAT_R8_UINT, VK_FORMAT_S8_UINT}) {
		VkFormatProperties f;
		vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), format, &f);
		CHECK_FALSE((f.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_MINMAX_BIT));
	}
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("MIN and MAX reductions match lavapipe exactly", "[e2e][reduction]") {
	auto ours = MinmaxContext(Driver::Tessera);
	REQUIRE(ours);
	auto reference = MinmaxContext(Driver::Lavapipe);
	REQUIRE(reference);
	const VkComponentMapping identity{};
	const VkComponentMapping swizzle{VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R,
	                                 VK_COMPONENT_SWIZZLE_G};
	struct Case {
		VkSamplerReductionMode mode;
		VkSamplerAddressMode address;
		VkSamplerMipmapMode mip;
		const VkComponentMapping* swizzle;
		float scale;
	};
	// MIRRORED_REPEAT and CLAMP_TO_BORDER with MIPMAP_MODE_LINEAR are left
	// out: at fractional LODs lavapipe blends the two levels' reductions
	// linearly there (seen: MIN at LOD 2.25 all-border on level 2 gives
	// 0.75 * 1.0 + 0.25 * texel), where §16 "Texel Mipmap Filtering" takes
	// the minimum; the next test checks that case against the spec.
	const Case cases[] = {
	    {VK_SAMPLER_REDUCTION_MODE_MIN, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_NEAREST,
	     &identity, 1.0f},
	    {VK_SAMPLER_REDUCTION_MODE_MAX, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR, &identity, 1.5f},
	    {VK_SAMPLER_REDUCTION_MODE_MIN, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR, &swizzle, 2.0f},
	    {VK_SAMPLER_REDUCTION_MODE_MIN, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_MIPMAP_MODE_NEAREST,
	     &identity, 1.5f},
	    {VK_SAMPLER_REDUCTION_MODE_MAX, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, VK_SAMPLER_MIPMAP_MODE_NEAREST,
	     &swizzle, 2.0f},
	    {VK_SAMPLER_REDUCTION_MODE_MAX, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_LINEAR, &swizzle,
	     1.0f},
	};
	for (const Case& c : cases) {
		CAPTURE(c.mode, c.address, c.mip, c.scale, c.swizzle == &swizzle);
		const std::vector<uint8_t> a = RunReduction(*ours, c.mode, c.address, c.mip, *c.swizzle, c.scale);
		const std::vector<uint8_t> b = RunReduction(*reference, c.mode, c.address, c.mip, *c.swizzle, c.scale);
		CompareFloats(a, b, 1e-6f);
		// Not the average: somewhere a reduction differs from it.
		const std::vector<uint8_t> avg =
		    RunReduction(*ours, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, c.address, c.mip, *c.swizzle, c.scale);
		CHECK(a != avg);
	}
	for (const std::string& m : ours->validation_messages()) UNSCOPED_INFO("Tessera: " << m);
	for (const std::string& m : reference->validation_messages()) UNSCOPED_INFO("lavapipe: " << m);
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
}

TEST_CASE("MIN with CLAMP_TO_BORDER and LINEAR mipmaps takes the minimum of both levels", "[e2e][reduction]") {
	auto ctx = MinmaxContext(Driver::Tessera);
	REQUIRE(ctx);
	const std::vector<float> got =
	    Values<float>(RunReduction(*ctx, VK_SAMPLER_REDUCTION_MODE_MIN, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
	                               VK_SAMPLER_MIPMAP_MODE_LINEAR, {}, 1.5f));
	// Lane 0, LOD 2.25, uv = (-0.237, -0.237): on level 2 (4x4) all four
	// texels are border (opaque white); on level 3 (2x2) texels -1 (border)
	// and 0 in each direction, texel (0, 0) with weight (7/256)^2 > 0. Both
	// levels weigh (0.75, 0.25): the result is texel (0, 0) of level 3.
	const ImageSpec tex = MippedTexture(23);
	const size_t level3 = LevelBytes(tex, 0) + LevelBytes(tex, 1) + LevelBytes(tex, 2);
	for (int c = 0; c < 4; ++c) {
		CAPTURE(c);
		CHECK(std::fabs(got[8 + c] - tex.data[level3 + c] / 255.0f) <= 1e-6f);
	}
	CHECK(ctx->validation_errors() == 0);
}
