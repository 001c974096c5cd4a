// Sampler Y'CbCr conversion end to end: NV12, I420, 2-plane 422, 3-plane 444
// and 16-bit 2-plane 420 images uploaded plane by plane with
// vkCmdCopyBufferToImage, sampled in a compute shader through an immutable
// sampler with a conversion (Vulkan 1.3 §13.1, §16 "Sampler Y′CbCr
// Conversion").
//
// Reference. lavapipe (Mesa 22.3) reports samplerYcbcrConversion = false, so
// the results are compared with a host reference computed here from the
// spec's equations in double precision: explicit chroma reconstruction
// (Tessera reports CHROMA_RECONSTRUCTION_EXPLICIT), range expansion, the
// KDFS matrices, then the sampler's NEAREST or LINEAR filter at luma
// resolution. Tolerance: the sample points sit at texel centers moved by
// (0.25, 0.25) texels on power-of-two grids, so coordinates and bilinear
// weights are exact in float and within subTexelPrecisionBits (8); what is
// left is float rounding of the conversion (seen: at most 4e-7), bounded by
// 1e-5.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "single_set.h"
#include "vk_context.h"

namespace tessera::test {
namespace {

constexpr uint32_t kWidth = 8, kHeight = 8;

struct Config {
	VkFormat format;
	VkSamplerYcbcrModelConversion model;
	VkSamplerYcbcrRange range;
	VkChromaLocation location;
	VkFilter chroma_filter;
	VkFilter filter;  // the sampler's min/mag filter
	float offset;     // from texel centers, in texels
	VkComponentMapping components{};
};

// Luma and chroma codes of the test image: Y' a ramp with a step, Cb and Cr
// patterns that vary along both axes (chroma is 4x4).
uint8_t Luma(uint32_t x, uint32_t y) { return uint8_t(16 + 25 * x + 3 * y + (x > 4 ? 20 : 0)); }
uint8_t Cb(uint32_t x, uint32_t y) { return uint8_t(40 + 50 * x + 7 * y); }
uint8_t Cr(uint32_t x, uint32_t y) { return uint8_t(230 - 30 * y - 11 * x); }

// §16 explicit chroma reconstruction of a 2x-subsampled axis at luma i.
// The layout of a format of the test: bits per component, chroma divisors,
// plane count.
struct Shape {
	uint32_t bits, div_x, div_y, planes;
};
Shape ShapeOf(VkFormat format) {
	switch (format) {
	case VK_FORMAT_G8_B8R8_2PLANE_420_UNORM: return {8, 2, 2, 2};
	case VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM: return {8, 2, 2, 3};
	case VK_FORMAT_G8_B8R8_2PLANE_422_UNORM: return {8, 2, 1, 2};
	case VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM: return {8, 1, 1, 3};
	case VK_FORMAT_G16_B16R16_2PLANE_420_UNORM: return {16, 2, 2, 2};
	case VK_FORMAT_G8_B8R8_2PLANE_444_UNORM: return {8, 1, 1, 2};
	case VK_FORMAT_G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16: return {10, 1, 1, 2};
	case VK_FORMAT_G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16: return {12, 1, 1, 2};
	case VK_FORMAT_G16_B16R16_2PLANE_444_UNORM: return {16, 1, 1, 2};
	default: FAIL("format"); return {};
	}
}

// The stored n-bit value of an 8-bit code (16 bits: code * 257, the same
// normalized value; narrow-range expansion differs, 2^(n-8) scaled; 10 and
// 12 bits: code * 2^(n-8), the same narrow-range value).
double Raw(uint8_t code, uint32_t bits) {
	return bits == 16 ? code * 257.0 : bits == 8 ? code : double(uint32_t(code) << (bits - 8));
}

double ReconstructAxis(int i, uint32_t divisor, const Config& c, auto sample) {
	if (divisor == 1) return sample(i);
	int half = i / 2;
	if (c.chroma_filter == VK_FILTER_NEAREST) return sample(half);
	if (c.location == VK_CHROMA_LOCATION_COSITED_EVEN)
		return i % 2 == 0 ? sample(half) : 0.5 * sample(half) + 0.5 * sample(half + 1);
	return i % 2 == 0 ? 0.25 * sample(half - 1) + 0.75 * sample(half) : 0.75 * sample(half) + 0.25 * sample(half + 1);
}

double Chroma(uint8_t (*plane)(uint32_t, uint32_t), int x, int y, const Config& c) {
	const Shape shape = ShapeOf(c.format);
	auto clamp = [](int v, int size) { return uint32_t(std::min(std::max(v, 0), size - 1)); };
	return ReconstructAxis(y, shape.div_y, c, [&](int cy) {
		return ReconstructAxis(x, shape.div_x, c, [&](int cx) {
			return Raw(plane(clamp(cx, kWidth / shape.div_x), clamp(cy, kHeight / shape.div_y)), shape.bits);
		});
	});
}

// The converted RGBA of luma texel (x, y), clamped to the image.
void Reference(const Config& c, int x, int y, double out[4]) {
	x = std::min(std::max(x, 0), int(kWidth) - 1);
	y = std::min(std::max(y, 0), int(kHeight) - 1);
	const uint32_t bits = ShapeOf(c.format).bits;
	const double max = (1 << bits) - 1, scale = 1 << (bits - 8);
	double in[4] = {Chroma(Cr, x, y, c) / max, Raw(Luma(x, y), bits) / max, Chroma(Cb, x, y, c) / max, 1.0};
	const VkComponentSwizzle sw[4] = {c.components.r, c.components.g, c.components.b, c.components.a};
	double v[4];
	for (int k = 0; k < 4; ++k)
		v[k] = sw[k] == VK_COMPONENT_SWIZZLE_IDENTITY ? in[k]
		       : sw[k] == VK_COMPONENT_SWIZZLE_ZERO   ? 0.0
		       : sw[k] == VK_COMPONENT_SWIZZLE_ONE    ? 1.0
		                                              : in[sw[k] - VK_COMPONENT_SWIZZLE_R];
	if (c.model == VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY) {
		std::copy_n(v, 4, out);
		return;
	}
	double cr = v[0], luma = v[1], cb = v[2];
	if (c.range == VK_SAMPLER_YCBCR_RANGE_ITU_FULL) {
		cr -= (max + 1) / 2 / max, cb -= (max + 1) / 2 / max;
	} else {
		luma = (luma * max - 16 * scale) / (219 * scale);
		cb = (cb * max - 128 * scale) / (224 * scale), cr = (cr * max - 128 * scale) / (224 * scale);
	}
	double a = 0, b = 0, g1 = 0, g2 = 0;  // R = Y + a Cr, G = Y - g1 Cb - g2 Cr, B = Y + b Cb
	switch (c.model) {
	case VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709:
		a = 1.5748, g1 = 0.13397432 / 0.7152, g2 = 0.33480248 / 0.7152, b = 1.8556;
		break;
	case VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601:
		a = 1.402, g1 = 0.202008 / 0.587, g2 = 0.419198 / 0.587, b = 1.772;
		break;
	case VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_2020:
		a = 1.4746, g1 = 0.11156702 / 0.6780, g2 = 0.38737742 / 0.6780, b = 1.8814;
		break;
	default:  // YCBCR_IDENTITY
		out[0] = cr, out[1] = luma, out[2] = cb, out[3] = v[3];
		return;
	}
	out[0] = luma + a * cr, out[1] = luma - g1 * cb - g2 * cr, out[2] = luma + b * cb, out[3] = v[3];
}

// The sampler's filter over the reconstructed texels (CLAMP_TO_EDGE).
void Filtered(const Config& c, double u, double v, double out[4]) {
	if (c.filter == VK_FILTER_NEAREST) return Reference(c, int(std::floor(u)), int(std::floor(v)), out);
	double fu = u - 0.5, fv = v - 0.5;
	int i0 = int(std::floor(fu)), j0 = int(std::floor(fv));
	double a = fu - i0, b = fv - j0, t[4][4];
	Reference(c, i0, j0, t[0]), Reference(c, i0 + 1, j0, t[1]), Reference(c, i0, j0 + 1, t[2]);
	Reference(c, i0 + 1, j0 + 1, t[3]);
	for (int k = 0; k < 4; ++k)
		out[k] = (1 - a) * (1 - b) * t[0][k] + a * (1 - b) * t[1][k] + (1 - a) * b * t[2][k] + a * b * t[3][k];
}

// Runs the configuration on Tessera; returns one vec4 per luma texel.
// Samples the test image in array layer `layer` (VK_EXT_ycbcr_image_arrays
// when not 0: the layers before it hold other codes) through a 2D view of it.
std::vector<float> Run(Context& ctx, const Config& c, uint32_t layer = 0) {
	VkDevice device = ctx.device();
	const Shape shape = ShapeOf(c.format);
	const uint32_t bytes = shape.bits > 8 ? 2 : 1, cw = kWidth / shape.div_x, ch = kHeight / shape.div_y;

	VkSamplerYcbcrConversionCreateInfo cci{VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO};
	cci.format = c.format;
	cci.ycbcrModel = c.model;
	cci.ycbcrRange = c.range;
	cci.components = c.components;
	cci.xChromaOffset = cci.yChromaOffset = c.location;
	cci.chromaFilter = c.chroma_filter;
	VkSamplerYcbcrConversion conversion = VK_NULL_HANDLE;
	REQUIRE(vkCreateSamplerYcbcrConversion(device, &cci, nullptr, &conversion) == VK_SUCCESS);
	VkSamplerYcbcrConversionInfo conversion_info{VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO, nullptr, conversion};

	VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, &conversion_info};
	sci.magFilter = sci.minFilter = c.filter;
	sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
	VkSampler sampler = VK_NULL_HANDLE;
	REQUIRE(vkCreateSampler(device, &sci, nullptr, &sampler) == VK_SUCCESS);

