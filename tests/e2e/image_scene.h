// Test support for the image shader tests (image_shader_test.cpp,
// image_sampling_test.cpp): a scene of images, samplers, texel buffers and
// storage buffers bound to one set, run through a corpus compute shader on a
// driver and read back.
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
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "compute_kernel.h"
#include "icd/vulkan_newer.h"
#include "single_set.h"
#include "texture/format.h"
#include "vk_context.h"

namespace tessera::test::image {

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
	// More than one: a multisampled storage image, cleared to zero instead of
	// uploaded and not read back (data stays empty).
	VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
	bool cube_compatible = false;
	VkImageCreateFlags flags = 0;  // more create flags
	// The view's format (UNDEFINED: the image's) and, when not 0, its usage
	// (VkImageViewUsageCreateInfo).
	VkFormat view_format = VK_FORMAT_UNDEFINED;
	VkImageUsageFlags view_usage = 0;
	VkComponentMapping swizzle{};
	// The view's subresource range (0 counts: the rest of the image).
	uint32_t view_base_level = 0, view_levels = 0, view_base_layer = 0, view_layers = 0;
	float view_min_lod = 0.0f;  // VkImageViewMinLodCreateInfoEXT when not 0 (Tessera only)
	// VkImageViewSlicedCreateInfoEXT when view_slice_count is not 0 (Tessera
	// only; the context must enable VK_EXT_image_sliced_view_of_3d).
	uint32_t view_slice_offset = 0, view_slice_count = 0;
	std::vector<uint8_t> data;  // level-major, then layer, then z, y, x, tightly packed
};

struct TexelBufferSpec {
	VkFormat format;
	uint32_t texel_size;
	bool storage;
	std::vector<uint8_t> data;
	// The view's offset into its buffer: data starts there, and the bytes
	// before it (0xab) are not part of the view. Read back without them.
	uint32_t view_offset = 0;
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

inline uint64_t LevelBytes(const ImageSpec& s, uint32_t level) {
	uint64_t w = std::max(1u, s.extent.width >> level), h = std::max(1u, s.extent.height >> level),
	         d = std::max(1u, s.extent.depth >> level);
	if (s.block_bytes) return (w + 3) / 4 * ((h + 3) / 4) * d * s.layers * s.block_bytes;  // 4x4 blocks
	return w * h * d * s.layers * s.texel_size;
}

inline uint64_t ImageBytes(const ImageSpec& s) {
	uint64_t total = 0;
	for (uint32_t l = 0; l < s.mips; ++l) total += LevelBytes(s, l);
	return total;
}

inline VkSamplerCreateInfo Sampler(VkFilter filter, VkSamplerAddressMode mode,
                                   VkSamplerMipmapMode mip = VK_SAMPLER_MIPMAP_MODE_NEAREST, float max_lod = 16.0f) {
	VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	info.magFilter = info.minFilter = filter;
	info.mipmapMode = mip;
	info.addressModeU = info.addressModeV = info.addressModeW = mode;
	info.maxLod = max_lod;
	info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
	return info;
}

// lavapipe (Mesa 22.3) lacks shaderStorageImageReadWithoutFormat,
// shaderResourceMinLod, dynamic indexing of image and texel buffer arrays
// and VK_EXT_image_view_min_lod: its runs use shaders that do not need them.
inline ContextOptions Options(Driver driver) {
	static VkPhysicalDeviceVulkan12Features features12;
	static VkPhysicalDeviceVulkan13Features features13;
	static VkPhysicalDeviceFeatures2 features;
	features12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	const bool all = driver == Driver::Tessera;
	features13.maintenance4 = VK_TRUE;       // LocalSizeId in glslang's SPIR-V 1.6
	features13.robustImageAccess = VK_TRUE;  // mandatory in 1.3; image_robust.comp
	features12.samplerMirrorClampToEdge = VK_TRUE;
	features12.shaderUniformTexelBufferArrayDynamicIndexing = all;
	features12.pNext = &features13;
	features.pNext = &features12;
	features.features.shaderStorageImageReadWithoutFormat = all;
	features.features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
	features.features.shaderStorageImageExtendedFormats = VK_TRUE;
	features.features.imageCubeArray = VK_TRUE;
	features.features.shaderImageGatherExtended = VK_TRUE;
	features.features.shaderResourceMinLod = all;
	features.features.shaderSampledImageArrayDynamicIndexing = all;
	features.features.shaderStorageImageArrayDynamicIndexing = all;
	features.features.shaderStorageImageMultisample = VK_TRUE;
	static VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT non_seamless;
	non_seamless = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT};
	non_seamless.nonSeamlessCubeMap = VK_TRUE;
	features13.pNext = &non_seamless;
	// Float atomics on R32_SFLOAT images (image_float_atomics.comp).
	static VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;
	static VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomic_float2;
	atomic_float = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
	atomic_float2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
	atomic_float.shaderImageFloat32Atomics = atomic_float.shaderImageFloat32AtomicAdd = VK_TRUE;
	atomic_float2.shaderImageFloat32AtomicMinMax = VK_TRUE;
	// 2D views of 3D images (image_2d_view_of_3d.comp).
	static VkPhysicalDeviceImage2DViewOf3DFeaturesEXT view_of_3d;
	view_of_3d = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT};
	view_of_3d.image2DViewOf3D = view_of_3d.sampler2DViewOf3D = VK_TRUE;
	static VkPhysicalDeviceImageViewMinLodFeaturesEXT min_lod;
	min_lod = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_VIEW_MIN_LOD_FEATURES_EXT};
	min_lod.minLod = VK_TRUE;
	non_seamless.pNext = &atomic_float;
	atomic_float.pNext = &atomic_float2;
	atomic_float2.pNext = &view_of_3d;
	// Texel buffer views at offsets of one texel (image_shader_test.cpp):
	// the feature of VK_EXT_texel_buffer_alignment, whose properties 1.3
	// promoted but not the feature (VUID-VkBufferViewCreateInfo-offset-02749).
	static VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT texel_alignment;
	texel_alignment = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT};
	texel_alignment.texelBufferAlignment = VK_TRUE;
	view_of_3d.pNext = &texel_alignment;
	texel_alignment.pNext = all ? &min_lod : nullptr;
	ContextOptions options;
	options.device_features = &features;
	options.device_extensions = {"VK_EXT_non_seamless_cube_map", "VK_EXT_shader_atomic_float",
	                             "VK_EXT_shader_atomic_float2", "VK_EXT_image_2d_view_of_3d",
	                             "VK_EXT_texel_buffer_alignment"};
	if (all) options.device_extensions.push_back("VK_EXT_image_view_min_lod");
	return options;
}

