// Pipeline cache objects: the data header of Vulkan 1.3 §10.7, checked byte
// by byte, partial reads, initial data from elsewhere, merges; compiled
// compute programs stored, read back in another device, and corrupted.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "render_scene.h"
#include "validation.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

VkPipelineCache MakeCache(VkDevice device, const void* data = nullptr, size_t size = 0) {
	VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
	info.initialDataSize = size;
	info.pInitialData = data;
	VkPipelineCache cache = VK_NULL_HANDLE;
	CHECK(vkCreatePipelineCache(device, &info, nullptr, &cache) == VK_SUCCESS);
	return cache;
}

std::vector<uint8_t> Data(VkDevice device, VkPipelineCache cache) {
	size_t size = 0;
	CHECK(vkGetPipelineCacheData(device, cache, &size, nullptr) == VK_SUCCESS);
	std::vector<uint8_t> data(size);
	CHECK(vkGetPipelineCacheData(device, cache, &size, data.data()) == VK_SUCCESS);
	data.resize(size);
	return data;
}

uint32_t Word(const std::vector<uint8_t>& data, size_t offset) {
	uint32_t value;
	std::memcpy(&value, data.data() + offset, 4);
	return value;
}

// LocalSizeId in glslang's SPIR-V 1.6 needs maintenance4; the
// FAIL_ON_PIPELINE_COMPILE_REQUIRED flag needs pipelineCreationCacheControl.
std::unique_ptr<Context> CacheContext() {
	static VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.maintenance4 = VK_TRUE;
	v13.pipelineCreationCacheControl = VK_TRUE;
	ContextOptions options;
	options.device_features = &v13;
	return Context::Create(Driver::Tessera, options);
}

constexpr VkPipelineCreateFlags kNoCompile = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;

// SAXPY (y = a * x + y over 1000 elements) through the kernel; returns y.
std::vector<float> RunSaxpy(Context& ctx, const ComputeKernel& kernel) {
	const uint32_t n = 1000;
	TestBuffer x = ctx.CreateBuffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	TestBuffer y = ctx.CreateBuffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	for (uint32_t i = 0; i < n; ++i) {
		float xi = float(i) * 0.37f, yi = 5.0f - float(i) * 0.11f;
		std::memcpy(x.data + 4 * i, &xi, 4);
		std::memcpy(y.data + 4 * i, &yi, 4);
	}
	const_cast<ComputeKernel&>(kernel).Bind(0, x.buffer);
	const_cast<ComputeKernel&>(kernel).Bind(1, y.buffer);
	struct {
		float a;
		uint32_t n;
	} push{1.75f, n};
	ctx.Submit([&](VkCommandBuffer cb) { kernel.Record(cb, &push, sizeof push, (n + 63) / 64); });
	std::vector<float> out(n);
	std::memcpy(out.data(), y.data, n * 4);
	ctx.Destroy(x);
	ctx.Destroy(y);
	// a * x + y may be fused or not (no NoContraction): close to the host's.
	for (uint32_t i = 0; i < n; ++i) {
		float host = 1.75f * (float(i) * 0.37f) + (5.0f - float(i) * 0.11f);
		INFO("element " << i);
		REQUIRE(std::fabs(out[i] - host) <= 2e-6f * std::fmax(1.0f, std::fabs(host)) + 1e-5f);
	}
	return out;
}

std::vector<uint32_t> Saxpy() { return LoadCorpusShader(TESSERA_SHADER_DIR, "saxpy.spv"); }

}  // namespace

