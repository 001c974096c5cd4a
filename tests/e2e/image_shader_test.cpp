// Images, samplers and texel buffers in compute shaders, through the loader:
// the corpus shaders image_*.comp run on Tessera and on lavapipe with the
// same images, samplers and buffers, and the results are compared.
//
// Tolerance. Fetches, loads, stores, atomics, queries and NEAREST lookups
// leave the implementation no freedom here (coordinates stay away from
// texel edges) and must match exactly. LINEAR filtering may differ: Vulkan
// 1.3 §16 lets implementations keep subTexelPrecisionBits (Tessera and
// lavapipe both report 8) of the texel coordinate's fraction and
// mipmapPrecisionBits (8) of the LOD fraction, and lavapipe filters 8-bit
// UNORM texels in 8-bit fixed point. A weight can then be off by 2^-8 per
// dimension and the result by one more 8-bit step: for texels in [0, 1],
// |difference| <= 3 * 2^-8 per filtered dimension pair plus 2^-8 for the mip
// blend, so the bound used is 4/256 (0.016) on LINEAR results (8/256 where
// lavapipe's approximate LOD enters: see the LINEAR test).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "compute_kernel.h"
#include "texture/compressed.h"
#include "texture/format.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

struct ImageSpec {
	VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
	VkImageType type = VK_IMAGE_TYPE_2D;
	VkExtent3D extent{1, 1, 1};
	uint32_t mips = 1, layers = 1;
	VkImageViewType view_type = VK_IMAGE_VIEW_TYPE_2D;
	VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
	uint32_t texel_size = 4;   // bytes per texel in the upload
	uint32_t block_bytes = 0;  // 4x4-block-compressed formats: bytes per block
	bool storage = false;      // STORAGE usage (read back after the run)
	bool cube_compatible = false;
	VkComponentMapping swizzle{};
	// The view's subresource range (0 counts: the rest of the image).
	uint32_t view_base_level = 0, view_levels = 0, view_base_layer = 0, view_layers = 0;
	std::vector<uint8_t> data;  // level-major, then layer, then z, y, x, tightly packed
};

struct TexelBufferSpec {
	VkFormat format;
	uint32_t texel_size;
	bool storage;
	std::vector<uint8_t> data;
};

// One binding: its type and the resources of its array elements.
struct BindingSpec {
	VkDescriptorType type;
	std::vector<int> images = {}, samplers = {}, texel_buffers = {};
	int buffer = -1;
};

struct Scene {
	const char* shader;
	std::vector<ImageSpec> images;
	std::vector<VkSamplerCreateInfo> samplers;
	std::vector<TexelBufferSpec> texel_buffers;
	std::vector<std::vector<uint8_t>> buffers;
	std::vector<BindingSpec> bindings;  // binding k = bindings[k]
	std::vector<uint8_t> push;
	uint32_t groups[3] = {1, 1, 1};
};

struct Outcome {
	std::vector<std::vector<uint8_t>> buffers, images, texel_buffers;
};

uint64_t LevelBytes(const ImageSpec& s, uint32_t level) {
	uint64_t w = std::max(1u, s.extent.width >> level), h = std::max(1u, s.extent.height >> level),
	         d = std::max(1u, s.extent.depth >> level);
	if (s.block_bytes) return (w + 3) / 4 * ((h + 3) / 4) * d * s.layers * s.block_bytes;  // 4x4 blocks
	return w * h * d * s.layers * s.texel_size;
}

uint64_t ImageBytes(const ImageSpec& s) {
	uint64_t total = 0;
	for (uint32_t l = 0; l < s.mips; ++l) total += LevelBytes(s, l);
	return total;
}

VkSamplerCreateInfo Sampler(VkFilter filter, VkSamplerAddressMode mode,
                            VkSamplerMipmapMode mip = VK_SAMPLER_MIPMAP_MODE_NEAREST, float max_lod = 16.0f) {
	VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	info.magFilter = info.minFilter = filter;
	info.mipmapMode = mip;
	info.addressModeU = info.addressModeV = info.addressModeW = mode;
	info.maxLod = max_lod;
	info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	return info;
}

