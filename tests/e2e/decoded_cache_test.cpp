// Compressed and Y'CbCr views are sampled from a decoded copy that Tessera
// keeps between dispatches (texture/decoded_view_cache.h). These tests
// overwrite such an image between two samplings - in the same command buffer
// and in a later submit - and check the second sampling sees the new
// texels, not the cached copy.
//
// Values are exact: BC1 blocks of one 565 color with 5/6-bit 0 or full
// components decode to 0.0 or 1.0; the Y'CbCr view uses RGB_IDENTITY, full
// range and NEAREST filters, so a texel reads (Cr, Y', Cb, 1) as codes / 255
// (Vulkan 1.3 §16 "Sampler Y′CbCr Conversion"), within float rounding.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

namespace tessera::test {
namespace {

// Samples a combined image sampler (immutable sampler, binding 1) at every
// texel center of a width x height grid into a storage buffer (binding 0)
// with shaders/ycbcr_sample.comp; one descriptor set per output buffer.
class SampleKernel {
public:
	SampleKernel(Context& ctx, VkImageView view, VkSampler sampler, uint32_t outputs) : ctx_(ctx) {
		VkDevice device = ctx.device();
		VkDescriptorSetLayoutBinding bindings[2] = {
		    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
		    {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, &sampler}};
		VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
		lci.bindingCount = 2;
		lci.pBindings = bindings;
		REQUIRE(vkCreateDescriptorSetLayout(device, &lci, nullptr, &set_layout_) == VK_SUCCESS);
		VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
		VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
		plci.setLayoutCount = 1;
		plci.pSetLayouts = &set_layout_;
		plci.pushConstantRangeCount = 1;
		plci.pPushConstantRanges = &push_range;
		REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout_) == VK_SUCCESS);
		std::vector<uint32_t> spirv = LoadCorpusShader(TESSERA_SHADER_DIR, "ycbcr_sample.spv");
		REQUIRE(!spirv.empty());
		VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
		smci.codeSize = spirv.size() * 4;
		smci.pCode = spirv.data();
		REQUIRE(vkCreateShaderModule(device, &smci, nullptr, &module_) == VK_SUCCESS);
		VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
		cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
		cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
		cpci.stage.module = module_;
		cpci.stage.pName = "main";
		cpci.layout = layout_;
		REQUIRE(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline_) == VK_SUCCESS);
		// A Y'CbCr combined image sampler may take more than one descriptor
		// (combinedImageSamplerDescriptorCount); 3 covers every format.
		VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, outputs},
		                                 {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3 * outputs}};
		VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
		dpci.maxSets = outputs;
		dpci.poolSizeCount = 2;
		dpci.pPoolSizes = sizes;
		REQUIRE(vkCreateDescriptorPool(device, &dpci, nullptr, &pool_) == VK_SUCCESS);
		for (uint32_t k = 0; k < outputs; ++k) {
			VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
			dsai.descriptorPool = pool_;
			dsai.descriptorSetCount = 1;
			dsai.pSetLayouts = &set_layout_;
			VkDescriptorSet set = VK_NULL_HANDLE;
			REQUIRE(vkAllocateDescriptorSets(device, &dsai, &set) == VK_SUCCESS);
			sets_.push_back(set);
		}
		view_ = view;
	}
	~SampleKernel() {
		VkDevice device = ctx_.device();
		vkDestroyDescriptorPool(device, pool_, nullptr);
		vkDestroyPipeline(device, pipeline_, nullptr);
		vkDestroyShaderModule(device, module_, nullptr);
		vkDestroyPipelineLayout(device, layout_, nullptr);
		vkDestroyDescriptorSetLayout(device, set_layout_, nullptr);
	}

	void Bind(uint32_t output, VkBuffer buffer) {
		VkDescriptorBufferInfo buffer_info{buffer, 0, VK_WHOLE_SIZE};
		VkDescriptorImageInfo image_info{VK_NULL_HANDLE, view_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
		VkWriteDescriptorSet writes[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET},
		                                  {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
		writes[0].dstSet = sets_[output], writes[0].dstBinding = 0, writes[0].descriptorCount = 1;
		writes[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, writes[0].pBufferInfo = &buffer_info;
		writes[1].dstSet = sets_[output], writes[1].dstBinding = 1, writes[1].descriptorCount = 1;
		writes[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, writes[1].pImageInfo = &image_info;
		vkUpdateDescriptorSets(ctx_.device(), 2, writes, 0, nullptr);
	}

	// Samples lanes texels of the width x height grid (from texel 0) into
	// output's buffer; then a barrier to host reads.
	void Record(VkCommandBuffer cb, uint32_t output, uint32_t width, uint32_t height, uint32_t lanes) const {
		struct {
			uint32_t width, height;
			float offset[2];
		} push{width, height, {0, 0}};
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &sets_[output], 0, nullptr);
		vkCmdPushConstants(cb, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
		vkCmdDispatch(cb, (lanes + 63) / 64, 1, 1);
		VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
		                     VK_ACCESS_HOST_READ_BIT};
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0,
		                     nullptr, 0, nullptr);
	}

private:
	Context& ctx_;
	VkImageView view_ = VK_NULL_HANDLE;
	VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
	VkPipelineLayout layout_ = VK_NULL_HANDLE;
	VkShaderModule module_ = VK_NULL_HANDLE;
	VkPipeline pipeline_ = VK_NULL_HANDLE;
	VkDescriptorPool pool_ = VK_NULL_HANDLE;
	std::vector<VkDescriptorSet> sets_;
};

// Transfer writes (image in TRANSFER_DST_OPTIMAL) -> shader reads (image in
// SHADER_READ_ONLY_OPTIMAL), and back.
void ToShader(VkCommandBuffer cb, VkImage image) {
	VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
	b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
	b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
	b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	b.image = image;
	b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0,
	                     nullptr, 1, &b);
}
void ToTransfer(VkCommandBuffer cb, VkImage image) {
	VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
	b.srcAccessMask = VK_ACCESS_SHADER_READ_BIT;
	b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	b.oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
	b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
	b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
	b.image = image;
	b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
	                     nullptr, 1, &b);
}