TEST_CASE("pipeline cache data starts with the header version one", "[pipeline_cache]") {
	for (Driver driver : {Driver::Tessera, Driver::Lavapipe}) {
		CAPTURE(DriverName(driver));
		auto ctx = Context::Create(driver);
		REQUIRE(ctx);
		VkPhysicalDeviceProperties properties;
		vkGetPhysicalDeviceProperties(ctx->physical_device(), &properties);
		VkPipelineCache cache = MakeCache(ctx->device());
		std::vector<uint8_t> data = Data(ctx->device(), cache);
		REQUIRE(data.size() >= 32);
		// VkPipelineCacheHeaderVersionOne, every field in host byte order.
		CHECK(Word(data, 0) == 32);
		CHECK(Word(data, 4) == uint32_t(VK_PIPELINE_CACHE_HEADER_VERSION_ONE));
		CHECK(Word(data, 8) == properties.vendorID);
		CHECK(Word(data, 12) == properties.deviceID);
		for (size_t i = 0; i < VK_UUID_SIZE; ++i) {
			CAPTURE(i);
			CHECK(data[16 + i] == properties.pipelineCacheUUID[i]);
		}
		if (driver == Driver::Tessera) CHECK(data.size() == 32);  // nothing is cached before pipelines exist
		vkDestroyPipelineCache(ctx->device(), cache, nullptr);
		CHECK(ValidationErrors(*ctx) == 0);
	}
}

TEST_CASE("pipeline cache initial data, partial reads and merges", "[pipeline_cache]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	VkPipelineCache first = MakeCache(device);
	std::vector<uint8_t> header = Data(device, first);

	SECTION("a buffer smaller than the header gets nothing") {
		std::vector<uint8_t> small(31, 0xcd);
		size_t size = small.size();
		CHECK(vkGetPipelineCacheData(device, first, &size, small.data()) == VK_INCOMPLETE);
		CHECK(size == 0);
		for (uint8_t b : small) CHECK(b == 0xcd);
	}
	SECTION("data from this device is accepted") {
		VkPipelineCache second = MakeCache(device, header.data(), header.size());
		CHECK(Data(device, second) == header);
		vkDestroyPipelineCache(device, second, nullptr);
	}
	SECTION("data with a mismatched header is ignored, not an error") {
		for (size_t field : {0, 4, 8, 12, 16, 31}) {
			CAPTURE(field);
			std::vector<uint8_t> other = header;
			other[field] ^= 0x5a;
			other.resize(64, 0x77);  // and some bytes after it
			VkPipelineCache cache = MakeCache(device, other.data(), other.size());
			CHECK(Data(device, cache) == header);
			vkDestroyPipelineCache(device, cache, nullptr);
		}
		std::vector<uint8_t> truncated(header.begin(), header.begin() + 20);
		VkPipelineCache cache = MakeCache(device, truncated.data(), truncated.size());
		CHECK(Data(device, cache) == header);
		vkDestroyPipelineCache(device, cache, nullptr);
	}
	SECTION("merging caches") {
		VkPipelineCache a = MakeCache(device), b = MakeCache(device, header.data(), header.size());
		VkPipelineCache sources[2] = {a, b};
		CHECK(vkMergePipelineCaches(device, first, 2, sources) == VK_SUCCESS);
		CHECK(Data(device, first) == header);
		vkDestroyPipelineCache(device, a, nullptr);
		vkDestroyPipelineCache(device, b, nullptr);
	}
	vkDestroyPipelineCache(device, first, nullptr);
	CHECK(ValidationErrors(*ctx) == 0);
}