	TestImage image = ctx.CreateImage2D(c.format, kWidth, kHeight,
	                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT, 1, layer + 1);
	REQUIRE(image.image != VK_NULL_HANDLE);
	// Planes in a staging buffer: Y', then CbCr interleaved (2 planes) or Cb
	// and Cr apart (3 planes), each plane tightly packed.
	const uint32_t luma_size = kWidth * kHeight * bytes, chroma_size = cw * ch * bytes;
	TestBuffer staging = ctx.CreateBuffer(luma_size + 2 * chroma_size);
	auto put = [&](uint32_t offset, uint8_t code) {
		// 10- and 12-bit components sit in the high bits of their 16
		// (the X6 and X4 formats' padding is low).
		uint16_t raw = uint16_t(uint32_t(Raw(code, shape.bits)) << (16 - shape.bits));
		if (bytes == 1)
			staging.data[offset] = code;
		else
			std::memcpy(staging.data + offset, &raw, 2);
	};
	for (uint32_t y = 0; y < kHeight; ++y)
		for (uint32_t x = 0; x < kWidth; ++x) put((y * kWidth + x) * bytes, Luma(x, y));
	for (uint32_t y = 0; y < ch; ++y)
		for (uint32_t x = 0; x < cw; ++x) {
			uint32_t k = (y * cw + x) * bytes;
			if (shape.planes == 2) {
				put(luma_size + 2 * k, Cb(x, y));
				put(luma_size + 2 * k + bytes, Cr(x, y));
			} else {
				put(luma_size + k, Cb(x, y));
				put(luma_size + chroma_size + k, Cr(x, y));
			}
		}
	// The layers before `layer` get mid-grey codes, from past the pattern.
	const VkDeviceSize other = luma_size + 2 * chroma_size;
	TestBuffer grey = ctx.CreateBuffer(other);
	std::memset(grey.data, 0x80, other);
	std::vector<VkBufferImageCopy> regions, grey_regions;
	for (uint32_t l = 0; l <= layer; ++l) {
		std::vector<VkBufferImageCopy>& to = l == layer ? regions : grey_regions;
		to.push_back({0, 0, 0, {VK_IMAGE_ASPECT_PLANE_0_BIT, 0, l, 1}, {}, {kWidth, kHeight, 1}});
		to.push_back({luma_size, 0, 0, {VK_IMAGE_ASPECT_PLANE_1_BIT, 0, l, 1}, {}, {cw, ch, 1}});
		if (shape.planes == 3)
			to.push_back({luma_size + chroma_size, 0, 0, {VK_IMAGE_ASPECT_PLANE_2_BIT, 0, l, 1}, {}, {cw, ch, 1}});
	}

	VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, &conversion_info};
	vci.image = image.image;
	vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
	vci.format = c.format;
	vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, layer, 1};
	VkImageView view = VK_NULL_HANDLE;
	REQUIRE(vkCreateImageView(device, &vci, nullptr, &view) == VK_SUCCESS);

	// Set 0: the output buffer, and the image with its immutable sampler
	// (§14.2.1: a sampler with a conversion must be immutable).
	VkDescriptorSetLayoutBinding bindings[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, &sampler}};
	VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	lci.bindingCount = 2;
	lci.pBindings = bindings;
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorSetLayout(device, &lci, nullptr, &set_layout) == VK_SUCCESS);
	VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &push_range;
	VkPipelineLayout layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	VkPipeline pipeline = CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, "ycbcr_sample.spv", layout);
	REQUIRE(pipeline != VK_NULL_HANDLE);

	// combinedImageSamplerDescriptorCount descriptors a Y'CbCr combined image sampler.
	VkPhysicalDeviceImageFormatInfo2 ifi{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2};
	ifi.format = c.format;
	ifi.type = VK_IMAGE_TYPE_2D;
	ifi.tiling = VK_IMAGE_TILING_OPTIMAL;
	ifi.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
	VkSamplerYcbcrConversionImageFormatProperties ycbcr_props{
	    VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES};
	VkImageFormatProperties2 ifp{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, &ycbcr_props};
	REQUIRE(vkGetPhysicalDeviceImageFormatProperties2(ctx.physical_device(), &ifi, &ifp) == VK_SUCCESS);
	CHECK(ycbcr_props.combinedImageSamplerDescriptorCount == 1);
	VkDescriptorPoolSize sizes[2] = {
	    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
	    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ycbcr_props.combinedImageSamplerDescriptorCount}};
	VkDescriptorPool pool = VK_NULL_HANDLE;
	const VkDescriptorSet set = AllocateSingleSet(device, set_layout, sizes, &pool);
	TestBuffer out = ctx.CreateBuffer(kWidth * kHeight * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	std::memset(out.data, 0xff, out.size);
	VkDescriptorBufferInfo buffer_info{out.buffer, 0, VK_WHOLE_SIZE};
	VkDescriptorImageInfo image_info{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
	VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
	                                  {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
	writes[0].dstSet = set, writes[0].dstBinding = 0, writes[0].descriptorCount = 1;
	writes[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, writes[0].pBufferInfo = &buffer_info;
	writes[1].dstSet = set, writes[1].dstBinding = 1, writes[1].descriptorCount = 1;
	writes[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, writes[1].pImageInfo = &image_info;
	vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);

	struct {
		uint32_t width, height;
		float offset[2];
	} push{kWidth, kHeight, {c.offset, c.offset}};
	ctx.Submit([&](VkCommandBuffer cb) {
		ctx.Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		vkCmdCopyBufferToImage(cb, staging.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		                       uint32_t(regions.size()), regions.data());
		if (!grey_regions.empty())
			vkCmdCopyBufferToImage(cb, grey.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			                       uint32_t(grey_regions.size()), grey_regions.data());
		VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
		b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
		b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
		b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
		b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
		b.image = image.image;
		b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layer + 1};
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0,
		                     nullptr, 1, &b);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
		vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
		vkCmdDispatch(cb, 1, 1, 1);
		VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
		                     VK_ACCESS_HOST_READ_BIT};
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0,
		                     nullptr, 0, nullptr);
	});
	std::vector<float> result(kWidth * kHeight * 4);
	std::memcpy(result.data(), out.data, out.size);

	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	vkDestroyImageView(device, view, nullptr);
	vkDestroySampler(device, sampler, nullptr);
	vkDestroySamplerYcbcrConversion(device, conversion, nullptr);
	ctx.Destroy(out);
	ctx.Destroy(staging);
	ctx.Destroy(grey);
	ctx.Destroy(image);
	return result;
}

