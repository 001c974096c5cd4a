// VK_EXT_custom_border_color through the loader: float, unsigned and signed
// integer textures sampled with CLAMP_TO_BORDER samplers whose border is a
// custom color (with VkSamplerCustomBorderColorCreateInfoEXT::format given
// and, customBorderColorWithoutFormat, UNDEFINED), NEAREST and LINEAR,
// compared with lavapipe (Mesa 22.3 supports the extension and both
// features).
//
// Tolerance. Integer results must match exactly (the border is B = U,
// §16 "Border Replacement"). Float NEAREST results: the spec lets an
// implementation round U to the format first, within one ULP of it
// (1/255 for UNORM8). LINEAR adds the filtering bound of image_scene.h
// (4/256).
#include "image_scene.h"
#include "skip.h"

using namespace tessera::test;
using namespace tessera::test::image;

namespace {

// swizzle: also VK_EXT_border_color_swizzle, both features on.
std::unique_ptr<Context> BorderContext(Driver driver, bool swizzle = false) {
	static VkPhysicalDeviceCustomBorderColorFeaturesEXT features;
	static VkPhysicalDeviceBorderColorSwizzleFeaturesEXT swizzle_features;
	ContextOptions options = Options(driver);
	features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
	features.customBorderColors = VK_TRUE;
	features.customBorderColorWithoutFormat = VK_TRUE;
	features.pNext = const_cast<void*>(options.device_features);
	options.device_features = &features;
	options.device_extensions.push_back("VK_EXT_custom_border_color");
	if (swizzle) {
		swizzle_features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT};
		swizzle_features.borderColorSwizzle = VK_TRUE;
		swizzle_features.borderColorSwizzleFromImage = VK_TRUE;
		swizzle_features.pNext = &features;
		options.device_features = &swizzle_features;
		options.device_extensions.push_back("VK_EXT_border_color_swizzle");
	}
	return Context::Create(driver, options);
}

struct Borders {
	VkFilter float_filter;
	VkFormat float_format;  // of the float texture
	uint32_t float_texel_size;
	bool with_format;  // VkSamplerCustomBorderColorCreateInfoEXT::format given, or UNDEFINED
	VkClearColorValue f, u, i;
	// VK_EXT_border_color_swizzle: every view's component mapping (identity
	// when unset), given to the samplers too when `mapping_given`.
	VkComponentMapping swizzle{};
	bool mapping_given = false;
};

// The three textures (8x8 of random texels) and samplers of border_sample.comp.
Scene BorderScene(const Borders& b, VkSamplerCustomBorderColorCreateInfoEXT (&custom)[3],
                  VkSamplerBorderColorComponentMappingCreateInfoEXT (&mapping)[3]) {
	Scene scene{"border_sample.spv"};
	const VkFormat formats[3] = {b.float_format, VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R32_SINT};
	const uint32_t sizes[3] = {b.float_texel_size, 8, 4};
	const VkClearColorValue colors[3] = {b.f, b.u, b.i};
	for (int k = 0; k < 3; ++k) {
		ImageSpec tex;
		tex.format = formats[k];
		tex.texel_size = sizes[k];
		tex.extent = {8, 8, 1};
		tex.data = RandomBytes(ImageBytes(tex), 11 + k);
		tex.swizzle = b.swizzle;
		scene.images.push_back(tex);
		custom[k] = {VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT};
		custom[k].customBorderColor = colors[k];
		custom[k].format = b.with_format ? formats[k] : VK_FORMAT_UNDEFINED;
		VkSamplerCreateInfo sampler =
		    Sampler(k == 0 ? b.float_filter : VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
		sampler.maxLod = 0.0f;
		sampler.borderColor = k == 0 ? VK_BORDER_COLOR_FLOAT_CUSTOM_EXT : VK_BORDER_COLOR_INT_CUSTOM_EXT;
		sampler.pNext = &custom[k];
		if (b.mapping_given) {
			mapping[k] = {VK_STRUCTURE_TYPE_SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT};
			mapping[k].components = b.swizzle;
			mapping[k].srgb = VK_FALSE;
			custom[k].pNext = &mapping[k];
		}
		scene.samplers.push_back(sampler);
	}
	scene.buffers = {std::vector<uint8_t>(256 * 3 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {1}, {1}},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {2}, {2}}};
	const float scale = 2.0f;
	scene.push.resize(sizeof(scale));
	std::memcpy(scene.push.data(), &scale, sizeof(scale));
	scene.groups[0] = 4;
	return scene;
}