VkImageView CreateView(Context& ctx, VkImage image, VkFormat format, const void* next = nullptr) {
	VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, next};
	vci.image = image;
	vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
	vci.format = format;
	vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	VkImageView view = VK_NULL_HANDLE;
	REQUIRE(vkCreateImageView(ctx.device(), &vci, nullptr, &view) == VK_SUCCESS);
	return view;
}

VkSampler CreateNearestSampler(Context& ctx, const void* next = nullptr) {
	VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, next};
	sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
	VkSampler sampler = VK_NULL_HANDLE;
	REQUIRE(vkCreateSampler(ctx.device(), &sci, nullptr, &sampler) == VK_SUCCESS);
	return sampler;
}

// Y'CbCr conversion on; maintenance4 for glslang's LocalSizeId.
std::unique_ptr<Context> YcbcrContext();

constexpr uint32_t kSize = 8;  // the test images are 8x8

// BC1: 2x2 blocks of one color each; color k of a set (565).
void PutBc1(uint8_t* blocks, const uint16_t colors[4]) {
	for (int k = 0; k < 4; ++k) {
		uint8_t* block = blocks + 8 * k;
		std::memset(block, 0, 8);
		std::memcpy(block, &colors[k], 2);
		std::memcpy(block + 2, &colors[k], 2);
	}
}
std::vector<float> Rgb565(uint16_t c) {
	return {float((c >> 11) & 31) / 31, float((c >> 5) & 63) / 63, float(c & 31) / 31, 1.0f};
}
void CheckBc1(const TestBuffer& out, const uint16_t colors[4]) {
	for (uint32_t y = 0; y < kSize; ++y)
		for (uint32_t x = 0; x < kSize; ++x) {
			CAPTURE(x, y);
			std::vector<float> got(4);
			std::memcpy(got.data(), out.data + (y * kSize + x) * 16, 16);
			CHECK(got == Rgb565(colors[(y / 4) * 2 + x / 4]));
		}
}