inline void ImageBarrier(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                         VkImageLayout to, VkPipelineStageFlags src_stage, VkAccessFlags src,
                         VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
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
inline VkImageAspectFlags BarrierAspect(const ImageSpec& s) {
	const tessera::texture::FormatInfo* info = tessera::texture::FindFormat(s.format);
	if (!info || info->IsColor()) return s.aspect;
	VkImageAspectFlags aspects = 0;
	if (info->HasDepth()) aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
	if (info->HasStencil()) aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
	return aspects;
}

inline Outcome Run(Context& ctx, const Scene& scene) {
	VkDevice device = ctx.device();
	Outcome outcome;
	// Images, their views and staging buffers.
	std::vector<TestImage> images;
	std::vector<VkImageView> views;
	std::vector<TestBuffer> staging;
	for (const ImageSpec& s : scene.images) {
		VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
		ici.flags = (s.cube_compatible ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0) | s.flags;
		ici.imageType = s.type;
		ici.format = s.format;
		ici.extent = s.extent;
		ici.mipLevels = s.mips;
		ici.arrayLayers = s.layers;
		ici.samples = s.samples;
		ici.tiling = VK_IMAGE_TILING_OPTIMAL;
		ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
		            (s.storage ? VK_IMAGE_USAGE_STORAGE_BIT : 0);
		ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
		images.push_back(ctx.CreateImage(ici));
		VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		vci.image = images.back().image;
		vci.viewType = s.view_type;
		vci.format = s.view_format != VK_FORMAT_UNDEFINED ? s.view_format : s.format;
		vci.components = s.swizzle;
		vci.subresourceRange = {s.aspect, s.view_base_level, s.view_levels ? s.view_levels : s.mips - s.view_base_level,
		                        s.view_base_layer, s.view_layers ? s.view_layers : s.layers - s.view_base_layer};
		VkImageViewMinLodCreateInfoEXT min_lod{VK_STRUCTURE_TYPE_IMAGE_VIEW_MIN_LOD_CREATE_INFO_EXT};
		min_lod.minLod = s.view_min_lod;
		if (s.view_min_lod != 0.0f) vci.pNext = &min_lod;
		VkImageViewSlicedCreateInfoEXT sliced{VK_STRUCTURE_TYPE_IMAGE_VIEW_SLICED_CREATE_INFO_EXT};
		sliced.sliceOffset = s.view_slice_offset;
		sliced.sliceCount = s.view_slice_count;
		if (s.view_slice_count) sliced.pNext = vci.pNext, vci.pNext = &sliced;
		VkImageViewUsageCreateInfo view_usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
		view_usage.usage = s.view_usage;
		if (s.view_usage) view_usage.pNext = vci.pNext, vci.pNext = &view_usage;
		VkImageView view = VK_NULL_HANDLE;
		REQUIRE(vkCreateImageView(device, &vci, nullptr, &view) == VK_SUCCESS);
		views.push_back(view);
		REQUIRE(s.data.size() == (s.samples == VK_SAMPLE_COUNT_1_BIT ? ImageBytes(s) : 0));
		staging.push_back(ctx.CreateBuffer(std::max<size_t>(s.data.size(), 4)));
		if (!s.data.empty()) std::memcpy(staging.back().data, s.data.data(), s.data.size());
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
		texel_buffers.push_back(
		    ctx.CreateBuffer(t.view_offset + t.data.size(), t.storage ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
		                                                              : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT));
		std::memset(texel_buffers.back().data, 0xab, t.view_offset);
		std::memcpy(texel_buffers.back().data + t.view_offset, t.data.data(), t.data.size());
		VkBufferViewCreateInfo bvi{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
		bvi.buffer = texel_buffers.back().buffer;
		bvi.format = t.format;
		bvi.offset = t.view_offset;
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
	VkDescriptorPool pool = VK_NULL_HANDLE;
	const VkDescriptorSet set = AllocateSingleSet(device, set_layout, sizes, &pool);
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
	VkPipeline pipeline = CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, scene.shader, pipeline_layout);
	REQUIRE(pipeline != VK_NULL_HANDLE);

	// Upload, dispatch, read back.
	std::vector<TestBuffer> readback;
	for (const ImageSpec& s : scene.images) readback.push_back(ctx.CreateBuffer(std::max<size_t>(s.data.size(), 4)));
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
			if (s.samples != VK_SAMPLE_COUNT_1_BIT) {
				const VkClearColorValue zero{};
				const VkImageSubresourceRange all{s.aspect, 0, s.mips, 0, s.layers};
				vkCmdClearColorImage(cb, images[k].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &all);
			} else {
				vkCmdCopyBufferToImage(cb, staging[k].buffer, images[k].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				                       uint32_t(r.size()), r.data());
			}
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
			if (scene.images[k].samples != VK_SAMPLE_COUNT_1_BIT) continue;  // not copyable
			auto r = regions(scene.images[k]);
			vkCmdCopyImageToBuffer(cb, images[k].image, VK_IMAGE_LAYOUT_GENERAL, readback[k].buffer, uint32_t(r.size()),
			                       r.data());
		}
		ctx.TransferBarrier(cb);
	});
	for (TestBuffer& b : buffers) outcome.buffers.emplace_back(b.data, b.data + b.size);
	for (size_t k = 0; k < readback.size(); ++k)
		outcome.images.emplace_back(readback[k].data, readback[k].data + scene.images[k].data.size());
	for (size_t k = 0; k < texel_buffers.size(); ++k)
		outcome.texel_buffers.emplace_back(texel_buffers[k].data + scene.texel_buffers[k].view_offset,
		                                   texel_buffers[k].data + texel_buffers[k].size);

	vkDestroyPipeline(device, pipeline, nullptr);
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

