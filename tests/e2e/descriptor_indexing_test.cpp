// Descriptor indexing (Vulkan 1.2 descriptorIndexing features): descriptor
// arrays indexed with nonuniformEXT, a different element in neighbouring
// lanes of one lane group. lavapipe (Mesa 22.3) reports none of these
// features, so the results are checked against values computed here: every
// read is a fetch, a NEAREST lookup or a LINEAR lookup at a texel centre, and
// every write an integer atomic, which leave the implementation no freedom.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "compute_kernel.h"
#include "descriptor_buffer.h"
#include "image_scene.h"
#include "vk_context.h"

using namespace tessera::test;
using namespace tessera::test::image;

namespace {

// Tessera with the descriptor-indexing features these tests use, and
// with descriptor_buffer VK_EXT_descriptor_buffer too.
ContextOptions IndexingOptions(bool descriptor_buffer) {
	static VkPhysicalDeviceVulkan12Features features12;
	static VkPhysicalDeviceVulkan13Features features13;
	static VkPhysicalDeviceDescriptorBufferFeaturesEXT buffer_features;
	static VkPhysicalDeviceFeatures2 features;
	features12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	buffer_features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
	features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	features13.maintenance4 = VK_TRUE;  // LocalSizeId in glslang's SPIR-V 1.6
	features12.shaderUniformTexelBufferArrayDynamicIndexing = VK_TRUE;
	features12.shaderStorageTexelBufferArrayDynamicIndexing = VK_TRUE;
	features12.shaderUniformBufferArrayNonUniformIndexing = VK_TRUE;
	features12.shaderSampledImageArrayNonUniformIndexing = VK_TRUE;
	features12.shaderStorageBufferArrayNonUniformIndexing = VK_TRUE;
	features12.shaderStorageImageArrayNonUniformIndexing = VK_TRUE;
	features12.shaderUniformTexelBufferArrayNonUniformIndexing = VK_TRUE;
	features12.shaderStorageTexelBufferArrayNonUniformIndexing = VK_TRUE;
	features12.runtimeDescriptorArray = VK_TRUE;
	features12.descriptorBindingVariableDescriptorCount = VK_TRUE;
	features12.descriptorBindingSampledImageUpdateAfterBind = VK_TRUE;
	features12.descriptorBindingStorageBufferUpdateAfterBind = VK_TRUE;
	features12.descriptorBindingUniformTexelBufferUpdateAfterBind = VK_TRUE;
	features12.descriptorBindingPartiallyBound = VK_TRUE;
	features12.descriptorBindingUpdateUnusedWhilePending = VK_TRUE;
	features12.descriptorIndexing = VK_TRUE;
	features12.pNext = &features13;
	features.pNext = &features12;
	features.features.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
	features.features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
	features.features.shaderSampledImageArrayDynamicIndexing = VK_TRUE;
	features.features.shaderStorageImageArrayDynamicIndexing = VK_TRUE;
	ContextOptions options;
	options.device_features = &features;
	if (descriptor_buffer) {
		buffer_features.descriptorBuffer = VK_TRUE;
		features13.pNext = &buffer_features;
		features12.bufferDeviceAddress = VK_TRUE;
		options.device_extensions = {VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME};
	}
	return options;
}

std::unique_ptr<Context> IndexingContext(bool descriptor_buffer = false) {
	auto ctx = Context::Create(Driver::Tessera, IndexingOptions(descriptor_buffer));
	REQUIRE(ctx);
	return ctx;
}

void CheckValidation(const Context& ctx) {
	for (const std::string& m : ctx.validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx.validation_errors() == 0);
}

// One binding of an array job: a descriptor array whose element e reads
// (or writes) its own resource made of the words elements[e]: a buffer, an
// R32_UINT texel buffer view, or for combined image samplers a 2x2 R32_UINT
// image (4 words) with a NEAREST sampler.
struct ArrayBinding {
	VkDescriptorType type;
	std::vector<std::vector<uint32_t>> elements;
	uint32_t layout_count = 0;  // the layout's descriptorCount (0: as many as elements)
	// VkDescriptorSetLayoutBindingFlagsCreateInfo. A variable-count binding
	// (the last) allocates as many descriptors as elements.
	VkDescriptorBindingFlags flags = 0;
	// Elements from unused_from on are never indexed by the shader (the push
	// constants keep its indices below): see ArrayJob::destroy_unused and
	// rewrite_unused_while_pending.
	uint32_t unused_from = UINT32_MAX;
};

struct ArrayJob {
	const char* shader;
	std::vector<ArrayBinding> bindings;  // binding k = bindings[k]
	uint32_t groups = 1;
	std::vector<uint32_t> push;
	// Update after bind: descriptors of UPDATE_AFTER_BIND bindings are first
	// written with the next element's resource, and rewritten with their own
	// after the dispatch is recorded, before submission: the dispatch must
	// see the rewrite.
	bool write_after_record = false;
	// Partially bound: the image views of unused elements are destroyed once
	// the descriptors are written, before the pipeline is created and the
	// dispatch recorded; their descriptors keep naming the destroyed views.
	bool destroy_unused = false;
	// Update unused while pending: the unused image elements are rewritten
	// (with other elements' views, round after round) from the submission
	// until its fence signals.
	bool rewrite_unused_while_pending = false;
	// The set lies in a descriptor buffer (VK_EXT_descriptor_buffer; the
	// context needs IndexingContext(true)) that ends after the descriptors a
	// variable-count binding holds, not at the layout's bound. Descriptors
	// written late (write_after_record) are rewritten in the buffer.
	bool descriptor_buffer = false;
};

// Runs the job; returns every element's words afterwards (buffers and texel
// buffers; images as uploaded).
std::vector<std::vector<std::vector<uint32_t>>> RunArrays(Context& ctx, const ArrayJob& job) {
	VkDevice device = ctx.device();
	const size_t binding_count = job.bindings.size();
	std::vector<std::vector<TestBuffer>> buffers(binding_count);
	std::vector<std::vector<VkBufferView>> texel_views(binding_count);
	std::vector<std::vector<TestImage>> images(binding_count);
	std::vector<std::vector<VkImageView>> image_views(binding_count);
	std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
	std::vector<VkDescriptorBindingFlags> flags;
	std::vector<VkDescriptorPoolSize> sizes;
	bool update_after_bind = false;
	uint32_t variable_count = 0;
	REQUIRE(!(job.descriptor_buffer && job.rewrite_unused_while_pending));
	const VkBufferUsageFlags address_usage = job.descriptor_buffer ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0;
	auto usage_of = [&](VkDescriptorType type) -> VkBufferUsageFlags {
		switch (type) {
		case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | address_usage;
		case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | address_usage;
		case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT | address_usage;
		case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return VK_BUFFER_USAGE_TRANSFER_SRC_BIT;  // staging
		default: return VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | address_usage;
		}
	};
	VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
	VkSampler sampler = VK_NULL_HANDLE;
	REQUIRE(vkCreateSampler(device, &sci, nullptr, &sampler) == VK_SUCCESS);
	for (uint32_t k = 0; k < binding_count; ++k) {
		const ArrayBinding& b = job.bindings[k];
		uint32_t count = uint32_t(b.elements.size());
		layout_bindings.push_back(
		    {k, b.type, b.layout_count ? b.layout_count : count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
		flags.push_back(b.flags);
		update_after_bind |= (b.flags & VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT) != 0;
		if (b.flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT) variable_count = count;
		sizes.push_back({b.type, layout_bindings.back().descriptorCount});
		for (const std::vector<uint32_t>& words : b.elements) {
			TestBuffer buffer = ctx.CreateBuffer(words.size() * 4, usage_of(b.type));
			std::memcpy(buffer.data, words.data(), words.size() * 4);
			buffers[k].push_back(buffer);
			if (b.type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
			    b.type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER) {
				VkBufferViewCreateInfo bvci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
				bvci.buffer = buffer.buffer;
				bvci.format = VK_FORMAT_R32_UINT;
				bvci.range = VK_WHOLE_SIZE;
				VkBufferView view = VK_NULL_HANDLE;
				REQUIRE(vkCreateBufferView(device, &bvci, nullptr, &view) == VK_SUCCESS);
				texel_views[k].push_back(view);
			} else if (b.type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) {
				REQUIRE(words.size() == 4);
				images[k].push_back(ctx.CreateImage2D(VK_FORMAT_R32_UINT, 2, 2,
				                                      VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
				VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
				vci.image = images[k].back().image;
				vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
				vci.format = VK_FORMAT_R32_UINT;
				vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
				VkImageView view = VK_NULL_HANDLE;
				REQUIRE(vkCreateImageView(device, &vci, nullptr, &view) == VK_SUCCESS);
				image_views[k].push_back(view);
			}
		}
	}
	// Images: uploaded, then read-only.
	ctx.Submit([&](VkCommandBuffer cb) {
		for (uint32_t k = 0; k < binding_count; ++k)
			for (size_t e = 0; e < images[k].size(); ++e) {
				ImageBarrier(cb, images[k][e].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
				             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
				             VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
				VkBufferImageCopy region{};
				region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
				region.imageExtent = {2, 2, 1};
				vkCmdCopyBufferToImage(cb, buffers[k][e].buffer, images[k][e].image,
				                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
				ImageBarrier(cb, images[k][e].image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
				             VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
				             VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
				             VK_ACCESS_SHADER_READ_BIT);
			}
	});

	VkDescriptorSetLayoutBindingFlagsCreateInfo flags_info{
	    VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
	flags_info.bindingCount = uint32_t(flags.size());
	flags_info.pBindingFlags = flags.data();
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, &flags_info};
	dslci.flags = job.descriptor_buffer ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT
	              : update_after_bind   ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT
	                                    : 0;
	dslci.bindingCount = uint32_t(layout_bindings.size());
	dslci.pBindings = layout_bindings.data();
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &range;
	VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &pipeline_layout) == VK_SUCCESS);
	DescriptorBuffer buffer_set;
	if (job.descriptor_buffer) {
		// A variable-count binding ends the buffer after the descriptors it
		// holds (Vulkan 1.3 §14.3.1: offset + descriptorSize * variableDescriptorCount).
		buffer_set = DescriptorBuffer(ctx, set_layout);
		if (variable_count) {
			const VkDeviceSize size = buffer_set.BindingOffset(uint32_t(binding_count - 1)) +
			                          buffer_set.Size(job.bindings.back().type) * variable_count;
			buffer_set.Destroy();
			buffer_set = DescriptorBuffer(ctx, set_layout, size);
		}
	}
	VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
	dpci.flags = update_after_bind ? VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT : 0;
	dpci.maxSets = 1;
	dpci.poolSizeCount = uint32_t(sizes.size());
	dpci.pPoolSizes = sizes.data();
	VkDescriptorPool pool = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorPool(device, &dpci, nullptr, &pool) == VK_SUCCESS);
	VkDescriptorSetVariableDescriptorCountAllocateInfo variable_info{
	    VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO};
	variable_info.descriptorSetCount = 1;
	variable_info.pDescriptorCounts = &variable_count;
	VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, &variable_info};
	dsai.descriptorPool = pool;
	dsai.descriptorSetCount = 1;
	dsai.pSetLayouts = &set_layout;
	VkDescriptorSet set = VK_NULL_HANDLE;
	if (!job.descriptor_buffer) REQUIRE(vkAllocateDescriptorSets(device, &dsai, &set) == VK_SUCCESS);
	// Writes element e of every binding (only update-after-bind ones if
	// late) with the resource of element e, or of element e + 1 if shifted.
	auto write_all = [&](bool late, bool shifted) {
		for (uint32_t k = 0; k < binding_count; ++k) {
			const ArrayBinding& b = job.bindings[k];
			// Descriptor buffers behave as update-after-bind throughout
			// (Vulkan 1.3 §14.3.2).
			const bool after_bind =
			    job.descriptor_buffer || (b.flags & VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT) != 0;
			if (late && !after_bind) continue;
			uint32_t n = uint32_t(b.elements.size());
			for (uint32_t e = 0; e < n; ++e) {
				uint32_t r = (shifted && after_bind ? e + 1 : e) % n;
				VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
				write.dstSet = set;
				write.dstBinding = k;
				write.dstArrayElement = e;
				write.descriptorCount = 1;
				write.descriptorType = b.type;
				VkDescriptorBufferInfo buffer_info{buffers[k][r].buffer, 0, VK_WHOLE_SIZE};
				VkDescriptorImageInfo image_info{};
				if (job.descriptor_buffer) {
					if (image_views[k].empty()) {
						buffer_set.PutBuffer(k, e, b.type, buffers[k][r].buffer, buffers[k][r].size,
						                     VK_FORMAT_R32_UINT);
					} else {
						image_info = {sampler, image_views[k][r], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
						buffer_set.PutImage(k, e, b.type, image_info);
					}
					continue;
				}
				if (!texel_views[k].empty()) {
					write.pTexelBufferView = &texel_views[k][r];
				} else if (!image_views[k].empty()) {
					image_info = {sampler, image_views[k][r], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
					write.pImageInfo = &image_info;
				} else {
					write.pBufferInfo = &buffer_info;
				}
				vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
			}
		}
	};
	write_all(false, job.write_after_record);
	if (job.destroy_unused)
		for (uint32_t k = 0; k < binding_count; ++k)
			for (size_t e = job.bindings[k].unused_from; e < image_views[k].size(); ++e) {
				vkDestroyImageView(device, image_views[k][e], nullptr);
				image_views[k][e] = VK_NULL_HANDLE;
			}
	// Rewrites every unused image element e with element (e + round)'s view.
	auto rewrite_unused = [&](uint32_t round) {
		for (uint32_t k = 0; k < binding_count; ++k) {
			if (job.bindings[k].type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) {
				// Buffer descriptors are copied whole when the work starts,
				// unused elements included: the race that must stay benign.
				const uint32_t n = uint32_t(buffers[k].size());
				for (uint32_t e = job.bindings[k].unused_from; e < n; ++e) {
					VkDescriptorBufferInfo buffer_info{buffers[k][(e + round) % n].buffer, 0, VK_WHOLE_SIZE};
					VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
					write.dstSet = set;
					write.dstBinding = k;
					write.dstArrayElement = e;
					write.descriptorCount = 1;
					write.descriptorType = job.bindings[k].type;
					write.pBufferInfo = &buffer_info;
					vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
				}
				continue;
			}
			const uint32_t n = uint32_t(image_views[k].size());
			for (uint32_t e = job.bindings[k].unused_from; e < n; ++e) {
				VkDescriptorImageInfo image_info{sampler, image_views[k][(e + round) % n],
				                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
				VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
				write.dstSet = set;
				write.dstBinding = k;
				write.dstArrayElement = e;
				write.descriptorCount = 1;
				write.descriptorType = job.bindings[k].type;
				write.pImageInfo = &image_info;
				vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
			}
		}
	};

	VkPipeline pipeline =
	    CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, job.shader, pipeline_layout,
	                                job.descriptor_buffer ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0);
	REQUIRE(pipeline != VK_NULL_HANDLE);
	auto record = [&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
		if (job.descriptor_buffer)
			buffer_set.Bind(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout);
		else
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, nullptr);
		if (!job.push.empty())
			vkCmdPushConstants(cb, pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(job.push.size() * 4),
			                   job.push.data());
		vkCmdDispatch(cb, job.groups, 1, 1);
		VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0,
		                     nullptr, 0, nullptr);
		// Vulkan 1.3 §14.2.1, VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT: the
		// submission uses the most recently written descriptors.
		if (job.write_after_record) write_all(true, false);
	};
	if (!job.rewrite_unused_while_pending) {
		ctx.Submit(record);
	} else {
		VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
		cpci.queueFamilyIndex = 0;  // the family of ctx.queue() (vk_context.cpp)
		VkCommandPool command_pool = VK_NULL_HANDLE;
		REQUIRE(vkCreateCommandPool(device, &cpci, nullptr, &command_pool) == VK_SUCCESS);
		VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
		cbai.commandPool = command_pool;
		cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
		cbai.commandBufferCount = 1;
		VkCommandBuffer cb = VK_NULL_HANDLE;
		REQUIRE(vkAllocateCommandBuffers(device, &cbai, &cb) == VK_SUCCESS);
		VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
		vkBeginCommandBuffer(cb, &begin);
		record(cb);
		vkEndCommandBuffer(cb);
		VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
		VkFence fence = VK_NULL_HANDLE;
		REQUIRE(vkCreateFence(device, &fci, nullptr, &fence) == VK_SUCCESS);
		VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
		si.commandBufferCount = 1;
		si.pCommandBuffers = &cb;
		REQUIRE(vkQueueSubmit(ctx.queue(), 1, &si, fence) == VK_SUCCESS);
		// Vulkan 1.3 §14.2.1, VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT:
		// descriptors the pending work does not use may be updated.
		uint32_t rounds = 0;
		do rewrite_unused(++rounds);
		while (vkGetFenceStatus(device, fence) == VK_NOT_READY);
		UNSCOPED_INFO(rounds << " rounds of rewrites while pending");
		CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS);
		vkDestroyFence(device, fence, nullptr);
		vkDestroyCommandPool(device, command_pool, nullptr);
	}
	std::vector<std::vector<std::vector<uint32_t>>> out(binding_count);
	for (uint32_t k = 0; k < binding_count; ++k)
		for (const TestBuffer& b : buffers[k]) {
			std::vector<uint32_t> words(b.size / 4);
			std::memcpy(words.data(), b.data, words.size() * 4);
			out[k].push_back(words);
		}
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyDescriptorPool(device, pool, nullptr);
	buffer_set.Destroy();
	vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	vkDestroySampler(device, sampler, nullptr);
	for (uint32_t k = 0; k < binding_count; ++k) {
		for (VkBufferView v : texel_views[k]) vkDestroyBufferView(device, v, nullptr);
		for (VkImageView v : image_views[k]) vkDestroyImageView(device, v, nullptr);
		for (TestImage& i : images[k]) ctx.Destroy(i);
		for (TestBuffer& b : buffers[k]) ctx.Destroy(b);
	}
	return out;
}

std::vector<uint32_t> Words(uint32_t count, uint32_t first, uint32_t step = 1) {
	std::vector<uint32_t> words(count);
	for (uint32_t i = 0; i < count; ++i) words[i] = first + i * step;
	return words;
}

}  // namespace

TEST_CASE("descriptor indexing: the non-uniform indexing features are reported", "[descriptor_indexing]") {
	auto ctx = IndexingContext();
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features);
	CHECK(v12.shaderUniformBufferArrayNonUniformIndexing);
	CHECK(v12.shaderSampledImageArrayNonUniformIndexing);
	CHECK(v12.shaderStorageBufferArrayNonUniformIndexing);
	CHECK(v12.shaderStorageImageArrayNonUniformIndexing);
	CHECK(v12.shaderUniformTexelBufferArrayNonUniformIndexing);
	CHECK(v12.shaderStorageTexelBufferArrayNonUniformIndexing);
	VkPhysicalDeviceDescriptorIndexingFeatures indexing{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES};
	features.pNext = &indexing;
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features);
	CHECK(indexing.shaderSampledImageArrayNonUniformIndexing == v12.shaderSampledImageArrayNonUniformIndexing);
	CHECK(indexing.runtimeDescriptorArray == v12.runtimeDescriptorArray);
	CHECK(indexing.descriptorBindingPartiallyBound == v12.descriptorBindingPartiallyBound);
	VkPhysicalDeviceDescriptorIndexingProperties properties{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES};
	VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties2);
	CHECK(properties.shaderUniformBufferArrayNonUniformIndexingNative);
	CHECK(properties.shaderSampledImageArrayNonUniformIndexingNative);
	CHECK(properties.shaderStorageBufferArrayNonUniformIndexingNative);
	CHECK(properties.shaderStorageImageArrayNonUniformIndexingNative);
	CHECK(properties.shaderInputAttachmentArrayNonUniformIndexingNative);
	// Vulkan 1.3 "Required Limits" with descriptorIndexing: at least 500000.
	CHECK(properties.maxUpdateAfterBindDescriptorsInAllPools >= 500000);
	CHECK(properties.maxPerStageDescriptorUpdateAfterBindSampledImages >= 500000);
	CHECK(properties.maxDescriptorSetUpdateAfterBindStorageBuffers >= 500000);
	CheckValidation(*ctx);
}