// lavapipe (Mesa 22.3) lacks shaderStorageImageReadWithoutFormat and
// dynamic indexing of image and texel buffer arrays: its runs use shaders
// that do not need them.
ContextOptions Options(Driver driver) {
	static VkPhysicalDeviceVulkan12Features features12;
	static VkPhysicalDeviceVulkan13Features features13;
	static VkPhysicalDeviceFeatures2 features;
	features12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	const bool all = driver == Driver::Tessera;
	features13.maintenance4 = VK_TRUE;  // LocalSizeId in glslang's SPIR-V 1.6
	features12.samplerMirrorClampToEdge = VK_TRUE;
	features12.shaderUniformTexelBufferArrayDynamicIndexing = all;
	features12.pNext = &features13;
	features.pNext = &features12;
	features.features.shaderStorageImageReadWithoutFormat = all;
	features.features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
	features.features.shaderStorageImageExtendedFormats = VK_TRUE;
	features.features.imageCubeArray = VK_TRUE;
	features.features.shaderImageGatherExtended = VK_TRUE;
	features.features.shaderSampledImageArrayDynamicIndexing = all;
	features.features.shaderStorageImageArrayDynamicIndexing = all;
	ContextOptions options;
	options.device_features = &features;
	return options;
}

void ImageBarrier(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                  VkPipelineStageFlags src_stage, VkAccessFlags src, VkPipelineStageFlags dst_stage,
                  VkAccessFlags dst) {
	VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	b.srcAccessMask = src;
	b.dstAccessMask = dst;
	b.oldLayout = from;
	b.newLayout = to;
	b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	b.image = image;
	b.subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
	vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

// Barriers on a depth/stencil image name both aspects
// (VUID-VkImageMemoryBarrier-image-03320).
VkImageAspectFlags BarrierAspect(const ImageSpec& s) {
	const tessera::texture::FormatInfo* info = tessera::texture::FindFormat(s.format);
	if (!info || info->IsColor()) return s.aspect;
	VkImageAspectFlags aspects = 0;
	if (info->HasDepth()) aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
	if (info->HasStencil()) aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
	return aspects;
}

Outcome Run(Context& ctx, const Scene& scene) {
	VkDevice device = ctx.device();
	Outcome outcome;
	// Images, their views and staging buffers.
	std::vector<TestImage> images;
	std::vector<VkImageView> views;
	std::vector<TestBuffer> staging;
	for (const ImageSpec& s : scene.images) {
		VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
		ici.flags = s.cube_compatible ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
		ici.imageType = s.type;
		ici.format = s.format;
		ici.extent = s.extent;
		ici.mipLevels = s.mips;
		ici.arrayLayers = s.layers;
		ici.samples = VK_SAMPLE_COUNT_1_BIT;
		ici.tiling = VK_IMAGE_TILING_OPTIMAL;
		ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
		            (s.storage ? VK_IMAGE_USAGE_STORAGE_BIT : 0);
		ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
		images.push_back(ctx.CreateImage(ici));
		VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		vci.image = images.back().image;
		vci.viewType = s.view_type;
		vci.format = s.format;
		vci.components = s.swizzle;
		vci.subresourceRange = {s.aspect, s.view_base_level, s.view_levels ? s.view_levels : s.mips - s.view_base_level,
		                        s.view_base_layer, s.view_layers ? s.view_layers : s.layers - s.view_base_layer};
		VkImageView view = VK_NULL_HANDLE;
		REQUIRE(vkCreateImageView(device, &vci, nullptr, &view) == VK_SUCCESS);
		views.push_back(view);
		REQUIRE(s.data.size() == ImageBytes(s));
		staging.push_back(ctx.CreateBuffer(s.data.size()));
		std::memcpy(staging.back().data, s.data.data(), s.data.size());
	}
	std::vector<VkSampler> samplers;
	for (const VkSamplerCreateInfo& info : scene.samplers) {
		VkSampler sampler = VK_NULL_HANDLE;
		REQUIRE(vkCreateSampler(device, &info, nullptr, &sampler) == VK_SUCCESS);
		samplers.push_back(sampler);
	}
	std::vector<TestBuffer> texel_buffers;
	std::vector<VkBufferView> buffer_views;
	for (const TexelBufferSpec& t : scene.texel_buffers) {
		texel_buffers.push_back(ctx.CreateBuffer(t.data.size(), t.storage ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
		                                                                  : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT));
		std::memcpy(texel_buffers.back().data, t.data.data(), t.data.size());
		VkBufferViewCreateInfo bvi{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
		bvi.buffer = texel_buffers.back().buffer;
		bvi.format = t.format;
		bvi.range = VK_WHOLE_SIZE;
		VkBufferView view = VK_NULL_HANDLE;
		REQUIRE(vkCreateBufferView(device, &bvi, nullptr, &view) == VK_SUCCESS);
		buffer_views.push_back(view);
	}
	std::vector<TestBuffer> buffers;
	for (const std::vector<uint8_t>& b : scene.buffers) {
		buffers.push_back(ctx.CreateBuffer(b.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT));
		std::memcpy(buffers.back().data, b.data(), b.size());
	}

	// The set.
	std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
	std::vector<VkDescriptorPoolSize> sizes;
	for (uint32_t k = 0; k < scene.bindings.size(); ++k) {
		const BindingSpec& b = scene.bindings[k];
		uint32_t count = uint32_t(std::max({b.images.size(), b.samplers.size(), b.texel_buffers.size(), size_t(1)}));
		layout_bindings.push_back({k, b.type, count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
		sizes.push_back({b.type, count});
	}
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = uint32_t(layout_bindings.size());
	dslci.pBindings = layout_bindings.data();
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &range;
	VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &pipeline_layout) == VK_SUCCESS);
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	dpci.maxSets = 1;
	dpci.poolSizeCount = uint32_t(sizes.size());
	dpci.pPoolSizes = sizes.data();
	VkDescriptorPool pool = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorPool(device, &dpci, nullptr, &pool) == VK_SUCCESS);
	VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
	dsai.descriptorPool = pool;
	dsai.descriptorSetCount = 1;
	dsai.pSetLayouts = &set_layout;
	VkDescriptorSet set = VK_NULL_HANDLE;
	REQUIRE(vkAllocateDescriptorSets(device, &dsai, &set) == VK_SUCCESS);
	for (uint32_t k = 0; k < scene.bindings.size(); ++k) {
		const BindingSpec& b = scene.bindings[k];
		VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		write.dstSet = set;
		write.dstBinding = k;
		write.descriptorType = b.type;
		std::vector<VkDescriptorImageInfo> image_infos;
		std::vector<VkBufferView> texel_views;
		VkDescriptorBufferInfo buffer_info{};
		switch (b.type) {
		case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
			buffer_info = {buffers[b.buffer].buffer, 0, VK_WHOLE_SIZE};
			write.descriptorCount = 1;
			write.pBufferInfo = &buffer_info;
			break;
		case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
		case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
			for (int t : b.texel_buffers) texel_views.push_back(buffer_views[t]);
			write.descriptorCount = uint32_t(texel_views.size());
			write.pTexelBufferView = texel_views.data();
			break;
		default: {
			size_t count = std::max(b.images.size(), b.samplers.size());
			for (size_t e = 0; e < count; ++e) {
				VkDescriptorImageInfo info{};
				if (e < b.images.size()) info.imageView = views[b.images[e]];
				if (e < b.samplers.size()) info.sampler = samplers[b.samplers[e]];
				info.imageLayout =
				    b.type == VK_DESCRIPTOR_TYPE_SAMPLER ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_GENERAL;
				image_infos.push_back(info);
			}
			write.descriptorCount = uint32_t(image_infos.size());
			write.pImageInfo = image_infos.data();
			break;
		}
		}
		vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
	}

	// The pipeline.
	std::vector<uint32_t> spirv = LoadCorpusShader(TESSERA_SHADER_DIR, scene.shader);
	REQUIRE(!spirv.empty());
	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = spirv.size() * 4;
	smci.pCode = spirv.data();
	VkShaderModule module = VK_NULL_HANDLE;
	REQUIRE(vkCreateShaderModule(device, &smci, nullptr, &module) == VK_SUCCESS);
	VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
	cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
	cpci.stage.module = module;
	cpci.stage.pName = "main";
	cpci.layout = pipeline_layout;
	VkPipeline pipeline = VK_NULL_HANDLE;
	REQUIRE(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline) == VK_SUCCESS);

	// Upload, dispatch, read back.
	std::vector<TestBuffer> readback;
	for (const ImageSpec& s : scene.images) readback.push_back(ctx.CreateBuffer(s.data.size()));
	auto regions = [&](const ImageSpec& s) {
		std::vector<VkBufferImageCopy> out;
		uint64_t offset = 0;
		for (uint32_t l = 0; l < s.mips; ++l) {
			VkBufferImageCopy r{};
			r.bufferOffset = offset;
			r.imageSubresource = {s.aspect, l, 0, s.layers};
			r.imageExtent = {std::max(1u, s.extent.width >> l), std::max(1u, s.extent.height >> l),
			                 std::max(1u, s.extent.depth >> l)};
			out.push_back(r);
			offset += LevelBytes(s, l);
		}
		return out;
	};
	ctx.Submit([&](VkCommandBuffer cb) {
		for (size_t k = 0; k < images.size(); ++k) {
			const ImageSpec& s = scene.images[k];
			ImageBarrier(cb, images[k].image, BarrierAspect(s), VK_IMAGE_LAYOUT_UNDEFINED,
			             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
			             VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
			auto r = regions(s);
			vkCmdCopyBufferToImage(cb, staging[k].buffer, images[k].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			                       uint32_t(r.size()), r.data());
			ImageBarrier(cb, images[k].image, BarrierAspect(s), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			             VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
			             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
		}
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, nullptr);
		if (!scene.push.empty())
			vkCmdPushConstants(cb, pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(scene.push.size()),
			                   scene.push.data());
		vkCmdDispatch(cb, scene.groups[0], scene.groups[1], scene.groups[2]);
		VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		mb.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
		                     VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0,
		                     nullptr);
		for (size_t k = 0; k < images.size(); ++k) {
			auto r = regions(scene.images[k]);
			vkCmdCopyImageToBuffer(cb, images[k].image, VK_IMAGE_LAYOUT_GENERAL, readback[k].buffer, uint32_t(r.size()),
			                       r.data());
		}
		ctx.TransferBarrier(cb);
	});
	for (TestBuffer& b : buffers) outcome.buffers.emplace_back(b.data, b.data + b.size);
	for (TestBuffer& b : readback) outcome.images.emplace_back(b.data, b.data + b.size);
	for (TestBuffer& b : texel_buffers) outcome.texel_buffers.emplace_back(b.data, b.data + b.size);

	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyShaderModule(device, module, nullptr);
	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	for (VkBufferView v : buffer_views) vkDestroyBufferView(device, v, nullptr);
	for (VkSampler s : samplers) vkDestroySampler(device, s, nullptr);
	for (VkImageView v : views) vkDestroyImageView(device, v, nullptr);
	for (TestImage& i : images) ctx.Destroy(i);
	for (auto* list : {&staging, &readback, &texel_buffers, &buffers})
		for (TestBuffer& b : *list) ctx.Destroy(b);
	return outcome;
}