TEST_CASE("a compute pipeline is stored in the cache and read back, also in another device", "[pipeline_cache]") {
	auto first = CacheContext();
	REQUIRE(first);
	VkDevice device = first->device();
	VkPipelineCache cache = MakeCache(device);
	std::vector<float> compiled;
	{
		ComputeKernel kernel(*first, Saxpy(), 2, 0, cache);
		REQUIRE(kernel.ok());
		compiled = RunSaxpy(*first, kernel);
	}
	std::vector<uint8_t> data = Data(device, cache);
	CHECK(data.size() > 32 + 8 + 32);  // the header, then one entry: sizes, a 32-byte key, the program

	SECTION("FAIL_ON_PIPELINE_COMPILE_REQUIRED succeeds on a hit and gives the same results") {
		ComputeKernel kernel(*first, Saxpy(), 2, 0, cache, kNoCompile);
		CHECK(kernel.create_result() == VK_SUCCESS);
		REQUIRE(kernel.ok());
		CHECK(RunSaxpy(*first, kernel) == compiled);
		CHECK(Data(device, cache) == data);  // a hit adds nothing
	}
	SECTION("FAIL_ON_PIPELINE_COMPILE_REQUIRED on a miss gives VK_PIPELINE_COMPILE_REQUIRED") {
		VkPipelineCache empty = MakeCache(device);
		ComputeKernel missed(*first, Saxpy(), 2, 0, empty, kNoCompile);
		CHECK(missed.create_result() == VK_PIPELINE_COMPILE_REQUIRED);
		CHECK_FALSE(missed.ok());
		ComputeKernel uncached(*first, Saxpy(), 2, 0, VK_NULL_HANDLE, kNoCompile);
		CHECK(uncached.create_result() == VK_PIPELINE_COMPILE_REQUIRED);
		// Another shader is another key.
		ComputeKernel other(*first, LoadCorpusShader(TESSERA_SHADER_DIR, "reduce.spv"), 2, 0, cache, kNoCompile);
		CHECK(other.create_result() == VK_PIPELINE_COMPILE_REQUIRED);
		vkDestroyPipelineCache(device, empty, nullptr);
	}
	SECTION("the cache data seeds a cache in a new device, which hits") {
		auto second = CacheContext();
		REQUIRE(second);
		VkPipelineCache seeded = MakeCache(second->device(), data.data(), data.size());
		CHECK(Data(second->device(), seeded) == data);
		{
			ComputeKernel kernel(*second, Saxpy(), 2, 0, seeded, kNoCompile);
			CHECK(kernel.create_result() == VK_SUCCESS);
			REQUIRE(kernel.ok());
			CHECK(RunSaxpy(*second, kernel) == compiled);
		}
		vkDestroyPipelineCache(second->device(), seeded, nullptr);
		CHECK(ValidationErrors(*second) == 0);
	}
	SECTION("data with another pipelineCacheUUID is ignored: a miss") {
		std::vector<uint8_t> other = data;
		other[16 + 7] ^= 0x10;
		VkPipelineCache foreign = MakeCache(device, other.data(), other.size());
		CHECK(Data(device, foreign).size() == 32);
		ComputeKernel kernel(*first, Saxpy(), 2, 0, foreign, kNoCompile);
		CHECK(kernel.create_result() == VK_PIPELINE_COMPILE_REQUIRED);
		vkDestroyPipelineCache(device, foreign, nullptr);
	}
	SECTION("a corrupted entry is a miss: the pipeline is compiled again, correct, and the entry replaced") {
		// Bytes in the middle of the program, of the key, and of its digest
		// (the last 32 bytes of the entry).
		for (size_t at : {data.size() / 2 + 20, size_t(32 + 8 + 5), data.size() - 10}) {
			CAPTURE(at);
			std::vector<uint8_t> corrupted = data;
			corrupted[at] ^= 0xa5;
			corrupted[at + 1] ^= 0x5a;
			VkPipelineCache damaged = MakeCache(device, corrupted.data(), corrupted.size());
			{
				ComputeKernel no_compile(*first, Saxpy(), 2, 0, damaged, kNoCompile);
				CHECK(no_compile.create_result() == VK_PIPELINE_COMPILE_REQUIRED);
				ComputeKernel kernel(*first, Saxpy(), 2, 0, damaged);
				CHECK(kernel.create_result() == VK_SUCCESS);
				REQUIRE(kernel.ok());
				CHECK(RunSaxpy(*first, kernel) == compiled);
				ComputeKernel hit(*first, Saxpy(), 2, 0, damaged, kNoCompile);
				CHECK(hit.create_result() == VK_SUCCESS);
			}
			vkDestroyPipelineCache(device, damaged, nullptr);
		}
	}
	SECTION("an externally synchronized cache stores and hits too") {
		VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
		info.flags = VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT;
		VkPipelineCache unlocked = VK_NULL_HANDLE;
		REQUIRE(vkCreatePipelineCache(device, &info, nullptr, &unlocked) == VK_SUCCESS);
		{
			ComputeKernel kernel(*first, Saxpy(), 2, 0, unlocked);
			REQUIRE(kernel.ok());
			ComputeKernel hit(*first, Saxpy(), 2, 0, unlocked, kNoCompile);
			CHECK(hit.create_result() == VK_SUCCESS);
		}
		CHECK(Data(device, unlocked) == data);
		vkDestroyPipelineCache(device, unlocked, nullptr);
	}
	SECTION("merging brings the entry into an empty cache") {
		VkPipelineCache merged = MakeCache(device);
		CHECK(vkMergePipelineCaches(device, merged, 1, &cache) == VK_SUCCESS);
		CHECK(Data(device, merged) == data);
		vkDestroyPipelineCache(device, merged, nullptr);
	}
	vkDestroyPipelineCache(device, cache, nullptr);
	CHECK(ValidationErrors(*first) == 0);
}

