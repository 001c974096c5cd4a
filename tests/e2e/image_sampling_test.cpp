// Sampling in compute shaders, through the loader: image_sample.comp and
// friends run on Tessera and on lavapipe with the same textures and
// samplers (filters, address modes, cubes, depth compare, gathers, formats,
// compressed textures). Tolerances: image_scene.h.
#include "image_scene.h"
#include "texture/compressed.h"

using namespace tessera::test;
using namespace tessera::test::image;

namespace {

void RunSampleScene(Drivers& drivers, const VkSamplerCreateInfo& sampler, float lod, float scale, float grad,
                    float tolerance, VkComponentMapping swizzle = {}) {
	Scene scene{"image_sample.spv"};
	ImageSpec tex = MippedTexture(7);
	tex.swizzle = swizzle;
	scene.images = {tex};
	scene.samplers = {sampler};
	scene.buffers = {std::vector<uint8_t>(256 * 12 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
	                  {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, {0}},
	                  {VK_DESCRIPTOR_TYPE_SAMPLER, {}, {0}}};
	float params[3] = {lod, scale, grad};
	scene.push.resize(sizeof(params));
	std::memcpy(scene.push.data(), params, sizeof(params));
	scene.groups[0] = 4;
	auto [ours, reference] = RunBoth(drivers, scene);
	CompareFloats(ours.buffers[0], reference.buffers[0], tolerance);
}

}  // namespace

TEST_CASE("NEAREST sampling with explicit LOD, gradients, offsets and gathers matches lavapipe exactly", "[image]") {
	// Exact up to the UNORM8 conversion: lavapipe computes k * (1 / 255.0f),
	// an ulp from k / 255 (Vulkan 1.3 §3.9.1 allows that much).
	const float kExact = 1e-6f;
	Drivers drivers;
	RunSampleScene(drivers, Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT), 0.0f, 1.0f, 1.0f, kExact);
	RunSampleScene(drivers, Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT), 1.3f, 3.0f, 4.5f,
	               kExact);
	RunSampleScene(
	    drivers, Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE), 2.0f, 2.5f, 9.0f, kExact,
	    {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ZERO});
	RunSampleScene(drivers, Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER), 0.7f, 2.0f, 2.0f,
	               kExact);
	RunSampleScene(drivers, Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE), 0.0f, 3.0f, 1.0f,
	               kExact);
}

TEST_CASE("texel offsets of -32 and 31 (minTexelOffset, maxTexelOffset) match lavapipe exactly", "[image]") {
	// wide_texel_offsets.spvasm: textureLodOffset, texelFetchOffset and
	// textureGatherOffset with (-32, 31) and (31, -32) on the 16x16 texture,
	// NEAREST and REPEAT (so the offsets wrap), then CLAMP_TO_BORDER.
	Drivers drivers;
	for (VkSamplerAddressMode mode : {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER}) {
		CAPTURE(mode);
		Scene scene{"wide_texel_offsets.spv"};
		scene.images = {MippedTexture(7)};
		scene.samplers = {Sampler(VK_FILTER_NEAREST, mode)};
		scene.buffers = {std::vector<uint8_t>(256 * 4 * 16, 0xcd)};
		scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
		                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}}};
		const float params[3] = {0.0f, 1.0f, 1.0f};
		scene.push.resize(sizeof(params));
		std::memcpy(scene.push.data(), params, sizeof(params));
		scene.groups[0] = 4;
		auto [ours, reference] = RunBoth(drivers, scene);
		CompareFloats(ours.buffers[0], reference.buffers[0], 1e-6f);
	}
}