TEST_CASE("A BC1 view overwritten by copies between samplings reads the new texels", "[e2e][decoded_cache]") {
	auto ctx = YcbcrContext();
	REQUIRE(ctx);
	const VkFormat format = VK_FORMAT_BC1_RGB_UNORM_BLOCK;
	TestImage image =
	    ctx->CreateImage2D(format, kSize, kSize, VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
	TestImage other =
	    ctx->CreateImage2D(format, kSize, kSize, VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
	REQUIRE(image.image != VK_NULL_HANDLE);
	REQUIRE(other.image != VK_NULL_HANDLE);
	const uint16_t a[4] = {0xF800, 0x07E0, 0x001F, 0xFFFF};  // red, green, blue, white
	const uint16_t b[4] = {0x001F, 0xF800, 0xFFE0, 0x0000};
	const uint16_t c[4] = {0x07FF, 0x07FF, 0xF81F, 0xF800};
	TestBuffer staging = ctx->CreateBuffer(3 * 32);
	PutBc1(staging.data, a);
	PutBc1(staging.data + 32, b);
	PutBc1(staging.data + 64, c);
	VkImageView view = CreateView(*ctx, image.image, format);
	VkSampler sampler = CreateNearestSampler(*ctx);
	SampleKernel kernel(*ctx, view, sampler, 3);
	TestBuffer out[3];
	for (uint32_t k = 0; k < 3; ++k) {
		out[k] = ctx->CreateBuffer(kSize * kSize * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
		kernel.Bind(k, out[k].buffer);
	}
	auto region = [](VkDeviceSize offset) {
		return VkBufferImageCopy{offset, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {}, {kSize, kSize, 1}};
	};

	// One command buffer: upload a, sample; copy b in (vkCmdCopyImage from
	// another image), sample again.
	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		ctx->Transition(cb, other.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		VkBufferImageCopy copy_a = region(0), copy_b = region(32);
		vkCmdCopyBufferToImage(cb, staging.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy_a);
		vkCmdCopyBufferToImage(cb, staging.buffer, other.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy_b);
		ctx->Transition(cb, other.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		ToShader(cb, image.image);
		kernel.Record(cb, 0, kSize, kSize, kSize * kSize);
		ToTransfer(cb, image.image);
		VkImageCopy copy{
		    {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {}, {kSize, kSize, 1}};
		vkCmdCopyImage(cb, other.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image.image,
		               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
		ToShader(cb, image.image);
		kernel.Record(cb, 1, kSize, kSize, kSize * kSize);
	});
	CheckBc1(out[0], a);
	CheckBc1(out[1], b);
	// A later submit: copy c from the buffer, sample.
	ctx->Submit([&](VkCommandBuffer cb) {
		ToTransfer(cb, image.image);
		VkBufferImageCopy copy_c = region(64);
		vkCmdCopyBufferToImage(cb, staging.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy_c);
		ToShader(cb, image.image);
		kernel.Record(cb, 2, kSize, kSize, kSize * kSize);
	});
	CheckBc1(out[2], c);
	// Sampled again unchanged (the cached copy): still c.
	std::memset(out[0].data, 0, out[0].size);
	ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, 0, kSize, kSize, kSize * kSize); });
	CheckBc1(out[0], c);

	vkDestroySampler(ctx->device(), sampler, nullptr);
	vkDestroyImageView(ctx->device(), view, nullptr);
	for (TestBuffer& o : out) ctx->Destroy(o);
	ctx->Destroy(staging);
	ctx->Destroy(other);
	ctx->Destroy(image);
	CHECK(ctx->validation_errors() == 0);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
}

std::unique_ptr<Context> YcbcrContext() {
	static VkPhysicalDeviceVulkan11Features features11;
	static VkPhysicalDeviceVulkan13Features features13;
	features11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	features11.samplerYcbcrConversion = VK_TRUE;
	features11.pNext = &features13;
	features13.maintenance4 = VK_TRUE;  // LocalSizeId in glslang's SPIR-V 1.6
	ContextOptions options;
	options.device_features = &features11;
	return Context::Create(Driver::Tessera, options);
}

// An NV12 image of width x height sampled with RGB_IDENTITY, full range,
// NEAREST: (Cr, Y', Cb, 1) per texel.
struct Nv12Scene {
	Context& ctx;
	uint32_t width, height;
	VkSamplerYcbcrConversion conversion = VK_NULL_HANDLE;
	VkSampler sampler = VK_NULL_HANDLE;
	TestImage image;
	VkImageView view = VK_NULL_HANDLE;

	Nv12Scene(Context& c, uint32_t w, uint32_t h) : ctx(c), width(w), height(h) {
		VkSamplerYcbcrConversionCreateInfo cci{VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO};
		cci.format = VK_FORMAT_G8_B8R8_2PLANE_420_UNORM;
		cci.ycbcrModel = VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY;
		cci.ycbcrRange = VK_SAMPLER_YCBCR_RANGE_ITU_FULL;
		cci.xChromaOffset = cci.yChromaOffset = VK_CHROMA_LOCATION_COSITED_EVEN;
		cci.chromaFilter = VK_FILTER_NEAREST;
		REQUIRE(vkCreateSamplerYcbcrConversion(ctx.device(), &cci, nullptr, &conversion) == VK_SUCCESS);
		VkSamplerYcbcrConversionInfo info{VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO, nullptr, conversion};
		sampler = CreateNearestSampler(ctx, &info);
		image =
		    ctx.CreateImage2D(cci.format, width, height, VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
		REQUIRE(image.image != VK_NULL_HANDLE);
		view = CreateView(ctx, image.image, cci.format, &info);
	}
	~Nv12Scene() {
		vkDestroyImageView(ctx.device(), view, nullptr);
		ctx.Destroy(image);
		vkDestroySampler(ctx.device(), sampler, nullptr);
		vkDestroySamplerYcbcrConversion(ctx.device(), conversion, nullptr);
	}
	// Bytes of one NV12 frame in a buffer: Y' plane, then CbCr.
	VkDeviceSize FrameSize() const { return width * height + width * height / 2; }
	void PutFrame(uint8_t* data, uint32_t seed) const {
		for (uint32_t y = 0; y < height; ++y)
			for (uint32_t x = 0; x < width; ++x) data[y * width + x] = uint8_t(seed + 7 * x + 13 * y);
		uint8_t* chroma = data + width * height;
		for (uint32_t y = 0; y < height / 2; ++y)
			for (uint32_t x = 0; x < width / 2; ++x) {
				chroma[(y * width / 2 + x) * 2] = uint8_t(seed * 3 + 11 * x + y);       // Cb
				chroma[(y * width / 2 + x) * 2 + 1] = uint8_t(255 - seed - x - 5 * y);  // Cr
			}
	}
	void Upload(VkCommandBuffer cb, VkBuffer buffer, VkDeviceSize offset) const {
		VkBufferImageCopy regions[2] = {
		    {offset, 0, 0, {VK_IMAGE_ASPECT_PLANE_0_BIT, 0, 0, 1}, {}, {width, height, 1}},
		    {offset + width * height, 0, 0, {VK_IMAGE_ASPECT_PLANE_1_BIT, 0, 0, 1}, {}, {width / 2, height / 2, 1}}};
		vkCmdCopyBufferToImage(cb, buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, regions);
	}
	void Check(const TestBuffer& out, const uint8_t* frame) const {
		const uint8_t* chroma = frame + width * height;
		double max_error = 0;
		for (uint32_t y = 0; y < height; ++y)
			for (uint32_t x = 0; x < width; ++x) {
				const uint8_t* c = chroma + ((y / 2) * (width / 2) + x / 2) * 2;
				const double want[4] = {c[1] / 255.0, frame[y * width + x] / 255.0, c[0] / 255.0, 1.0};
				float got[4];
				std::memcpy(got, out.data + (y * width + x) * 16, 16);
				for (int k = 0; k < 4; ++k) max_error = std::max(max_error, std::abs(got[k] - want[k]));
			}
		CHECK(max_error < 1e-6);
	}
};

TEST_CASE("An NV12 view overwritten by copies between samplings reads the new texels", "[e2e][decoded_cache]") {
	auto ctx = YcbcrContext();
	REQUIRE(ctx);
	{
		Nv12Scene scene(*ctx, kSize, kSize);
		const VkDeviceSize frame = scene.FrameSize();
		TestBuffer staging = ctx->CreateBuffer(3 * frame);
		for (uint32_t k = 0; k < 3; ++k) scene.PutFrame(staging.data + k * frame, 20 + 40 * k);
		SampleKernel kernel(*ctx, scene.view, scene.sampler, 3);
		TestBuffer out[3];
		for (uint32_t k = 0; k < 3; ++k) {
			out[k] = ctx->CreateBuffer(kSize * kSize * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
			kernel.Bind(k, out[k].buffer);
		}
		ctx->Submit([&](VkCommandBuffer cb) {
			ctx->Transition(cb, scene.image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
			scene.Upload(cb, staging.buffer, 0);
			ToShader(cb, scene.image.image);
			kernel.Record(cb, 0, kSize, kSize, kSize * kSize);
			ToTransfer(cb, scene.image.image);
			scene.Upload(cb, staging.buffer, frame);
			ToShader(cb, scene.image.image);
			kernel.Record(cb, 1, kSize, kSize, kSize * kSize);
		});
		scene.Check(out[0], staging.data);
		scene.Check(out[1], staging.data + frame);
		ctx->Submit([&](VkCommandBuffer cb) {
			ToTransfer(cb, scene.image.image);
			scene.Upload(cb, staging.buffer, 2 * frame);
			ToShader(cb, scene.image.image);
			kernel.Record(cb, 2, kSize, kSize, kSize * kSize);
		});
		scene.Check(out[2], staging.data + 2 * frame);
		std::memset(out[0].data, 0, out[0].size);
		ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, 0, kSize, kSize, kSize * kSize); });
		scene.Check(out[0], staging.data + 2 * frame);
		for (TestBuffer& o : out) ctx->Destroy(o);
		ctx->Destroy(staging);
	}
	CHECK(ctx->validation_errors() == 0);
	for (const std::string& m : ctx->validation_messages()) UNSCOPED_INFO(m);
}

// The figure: 10 submits, each one dispatch of 64 lookups into a 1920x1080
// NV12 view (so the view's decode, not the lookups, is what costs).
TEST_CASE("10 dispatches sampling a 1080p NV12 view", "[.bench][decoded_cache]") {
	auto ctx = YcbcrContext();
	REQUIRE(ctx);
	Nv12Scene scene(*ctx, 1920, 1080);
	TestBuffer staging = ctx->CreateBuffer(scene.FrameSize());
	scene.PutFrame(staging.data, 1);
	SampleKernel kernel(*ctx, scene.view, scene.sampler, 1);
	TestBuffer out = ctx->CreateBuffer(64 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	kernel.Bind(0, out.buffer);
	ctx->Submit([&](VkCommandBuffer cb) {
		ctx->Transition(cb, scene.image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		scene.Upload(cb, staging.buffer, 0);
		ToShader(cb, scene.image.image);
	});
	auto t0 = std::chrono::steady_clock::now();
	for (int k = 0; k < 10; ++k)
		ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, 0, scene.width, scene.height, 64); });
	auto t1 = std::chrono::steady_clock::now();
	std::printf("10 dispatches sampling a 1920x1080 NV12 view: %.1f ms\n",
	            std::chrono::duration<double, std::milli>(t1 - t0).count());
	ctx->Destroy(out);
	ctx->Destroy(staging);
	CHECK(ctx->validation_errors() == 0);
}

}  // namespace
}  // namespace tessera::test