namespace {

// spec.spv's module and its layout (one storage buffer), destroyed with it.
struct SpecKernel {
	explicit SpecKernel(VkDevice d) : device(d) {
		std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, "spec.spv");
		REQUIRE(!words.empty());
		VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
		smci.codeSize = words.size() * 4;
		smci.pCode = words.data();
		REQUIRE(vkCreateShaderModule(device, &smci, nullptr, &module) == VK_SUCCESS);
		VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
		                                     nullptr};
		VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
		dslci.bindingCount = 1;
		dslci.pBindings = &binding;
		REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
		VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
		plci.setLayoutCount = 1;
		plci.pSetLayouts = &set_layout;
		REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	}
	~SpecKernel() {
		vkDestroyPipelineLayout(device, layout, nullptr);
		vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
		vkDestroyShaderModule(device, module, nullptr);
	}
	SpecKernel(const SpecKernel&) = delete;
	SpecKernel& operator=(const SpecKernel&) = delete;

	VkDevice device;
	VkShaderModule module = VK_NULL_HANDLE;
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	VkPipelineLayout layout = VK_NULL_HANDLE;
};

// vkCreateComputePipelines for spec.spv (one storage buffer) with the given
// specialization; the pipeline is destroyed again, only the result counts.
VkResult CreateSpecialized(VkDevice device, VkShaderModule module, VkPipelineLayout layout, VkPipelineCache cache,
                           VkPipelineCreateFlags flags, const VkSpecializationInfo* specialization) {
	VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
	info.flags = flags;
	info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
	              nullptr,
	              0,
	              VK_SHADER_STAGE_COMPUTE_BIT,
	              module,
	              "main",
	              specialization};
	info.layout = layout;
	VkPipeline pipeline = VK_NULL_HANDLE;
	VkResult result = vkCreateComputePipelines(device, cache, 1, &info, nullptr, &pipeline);
	vkDestroyPipeline(device, pipeline, nullptr);
	return result;
}

}  // namespace

TEST_CASE("specialization constants are part of the cache key", "[pipeline_cache]") {
	auto ctx = CacheContext();
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	SpecKernel spec(device);
	const VkShaderModule module = spec.module;
	const VkPipelineLayout layout = spec.layout;
	VkPipelineCache cache = MakeCache(device);

	uint32_t scale = 3;
	VkSpecializationMapEntry entry{1, 0, 4};  // kScale
	VkSpecializationInfo specialization{1, &entry, 4, &scale};
	CHECK(CreateSpecialized(device, module, layout, cache, 0, &specialization) == VK_SUCCESS);
	CHECK(CreateSpecialized(device, module, layout, cache, kNoCompile, &specialization) == VK_SUCCESS);
	scale = 4;  // other data
	CHECK(CreateSpecialized(device, module, layout, cache, kNoCompile, &specialization) ==
	      VK_PIPELINE_COMPILE_REQUIRED);
	scale = 3;
	entry.constantID = 3;  // the same bytes for another constant (kBias)
	CHECK(CreateSpecialized(device, module, layout, cache, kNoCompile, &specialization) ==
	      VK_PIPELINE_COMPILE_REQUIRED);
	entry.constantID = 1;
	CHECK(CreateSpecialized(device, module, layout, cache, kNoCompile, nullptr) == VK_PIPELINE_COMPILE_REQUIRED);
	CHECK(CreateSpecialized(device, module, layout, cache, kNoCompile, &specialization) == VK_SUCCESS);

	vkDestroyPipelineCache(device, cache, nullptr);
	CHECK(ValidationErrors(*ctx) == 0);
}