TEST_CASE("LINEAR sampling with mipmaps and every address mode matches lavapipe within 4/256", "[image]") {
	// The filtering bound of the top of the file (4/256), doubled for
	// textureGrad: lavapipe approximates log2 of the scale factor (§16.5.6
	// lets lambda be approximated), off by ~0.02 of a level, which with
	// unrelated random texels in adjacent levels moves results by up to
	// 0.02 (5/256 seen).
	const float kTolerance = 8.0f / 256.0f;
	Drivers drivers;
	RunSampleScene(drivers, Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR),
	               1.4f, 1.5f, 3.0f, kTolerance);
	RunSampleScene(drivers,
	               Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR),
	               0.0f, 3.0f, 6.0f, kTolerance);
	RunSampleScene(drivers,
	               Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_NEAREST),
	               2.6f, 2.0f, 1.5f, kTolerance);
	RunSampleScene(drivers,
	               Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_MIPMAP_MODE_LINEAR),
	               0.5f, 2.0f, 2.0f, kTolerance);
	RunSampleScene(
	    drivers, Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_LINEAR),
	    3.2f, 3.0f, 12.0f, kTolerance);
	// The sampler's LOD bias and clamps (§16.5.7: they apply to explicit LOD too).
	VkSamplerCreateInfo biased =
	    Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR, 2.5f);
	biased.mipLodBias = 0.7f;
	biased.minLod = 0.5f;
	RunSampleScene(drivers, biased, 0.3f, 1.5f, 3.0f, kTolerance);
	RunSampleScene(drivers, biased, 2.9f, 1.5f, 40.0f, kTolerance);
}

namespace {

// image_cube_depth.comp's scene: a cube, a depth image, a 2D array, a 3D and
// a 1D texture and a cube array; sampler 0 (the cubes') is LINEAR, clamped,
// mipmapped; sampler 1 compares with `compare_op`.
Scene CubeDepthScene(VkCompareOp compare_op) {
	Scene scene{"image_cube_depth.spv"};
	ImageSpec cube;
	cube.extent = {8, 8, 1};
	cube.layers = 6;
	cube.mips = 4;
	cube.view_type = VK_IMAGE_VIEW_TYPE_CUBE;
	cube.cube_compatible = true;
	cube.data = RandomBytes(ImageBytes(cube), 11);
	ImageSpec depth;
	depth.format = VK_FORMAT_D32_SFLOAT;
	depth.aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
	depth.extent = {16, 16, 1};
	std::vector<float> depths(16 * 16);
	for (size_t i = 0; i < depths.size(); ++i) depths[i] = float((i * 37) % 101) / 100.0f;
	depth.data = Bytes(depths);
	ImageSpec layers;
	layers.format = VK_FORMAT_R16G16B16A16_SFLOAT;
	layers.texel_size = 8;
	layers.extent = {8, 8, 1};
	layers.layers = 4;
	layers.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	std::vector<uint16_t> halves(8 * 8 * 4 * 4);
	for (size_t i = 0; i < halves.size(); ++i) halves[i] = uint16_t(0x3000 + (i * 97) % 0x0c00);  // 0.125 .. 1
	layers.data = Bytes(halves);
	ImageSpec volume;
	volume.type = VK_IMAGE_TYPE_3D;
	volume.view_type = VK_IMAGE_VIEW_TYPE_3D;
	volume.extent = {8, 8, 8};
	volume.mips = 2;
	volume.data = RandomBytes(ImageBytes(volume), 12);
	ImageSpec line;
	line.type = VK_IMAGE_TYPE_1D;
	line.view_type = VK_IMAGE_VIEW_TYPE_1D;
	line.format = VK_FORMAT_R32_SFLOAT;
	line.extent = {16, 1, 1};
	std::vector<float> line_values(16);
	for (size_t i = 0; i < 16; ++i) line_values[i] = float(i * i) / 256.0f;
	line.data = Bytes(line_values);
	ImageSpec cubes = cube;
	cubes.view_type = VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
	scene.images = {cube, depth, layers, volume, line, cubes};
	VkSamplerCreateInfo compare = Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
	compare.compareEnable = VK_TRUE;
	compare.compareOp = compare_op;
	scene.samplers = {Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_LINEAR),
	                  compare,
	                  Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR)};
	scene.buffers = {std::vector<uint8_t>(256 * 9 * 16, 0xcd)};
	scene.bindings = {
	    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
	    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {1}, {1}}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {2}, {2}},
	    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {3}, {2}}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {4}, {2}},
	    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {5}, {0}}};
	float lod = 1.3f;
	scene.push.resize(4);
	std::memcpy(scene.push.data(), &lod, 4);
	scene.groups[0] = 4;
	return scene;
}

}  // namespace