inline Outcome RunOn(Driver driver, const Scene& scene) {
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
inline std::pair<Outcome, Outcome> RunBoth(Drivers& drivers, const Scene& scene, const Scene* reference = nullptr) {
	Outcome a = Run(*drivers.ours, scene);
	Outcome b = Run(*drivers.reference, reference ? *reference : scene);
	return {std::move(a), std::move(b)};
}

inline std::pair<Outcome, Outcome> RunBoth(const Scene& scene, const Scene* reference = nullptr) {
	Drivers drivers;
	return RunBoth(drivers, scene, reference);
}

inline std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
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
inline std::vector<uint8_t> Bytes(const std::vector<T>& values) {
	std::vector<uint8_t> bytes(values.size() * sizeof(T));
	std::memcpy(bytes.data(), values.data(), bytes.size());
	return bytes;
}

// Floats of two runs within tolerance, reporting the first difference.
inline void CompareFloats(const std::vector<uint8_t>& ours, const std::vector<uint8_t>& reference, float tolerance,
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

// The 16x16 RGBA8 texture with 5 levels that image_sample.comp reads.
inline ImageSpec MippedTexture(uint32_t seed) {
	ImageSpec tex;
	tex.extent = {16, 16, 1};
	tex.mips = 5;
	tex.view_type = VK_IMAGE_VIEW_TYPE_2D;
	tex.data = RandomBytes(ImageBytes(tex), seed);
	return tex;
}

}  // namespace tessera::test::image
