#include "vk/sparse_range.h"

#include <sys/mman.h>

#include <algorithm>

#include "vk/device_memory.h"

namespace tessera::vk {

namespace {

// Unbound blocks: private zero pages, reserved but not committed. Reads see
// zeros or what earlier writes to unbound blocks left
// (residencyNonResidentStrict is false); nothing faults.
void* MapZeroPages(void* at, size_t size) {
	return mmap(at, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (at ? MAP_FIXED : 0),
	            -1, 0);
}

}  // namespace

SparseRange::~SparseRange() {
	if (data_) munmap(data_, size_t(size_));
}

VkResult SparseRange::Init(VkDeviceSize size) {
	size_ = Reserved(size);
	void* range = MapZeroPages(nullptr, size_t(size_));
	if (range == MAP_FAILED) {
		size_ = 0;
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	data_ = static_cast<uint8_t*>(range);
	return VK_SUCCESS;
}

bool SparseRange::Bind(VkDeviceSize resource_offset, VkDeviceSize size, const DeviceMemory* memory,
                       VkDeviceSize memory_offset) {
	// Valid use keeps the range in the resource and offsets at block
	// multiples; anything else is refused rather than mapped over other
	// memory.
	if (resource_offset % kBlockSize) return false;
	return BindPages(resource_offset, size, memory, memory_offset);
}

bool SparseRange::BindPages(VkDeviceSize resource_offset, VkDeviceSize size, const DeviceMemory* memory,
                            VkDeviceSize memory_offset) {
	if (!data_ || resource_offset >= size_ || resource_offset % DeviceMemory::kPageSize) return false;
	size = std::min(DeviceMemory::RoundUpToPage(size), size_ - resource_offset);
	uint8_t* at = data_ + resource_offset;
	if (!memory) return MapZeroPages(at, size_t(size)) != MAP_FAILED;
	if (memory->Fd() < 0 || memory_offset % DeviceMemory::kPageSize ||
	    memory_offset + size > DeviceMemory::RoundUpToPage(memory->Size()))
		return false;
	return mmap(at, size_t(size), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, memory->Fd(), off_t(memory_offset)) !=
	       MAP_FAILED;
}

}  // namespace tessera::vk