TEST_CASE("cube maps, depth comparison, arrays, 1D and 3D textures match lavapipe", "[image]") {
	const VkCompareOp op = GENERATE(VK_COMPARE_OP_LESS, VK_COMPARE_OP_GREATER_OR_EQUAL, VK_COMPARE_OP_EQUAL);
	INFO("compare op " << op);
	auto [ours, reference] = RunBoth(CubeDepthScene(op));
	// LINEAR everywhere: the filtering tolerance (top of the file). Depth
	// comparisons filter 0/1 results with the same weights.
	CompareFloats(ours.buffers[0], reference.buffers[0], 4.0f / 256.0f);
}

TEST_CASE("VK_EXT_non_seamless_cube_map: cube faces filtered on their own match lavapipe", "[image]") {
	// With VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT a cube face is a
	// 2D image: LINEAR filtering wraps with the sampler's address modes
	// ("Wrapping Operation") instead of reading the neighbouring faces.
	// Lavapipe 22.3 clamps the faces whatever the mode, so the comparison
	// uses CLAMP_TO_EDGE, where both read the rule alike; REPEAT must then
	// give other values at the face edges.
	Scene scene = CubeDepthScene(VK_COMPARE_OP_LESS);
	scene.samplers[0] = Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_MIPMAP_MODE_LINEAR);
	scene.samplers[0].flags = VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT;
	auto [ours, reference] = RunBoth(scene);
	CompareFloats(ours.buffers[0], reference.buffers[0], 4.0f / 256.0f);
	auto [seamless, unused] = RunBoth(CubeDepthScene(VK_COMPARE_OP_LESS));
	CHECK(ours.buffers[0] != seamless.buffers[0]);
	scene.samplers[0].addressModeU = scene.samplers[0].addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT;
	auto [repeat, unused2] = RunBoth(scene);
	CHECK(repeat.buffers[0] != ours.buffers[0]);
}

namespace {

// image_compressed.comp over a 16x16 image of `format` (2 levels, random
// blocks) with a LINEAR sampler.
Scene CompressedScene(VkFormat format, uint32_t block_bytes, uint32_t seed) {
	Scene scene{"image_compressed.spv"};
	ImageSpec tex;
	tex.format = format;
	tex.extent = {16, 16, 1};
	tex.mips = 2;
	tex.block_bytes = block_bytes;
	tex.data = RandomBytes(size_t(16 + 4) * block_bytes, seed);
	scene.images = {tex};
	scene.samplers = {Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR)};
	scene.buffers = {std::vector<uint8_t>(256 * 2 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}}};
	scene.groups[0] = 4;
	return scene;
}

}  // namespace

TEST_CASE("BC-compressed textures sample like lavapipe", "[image]") {
	// BC1 and BC7 blocks: random bytes are valid blocks (BC7's reserved mode
	// 8 reads as zero on both). Fetches are exact up to lavapipe's 8-bit
	// decode (its BC1 palette is rounded to 8 bits, the Data Format
	// Specification's is real-valued: within 1/255); LINEAR adds the filter
	// bound of the top of the file.
	Drivers drivers;
	for (VkFormat format : {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_BC3_UNORM_BLOCK, VK_FORMAT_BC7_UNORM_BLOCK}) {
		INFO("format " << format);
		uint32_t block = format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK ? 8 : 16;
		Scene scene = CompressedScene(format, block, 50 + uint32_t(format));
		auto [ours, reference] = RunBoth(drivers, scene);
		CompareFloats(ours.buffers[0], reference.buffers[0], 1.0f / 255.0f + 4.0f / 256.0f);
	}
}

