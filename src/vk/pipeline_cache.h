// VkPipelineCache: a map from keys to opaque bytes; the pipeline stages store
// their compiled programs in it (vk/pipeline.cpp CompileStage: key = SHA-256
// of the stage's inputs, value = shader/program_serialize.h bytes). Its
// serialized form is what Vulkan 1.3 §10.7 prescribes: a header (length, VK_PIPELINE_CACHE_HEADER_VERSION_ONE,
// vendorID, deviceID, pipelineCacheUUID), then Tessera's entries:
//     uint32 key size, uint32 value size, key bytes, value bytes, padded to 4
// in key order, so the same cache always gives the same bytes.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "vk/object.h"

namespace tessera::vk {

class PhysicalDevice;

class PipelineCache : public Object<PipelineCache, VkPipelineCache, VK_OBJECT_TYPE_PIPELINE_CACHE> {
public:
	static constexpr uint32_t kHeaderSize = 16 + VK_UUID_SIZE;

	explicit PipelineCache(const PhysicalDevice& physical_device) : physical_device_(physical_device) {}

	// Loads initial data; data from another device, driver version or
	// format is ignored (§10.7: it is not an error).
	VkResult Init(const VkPipelineCacheCreateInfo& info);
	// vkGetPipelineCacheData.
	VkResult GetData(size_t* size, void* data) const;
	VkResult Merge(const PipelineCache& other);

	// For the pipeline stages. Thread-safe unless the cache was created
	// VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT.
	bool Find(const std::string& key, std::string* value) const;
	VkResult Insert(const std::string& key, const std::string& value);

private:
	void WriteHeader(uint8_t* out) const;
	bool Load(const uint8_t* data, size_t size);
	size_t SerializedSize() const;
	// Vulkan 1.3 §10.7: an externally synchronized cache needs no lock.
	std::unique_lock<std::mutex> Lock() const {
		return externally_synchronized_ ? std::unique_lock<std::mutex>() : std::unique_lock<std::mutex>(mutex_);
	}

	const PhysicalDevice& physical_device_;
	mutable std::mutex mutex_;
	bool externally_synchronized_ = false;
	std::map<std::string, std::string> entries_;
};

}  // namespace tessera::vk