TEST_CASE("descriptor indexing: image, sampler and texel buffer arrays indexed non-uniformly",
          "[descriptor_indexing]") {
	Scene scene{"nonuniform_images.spv"};
	for (uint32_t k = 0; k < 4; ++k) {
		ImageSpec image;
		image.extent = {4, 4, 1};
		image.data = RandomBytes(4 * 4 * 4, 70 + k);
		scene.images.push_back(image);
	}
	for (uint32_t k = 0; k < 2; ++k) {
		ImageSpec storage;
		storage.format = VK_FORMAT_R32_UINT;
		storage.extent = {4, 4, 1};
		storage.storage = true;
		storage.data = Bytes(std::vector<uint32_t>(16, 1000 * k));
		scene.images.push_back(storage);
	}
	scene.samplers = {Sampler(VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE),
	                  Sampler(VK_FILTER_LINEAR, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)};
	scene.texel_buffers = {{VK_FORMAT_R8G8B8A8_UNORM, 4, false, RandomBytes(16 * 4, 80)},
	                       {VK_FORMAT_R8G8B8A8_UNORM, 4, false, RandomBytes(16 * 4, 81)},
	                       {VK_FORMAT_R32_UINT, 4, true, Bytes(std::vector<uint32_t>(16, 0))},
	                       {VK_FORMAT_R32_UINT, 4, true, Bytes(std::vector<uint32_t>(16, 500))}};
	const uint32_t groups = 3;
	scene.buffers = {std::vector<uint8_t>(groups * 16 * 4 * 16, 0xcd)};
	scene.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}, {}, {}, 0},
	                  {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {0, 1, 2, 3}, {0, 0, 0, 0}},
	                  {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, {0, 1, 2, 3}},
	                  {VK_DESCRIPTOR_TYPE_SAMPLER, {}, {0, 1}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {4, 5}},
	                  {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, {}, {}, {0, 1}},
	                  {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, {}, {}, {2, 3}}};
	scene.groups[0] = groups;
	auto ctx = IndexingContext();
	Outcome ours = Run(*ctx, scene);
	CheckValidation(*ctx);

	// The expected results, invocation by invocation (see the shader).
	auto texel = [&](uint32_t image, uint32_t x, uint32_t y, uint32_t c) {
		return float(scene.images[image].data[(y * 4 + x) * 4 + c]) / 255.0f;
	};
	std::vector<float> expected(groups * 16 * 4 * 4);
	std::vector<uint32_t> storage[2] = {std::vector<uint32_t>(16, 0), std::vector<uint32_t>(16, 1000)};
	std::vector<uint32_t> counters[2] = {std::vector<uint32_t>(16, 0), std::vector<uint32_t>(16, 500)};
	for (uint32_t g = 0; g < groups; ++g)
		for (uint32_t i = 0; i < 16; ++i) {
			uint32_t k = (i * 7 + g) % 4, x = i % 4, y = i / 4;
			float* v = &expected[(g * 16 + i) * 16];
			for (uint32_t c = 0; c < 4; ++c) {
				v[c] = texel(k, x, y, c);
				v[4 + c] = texel(3 - k, x, y, c);
				v[8 + c] = float(scene.texel_buffers[k % 2].data[i * 4 + c]) / 255.0f;
			}
			v[12] = float(k);
			for (uint32_t c = 0; c < 3; ++c) v[13 + c] = texel(k, x, y, c);
			storage[i % 2][y * 4 + x] += k + 1;
			counters[(i / 2) % 2][i] += g + 1;
		}
	std::vector<float> results = Values<float>(ours.buffers[0]);
	for (size_t n = 0; n < expected.size(); ++n) {
		INFO("invocation " << n / 16 << ", vec4 " << (n / 4) % 4 << ", component " << n % 4);
		REQUIRE(std::fabs(results[n] - expected[n]) <= 1e-6f);
	}
	CHECK(Values<uint32_t>(ours.images[4]) == storage[0]);
	CHECK(Values<uint32_t>(ours.images[5]) == storage[1]);
	CHECK(Values<uint32_t>(ours.texel_buffers[2]) == counters[0]);
	CHECK(Values<uint32_t>(ours.texel_buffers[3]) == counters[1]);
}

