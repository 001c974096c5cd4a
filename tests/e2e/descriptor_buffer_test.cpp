// VK_EXT_descriptor_buffer through the loader: descriptors placed in buffers
// with vkGetDescriptorEXT at the offsets vkGetDescriptorSetLayoutBindingOffsetEXT
// gives, bound with vkCmdBindDescriptorBuffersEXT and
// vkCmdSetDescriptorBufferOffsetsEXT; an embedded immutable sampler set
// (vkCmdBindDescriptorBufferEmbeddedSamplersEXT); a push descriptor set beside
// them (descriptorBufferPushDescriptors). Mutable bindings in a descriptor
// buffer are tested in mutable_descriptor_test.cpp, runtime-sized and
// variable-count arrays in descriptor_indexing_test.cpp, the graphics bind
// point in texture_scene_test.cpp. Debian's
// lavapipe 22.3 lacks the extension, so results are checked against the
// values the test put in, and against the same work bound as descriptor sets.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "descriptor_buffer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

constexpr uint32_t kInvocations = 16;

// The features the tests use, on Tessera (skips elsewhere are not needed:
// only Tessera runs here).
struct DescriptorBufferContext {
	std::unique_ptr<Context> ctx;
	VkPhysicalDeviceDescriptorBufferPropertiesEXT props{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT};
	PFN_vkGetDescriptorSetLayoutSizeEXT layout_size = nullptr;
	PFN_vkGetDescriptorSetLayoutBindingOffsetEXT binding_offset = nullptr;
	PFN_vkCmdBindDescriptorBuffersEXT bind_buffers = nullptr;
	PFN_vkCmdSetDescriptorBufferOffsetsEXT set_offsets = nullptr;
	PFN_vkCmdBindDescriptorBufferEmbeddedSamplersEXT bind_embedded = nullptr;
	PFN_vkCmdPushDescriptorSetKHR push = nullptr;

	static DescriptorBufferContext Create() {
		DescriptorBufferContext c;
		VkPhysicalDeviceDescriptorBufferFeaturesEXT supported{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
		{
			auto probe = Context::Create(Driver::Tessera);
			REQUIRE(probe);
			VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
			vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
			REQUIRE(supported.descriptorBuffer == VK_TRUE);
			REQUIRE(supported.descriptorBufferPushDescriptors == VK_TRUE);
		}
		static VkPhysicalDeviceDescriptorBufferFeaturesEXT descriptor_buffer{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
		descriptor_buffer.descriptorBuffer = VK_TRUE;
		descriptor_buffer.descriptorBufferPushDescriptors = VK_TRUE;
		static VkPhysicalDeviceMutableDescriptorTypeFeaturesEXT mutable_features{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MUTABLE_DESCRIPTOR_TYPE_FEATURES_EXT, &descriptor_buffer};
		mutable_features.mutableDescriptorType = VK_TRUE;
		static VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		                                            &mutable_features};
		v13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
		v13.inlineUniformBlock = VK_TRUE;
		static VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
		v12.bufferDeviceAddress = VK_TRUE;
		v12.descriptorBindingVariableDescriptorCount = VK_TRUE;
		v12.runtimeDescriptorArray = VK_TRUE;
		v12.shaderStorageBufferArrayNonUniformIndexing = VK_TRUE;
		static VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
		ContextOptions options;
		options.device_features = &features;
		options.device_extensions = {VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME,
		                             VK_EXT_MUTABLE_DESCRIPTOR_TYPE_EXTENSION_NAME,
		                             VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
		c.ctx = Context::Create(Driver::Tessera, options);
		REQUIRE(c.ctx);
		VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &c.props};
		vkGetPhysicalDeviceProperties2(c.ctx->physical_device(), &p2);
		c.layout_size = c.ctx->Proc<PFN_vkGetDescriptorSetLayoutSizeEXT>("vkGetDescriptorSetLayoutSizeEXT");
		c.binding_offset =
		    c.ctx->Proc<PFN_vkGetDescriptorSetLayoutBindingOffsetEXT>("vkGetDescriptorSetLayoutBindingOffsetEXT");
		c.bind_buffers = c.ctx->Proc<PFN_vkCmdBindDescriptorBuffersEXT>("vkCmdBindDescriptorBuffersEXT");
		c.set_offsets = c.ctx->Proc<PFN_vkCmdSetDescriptorBufferOffsetsEXT>("vkCmdSetDescriptorBufferOffsetsEXT");
		c.bind_embedded = c.ctx->Proc<PFN_vkCmdBindDescriptorBufferEmbeddedSamplersEXT>(
		    "vkCmdBindDescriptorBufferEmbeddedSamplersEXT");
		c.push = c.ctx->Proc<PFN_vkCmdPushDescriptorSetKHR>("vkCmdPushDescriptorSetKHR");
		REQUIRE(c.layout_size);
		REQUIRE(c.binding_offset);
		REQUIRE(c.bind_buffers);
		REQUIRE(c.set_offsets);
		REQUIRE(c.bind_embedded);
		REQUIRE(c.push);
		return c;
	}
};

VkPipeline CreatePipeline(VkDevice device, const char* shader, VkPipelineLayout layout) {
	return CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, shader, layout,
	                                   VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT);
}