// The largest difference between what Run sampled and the spec's equations
// (Filtered) at each texel center moved by the config's offset.
double MaxError(const Config& c, const std::vector<float>& got) {
	double max_error = 0;
	for (uint32_t y = 0; y < kHeight; ++y)
		for (uint32_t x = 0; x < kWidth; ++x) {
			double want[4];
			Filtered(c, x + 0.5 + c.offset, y + 0.5 + c.offset, want);
			for (int k = 0; k < 4; ++k)
				max_error = std::max(max_error, std::abs(want[k] - got[(y * kWidth + x) * 4 + k]));
		}
	return max_error;
}

// image_arrays: VK_EXT_ycbcr_image_arrays and its feature enabled too.
std::unique_ptr<Context> YcbcrContext(bool image_arrays = false) {
	static VkPhysicalDeviceVulkan11Features features11;
	static VkPhysicalDeviceVulkan13Features features13;
	static VkPhysicalDeviceYcbcrImageArraysFeaturesEXT arrays;
	features11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	arrays = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_YCBCR_IMAGE_ARRAYS_FEATURES_EXT};
	features11.samplerYcbcrConversion = VK_TRUE;
	features11.pNext = &features13;
	features13.maintenance4 = VK_TRUE;  // LocalSizeId in glslang's SPIR-V 1.6
	arrays.ycbcrImageArrays = VK_TRUE;
	if (image_arrays) features13.pNext = &arrays;
	ContextOptions options;
	options.device_features = &features11;
	options.device_extensions = {"VK_KHR_sampler_ycbcr_conversion"};  // for the KHR aliases
	if (image_arrays) options.device_extensions.push_back(VK_EXT_YCBCR_IMAGE_ARRAYS_EXTENSION_NAME);
	return Context::Create(Driver::Tessera, options);
}