TEST_CASE("descriptor indexing: uniform and storage buffer arrays indexed non-uniformly", "[descriptor_indexing]") {
	const uint32_t groups = 4;
	ArrayJob job{"nonuniform_buffers.spv"};
	job.groups = groups;
	job.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {std::vector<uint32_t>(groups * 16 * 2, 0xcdcdcdcd)}},
	                {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, {Words(16, 100), Words(16, 200), Words(16, 300)}},
	                {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}}};
	for (uint32_t e = 0; e < 3; ++e) {
		std::vector<uint32_t> words(32, 0);
		for (uint32_t i = 0; i < 16; ++i) words[16 + i] = 1000 * (e + 1) + i;
		job.bindings[2].elements.push_back(words);
	}
	auto ctx = IndexingContext();
	auto out = RunArrays(*ctx, job);
	CheckValidation(*ctx);

	std::vector<uint32_t> expected(groups * 16 * 2);
	std::vector<std::vector<uint32_t>> ssbos = job.bindings[2].elements;
	for (uint32_t g = 0; g < groups; ++g)
		for (uint32_t i = 0; i < 16; ++i) {
			uint32_t k = (i + g) % 3, j = (i * 5 + 1) % 3;
			// std140 uvec4 x[4]: x[a][b] is word 4a + b.
			expected[(g * 16 + i) * 2] = 100 * (k + 1) + (i % 4) * 4 + i / 4;
			expected[(g * 16 + i) * 2 + 1] = 1000 * (j + 1) + i;
			ssbos[k][i] += g + 1;
		}
	CHECK(out[0][0] == expected);
	CHECK(out[2] == ssbos);
}