Outcome RunOn(Driver driver, const Scene& scene) {
	auto ctx = Context::Create(driver, Options(driver));
	REQUIRE(ctx);
	Outcome outcome = Run(*ctx, scene);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(DriverName(driver) << ": " << m);
	CHECK(ctx->validation_errors() == 0);
	return outcome;
}

// Both drivers' contexts, created once for a test's scenes.
struct Drivers {
	std::unique_ptr<Context> ours = Context::Create(Driver::Tessera, Options(Driver::Tessera));
	std::unique_ptr<Context> reference = Context::Create(Driver::Lavapipe, Options(Driver::Lavapipe));
	Drivers() {
		REQUIRE(ours);
		REQUIRE(reference);
	}
	~Drivers() {
		for (const std::string& m : ours->validation_messages()) UNSCOPED_INFO("Tessera: " << m);
		for (const std::string& m : reference->validation_messages()) UNSCOPED_INFO("lavapipe: " << m);
		CHECK(ours->validation_errors() == 0);
		CHECK(reference->validation_errors() == 0);
	}
};

// Tessera runs scene; lavapipe runs reference (the same scene by default).
std::pair<Outcome, Outcome> RunBoth(Drivers& drivers, const Scene& scene, const Scene* reference = nullptr) {
	Outcome a = Run(*drivers.ours, scene);
	Outcome b = Run(*drivers.reference, reference ? *reference : scene);
	return {std::move(a), std::move(b)};
}