TEST_CASE("textureCompression features: every format of the families samples, filters and blits", "[image]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkPhysicalDeviceFeatures features;
	vkGetPhysicalDeviceFeatures(ctx->physical_device(), &features);
	REQUIRE(features.textureCompressionBC);
	REQUIRE(features.textureCompressionETC2);
	REQUIRE(features.textureCompressionASTC_LDR);
	// Vulkan 1.3 §34.3 "Required Format Support": the textureCompression*
	// features need these on every format of the family, optimal tiling.
	constexpr VkFormatFeatureFlags kNeed = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |
	                                       VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
	                                       VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
	for (uint32_t f = VK_FORMAT_BC1_RGB_UNORM_BLOCK; f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK; ++f) {
		INFO("format " << f);
		VkFormatProperties p;
		vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), VkFormat(f), &p);
		CHECK((p.optimalTilingFeatures & kNeed) == kNeed);
	}
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("ETC2 EAC and ASTC textures sample as their decoded blocks", "[image]") {
	// lavapipe 22.3 has neither ETC2 nor ASTC: texelFetch must give
	// DecodeBlock's texels (tests/unit/texture/decode_etc_test.cpp and
	// decode_astc tests check those against the specification). Random ASTC
	// blocks are mostly illegal and decode to the error color, which is as
	// good a check of the plumbing.
	struct Case {
		VkFormat format;
		uint32_t block_bytes;
	};
	for (Case c : {Case{VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, 16}, Case{VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK, 8},
	               Case{VK_FORMAT_EAC_R11G11_SNORM_BLOCK, 16}, Case{VK_FORMAT_ASTC_4x4_UNORM_BLOCK, 16},
	               Case{VK_FORMAT_ASTC_4x4_SRGB_BLOCK, 16}}) {
		const tessera::texture::FormatInfo& info = *tessera::texture::FindFormat(c.format);
		INFO("format " << info.name);
		Scene scene = CompressedScene(c.format, c.block_bytes, 60 + uint32_t(c.format));
		Outcome ours = RunOn(Driver::Tessera, scene);
		std::vector<float> got = Values<float>(ours.buffers[0]);
		const std::vector<uint8_t>& blocks = scene.images[0].data;
		for (uint32_t by = 0; by < 4; ++by)
			for (uint32_t bx = 0; bx < 4; ++bx) {
				tessera::texture::TexelValue texels[16];
				REQUIRE(tessera::texture::DecodeBlock(info, blocks.data() + (by * 4 + bx) * c.block_bytes, texels));
				for (uint32_t t = 0; t < 16; ++t) {
					uint32_t x = bx * 4 + t % 4, y = by * 4 + t / 4, lane = y * 16 + x;
					for (uint32_t k = 0; k < 4; ++k) {
						INFO("texel " << x << ", " << y << " component " << k);
						REQUIRE(got[lane * 8 + k] == texels[t].f[k]);
					}
				}
			}
	}
}