namespace {

// runtime_arrays.comp's job: three storage buffers (17 + e words), four
// R32_UINT texel buffers and five 2x2 R32_UINT images, over 3 workgroups.
ArrayJob RuntimeArraysJob() {
	const uint32_t groups = 3;
	ArrayJob job{"runtime_arrays.spv"};
	job.groups = groups;
	job.push = {3, 4, 5};
	job.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {std::vector<uint32_t>(groups * 16 * 6, 0xcdcdcdcd)}},
	                {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {}},
	                {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, {}},
	                {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {}}};
	for (uint32_t e = 0; e < 3; ++e) {
		std::vector<uint32_t> words = Words(17 + e, 1000 * (e + 1));
		words[16] = 0;  // the counter
		job.bindings[1].elements.push_back(words);
	}
	for (uint32_t e = 0; e < 4; ++e) job.bindings[2].elements.push_back(Words(16, 2000 * (e + 1)));
	for (uint32_t e = 0; e < 5; ++e) job.bindings[3].elements.push_back(Words(4, 3000 * (e + 1)));
	return job;
}

// What runtime_arrays.comp computes, invocation by invocation.
void CheckRuntimeArrays(const ArrayJob& job, const std::vector<std::vector<std::vector<uint32_t>>>& out) {
	std::vector<uint32_t> expected(job.groups * 16 * 6, 0xcdcdcdcd);
	std::vector<uint32_t> counters(3, 0);
	for (uint32_t g = 0; g < job.groups; ++g)
		for (uint32_t i = 0; i < 16; ++i) {
			// The push constants: how many elements of each array are indexed.
			uint32_t s = (i + g) % job.push[0], t = (i * 3 + g) % job.push[1], x = (i * 5 + g) % job.push[2];
			uint32_t* v = &expected[(g * 16 + i) * 6];
			v[0] = 1000 * (s + 1) + i;
			v[1] = 17 + s;  // the buffer's words: data.length()
			v[2] = 2000 * (t + 1) + i;
			v[3] = 3000 * (x + 1) + ((i / 2) % 2) * 2 + i % 2;
			v[4] = 3000 * 2 + i % 2 + 1000 + 15 - i;
			++counters[s];
		}
	CHECK(out[0][0] == expected);
	for (uint32_t e = 0; e < 3; ++e) {
		INFO("storage buffer " << e);
		CHECK(out[1][e][16] == counters[e]);
	}
}

}  // namespace