TEST_CASE("a graphics pipeline's stages are cached: a new device draws the same from the cache data",
          "[pipeline_cache]") {
	Scene scene;
	scene.vertex_shader = "triangle.vert.spv";
	scene.fragment_shader = "triangle.frag.spv";
	const float vertices[] = {-0.8f, -0.7f, 1, 0, 0, 0.7f, -0.5f, 0, 1, 0, -0.1f, 0.8f, 0, 0, 1};
	scene.vertices.resize(sizeof vertices);
	std::memcpy(scene.vertices.data(), vertices, sizeof vertices);
	scene.vertex_stride = 5 * sizeof(float);
	scene.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32_SFLOAT, 8}};

	auto first = CacheContext();
	REQUIRE(first);
	VkPipelineCache cache = MakeCache(first->device());
	scene.pipeline_cache = cache;
	SceneResult compiled = RenderScene(*first, scene);
	std::vector<uint8_t> data = Data(first->device(), cache);
	vkDestroyPipelineCache(first->device(), cache, nullptr);
	CHECK(ValidationErrors(*first) == 0);

	auto second = CacheContext();
	REQUIRE(second);
	VkPipelineCache seeded = MakeCache(second->device(), data.data(), data.size());
	CHECK(Data(second->device(), seeded) == data);  // two entries: the vertex and the fragment stage
	scene.pipeline_cache = seeded;
	scene.pipeline_flags = kNoCompile;  // both stages must come from the cache
	SceneResult cached = RenderScene(*second, scene);
	CHECK(cached.colors == compiled.colors);
	// And the triangle is there: pixels other than the clear color (corner).
	const std::vector<uint8_t>& image = cached.colors.at(0);
	size_t drawn = 0;
	for (size_t i = 0; i + 4 <= image.size(); i += 4) drawn += std::memcmp(&image[i], &image[0], 4) != 0;
	CHECK(drawn > 500);
	vkDestroyPipelineCache(second->device(), seeded, nullptr);
	CHECK(ValidationErrors(*second) == 0);
}

