// Descriptor indexing (Vulkan 1.2 descriptorIndexing features): descriptor
// arrays indexed with nonuniformEXT, a different element in neighbouring
// lanes of one lane group. lavapipe (Mesa 22.3) reports none of these
// features, so the results are checked against values computed here: every
// read is a fetch, a NEAREST lookup or a LINEAR lookup at a texel centre, and
// every write an integer atomic, which leave the implementation no freedom.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "image_scene.h"
#include "vk_context.h"

using namespace tessera::test;
using namespace tessera::test::image;

namespace {

// Tessera with the descriptor-indexing features these tests use.
ContextOptions IndexingOptions() {
	static VkPhysicalDeviceVulkan12Features features12;
	static VkPhysicalDeviceVulkan13Features features13;
	static VkPhysicalDeviceFeatures2 features;
	features12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	features13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
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
	features12.pNext = &features13;
	features.pNext = &features12;
	features.features.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
	features.features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
	features.features.shaderSampledImageArrayDynamicIndexing = VK_TRUE;
	features.features.shaderStorageImageArrayDynamicIndexing = VK_TRUE;
	ContextOptions options;
	options.device_features = &features;
	return options;
}

std::unique_ptr<Context> IndexingContext() {
	auto ctx = Context::Create(Driver::Tessera, IndexingOptions());
	REQUIRE(ctx);
	return ctx;
}

void CheckValidation(const Context& ctx) {
	for (const std::string& m : ctx.validation_messages()) UNSCOPED_INFO(m);
	CHECK(ctx.validation_errors() == 0);
}

// One binding of an array job: a descriptor array whose element e reads
// (or writes) its own buffer of 32-bit words, elements[e]. Texel buffers are
// R32_UINT views. An element with no words is left unwritten.
struct ArrayBinding {
	VkDescriptorType type;
	std::vector<std::vector<uint32_t>> elements;
};

struct ArrayJob {
	const char* shader;
	std::vector<ArrayBinding> bindings;  // binding k = bindings[k]
	uint32_t groups = 1;
};

// Runs the job; returns every element's words afterwards.
std::vector<std::vector<std::vector<uint32_t>>> RunArrays(Context& ctx, const ArrayJob& job) {
	VkDevice device = ctx.device();
	std::vector<std::vector<TestBuffer>> buffers(job.bindings.size());
	std::vector<VkBufferView> views;
	std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
	std::vector<VkDescriptorPoolSize> sizes;
	auto usage_of = [](VkDescriptorType type) -> VkBufferUsageFlags {
		switch (type) {
		case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
		case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: return VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
		case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: return VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
		default: return VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
		}
	};
	for (uint32_t k = 0; k < job.bindings.size(); ++k) {
		const ArrayBinding& b = job.bindings[k];
		uint32_t count = uint32_t(b.elements.size());
		layout_bindings.push_back({k, b.type, count, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
		sizes.push_back({b.type, count});
		for (const std::vector<uint32_t>& words : b.elements) {
			TestBuffer buffer{};
			if (!words.empty()) {
				buffer = ctx.CreateBuffer(words.size() * 4, usage_of(b.type));
				std::memcpy(buffer.data, words.data(), words.size() * 4);
			}
			buffers[k].push_back(buffer);
		}
	}
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = uint32_t(layout_bindings.size());
	dslci.pBindings = layout_bindings.data();
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
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
	for (uint32_t k = 0; k < job.bindings.size(); ++k) {
		const ArrayBinding& b = job.bindings[k];
		for (uint32_t e = 0; e < b.elements.size(); ++e) {
			if (b.elements[e].empty()) continue;
			VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
			write.dstSet = set;
			write.dstBinding = k;
			write.dstArrayElement = e;
			write.descriptorCount = 1;
			write.descriptorType = b.type;
			VkDescriptorBufferInfo info{buffers[k][e].buffer, 0, VK_WHOLE_SIZE};
			VkBufferView view = VK_NULL_HANDLE;
			if (b.type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
			    b.type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER) {
				VkBufferViewCreateInfo bvci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
				bvci.buffer = buffers[k][e].buffer;
				bvci.format = VK_FORMAT_R32_UINT;
				bvci.range = VK_WHOLE_SIZE;
				REQUIRE(vkCreateBufferView(device, &bvci, nullptr, &view) == VK_SUCCESS);
				views.push_back(view);
				write.pTexelBufferView = &view;
			} else {
				write.pBufferInfo = &info;
			}
			vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
		}
	}
	std::vector<uint32_t> spirv = LoadCorpusShader(TESSERA_SHADER_DIR, job.shader);
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
	ctx.Submit([&](VkCommandBuffer cb) {
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
		vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, nullptr);
		vkCmdDispatch(cb, job.groups, 1, 1);
		VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
		mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
		mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0,
		                     nullptr, 0, nullptr);
	});
	std::vector<std::vector<std::vector<uint32_t>>> out(job.bindings.size());
	for (uint32_t k = 0; k < job.bindings.size(); ++k)
		for (uint32_t e = 0; e < buffers[k].size(); ++e) {
			const TestBuffer& b = buffers[k][e];
			std::vector<uint32_t> words(b.size / 4);
			if (b.data) std::memcpy(words.data(), b.data, words.size() * 4);
			out[k].push_back(words);
		}
	vkDestroyPipeline(device, pipeline, nullptr);
	vkDestroyShaderModule(device, module, nullptr);
	vkDestroyDescriptorPool(device, pool, nullptr);
	vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	for (VkBufferView v : views) vkDestroyBufferView(device, v, nullptr);
	for (auto& list : buffers)
		for (TestBuffer& b : list)
			if (b.buffer) ctx.Destroy(b);
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
	CHECK(properties.shaderSampledImageArrayNonUniformIndexingNative);
	CHECK(properties.shaderStorageBufferArrayNonUniformIndexingNative);
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