TEST_CASE("descriptor indexing: runtime-sized arrays of buffers, texel buffers and images", "[descriptor_indexing]") {
	ArrayJob job = RuntimeArraysJob();
	auto ctx = IndexingContext();
	auto out = RunArrays(*ctx, job);
	CheckValidation(*ctx);
	CheckRuntimeArrays(job, out);
}

TEST_CASE("descriptor indexing: a variable-count binding reads the set's own count", "[descriptor_indexing]") {
	// The layout allows 100000 images; the set holds 5. The pipeline's array
	// has 100000 slots: those past the set's 5 must not be read from memory
	// the set does not have (nor resolved: vk::ResolveResources leaves out
	// trailing slots past the set's count).
	ArrayJob job = RuntimeArraysJob();
	job.bindings[3].layout_count = 100000;
	job.bindings[3].flags = VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
	auto ctx = IndexingContext();
	auto out = RunArrays(*ctx, job);
	CheckValidation(*ctx);
	CheckRuntimeArrays(job, out);
}

TEST_CASE("descriptor indexing: runtime-sized arrays from a descriptor buffer",
          "[descriptor_indexing][descriptor_buffer]") {
	ArrayJob job = RuntimeArraysJob();
	job.descriptor_buffer = true;
	SECTION("arrays of the layout's count") {}
	SECTION("a variable-count binding whose buffer ends after its written descriptors") {
		// The layout allows 100000 images; the buffer has room for 5. No
		// descriptor past the buffer's memory may be read.
		job.bindings[3].layout_count = 100000;
		job.bindings[3].flags = VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
	}
	SECTION("descriptors rewritten in the buffer after recording") {
		job.bindings[3].layout_count = 64;
		job.bindings[3].flags = VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
		job.write_after_record = true;
	}
	auto ctx = IndexingContext(true);
	auto out = RunArrays(*ctx, job);
	CheckValidation(*ctx);
	CheckRuntimeArrays(job, out);
}