std::pair<Outcome, Outcome> RunBoth(const Scene& scene, const Scene* reference = nullptr) {
	Drivers drivers;
	return RunBoth(drivers, scene, reference);
}

std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
	std::mt19937 rng(seed);
	std::vector<uint8_t> out(n);
	for (uint8_t& b : out) b = uint8_t(rng());
	return out;
}

template <typename T>
std::vector<T> Values(const std::vector<uint8_t>& bytes) {
	std::vector<T> values(bytes.size() / sizeof(T));
	std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
	return values;
}

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
	std::vector<uint8_t> bytes(values.size() * sizeof(T));
	std::memcpy(bytes.data(), values.data(), bytes.size());
	return bytes;
}

// Floats of two runs within tolerance, reporting the first difference.
void CompareFloats(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& reference, float tolerance,
                   uint32_t per_item = 4) {
	std::vector<float> a = Values<float>(ours), b = Values<float>(reference);
	REQUIRE(a.size() == b.size());
	if (getenv("TESSERA_IMAGE_TEST_DUMP"))
		for (size_t i = 0; i < a.size(); ++i)
			if (!(std::fabs(a[i] - b[i]) <= tolerance))
				printf("diff %zu vec4 %zu c %zu: %g %g\n", i, i / per_item, i % per_item, a[i], b[i]);
	for (size_t i = 0; i < a.size(); ++i) {
		bool same = std::isnan(a[i]) ? std::isnan(b[i]) : std::fabs(a[i] - b[i]) <= tolerance;
		if (!same) {
			INFO("float " << i << " (vec4 " << i / per_item << ", component " << i % per_item << "): tessera " << a[i]
			              << ", lavapipe " << b[i]);
			REQUIRE(same);
		}
	}
}

}  // namespace