TEST_CASE("texelFetch and sampling over formats match lavapipe", "[image]") {
	using tessera::texture::FindFormat;
	using tessera::texture::FormatInfo;
	struct Case {
		VkFormat format;
		VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
	};
	const Case cases[] = {
	    {VK_FORMAT_R8_UNORM},
	    {VK_FORMAT_R8_SNORM},
	    {VK_FORMAT_R8G8_UNORM},
	    {VK_FORMAT_R8G8B8A8_SRGB},
	    {VK_FORMAT_B8G8R8A8_UNORM},
	    {VK_FORMAT_B8G8R8A8_SRGB},
	    {VK_FORMAT_A2B10G10R10_UNORM_PACK32},
	    {VK_FORMAT_R5G6B5_UNORM_PACK16},
	    {VK_FORMAT_A1R5G5B5_UNORM_PACK16},
	    {VK_FORMAT_R16_UNORM},
	    {VK_FORMAT_R16G16_SNORM},
	    {VK_FORMAT_R16_SFLOAT},
	    {VK_FORMAT_R16G16B16A16_SFLOAT},
	    {VK_FORMAT_R32_SFLOAT},
	    {VK_FORMAT_R32G32_SFLOAT},
	    {VK_FORMAT_B10G11R11_UFLOAT_PACK32},
	    {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32},
	    {VK_FORMAT_R8_SINT},
	    {VK_FORMAT_R16G16_SINT},
	    {VK_FORMAT_R32G32B32A32_SINT},
	    {VK_FORMAT_R8G8_UINT},
	    {VK_FORMAT_R16_UINT},
	    {VK_FORMAT_A2B10G10R10_UINT_PACK32},
	    {VK_FORMAT_R32_UINT},
	    {VK_FORMAT_D16_UNORM, VK_IMAGE_ASPECT_DEPTH_BIT},
	    {VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT},
	    {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_ASPECT_DEPTH_BIT},
	    {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_ASPECT_STENCIL_BIT},  // a stencil view reads uint
	};
	Drivers drivers;
	for (const Case& c : cases) {
		const FormatInfo& info = *FindFormat(c.format);
		INFO("format " << info.name);
		const bool stencil = c.aspect == VK_IMAGE_ASPECT_STENCIL_BIT;
		const bool integer = info.IsInteger() || stencil;
		const bool sint = integer && !stencil && info.IsSigned();
		Scene scene{integer ? (sint ? "image_fetch_int.spv" : "image_fetch_uint.spv") : "image_fetch_float.spv"};
		ImageSpec tex;
		tex.format = c.format;
		tex.aspect = c.aspect;
		tex.extent = {8, 8, 1};
		// Depth/stencil aspects upload as D32 floats or S8 bytes (§20.4).
		tex.texel_size = stencil ? 1 : c.format == VK_FORMAT_D32_SFLOAT_S8_UINT ? 4 : info.block_size;
		tex.data = RandomBytes(64 * tex.texel_size, 70 + uint32_t(c.format));
		if (info.Numeric() == tessera::texture::NumericFormat::SFLOAT && !stencil) {
			// Finite values in [-2, 2] (D32: [0, 1]); halves from 2^-14 up.
			std::mt19937 rng(uint32_t(c.format));
			std::uniform_real_distribution<float> dist(c.aspect == VK_IMAGE_ASPECT_DEPTH_BIT ? 0.0f : -2.0f,
			                                           c.aspect == VK_IMAGE_ASPECT_DEPTH_BIT ? 1.0f : 2.0f);
			if (info.components[0].bits == 32 || info.IsDepthOrStencil()) {
				std::vector<float> values(tex.data.size() / 4);
				for (float& v : values) v = dist(rng);
				tex.data = Bytes(values);
			} else {
				std::vector<uint16_t> halves(tex.data.size() / 2);
				for (uint16_t& h : halves) h = uint16_t((rng() & 0x83ff) | ((1 + rng() % 16) << 10));
				tex.data = Bytes(halves);
			}
		}
		if (info.Numeric() == tessera::texture::NumericFormat::UFLOAT)
			for (size_t i = 3; i < tex.data.size(); i += 4) tex.data[i] &= 0x7b;  // below the Inf/NaN exponents
		for (uint8_t& b : tex.data)
			if (info.Numeric() == tessera::texture::NumericFormat::SNORM && b == 0x80) b = 0x81;
		scene.images = {tex};
		// Depth: NEAREST (lavapipe has no FILTER_LINEAR on depth formats).
		VkFilter filter = integer || info.IsDepthOrStencil() ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
		scene.samplers = {Sampler(filter, VK_SAMPLER_ADDRESS_MODE_REPEAT)};
		scene.buffers = {std::vector<uint8_t>(64 * 3 * 16, 0xcd)};
		scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
		                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}}};
		auto [ours, reference] = RunBoth(drivers, scene);
		if (integer) {
			CHECK(ours.buffers[0] == reference.buffers[0]);
			continue;
		}
		// Fetches: exact up to one ulp of the UNORM/SNORM conversion (lavapipe
		// multiplies by 1 / (2^n - 1)); sRGB within 2e-3 (lavapipe
		// approximates the transfer function, 1.2e-3 off seen; Vulkan 1.3 §3.9.1 asks
		// that sRGB conversions be close to exact). LINEAR: the filter bound
		// (top of the file), relative to the values' magnitude.
		const float fetch_bound = info.IsSrgb() ? 2e-3f : 1e-6f;
		std::vector<float> a = Values<float>(ours.buffers[0]), b = Values<float>(reference.buffers[0]);
		for (size_t i = 0; i < a.size(); ++i) {
			bool fetch = (i / 4) % 3 == 0;
			float bound = (fetch ? fetch_bound : 4.0f / 256.0f) * std::max(1.0f, std::fabs(b[i]));
			bool same = (std::isnan(a[i]) && std::isnan(b[i])) || std::fabs(a[i] - b[i]) <= bound;
			if (!same) {
				INFO("float " << i << " (texel " << i / 12 << ", item " << (i / 4) % 3 << ", component " << i % 4
				              << "): tessera " << a[i] << ", lavapipe " << b[i]);
				REQUIRE(same);
			}
		}
	}
}