TEST_CASE("descriptor indexing: a variable-count buffer array in a descriptor buffer that ends early",
          "[descriptor_indexing][descriptor_buffer]") {
	// The layout allows 2^20 - 1 storage buffers, 32 MiB of descriptors; the
	// buffer has room for 3. Buffer descriptors are read when the dispatch
	// starts: none past the buffer's memory may be.
	ArrayJob job{"variable_buffers.spv"};
	job.push = {3};
	job.descriptor_buffer = true;
	job.bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {std::vector<uint32_t>(32, 0xcdcdcdcd)}},
	                {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {Words(16, 1000), Words(17, 2000), Words(18, 3000)}}};
	job.bindings[1].layout_count = (1u << 20) - 1;  // with binding 0: maxPerStageDescriptorStorageBuffers
	job.bindings[1].flags = VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
	auto ctx = IndexingContext(true);
	auto out = RunArrays(*ctx, job);
	CheckValidation(*ctx);
	std::vector<uint32_t> expected;
	for (uint32_t i = 0; i < 16; ++i) {
		expected.push_back(1000 * (i % 3 + 1) + i);
		expected.push_back(16 + i % 3);
	}
	CHECK(out[0][0] == expected);
}

TEST_CASE("descriptor indexing: descriptors written after bind and before submit are used", "[descriptor_indexing]") {
	// Every element is first written with the next element's resource, then
	// rewritten after the dispatch is recorded: a driver that resolved
	// descriptors while recording would read the first writes.
	ArrayJob job = RuntimeArraysJob();
	for (uint32_t k = 1; k < 4; ++k) job.bindings[k].flags = VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT;
	job.bindings[3].flags |= VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
	job.bindings[3].layout_count = 64;
	job.write_after_record = true;
	auto ctx = IndexingContext();
	auto out = RunArrays(*ctx, job);
	CheckValidation(*ctx);
	CheckRuntimeArrays(job, out);
}