// Runs the scene on both drivers; compares; returns Tessera's results.
std::vector<uint32_t> RunBorders(Context& ours, Context& reference, const Borders& b) {
	VkSamplerCustomBorderColorCreateInfoEXT custom[3];
	VkSamplerBorderColorComponentMappingCreateInfoEXT mapping[3];
	const Scene scene = BorderScene(b, custom, mapping);
	const std::vector<uint32_t> a = Values<uint32_t>(Run(ours, scene).buffers[0]);
	const std::vector<uint32_t> r = Values<uint32_t>(Run(reference, scene).buffers[0]);
	REQUIRE(a.size() == r.size());
	const float tolerance = b.float_filter == VK_FILTER_LINEAR ? 4.0f / 256 + 1.0f / 255 : 1.0f / 255 + 1e-6f;
	for (size_t k = 0; k < a.size(); ++k) {
		const size_t lane = k / 12, result = k / 4 % 3, component = k % 4;
		INFO("lane " << lane << " result " << result << " component " << component);
		if (result == 0) {
			float fa, fr;
			std::memcpy(&fa, &a[k], 4);
			std::memcpy(&fr, &r[k], 4);
			INFO("tessera " << fa << ", lavapipe " << fr);
			REQUIRE(std::fabs(fa - fr) <= tolerance);
		} else {
			INFO("tessera " << a[k] << ", lavapipe " << r[k]);
			REQUIRE(a[k] == r[k]);
		}
	}
	return a;
}

VkClearColorValue Float4(float r, float g, float b, float a) {
	VkClearColorValue v;
	v.float32[0] = r, v.float32[1] = g, v.float32[2] = b, v.float32[3] = a;
	return v;
}
VkClearColorValue Int4(int32_t r, int32_t g, int32_t b, int32_t a) {
	VkClearColorValue v;
	v.int32[0] = r, v.int32[1] = g, v.int32[2] = b, v.int32[3] = a;
	return v;
}

}  // namespace

TEST_CASE("Custom border colors are reported", "[e2e][border]") {
	auto ctx = BorderContext(Driver::Tessera);
	REQUIRE(ctx);
	VkPhysicalDeviceCustomBorderColorFeaturesEXT features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &f);
	CHECK(features.customBorderColors == VK_TRUE);
	CHECK(features.customBorderColorWithoutFormat == VK_TRUE);
	VkPhysicalDeviceCustomBorderColorPropertiesEXT properties{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &p);
	CHECK(properties.maxCustomBorderColorSamplers >= 32);  // the spec's minimum
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("Custom float and integer border colors match lavapipe, NEAREST and LINEAR, with and without format",
          "[e2e][border]") {
	auto ours = BorderContext(Driver::Tessera);
	REQUIRE(ours);
	auto reference = BorderContext(Driver::Lavapipe);
	REQUIRE(reference);
	const Borders cases[] = {
	    {VK_FILTER_NEAREST, VK_FORMAT_R8G8B8A8_UNORM, 4, true, Float4(0.2f, 0.4f, 0.6f, 0.8f), Int4(3, 65535, 1234, 9),
	     Int4(-7, 5, 6, 8)},
	    {VK_FILTER_LINEAR, VK_FORMAT_R8G8B8A8_UNORM, 4, true, Float4(1.0f, 0.0f, 0.5f, 0.25f), Int4(0, 1, 2, 3),
	     Int4(2147483647, 0, 0, 0)},
	    // Without a format: the color is fitted to the view (R8G8: B_b, B_a
	    // give way to 0, 1; R32_SINT: R only).
	    {VK_FILTER_NEAREST, VK_FORMAT_R8G8_UNORM, 2, false, Float4(0.3f, 0.7f, 0.9f, 0.1f), Int4(40000, 2, 3, 4),
	     Int4(-100, 5, 6, 8)},
	    {VK_FILTER_LINEAR, VK_FORMAT_R8G8_UNORM, 2, false, Float4(0.0f, 1.0f, 0.5f, 0.5f), Int4(1, 0, 1, 0),
	     Int4(-2147483647 - 1, 1, 1, 1)},
	};
	for (const Borders& b : cases) {
		CAPTURE(b.float_filter, b.float_format, b.with_format);
		const std::vector<uint32_t> got = RunBorders(*ours, *reference, b);
		// Lane 0 samples at uv = (-0.487, -0.487): the border, as the spec
		// writes it (not only as lavapipe does).
		const bool two = b.float_format == VK_FORMAT_R8G8_UNORM;
		float f[4];
		std::memcpy(f, got.data(), 16);
		if (b.float_filter == VK_FILTER_NEAREST) {
			CHECK(f[0] == b.f.float32[0]);
			CHECK(f[1] == b.f.float32[1]);
			CHECK(f[2] == (two ? 0.0f : b.f.float32[2]));
			CHECK(f[3] == (two ? 1.0f : b.f.float32[3]));
		}
		for (int c = 0; c < 4; ++c) CHECK(got[4 + c] == b.u.uint32[c]);
		CHECK(int32_t(got[8]) == b.i.int32[0]);
		CHECK(got[9] == 0u);
		CHECK(got[10] == 0u);
		CHECK(got[11] == 1u);
	}
	for (const std::string& m : ours->validation_messages()) UNSCOPED_INFO("Tessera: " << m);
	for (const std::string& m : reference->validation_messages()) UNSCOPED_INFO("lavapipe: " << m);
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
}