TEST_CASE("unnormalized-coordinate samplers match lavapipe", "[image]") {
	Drivers drivers;
	for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
		for (VkSamplerAddressMode mode :
		     {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER}) {
			INFO("filter " << filter << " mode " << mode);
			Scene scene{"image_unnormalized.spv"};
			ImageSpec tex;
			tex.extent = {8, 8, 1};
			tex.data = RandomBytes(8 * 8 * 4, 80);
			scene.images = {tex};
			// §13: unnormalized coordinates need min = mag filter, NEAREST
			// mipmaps, lod 0 and clamp-to-edge or clamp-to-border.
			VkSamplerCreateInfo sampler = Sampler(filter, mode, VK_SAMPLER_MIPMAP_MODE_NEAREST, 0.0f);
			sampler.unnormalizedCoordinates = VK_TRUE;
			sampler.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
			scene.samplers = {sampler};
			scene.buffers = {std::vector<uint8_t>(256 * 16, 0xcd)};
			scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
			                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}}};
			scene.groups[0] = 4;
			auto [ours, reference] = RunBoth(drivers, scene);
			CompareFloats(ours.buffers[0], reference.buffers[0], filter == VK_FILTER_LINEAR ? 4.0f / 256.0f : 1e-6f);
		}
}

TEST_CASE("Vulkan 1.3 required shader format features are reported", "[image][format]") {
	// Vulkan 1.3 §34.3 "Required Format Support" (the shader columns).
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	constexpr VkFormatFeatureFlags kFilter =
	    VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
	constexpr VkFormatFeatureFlags kSampled = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
	constexpr VkFormatFeatureFlags kStorage = VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
	constexpr VkFormatFeatureFlags kTexel =
	    VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
	struct Need {
		VkFormat format;
		VkFormatFeatureFlags optimal, buffer;
	};
	const Need needs[] = {
	    {VK_FORMAT_R5G6B5_UNORM_PACK16, kFilter, 0},
	    {VK_FORMAT_A1R5G5B5_UNORM_PACK16, kFilter, 0},
	    {VK_FORMAT_R8_UNORM, kFilter, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R8_SNORM, kFilter, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R8_UINT, kSampled, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R8_SINT, kSampled, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R8G8_UNORM, kFilter, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R8G8_SNORM, kFilter, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R8G8_UINT, kSampled, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R8G8_SINT, kSampled, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R8G8B8A8_UNORM, kFilter | kStorage, kTexel},
	    {VK_FORMAT_R8G8B8A8_SNORM, kFilter | kStorage, kTexel},
	    {VK_FORMAT_R8G8B8A8_UINT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_R8G8B8A8_SINT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_R8G8B8A8_SRGB, kFilter, 0},
	    {VK_FORMAT_B8G8R8A8_UNORM, kFilter, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_B8G8R8A8_SRGB, kFilter, 0},
	    {VK_FORMAT_A8B8G8R8_UNORM_PACK32, kFilter | kStorage, kTexel},
	    {VK_FORMAT_A8B8G8R8_SNORM_PACK32, kFilter | kStorage, kTexel},
	    {VK_FORMAT_A8B8G8R8_UINT_PACK32, kSampled | kStorage, kTexel},
	    {VK_FORMAT_A8B8G8R8_SINT_PACK32, kSampled | kStorage, kTexel},
	    {VK_FORMAT_A8B8G8R8_SRGB_PACK32, kFilter, 0},
	    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, kFilter, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_A2B10G10R10_UINT_PACK32, kSampled, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R16_UINT, kSampled, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R16_SINT, kSampled, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R16_SFLOAT, kFilter, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R16G16_UINT, kSampled, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R16G16_SINT, kSampled, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R16G16_SFLOAT, kFilter, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_R16G16B16A16_UINT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_R16G16B16A16_SINT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_R16G16B16A16_SFLOAT, kFilter | kStorage, kTexel},
	    {VK_FORMAT_R32_UINT, kSampled | kStorage | VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT,
	     kTexel | VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT},
	    {VK_FORMAT_R32_SINT, kSampled | kStorage | VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT,
	     kTexel | VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT},
	    {VK_FORMAT_R32_SFLOAT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_R32G32_UINT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_R32G32_SINT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_R32G32_SFLOAT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_R32G32B32A32_UINT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_R32G32B32A32_SINT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_R32G32B32A32_SFLOAT, kSampled | kStorage, kTexel},
	    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, kFilter, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT},
	    {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, kFilter, 0},
	    {VK_FORMAT_D16_UNORM, kSampled, 0},
	    {VK_FORMAT_D32_SFLOAT, kSampled, 0},
	};
	for (const Need& need : needs) {
		INFO("format " << need.format);
		VkFormatProperties p;
		vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), need.format, &p);
		CHECK((p.optimalTilingFeatures & need.optimal) == need.optimal);
		CHECK((p.bufferFeatures & need.buffer) == need.buffer);
	}
	// Depth comparison (VkFormatProperties3) on the depth formats.
	for (VkFormat format : {VK_FORMAT_D16_UNORM, VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT}) {
		VkFormatProperties3 p3{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
		VkFormatProperties2 p2{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &p3};
		vkGetPhysicalDeviceFormatProperties2(ctx->physical_device(), format, &p2);
		CHECK((p3.optimalTilingFeatures & VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT));
	}
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("the MinLod operand clamps the LOD from below", "[image]") {
	// lavapipe 22.3 lacks shaderResourceMinLod: Tessera's MinLod lookups are
	// checked against the lookups they must equal (§16.5.7: lambda' is
	// clamped to [max(minLod, MinLod), maxLod]).
	Scene scene{"image_min_lod.spv"};
	scene.images = {MippedTexture(95)};
	scene.samplers = {Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR)};
	scene.buffers = {std::vector<uint8_t>(64 * 4 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}}};
	Outcome ours = RunOn(Driver::Tessera, scene);
	std::vector<float> v = Values<float>(ours.buffers[0]);
	for (uint32_t i = 0; i < 64; ++i)
		for (uint32_t c = 0; c < 4; ++c) {
			INFO("lane " << i << " component " << c);
			CHECK(v[(4 * i + 0) * 4 + c] == v[(4 * i + 1) * 4 + c]);
			CHECK(v[(4 * i + 2) * 4 + c] == v[(4 * i + 3) * 4 + c]);
		}
}