TEST_CASE("descriptor indexing: partially bound, unused elements name destroyed image views", "[descriptor_indexing]") {
	// runtime_arrays.comp indexes textures[] below its push constant (2
	// here) and reads textures[1]: elements 2..4 are written, then their
	// views destroyed before the pipeline is created. With PARTIALLY_BOUND
	// (Vulkan 1.3 §14.2.1) those descriptors are not valid and must not be
	// touched. A driver that resolves every element of the array before the
	// shader runs (Tessera before vk::LazyImages: each slot below the set's
	// count was resolved, dereferencing its ImageView) reads the freed view
	// objects: a heap-use-after-free under the ASan build, and without ASan
	// garbage once their memory is reused by the objects created after them
	// (pipeline, command buffer). That driver crashed here (SIGSEGV) in the
	// RelWithDebInfo build, with or without MALLOC_PERTURB_.
	ArrayJob job = RuntimeArraysJob();
	job.push[2] = 2;
	job.bindings[3].unused_from = 2;
	job.destroy_unused = true;
	SECTION("a runtime-sized array of the layout's count") {
		job.bindings[3].flags = VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT;
	}
	SECTION("a variable-count binding") {
		job.bindings[3].flags =
		    VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT | VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
		job.bindings[3].layout_count = 64;
	}
	auto ctx = IndexingContext();
	auto out = RunArrays(*ctx, job);
	CheckValidation(*ctx);
	CheckRuntimeArrays(job, out);
}

TEST_CASE("descriptor indexing: unused elements rewritten while the dispatch is pending", "[descriptor_indexing]") {
	// Elements 2..4 of textures[] are not used (the push constant is 2); the
	// host rewrites them from the submission until the fence signals
	// (UPDATE_UNUSED_WHILE_PENDING). The dispatch must read only elements 0
	// and 1, and is long enough (512 workgroups) for rewrites to overlap it.
	ArrayJob job = RuntimeArraysJob();
	job.groups = 512;
	job.bindings[0].elements[0].assign(job.groups * 16 * 6, 0xcdcdcdcd);
	job.push[2] = 2;
	job.bindings[3].unused_from = 2;
	// UPDATE_AFTER_BIND too: the validation layer (1.3.239) reports
	// VUID-vkUpdateDescriptorSets-None-03047 for a write to a pending set's
	// binding without it, whatever UPDATE_UNUSED_WHILE_PENDING says. The
	// rewritten elements are unused, which both flags allow.
	job.bindings[3].flags =
	    VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT | VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT;
	job.rewrite_unused_while_pending = true;
	auto ctx = IndexingContext();
	auto out = RunArrays(*ctx, job);
	CheckValidation(*ctx);
	CheckRuntimeArrays(job, out);
}

