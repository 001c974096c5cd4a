// Pipeline cache objects: the data header of Vulkan 1.3 §10.7, checked byte
// by byte, partial reads, initial data from elsewhere, merges.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

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