TEST_CASE("texel buffers: fetch, load, store and atomics match lavapipe", "[image]") {
	Scene scene{"image_texel_buffer.spv"};
	scene.texel_buffers = {
	    {VK_FORMAT_R8G8B8A8_UNORM, 4, false, RandomBytes(64 * 4, 1)},
	    {VK_FORMAT_R32G32B32A32_SFLOAT, 16, true, std::vector<uint8_t>(64 * 16, 0)},
	    {VK_FORMAT_R32_UINT, 4, true, Bytes(std::vector<uint32_t>(8, 5))},
	    {VK_FORMAT_R16G16B16A16_UINT, 8, true, RandomBytes(64 * 8, 2)},
	};
	scene.buffers = {std::vector<uint8_t>(64 * 16 + 16 + 16 + 64 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, {}, {}, {0}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, {}, {}, {1}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, {}, {}, {2}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, {}, {}, {3}}};
	auto [ours, reference] = RunBoth(scene);
	// Everything but the texel read outside the view (robustBufferAccess lets
	// it read any of several values) is exact.
	std::vector<uint8_t> a = ours.buffers[0], b = reference.buffers[0];
	std::vector<float> outside =
	    Values<float>(std::vector<uint8_t>(a.begin() + 64 * 16 + 16, a.begin() + 64 * 16 + 32));
	CHECK(outside == std::vector<float>{0, 0, 0, 0});  // Tessera: zero (robustBufferAccess2's rule)
	std::fill_n(a.begin() + 64 * 16 + 16, 16, 0);
	std::fill_n(b.begin() + 64 * 16 + 16, 16, 0);
	// Fetched RGBA8: exact up to lavapipe's UNORM8 conversion (one ulp, see
	// the NEAREST test); the rest exact.
	CompareFloats(std::vector<uint8_t>(a.begin(), a.begin() + 64 * 16),
	              std::vector<uint8_t>(b.begin(), b.begin() + 64 * 16), 1e-6f);
	CHECK(std::vector<uint8_t>(a.begin() + 64 * 16, a.end()) == std::vector<uint8_t>(b.begin() + 64 * 16, b.end()));
	std::vector<float> fetched = Values<float>(a);
	CHECK(fetched[0] == float(scene.texel_buffers[0].data[63 * 4]) / 255.0f);
	CHECK(ours.texel_buffers == reference.texel_buffers);
	std::vector<uint32_t> counters = Values<uint32_t>(ours.texel_buffers[2]);
	for (uint32_t k = 0; k < 8; ++k) CHECK(counters[k] == 5 + (k + (k + 56)) * 8 / 2);
}