VkDescriptorSetLayout CreateLayout(VkDevice device, VkDescriptorSetLayoutCreateFlags flags,
                                   const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                                   const void* next = nullptr) {
	VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, next};
	info.flags = flags;
	info.bindingCount = uint32_t(bindings.size());
	info.pBindings = bindings.data();
	VkDescriptorSetLayout layout = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout) == VK_SUCCESS);
	return layout;
}

void ComputeToHostBarrier(VkCommandBuffer cb) {
	VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
	mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
	mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0,
	                     nullptr);
}

}  // namespace

TEST_CASE("Every descriptor type reads from a descriptor buffer, beside embedded samplers and push descriptors",
          "[descriptors][descriptor_buffer]") {
	DescriptorBufferContext c = DescriptorBufferContext::Create();
	Context& ctx = *c.ctx;
	VkDevice device = ctx.device();
	CHECK(c.props.combinedImageSamplerDescriptorSingleArray == VK_TRUE);
	CHECK(c.props.bufferlessPushDescriptors == VK_TRUE);
	CHECK(c.props.maxDescriptorBufferBindings >= 3);  // the spec's minimum
	CHECK(c.props.maxEmbeddedImmutableSamplers >= 2032);

	auto words = [](uint32_t seed, uint32_t count) {
		std::vector<uint32_t> w;
		for (uint32_t i = 0; i < count; ++i) w.push_back(seed * 1000 + 7 * i + 1);
		return w;
	};
	auto buffer_of = [&](const std::vector<uint32_t>& w, VkBufferUsageFlags usage) {
		TestBuffer buffer = ctx.CreateBuffer(w.size() * 4, usage | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
		std::memcpy(buffer.data, w.data(), w.size() * 4);
		return buffer;
	};
	const std::vector<uint32_t> params = words(1, 16), a = words(2, 16), b = words(3, 16), texels = words(4, 16),
	                            storage_texels = words(5, 16), pixels = words(6, 16), storage_pixels = words(7, 16),
	                            inline_words = words(8, 4);
	TestBuffer params_buffer = buffer_of(params, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
	TestBuffer a_buffer = buffer_of(a, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer b_buffer = buffer_of(b, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer texel_buffer = buffer_of(texels, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
	TestBuffer storage_texel_buffer = buffer_of(storage_texels, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
	TestBuffer staging = buffer_of(pixels, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
	TestBuffer storage_staging = buffer_of(storage_pixels, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
	TestBuffer out =
	    buffer_of(std::vector<uint32_t>(kInvocations * 8, 0xcdcdcdcdu), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);

	// A sampled 4x4 image and a storage one, filled from the staging buffers.
	TestImage image =
	    ctx.CreateImage2D(VK_FORMAT_R32_UINT, 4, 4, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
	TestImage storage_image =
	    ctx.CreateImage2D(VK_FORMAT_R32_UINT, 4, 4, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
	const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {4, 4, 1}};
	ctx.Submit([&](VkCommandBuffer cb) {
		for (auto [img, src] : {std::pair{&image, &staging}, std::pair{&storage_image, &storage_staging}}) {
			ctx.Transition(cb, img->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			vkCmdCopyBufferToImage(cb, src->buffer, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
			ctx.Transition(cb, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL);
		}
	});
	auto view_of = [&](VkImage img) {
		VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
		vci.image = img;
		vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
		vci.format = VK_FORMAT_R32_UINT;
		vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		VkImageView view = VK_NULL_HANDLE;
		REQUIRE(vkCreateImageView(device, &vci, nullptr, &view) == VK_SUCCESS);
		return view;
	};
	VkImageView image_view = view_of(image.image), storage_view = view_of(storage_image.image);
	VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
	sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
	sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
	VkSampler sampler = VK_NULL_HANDLE;
	REQUIRE(vkCreateSampler(device, &sci, nullptr, &sampler) == VK_SUCCESS);

	constexpr VkShaderStageFlags kCompute = VK_SHADER_STAGE_COMPUTE_BIT;
	VkDescriptorSetLayout resources =
	    CreateLayout(device, VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
	                 {{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, kCompute, nullptr},
	                  {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, kCompute, nullptr},
	                  {2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, kCompute, nullptr},
	                  {3, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1, kCompute, nullptr},
	                  {4, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, kCompute, nullptr},
	                  {5, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, kCompute, nullptr},
	                  {6, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, kCompute, nullptr},
	                  {7, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16, kCompute, nullptr}});
	VkDescriptorSetLayout embedded =
	    CreateLayout(device,
	                 VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT |
	                     VK_DESCRIPTOR_SET_LAYOUT_CREATE_EMBEDDED_IMMUTABLE_SAMPLERS_BIT_EXT,
	                 {{0, VK_DESCRIPTOR_TYPE_SAMPLER, 1, kCompute, &sampler}});
	// A pipeline layout's sets are all for descriptor buffers or none
	// (VUID-VkPipelineLayoutCreateInfo-pSetLayouts-08008), the push set too.
	VkDescriptorSetLayout pushed = CreateLayout(device,
	                                            VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR |
	                                                VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
	                                            {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr}});
	const VkDescriptorSetLayout set_layouts[3] = {resources, embedded, pushed};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 3;
	plci.pSetLayouts = set_layouts;
	VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &pipeline_layout) == VK_SUCCESS);
	VkPipeline pipeline = CreatePipeline(device, "descriptor_buffer.spv", pipeline_layout);
	REQUIRE(pipeline != VK_NULL_HANDLE);

	// The layout's size covers its descriptors, and its bindings lie in order.
	VkDeviceSize set_size = 0;
	c.layout_size(device, resources, &set_size);
	VkDeviceSize previous = 0;
	for (uint32_t binding = 1; binding < 8; ++binding) {
		VkDeviceSize offset = 0;
		c.binding_offset(device, resources, binding, &offset);
		CHECK(offset > previous);
		previous = offset;
	}
	CHECK(set_size >= previous + 16);

	// Two descriptor buffers: the set lies at an offset in the second, the
	// first holds garbage that must not be read.
	const VkDeviceSize set_offset = 4 * c.props.descriptorBufferOffsetAlignment;
	TestBuffer filler = ctx.CreateBuffer(256, kDescriptorBufferUsage);
	std::memset(filler.data, 0xab, 256);
	DescriptorBuffer descriptors(ctx, resources, set_size, set_offset, 0xee);
	descriptors.PutBuffer(0, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, params_buffer.buffer, params_buffer.size);
	descriptors.PutBuffer(1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, a_buffer.buffer, a_buffer.size);
	descriptors.PutBuffer(1, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, b_buffer.buffer, b_buffer.size);
	descriptors.PutBuffer(2, 0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, texel_buffer.buffer, texel_buffer.size,
	                      VK_FORMAT_R32_UINT);
	descriptors.PutBuffer(3, 0, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, storage_texel_buffer.buffer,
	                      storage_texel_buffer.size, VK_FORMAT_R32_UINT);
	descriptors.PutImage(4, 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, {VK_NULL_HANDLE, image_view, VK_IMAGE_LAYOUT_GENERAL});
	descriptors.PutImage(5, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	                     {sampler, image_view, VK_IMAGE_LAYOUT_GENERAL});
	descriptors.PutImage(6, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
	                     {VK_NULL_HANDLE, storage_view, VK_IMAGE_LAYOUT_GENERAL});
	std::memcpy(descriptors.SetData() + descriptors.BindingOffset(7), inline_words.data(), 16);

	ctx.Submit([&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
		VkDescriptorBufferBindingInfoEXT buffers[2] = {};
		for (VkDescriptorBufferBindingInfoEXT& info : buffers) {
			info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT;
			info.usage = kDescriptorBufferUsage;
		}
		buffers[0].address = DeviceAddress(device, filler.buffer);
		buffers[1].address = DeviceAddress(device, descriptors.buffer());
		c.bind_buffers(cb, 2, buffers);
		const uint32_t index = 1;
		c.set_offsets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &index, &set_offset);
		c.bind_embedded(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 1);
		const VkDescriptorBufferInfo out_info{out.buffer, 0, VK_WHOLE_SIZE};
		VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
		write.dstBinding = 0;
		write.descriptorCount = 1;
		write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
		write.pBufferInfo = &out_info;
		c.push(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 2, 1, &write);
		vkCmdDispatch(cb, 1, 1, 1);
		ComputeToHostBarrier(cb);
	});

	const auto* result = reinterpret_cast<const uint32_t*>(out.data);
	const auto* texels_after = reinterpret_cast<const uint32_t*>(storage_texel_buffer.data);
	for (uint32_t i = 0; i < kInvocations; ++i) {
		INFO("invocation " << i);
		CHECK(result[i * 8 + 0] == params[i]);
		CHECK(result[i * 8 + 1] == a[i] + b[i]);
		CHECK(result[i * 8 + 2] == texels[i]);
		CHECK(result[i * 8 + 3] == storage_texels[i]);
		CHECK(texels_after[i] == i * 3);
		CHECK(result[i * 8 + 4] == pixels[i]);
		CHECK(result[i * 8 + 5] == pixels[i]);
		CHECK(result[i * 8 + 6] == pixels[i]);
		CHECK(result[i * 8 + 7] == storage_pixels[i] + inline_words[i % 4]);
	}
	CHECK(ctx.validation_errors() == 0);

	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
	for (VkDescriptorSetLayout layout : set_layouts) vkDestroyDescriptorSetLayout(device, layout, nullptr);
	vkDestroySampler(device, sampler, nullptr);
	vkDestroyImageView(device, image_view, nullptr);
	vkDestroyImageView(device, storage_view, nullptr);
	ctx.Destroy(image);
	ctx.Destroy(storage_image);
	descriptors.Destroy();
	for (TestBuffer* buffer : {&params_buffer, &a_buffer, &b_buffer, &texel_buffer, &storage_texel_buffer, &staging,
	                           &storage_staging, &out, &filler})
		ctx.Destroy(*buffer);
}