TEST_CASE("VK_EXT_image_view_min_lod: a view's minLod raises level selection, fetches and gathers", "[image]") {
	// Neither lavapipe (22.3, 25.0) has the extension: Tessera's lookups
	// through a view with minLod m are checked against the lookups they must
	// equal through a view without one (image_view_min_lod.comp): explicit
	// LODs and gradient LODs raised to m, fetches of levels from floor(m)
	// on unchanged and below it outside the view (robustImageAccess: zero,
	// alpha 0 or 1), gathers unchanged while floor(m) is 0 and zero above.
	for (float m : {0.5f, 1.5f, 2.0f, 3.25f}) {
		CAPTURE(m);
		Scene scene{"image_view_min_lod.spv"};
		ImageSpec clamped = MippedTexture(41);
		clamped.view_min_lod = m;
		scene.images = {clamped, MippedTexture(41)};
		scene.samplers = {Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR)};
		scene.buffers = {std::vector<uint8_t>(64 * 8 * 16, 0xcd)};
		scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
		                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
		                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {1}, {0}}};
		scene.push.resize(4);
		std::memcpy(scene.push.data(), &m, 4);
		Outcome ours = RunOn(Driver::Tessera, scene);
		std::vector<float> v = Values<float>(ours.buffers[0]);
		uint32_t raised = 0;  // lanes whose LOD m changed
		for (uint32_t i = 0; i < 64; ++i) {
			INFO("lane " << i);
			const float* r = &v[size_t(i) * 32];
			auto vec = [&](uint32_t n) { return std::vector<float>(r + 4 * n, r + 4 * n + 4); };
			CHECK(vec(0) == vec(1));
			CHECK(vec(2) == vec(3));
			raised += float(i % 9) * 0.5f - 1.0f < m;
			if (i % 4 >= uint32_t(m)) {
				CHECK(vec(4) == vec(5));
			} else {
				CHECK(r[16] == 0.0f);
				CHECK(r[17] == 0.0f);
				CHECK(r[18] == 0.0f);
				CHECK((r[19] == 0.0f || r[19] == 1.0f));
			}
			if (m < 1.0f)
				CHECK(vec(6) == vec(7));
			else
				CHECK(vec(6) == std::vector<float>(4, 0.0f));
		}
		CHECK(raised > 0);
	}
}