TEST_CASE("storage images: load, store, sizes and atomics match lavapipe", "[image]") {
	Scene scene{"image_storage.spv"};
	ImageSpec src;
	src.extent = {16, 16, 1};
	src.storage = true;
	src.data = RandomBytes(16 * 16 * 4, 3);
	ImageSpec dst = src;
	dst.format = VK_FORMAT_R16G16B16A16_SFLOAT;
	dst.texel_size = 8;
	dst.data.assign(16 * 16 * 8, 0);
	ImageSpec layers;
	layers.format = VK_FORMAT_R32_SFLOAT;
	layers.extent = {8, 8, 1};
	layers.layers = 3;
	layers.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	layers.storage = true;
	std::vector<float> layer_values(8 * 8 * 3);
	for (size_t i = 0; i < layer_values.size(); ++i) layer_values[i] = float(i) * 0.25f - 7.0f;
	layers.data = Bytes(layer_values);
	ImageSpec volume;
	volume.format = VK_FORMAT_R8G8B8A8_SNORM;
	volume.type = VK_IMAGE_TYPE_3D;
	volume.view_type = VK_IMAGE_VIEW_TYPE_3D;
	volume.extent = {4, 4, 4};
	volume.storage = true;
	volume.data = RandomBytes(4 * 4 * 4 * 4, 4);
	for (uint8_t& b : volume.data)
		if (b == 0x80) b = 0x81;  // -128 and -127 both read -1.0
	ImageSpec cube;
	cube.format = VK_FORMAT_R8G8B8A8_UINT;
	cube.extent = {8, 8, 1};
	cube.layers = 6;
	cube.view_type = VK_IMAGE_VIEW_TYPE_CUBE;
	cube.cube_compatible = true;
	cube.storage = true;
	cube.data = RandomBytes(8 * 8 * 6 * 4, 5);
	ImageSpec counters;
	counters.format = VK_FORMAT_R32_UINT;
	counters.extent = {8, 4, 1};
	counters.storage = true;
	counters.data.assign(8 * 4 * 4, 0);
	ImageSpec signed_counters = counters;
	signed_counters.format = VK_FORMAT_R32_SINT;
	scene.images = {src, dst, layers, volume, cube, counters, signed_counters};
	scene.buffers = {std::vector<uint8_t>(256 * 16 + 4 * 16 + 256 * 4, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0}};
	for (int k = 0; k < 7; ++k) scene.bindings.push_back({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {k}});
	scene.groups[0] = scene.groups[1] = 2;
	auto [ours, reference] = RunBoth(scene);
	// Loaded RGBA8 values: exact up to lavapipe's UNORM8 conversion (one ulp,
	// see the NEAREST test); sizes and the rest exact.
	const size_t loaded_bytes = 256 * 16;
	CompareFloats(std::vector<uint8_t>(ours.buffers[0].begin(), ours.buffers[0].begin() + loaded_bytes),
	              std::vector<uint8_t>(reference.buffers[0].begin(), reference.buffers[0].begin() + loaded_bytes),
	              1e-6f);
	CHECK(std::vector<uint8_t>(ours.buffers[0].begin() + loaded_bytes, ours.buffers[0].end()) ==
	      std::vector<uint8_t>(reference.buffers[0].begin() + loaded_bytes, reference.buffers[0].end()));
	// The RGBA16F image: Vulkan 1.3 §3.9.2 lets a float-to-half conversion
	// round to nearest or toward zero (lavapipe truncates): one unit apart.
	std::vector<uint16_t> ours_halves = Values<uint16_t>(ours.images[1]),
	                      reference_halves = Values<uint16_t>(reference.images[1]);
	for (size_t i = 0; i < ours_halves.size(); ++i) {
		INFO("half " << i);
		REQUIRE(std::abs(int(ours_halves[i]) - int(reference_halves[i])) <= 1);
	}
	for (size_t k : {0, 2, 3, 4}) {
		INFO("image " << k);
		CHECK(ours.images[k] == reference.images[k]);
	}
	// Counters: the compare-exchange at (7, 3) is won by whichever invocation
	// runs first; everything else is order-independent.
	std::vector<uint32_t> a = Values<uint32_t>(ours.images[5]), b = Values<uint32_t>(reference.images[5]);
	CHECK(a[3 * 8 + 7] != 0);
	a[3 * 8 + 7] = b[3 * 8 + 7] = 0;
	CHECK(a == b);
	CHECK(a[0] == 16);           // 256 invocations over 16 texels
	CHECK(a[1 * 8 + 5] == 255);  // the maximum index
	CHECK(ours.images[6] == reference.images[6]);
}