TEST_CASE("descriptor indexing: unused buffer elements rewritten while the dispatch is pending",
          "[descriptor_indexing][threads]") {
	// As above for a storage buffer array: element 2 of data[] is unused (the
	// push constant is 2) and rewritten from the submission until the fence
	// signals, while the queue thread copies the binding's descriptors. Under
	// ThreadSanitizer (./build.sh test) this is the race that must be benign.
	ArrayJob job = RuntimeArraysJob();
	job.groups = 512;
	job.bindings[0].elements[0].assign(job.groups * 16 * 6, 0xcdcdcdcd);
	job.push[0] = 2;
	job.bindings[1].unused_from = 2;
	job.bindings[1].flags =
	    VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT | VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT;
	job.rewrite_unused_while_pending = true;
	auto ctx = IndexingContext();
	auto out = RunArrays(*ctx, job);
	CheckValidation(*ctx);
	CheckRuntimeArrays(job, out);
}

TEST_CASE("descriptor indexing: every descriptor-indexing feature, the aggregate and the extension are reported",
          "[descriptor_indexing]") {
	auto ctx = IndexingContext();
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &features);
	CHECK(v12.runtimeDescriptorArray);
	CHECK(v12.descriptorBindingVariableDescriptorCount);
	CHECK(v12.descriptorBindingSampledImageUpdateAfterBind);
	CHECK(v12.descriptorBindingStorageImageUpdateAfterBind);
	CHECK(v12.descriptorBindingStorageBufferUpdateAfterBind);
	CHECK(v12.descriptorBindingUniformTexelBufferUpdateAfterBind);
	CHECK(v12.descriptorBindingStorageTexelBufferUpdateAfterBind);
	CHECK(v12.descriptorBindingPartiallyBound);
	CHECK(v12.descriptorBindingUpdateUnusedWhilePending);
	// Vulkan 1.3 "Feature Requirements": descriptorIndexing requires these.
	CHECK(v12.descriptorIndexing);
	CHECK(features.features.shaderSampledImageArrayDynamicIndexing);
	CHECK(features.features.shaderStorageBufferArrayDynamicIndexing);
	CHECK(v12.shaderUniformTexelBufferArrayDynamicIndexing);
	CHECK(v12.shaderStorageTexelBufferArrayDynamicIndexing);
	CHECK(v12.shaderSampledImageArrayNonUniformIndexing);
	CHECK(v12.shaderStorageBufferArrayNonUniformIndexing);
	CHECK(v12.shaderUniformTexelBufferArrayNonUniformIndexing);
	// The extension's structure (an alias of the core one) answers the same.
	VkPhysicalDeviceDescriptorIndexingFeaturesEXT ext{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES_EXT};
	VkPhysicalDeviceFeatures2 ext_features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &ext};
	vkGetPhysicalDeviceFeatures2(ctx->physical_device(), &ext_features);
	CHECK(ext.descriptorBindingPartiallyBound);
	CHECK(ext.descriptorBindingUpdateUnusedWhilePending);
	CHECK(ext.runtimeDescriptorArray);
	CHECK(ext.descriptorBindingVariableDescriptorCount);
	uint32_t count = 0;
	vkEnumerateDeviceExtensionProperties(ctx->physical_device(), nullptr, &count, nullptr);
	std::vector<VkExtensionProperties> extensions(count);
	vkEnumerateDeviceExtensionProperties(ctx->physical_device(), nullptr, &count, extensions.data());
	bool listed = false;
	for (const VkExtensionProperties& e : extensions)
		listed |= std::string(e.extensionName) == VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME;
	CHECK(listed);
	CheckValidation(*ctx);
}

TEST_CASE("descriptor indexing: a device created with VK_EXT_descriptor_indexing", "[descriptor_indexing]") {
	// A Vulkan 1.1 application enables the extension and its features
	// through the EXT structure.
	VkPhysicalDeviceDescriptorIndexingFeaturesEXT indexing{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES_EXT};
	indexing.runtimeDescriptorArray = VK_TRUE;
	indexing.descriptorBindingPartiallyBound = VK_TRUE;
	indexing.descriptorBindingUpdateUnusedWhilePending = VK_TRUE;
	indexing.shaderSampledImageArrayNonUniformIndexing = VK_TRUE;
	ContextOptions options;
	options.api_version = VK_API_VERSION_1_1;
	options.device_extensions = {VK_EXT_DESCRIPTOR_INDEXING_EXTENSION_NAME};
	options.device_features = &indexing;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	VkPhysicalDeviceDescriptorIndexingPropertiesEXT properties{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties};
	vkGetPhysicalDeviceProperties2(ctx->physical_device(), &properties2);
	CHECK(properties.maxUpdateAfterBindDescriptorsInAllPools >= 500000);
	CheckValidation(*ctx);
}