TEST_CASE("pipeline creation feedback is valid and reports pipeline cache hits", "[pipeline][cache]") {
	// Vulkan 1.3 §10.13: VALID set in the pipeline's feedback and in each
	// stage's; APPLICATION_PIPELINE_CACHE_HIT when pipelineCache supplied
	// the stage (or, for the pipeline, every stage) without compiling.
	auto ctx = CacheContext();
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, "saxpy.spv");
	REQUIRE(!words.empty());
	VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
	smci.codeSize = words.size() * 4;
	smci.pCode = words.data();
	VkShaderModule module = VK_NULL_HANDLE;
	REQUIRE(vkCreateShaderModule(device, &smci, nullptr, &module) == VK_SUCCESS);
	VkDescriptorSetLayoutBinding bindings[2] = {
	    {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
	    {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
	VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
	dslci.bindingCount = 2;
	dslci.pBindings = bindings;
	VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
	REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
	VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
	VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
	plci.setLayoutCount = 1;
	plci.pSetLayouts = &set_layout;
	plci.pushConstantRangeCount = 1;
	plci.pPushConstantRanges = &range;
	VkPipelineLayout layout = VK_NULL_HANDLE;
	REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
	VkPipelineCache cache = MakeCache(device);

	auto create = [&](VkPipelineCreationFeedback* pipeline_feedback, VkPipelineCreationFeedback* stage_feedback) {
		VkPipelineCreationFeedbackCreateInfo feedback{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
		feedback.pPipelineCreationFeedback = pipeline_feedback;
		feedback.pipelineStageCreationFeedbackCount = 1;
		feedback.pPipelineStageCreationFeedbacks = stage_feedback;
		VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, &feedback};
		cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		              nullptr,
		              0,
		              VK_SHADER_STAGE_COMPUTE_BIT,
		              module,
		              "main",
		              nullptr};
		cpci.layout = layout;
		VkPipeline pipeline = VK_NULL_HANDLE;
		CHECK(vkCreateComputePipelines(device, cache, 1, &cpci, nullptr, &pipeline) == VK_SUCCESS);
		vkDestroyPipeline(device, pipeline, nullptr);
	};
	constexpr VkPipelineCreationFeedbackFlags kValid = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT;
	constexpr VkPipelineCreationFeedbackFlags kHit = VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
	VkPipelineCreationFeedback first{kHit, 0}, first_stage{kHit, 0};  // stale bits must be cleared
	create(&first, &first_stage);
	CHECK(first.flags == kValid);
	CHECK(first_stage.flags == kValid);
	CHECK(first.duration > 0);
	CHECK(first.duration >= first_stage.duration);
	VkPipelineCreationFeedback second{}, second_stage{};
	create(&second, &second_stage);
	CHECK(second.flags == (kValid | kHit));
	CHECK(second_stage.flags == (kValid | kHit));

	vkDestroyPipelineCache(device, cache, nullptr);
	vkDestroyPipelineLayout(device, layout, nullptr);
	vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	vkDestroyShaderModule(device, module, nullptr);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("a pipeline made again in the process runs the same and claims no application cache hit",
          "[pipeline_cache]") {
	// The driver keeps the stages it translated (vk/pipeline.cpp RecentStages):
	// the second vkCreateComputePipelines takes the first one's program.
	auto ctx = CacheContext();
	REQUIRE(ctx);
	VkDevice device = ctx->device();
	std::vector<float> first;
	{
		ComputeKernel kernel(*ctx, Saxpy(), 2, 0, VK_NULL_HANDLE);
		REQUIRE(kernel.ok());
		first = RunSaxpy(*ctx, kernel);
	}
	{
		ComputeKernel again(*ctx, Saxpy(), 2, 0, VK_NULL_HANDLE);
		REQUIRE(again.ok());
		CHECK(RunSaxpy(*ctx, again) == first);
	}
	// With an application cache: the stage goes into it, and creation
	// feedback does not say the application's cache held it (§10.13).
	SpecKernel spec(device);
	const VkShaderModule module = spec.module;
	const VkPipelineLayout layout = spec.layout;
	auto create = [&](VkPipelineCache cache, VkPipelineCreationFeedback* pipeline_feedback) {
		VkPipelineCreationFeedback stage_feedback{};
		VkPipelineCreationFeedbackCreateInfo feedback{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
		feedback.pPipelineCreationFeedback = pipeline_feedback;
		feedback.pipelineStageCreationFeedbackCount = 1;
		feedback.pPipelineStageCreationFeedbacks = &stage_feedback;
		VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, &feedback};
		info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		              nullptr,
		              0,
		              VK_SHADER_STAGE_COMPUTE_BIT,
		              module,
		              "main",
		              nullptr};
		info.layout = layout;
		VkPipeline pipeline = VK_NULL_HANDLE;
		CHECK(vkCreateComputePipelines(device, cache, 1, &info, nullptr, &pipeline) == VK_SUCCESS);
		CHECK(pipeline != VK_NULL_HANDLE);
		vkDestroyPipeline(device, pipeline, nullptr);
		CHECK((stage_feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT) == 0);
	};
	VkPipelineCreationFeedback made{}, again{}, into_cache{};
	create(VK_NULL_HANDLE, &made);
	create(VK_NULL_HANDLE, &again);
	VkPipelineCache cache = MakeCache(device);
	create(cache, &into_cache);
	for (const VkPipelineCreationFeedback* f : {&made, &again, &into_cache}) {
		CHECK((f->flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) != 0);
		CHECK((f->flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT) == 0);
	}
	CHECK(Data(device, cache).size() > 32 + 8 + 32);  // the stage went into the application's cache
	// And from there, FAIL_ON_PIPELINE_COMPILE_REQUIRED hits.
	CHECK(CreateSpecialized(device, module, layout, cache, kNoCompile, nullptr) == VK_SUCCESS);
	vkDestroyPipelineCache(device, cache, nullptr);
	CHECK(ValidationErrors(*ctx) == 0);
}
