#include "vk/pipeline_cache.h"

#include <cstring>

#include "vk/device.h"
#include "vk/physical_device.h"

namespace tessera::vk {

namespace {

size_t Padded(size_t size) { return (size + 3) & ~size_t(3); }
size_t EntrySize(const std::string& key, const std::string& value) { return 8 + Padded(key.size() + value.size()); }

void Put32(uint8_t* out, uint32_t value) { std::memcpy(out, &value, 4); }
uint32_t Get32(const uint8_t* in) {
	uint32_t value;
	std::memcpy(&value, in, 4);
	return value;
}

}  // namespace

void PipelineCache::WriteHeader(uint8_t* out) const {
	// Vulkan 1.3 §10.7, VkPipelineCacheHeaderVersionOne: every field is
	// written in the host's byte order (Tessera runs on little-endian hosts).
	const VkPhysicalDeviceProperties& properties = physical_device_.Properties();
	Put32(out + 0, kHeaderSize);
	Put32(out + 4, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
	Put32(out + 8, properties.vendorID);
	Put32(out + 12, properties.deviceID);
	std::memcpy(out + 16, properties.pipelineCacheUUID, VK_UUID_SIZE);
}

bool PipelineCache::Load(const uint8_t* data, size_t size) {
	uint8_t header[kHeaderSize];
	WriteHeader(header);
	if (size < kHeaderSize || std::memcmp(data, header, kHeaderSize) != 0) return false;
	std::map<std::string, std::string> loaded;
	for (size_t at = kHeaderSize; at < size;) {
		if (size - at < 8) return false;
		uint64_t key_size = Get32(data + at), value_size = Get32(data + at + 4);
		if (Padded(key_size + value_size) > size - at - 8) return false;
		const char* key = reinterpret_cast<const char*>(data + at + 8);
		loaded.emplace(std::string(key, key_size), std::string(key + key_size, value_size));
		at += 8 + Padded(key_size + value_size);
	}
	entries_ = std::move(loaded);
	return true;
}

VkResult PipelineCache::Init(const VkPipelineCacheCreateInfo& info) {
	// VK_PIPELINE_CACHE_CREATE_INTERNALLY_SYNCHRONIZED_MERGE_BIT_KHR
	// (maintenance8) asks that a merge into the cache need no external lock:
	// without EXTERNALLY_SYNCHRONIZED every access locks, merges included.
	externally_synchronized_ = info.flags & VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT;
	if (info.initialDataSize == 0) return VK_SUCCESS;
	try {
		// A mismatched or truncated blob leaves the cache empty.
		Load(static_cast<const uint8_t*>(info.pInitialData), info.initialDataSize);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

size_t PipelineCache::SerializedSize() const {
	size_t size = kHeaderSize;
	for (const auto& [key, value] : entries_) size += EntrySize(key, value);
	return size;
}

VkResult PipelineCache::GetData(size_t* size, void* data) const {
	auto lock = Lock();
	if (!data) {
		*size = SerializedSize();
		return VK_SUCCESS;
	}
	// Vulkan 1.3 §10.7: too small for the header writes nothing and returns
	// 0 bytes; otherwise write what fits in whole entries, VK_INCOMPLETE if
	// that is not everything.
	if (*size < kHeaderSize) {
		*size = 0;
		return VK_INCOMPLETE;
	}
	auto* out = static_cast<uint8_t*>(data);
	WriteHeader(out);
	size_t written = kHeaderSize;
	for (const auto& [key, value] : entries_) {
		size_t entry = EntrySize(key, value);
		if (entry > *size - written) {
			*size = written;
			return VK_INCOMPLETE;
		}
		uint8_t* at = out + written;
		Put32(at, uint32_t(key.size()));
		Put32(at + 4, uint32_t(value.size()));
		std::memcpy(at + 8, key.data(), key.size());
		std::memcpy(at + 8 + key.size(), value.data(), value.size());
		std::memset(at + 8 + key.size() + value.size(), 0, entry - 8 - key.size() - value.size());
		written += entry;
	}
	*size = written;
	return VK_SUCCESS;
}

VkResult PipelineCache::Merge(const PipelineCache& other) {
	// Vulkan 1.3 §10.7: the source caches are not modified. Locking them one
	// after the other (never both at once) cannot deadlock.
	std::map<std::string, std::string> copied;
	try {
		auto source_lock = other.Lock();
		copied = other.entries_;
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	auto lock = Lock();
	try {
		entries_.merge(copied);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

bool PipelineCache::Find(const std::string& key, std::string* value) const {
	auto lock = Lock();
	auto it = entries_.find(key);
	if (it == entries_.end()) return false;
	*value = it->second;
	return true;
}

VkResult PipelineCache::Insert(const std::string& key, const std::string& value) {
	auto lock = Lock();
	try {
		entries_.insert_or_assign(key, value);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::PipelineCache;

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineCache(VkDevice device, const VkPipelineCacheCreateInfo* pCreateInfo,
                                                   const VkAllocationCallbacks* pAllocator,
                                                   VkPipelineCache* pPipelineCache) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	auto* cache = vk::New<PipelineCache>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, *self->GetPhysicalDevice());
	if (!cache) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = cache->Init(*pCreateInfo); result != VK_SUCCESS) {
		vk::Delete(allocator, cache);
		return result;
	}
	*pPipelineCache = cache->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipelineCache(VkDevice device, VkPipelineCache pipelineCache,
                                                const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), PipelineCache::Cast(pipelineCache));
}

VKAPI_ATTR VkResult VKAPI_CALL GetPipelineCacheData(VkDevice, VkPipelineCache pipelineCache, size_t* pDataSize,
                                                    void* pData) {
	return PipelineCache::Cast(pipelineCache)->GetData(pDataSize, pData);
}

VKAPI_ATTR VkResult VKAPI_CALL MergePipelineCaches(VkDevice, VkPipelineCache dstCache, uint32_t srcCacheCount,
                                                   const VkPipelineCache* pSrcCaches) {
	PipelineCache* destination = PipelineCache::Cast(dstCache);
	for (uint32_t i = 0; i < srcCacheCount; ++i)
		if (VkResult result = destination->Merge(*PipelineCache::Cast(pSrcCaches[i])); result != VK_SUCCESS)
			return result;
	return VK_SUCCESS;
}

}  // namespace tessera::entry