namespace {

// The 16x16 RGBA8 texture with 5 levels that image_sample.comp reads.
ImageSpec MippedTexture(uint32_t seed) {
	ImageSpec tex;
	tex.extent = {16, 16, 1};
	tex.mips = 5;
	tex.view_type = VK_IMAGE_VIEW_TYPE_2D;
	tex.data = RandomBytes(ImageBytes(tex), seed);
	return tex;
}

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

TEST_CASE("cube maps, depth comparison, arrays, 1D and 3D textures match lavapipe", "[image]") {
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
	compare.compareOp = GENERATE(VK_COMPARE_OP_LESS, VK_COMPARE_OP_GREATER_OR_EQUAL, VK_COMPARE_OP_EQUAL);
	INFO("compare op " << compare.compareOp);
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
	auto [ours, reference] = RunBoth(scene);
	// LINEAR everywhere: the filtering tolerance (top of the file). Depth
	// comparisons filter 0/1 results with the same weights.
	CompareFloats(ours.buffers[0], reference.buffers[0], 4.0f / 256.0f);
}

TEST_CASE("descriptor arrays of images, samplers and texel buffers indexed per lane match lavapipe", "[image]") {
	Scene scene{"image_arrays.spv"};
	for (uint32_t k = 0; k < 3; ++k) {
		ImageSpec image;
		image.extent = {4, 4, 1};
		image.data = RandomBytes(4 * 4 * 4, 20 + k);
		scene.images.push_back(image);
	}
	for (uint32_t k = 0; k < 2; ++k) {
		ImageSpec storage;
		storage.format = VK_FORMAT_R32_UINT;
		storage.extent = {4, 5, 1};
		storage.storage = true;
		storage.data = Bytes(std::vector<uint32_t>(4 * 5, 100 * k));
		scene.images.push_back(storage);
	}
	scene.samplers = {Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT),
	                  Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)};
	scene.texel_buffers = {{VK_FORMAT_R8G8B8A8_UNORM, 4, false, RandomBytes(16 * 4, 30)},
	                       {VK_FORMAT_R8G8B8A8_UNORM, 4, false, RandomBytes(16 * 4, 31)}};
	scene.buffers = {std::vector<uint8_t>(12 * 4 * 4 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, {0, 1, 2}},
	                  {VK_DESCRIPTOR_TYPE_SAMPLER, {}, {0, 1}},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0, 1, 2}, {1, 1, 1}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {3, 4}},
	                  {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, {}, {}, {0, 1}}};
	scene.groups[0] = 12;
	Scene constant_indices = scene;
	constant_indices.shader = "image_arrays_constant.spv";
	auto [ours, reference] = RunBoth(scene, &constant_indices);
	CompareFloats(ours.buffers[0], reference.buffers[0], 4.0f / 256.0f);
	CHECK(ours.images[3] == reference.images[3]);
	CHECK(ours.images[4] == reference.images[4]);
}