TEST_CASE("Border colors go through the view's swizzle (VK_EXT_border_color_swizzle) as on lavapipe", "[e2e][border]") {
	auto ours = BorderContext(Driver::Tessera, true);
	REQUIRE(ours);
	VkPhysicalDeviceBorderColorSwizzleFeaturesEXT features{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
	vkGetPhysicalDeviceFeatures2(ours->physical_device(), &f);
	CHECK(features.borderColorSwizzle == VK_TRUE);
	CHECK(features.borderColorSwizzleFromImage == VK_TRUE);
	auto reference = BorderContext(Driver::Lavapipe, true);
	if (!reference) {
		NoteSkipped("lavapipe does not offer VK_EXT_border_color_swizzle");
		return;
	}
	using S = VkComponentSwizzle;
	const VkComponentMapping bgr1{S::VK_COMPONENT_SWIZZLE_B, S::VK_COMPONENT_SWIZZLE_G, S::VK_COMPONENT_SWIZZLE_R,
	                              S::VK_COMPONENT_SWIZZLE_ONE};
	const VkComponentMapping a0rg{S::VK_COMPONENT_SWIZZLE_A, S::VK_COMPONENT_SWIZZLE_ZERO, S::VK_COMPONENT_SWIZZLE_R,
	                              S::VK_COMPONENT_SWIZZLE_G};
	for (const bool given : {true, false}) {
		for (const VkComponentMapping& m : {bgr1, a0rg}) {
			Borders b{VK_FILTER_NEAREST,       VK_FORMAT_R8G8B8A8_UNORM, 4, true, Float4(0.2f, 0.4f, 0.6f, 0.8f),
			          Int4(3, 65535, 1234, 9), Int4(-7, 5, 6, 8)};
			b.swizzle = m;
			b.mapping_given = given;
			CAPTURE(given, m.r, m.g, m.b, m.a);
			const std::vector<uint32_t> got = RunBorders(*ours, *reference, b);
			// Lane 0 is the border: B swizzled like any texel (§16.1
			// "Texel Replacement" comes before the component swizzle).
			auto pick = [](VkComponentSwizzle s, const uint32_t* v, int c, uint32_t one) -> uint32_t {
				switch (s) {
				case S::VK_COMPONENT_SWIZZLE_ZERO: return 0;
				case S::VK_COMPONENT_SWIZZLE_ONE: return one;
				case S::VK_COMPONENT_SWIZZLE_R: return v[0];
				case S::VK_COMPONENT_SWIZZLE_G: return v[1];
				case S::VK_COMPONENT_SWIZZLE_B: return v[2];
				case S::VK_COMPONENT_SWIZZLE_A: return v[3];
				default: return v[c];
				}
			};
			const S order[4] = {m.r, m.g, m.b, m.a};
			for (int c = 0; c < 4; ++c) {
				CHECK(got[c] == pick(order[c], b.f.uint32, c, 0x3f800000u));
				CHECK(got[4 + c] == pick(order[c], b.u.uint32, c, 1u));
			}
		}
	}
	for (const std::string& m : ours->validation_messages()) UNSCOPED_INFO("Tessera: " << m);
	CHECK(ours->validation_errors() == 0);
	CHECK(reference->validation_errors() == 0);
}