TEST_CASE("Y'CbCr formats and feature are reported", "[e2e][ycbcr]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &f);
	CHECK(f11.samplerYcbcrConversion == VK_TRUE);
	for (VkFormat format :
	     {VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, VK_FORMAT_G8_B8R8_2PLANE_422_UNORM,
	      VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM, VK_FORMAT_G8B8G8R8_422_UNORM, VK_FORMAT_G16_B16R16_2PLANE_420_UNORM,
	      VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16, VK_FORMAT_G8_B8R8_2PLANE_444_UNORM,
	      VK_FORMAT_G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16, VK_FORMAT_G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16,
	      VK_FORMAT_G16_B16R16_2PLANE_444_UNORM}) {
		CAPTURE(format);
		VkFormatProperties p;
		vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), format, &p);
		const VkFormatFeatureFlags need =
		    VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT |
		    VK_FORMAT_FEATURE_COSITED_CHROMA_SAMPLES_BIT | VK_FORMAT_FEATURE_MIDPOINT_CHROMA_SAMPLES_BIT |
		    VK_FORMAT_FEATURE_SAMPLED_IMAGE_YCBCR_CONVERSION_LINEAR_FILTER_BIT |
		    VK_FORMAT_FEATURE_SAMPLED_IMAGE_YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT_BIT |
		    VK_FORMAT_FEATURE_SAMPLED_IMAGE_YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT_FORCEABLE_BIT;
		CHECK((p.optimalTilingFeatures & need) == need);
		CHECK_FALSE((p.optimalTilingFeatures & (VK_FORMAT_FEATURE_DISJOINT_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT)));
		VkImageFormatProperties ifp;
		REQUIRE(vkGetPhysicalDeviceImageFormatProperties(ctx->physical_device(), format, VK_IMAGE_TYPE_2D,
		                                                 VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT, 0,
		                                                 &ifp) == VK_SUCCESS);
		CHECK(ifp.maxMipLevels == 1);
		CHECK(ifp.maxArrayLayers > 1);  // VK_EXT_ycbcr_image_arrays
		CHECK(vkGetPhysicalDeviceImageFormatProperties(
		          ctx->physical_device(), format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT,
		          VK_IMAGE_CREATE_DISJOINT_BIT, &ifp) == VK_ERROR_FORMAT_NOT_SUPPORTED);
	}
	// Formats this driver does not convert report nothing.
	VkFormatProperties p;
	vkGetPhysicalDeviceFormatProperties(ctx->physical_device(), VK_FORMAT_G16_B16_R16_3PLANE_444_UNORM, &p);
	CHECK(p.optimalTilingFeatures == 0);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("NV12, I420, 422, 444 and 16-bit 420 sampled through a Y'CbCr conversion match the spec's equations",
          "[e2e][ycbcr]") {
	auto ctx = YcbcrContext();
	REQUIRE(ctx);
	const VkComponentMapping swap{VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_R,
	                              VK_COMPONENT_SWIZZLE_ONE};
	const Config configs[] = {
	    {VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709,
	     VK_SAMPLER_YCBCR_RANGE_ITU_NARROW, VK_CHROMA_LOCATION_COSITED_EVEN, VK_FILTER_LINEAR, VK_FILTER_NEAREST, 0.0f},
	    {VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601,
	     VK_SAMPLER_YCBCR_RANGE_ITU_FULL, VK_CHROMA_LOCATION_MIDPOINT, VK_FILTER_LINEAR, VK_FILTER_LINEAR, 0.25f},
	    {VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY,
	     VK_SAMPLER_YCBCR_RANGE_ITU_FULL, VK_CHROMA_LOCATION_COSITED_EVEN, VK_FILTER_NEAREST, VK_FILTER_NEAREST, 0.25f},
	    {VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_2020,
	     VK_SAMPLER_YCBCR_RANGE_ITU_NARROW, VK_CHROMA_LOCATION_MIDPOINT, VK_FILTER_NEAREST, VK_FILTER_LINEAR, 0.25f},
	    {VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_IDENTITY,
	     VK_SAMPLER_YCBCR_RANGE_ITU_NARROW, VK_CHROMA_LOCATION_COSITED_EVEN, VK_FILTER_LINEAR, VK_FILTER_LINEAR, -0.25f,
	     swap},
	    {VK_FORMAT_G8_B8R8_2PLANE_422_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709,
	     VK_SAMPLER_YCBCR_RANGE_ITU_FULL, VK_CHROMA_LOCATION_MIDPOINT, VK_FILTER_LINEAR, VK_FILTER_LINEAR, 0.25f},
	    {VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601,
	     VK_SAMPLER_YCBCR_RANGE_ITU_NARROW, VK_CHROMA_LOCATION_COSITED_EVEN, VK_FILTER_LINEAR, VK_FILTER_NEAREST, 0.0f},
	    {VK_FORMAT_G16_B16R16_2PLANE_420_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709,
	     VK_SAMPLER_YCBCR_RANGE_ITU_NARROW, VK_CHROMA_LOCATION_COSITED_EVEN, VK_FILTER_LINEAR, VK_FILTER_LINEAR, 0.25f},
	    // VK_EXT_ycbcr_2plane_444_formats.
	    {VK_FORMAT_G8_B8R8_2PLANE_444_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709,
	     VK_SAMPLER_YCBCR_RANGE_ITU_FULL, VK_CHROMA_LOCATION_MIDPOINT, VK_FILTER_LINEAR, VK_FILTER_LINEAR, 0.25f},
	    {VK_FORMAT_G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_2020,
	     VK_SAMPLER_YCBCR_RANGE_ITU_NARROW, VK_CHROMA_LOCATION_COSITED_EVEN, VK_FILTER_LINEAR, VK_FILTER_LINEAR, 0.25f},
	    {VK_FORMAT_G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601,
	     VK_SAMPLER_YCBCR_RANGE_ITU_FULL, VK_CHROMA_LOCATION_MIDPOINT, VK_FILTER_NEAREST, VK_FILTER_LINEAR, -0.25f},
	    {VK_FORMAT_G16_B16R16_2PLANE_444_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709,
	     VK_SAMPLER_YCBCR_RANGE_ITU_NARROW, VK_CHROMA_LOCATION_COSITED_EVEN, VK_FILTER_LINEAR, VK_FILTER_NEAREST, 0.0f},
	};
	for (const Config& c : configs) {
		CAPTURE(c.format, c.model, c.range, c.location, c.chroma_filter, c.filter, c.offset);
		CHECK(MaxError(c, Run(*ctx, c)) < 1e-5);
	}
	// The extension's commands are the core ones.
	auto create = ctx->Proc<PFN_vkCreateSamplerYcbcrConversionKHR>("vkCreateSamplerYcbcrConversionKHR");
	auto destroy = ctx->Proc<PFN_vkDestroySamplerYcbcrConversionKHR>("vkDestroySamplerYcbcrConversionKHR");
	REQUIRE(create);
	REQUIRE(destroy);
	VkSamplerYcbcrConversionCreateInfo cci{VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO};
	cci.format = VK_FORMAT_G8_B8R8_2PLANE_420_UNORM;
	cci.ycbcrModel = VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709;
	VkSamplerYcbcrConversion conversion = VK_NULL_HANDLE;
	CHECK(create(ctx->device(), &cci, nullptr, &conversion) == VK_SUCCESS);
	destroy(ctx->device(), conversion, nullptr);
	CHECK(ctx->validation_errors() == 0);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
}

TEST_CASE("VK_EXT_ycbcr_image_arrays: a layer of a Y'CbCr array image samples as the spec's equations say",
          "[e2e][ycbcr]") {
	// Lavapipe 22.3 lacks the extension: checked against the equations, with
	// the other layers holding other codes.
	auto ctx = YcbcrContext(true);
	REQUIRE(ctx);
	const Config configs[] = {
	    {VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709,
	     VK_SAMPLER_YCBCR_RANGE_ITU_NARROW, VK_CHROMA_LOCATION_COSITED_EVEN, VK_FILTER_LINEAR, VK_FILTER_LINEAR, 0.25f},
	    {VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601,
	     VK_SAMPLER_YCBCR_RANGE_ITU_FULL, VK_CHROMA_LOCATION_MIDPOINT, VK_FILTER_LINEAR, VK_FILTER_NEAREST, 0.0f},
	};
	for (const Config& c : configs)
		for (uint32_t layer : {1u, 3u}) {
			CAPTURE(c.format, layer);
			CHECK(MaxError(c, Run(*ctx, c, layer)) < 1e-5);
		}
	CHECK(ctx->validation_errors() == 0);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
}

}  // namespace
}  // namespace tessera::test