TEST_CASE("storage images without a declared format read and write the view's format", "[image]") {
	// lavapipe 22.3 lacks shaderStorageImageReadWithoutFormat: the copies are
	// checked against their sources (every texel of these formats converts
	// to its shader value and back exactly).
	Scene scene{"image_unformatted.spv"};
	const VkFormat formats[4] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_SFLOAT,
	                             VK_FORMAT_R32_UINT};
	const uint32_t sizes[4] = {4, 8, 4, 4};
	for (uint32_t k = 0; k < 4; ++k) {
		ImageSpec src;
		src.format = formats[k];
		src.texel_size = sizes[k];
		src.extent = {8, 8, 1};
		src.storage = true;
		std::vector<float> floats(8 * 8);
		std::vector<uint16_t> halves(8 * 8 * 4);
		for (size_t i = 0; i < floats.size(); ++i) floats[i] = float(i) * 0.37f - 5.0f;
		for (size_t i = 0; i < halves.size(); ++i) halves[i] = uint16_t(0x3400 + i * 13);
		src.data = k == 1 ? Bytes(halves) : k == 2 ? Bytes(floats) : RandomBytes(8 * 8 * 4, 40 + k);
		ImageSpec dst = src;
		dst.data.assign(src.data.size(), 0);
		scene.images.push_back(src);
		scene.images.push_back(dst);
		scene.bindings.push_back({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {int(2 * k)}});
		scene.bindings.push_back({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {int(2 * k + 1)}});
	}
	Outcome ours = RunOn(Driver::Tessera, scene);
	for (uint32_t k = 0; k < 4; ++k) {
		INFO("format " << formats[k]);
		CHECK(ours.images[2 * k + 1] == scene.images[2 * k].data);
	}
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

TEST_CASE("an ETC2 texture samples as its decoded blocks", "[image]") {
	// lavapipe 22.3 has no ETC2: texelFetch must give DecodeBlock's texels
	// (tests/unit/texture/decode_etc_test.cpp checks those against the spec).
	Scene scene = CompressedScene(VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, 16, 60);
	Outcome ours = RunOn(Driver::Tessera, scene);
	const tessera::texture::FormatInfo& info = *tessera::texture::FindFormat(VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK);
	std::vector<float> got = Values<float>(ours.buffers[0]);
	const std::vector<uint8_t>& blocks = scene.images[0].data;
	for (uint32_t by = 0; by < 4; ++by)
		for (uint32_t bx = 0; bx < 4; ++bx) {
			tessera::texture::TexelValue texels[16];
			REQUIRE(tessera::texture::DecodeBlock(info, blocks.data() + (by * 4 + bx) * 16, texels));
			for (uint32_t t = 0; t < 16; ++t) {
				uint32_t x = bx * 4 + t % 4, y = by * 4 + t / 4, lane = y * 16 + x;
				for (uint32_t c = 0; c < 4; ++c) {
					INFO("texel " << x << ", " << y << " component " << c);
					REQUIRE(got[lane * 8 + c] == texels[t].f[c]);
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

TEST_CASE("views of a level range and a layer range match lavapipe", "[image]") {
	Scene scene{"image_view_range.spv"};
	ImageSpec levels = MippedTexture(90);
	levels.view_base_level = 1;
	levels.view_levels = 3;
	ImageSpec layers;
	layers.extent = {8, 8, 1};
	layers.layers = 4;
	layers.view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
	layers.view_base_layer = 1;
	layers.view_layers = 2;
	layers.data = RandomBytes(ImageBytes(layers), 91);
	ImageSpec storage;
	storage.extent = {16, 16, 1};
	storage.mips = 2;
	storage.storage = true;
	storage.view_base_level = 1;
	storage.view_levels = 1;
	storage.data = RandomBytes(ImageBytes(storage), 92);
	scene.images = {levels, layers, storage};
	scene.samplers = {Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_MIPMAP_MODE_LINEAR)};
	scene.buffers = {std::vector<uint8_t>(64 * 6 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0}, {0}},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {1}, {0}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {2}}};
	auto [ours, reference] = RunBoth(scene);
	CompareFloats(ours.buffers[0], reference.buffers[0], 4.0f / 256.0f);
	CHECK(ours.images[2] == reference.images[2]);  // level 0 untouched, level 1 written
	std::vector<float> v = Values<float>(ours.buffers[0]);
	CHECK(v[5 * 4 + 0] == 8.0f + 800.0f);  // textureSize(levels, 0) = level 1 of the image; imageSize = 8
	CHECK(v[5 * 4 + 2] == 3.0f);           // textureQueryLevels: the view's levels
	CHECK(v[5 * 4 + 3] == 2.0f);           // the view's layers
}
