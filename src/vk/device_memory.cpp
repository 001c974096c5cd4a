#include "vk/device_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/log.h"
#include "vk/device.h"
#include "vk/physical_device.h"

namespace tessera::vk {

namespace {

std::atomic<VkDeviceSize> g_process_usage{0};

// The first number on the line of /proc/meminfo that starts with `key`, in
// bytes (the file gives kB); 0 when absent.
uint64_t MemInfoBytes(const char* key) {
	std::FILE* f = std::fopen("/proc/meminfo", "r");
	if (!f) return 0;
	char line[256];
	uint64_t bytes = 0;
	const size_t length = std::strlen(key);
	while (std::fgets(line, sizeof line, f))
		if (std::strncmp(line, key, length) == 0) {
			bytes = std::strtoull(line + length, nullptr, 10) * 1024;
			break;
		}
	std::fclose(f);
	return bytes;
}

// A file holding one number ("max" or unreadable: 0, no limit).
uint64_t FileNumber(const std::string& path) {
	std::FILE* f = std::fopen(path.c_str(), "r");
	if (!f) return 0;
	char text[64] = {};
	const bool read = std::fgets(text, sizeof text, f) != nullptr;
	std::fclose(f);
	return read && text[0] >= '0' && text[0] <= '9' ? std::strtoull(text, nullptr, 10) : 0;
}

// The room left under this process's cgroup memory limit; UINT64_MAX when
// there is none (or it cannot be read).
uint64_t CgroupRoom() {
	std::string dir;
	if (std::FILE* f = std::fopen("/proc/self/cgroup", "r")) {
		char line[512];
		while (std::fgets(line, sizeof line, f))
			if (std::strncmp(line, "0::", 3) == 0) {  // the unified (v2) hierarchy
				dir = line + 3;
				while (!dir.empty() && (dir.back() == '\n' || dir.back() == '/')) dir.pop_back();
				break;
			}
		std::fclose(f);
	}
	uint64_t limit = FileNumber("/sys/fs/cgroup" + dir + "/memory.max"), used = 0;
	if (limit)
		used = FileNumber("/sys/fs/cgroup" + dir + "/memory.current");
	else {
		limit = FileNumber("/sys/fs/cgroup/memory/memory.limit_in_bytes");  // v1
		used = FileNumber("/sys/fs/cgroup/memory/memory.usage_in_bytes");
		if (limit >= (uint64_t(1) << 60)) limit = 0;  // v1 says "no limit" with a huge number
	}
	if (!limit) return UINT64_MAX;
	return limit > used ? limit - used : 0;
}

}  // namespace

VkDeviceSize ProcessMemoryUsage() { return g_process_usage.load(std::memory_order_relaxed); }

VkDeviceSize MemoryBudget(VkDeviceSize heap_size, VkDeviceSize usage) {
	uint64_t room = std::min<uint64_t>(MemInfoBytes("MemAvailable:"), CgroupRoom());
	return std::min<VkDeviceSize>(heap_size, usage + room);
}

DeviceMemory::~DeviceMemory() {
	if (counted_) g_process_usage.fetch_sub(size_, std::memory_order_relaxed);
	if (host_import_) return;
	if (mapped_size_)
		munmap(data_, mapped_size_);
	else
		std::free(data_);
	if (fd_ >= 0) close(fd_);
}

VkResult DeviceMemory::Init(const VkMemoryAllocateInfo& info) {
	auto* import = FindInChain<VkImportMemoryFdInfoKHR>(info.pNext, VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR);
	if (import && import->handleType) return Import(import->fd, import->handleType);
	if (auto* host = FindInChain<VkImportMemoryHostPointerInfoEXT>(
	        info.pNext, VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT)) {
		// VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01749 and
		// VUID-VkMemoryAllocateInfo-allocationSize-01745: page multiples.
		if (!IsHostPointerHandle(host->handleType) || !host->pHostPointer ||
		    reinterpret_cast<uintptr_t>(host->pHostPointer) % kHostImportAlignment || size_ % kHostImportAlignment)
			return VK_ERROR_INVALID_EXTERNAL_HANDLE;
		data_ = static_cast<uint8_t*>(host->pHostPointer);
		host_import_ = true;
		return VK_SUCCESS;
	}
	auto* export_info =
	    FindInChain<VkExportMemoryAllocateInfo>(info.pNext, VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO);
	if ((export_info && export_info->handleTypes) || info.memoryTypeIndex == kSparseMemoryType)
		return AllocateShareable();

	// Large allocations come straight from the kernel: page-aligned, zeroed
	// lazily, and never touched until used, so a huge allocation that is
	// mostly unused costs nothing. Zeroed memory also makes results
	// reproducible run to run, though Vulkan promises no initial contents
	// unless VK_MEMORY_ALLOCATE_ZERO_INITIALIZE_BIT_EXT asks for them: every
	// allocation here (and a shareable one, a new memfd) is zero, so the bit
	// needs nothing more (VK_EXT_zero_initialize_device_memory).
	if (size_ >= kMapThreshold) {
		void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
		data_ = static_cast<uint8_t*>(p);
		mapped_size_ = size_;
		return VK_SUCCESS;
	}
	size_t rounded = (size_ + kAlignment - 1) / kAlignment * kAlignment;
	data_ = static_cast<uint8_t*>(std::aligned_alloc(kAlignment, rounded ? rounded : kAlignment));
	if (!data_) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	std::memset(data_, 0, rounded);
	return VK_SUCCESS;
}

VkResult DeviceMemory::AllocateShareable() {
	fd_ = memfd_create("tessera-memory", MFD_CLOEXEC);
	if (fd_ < 0) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	// Whole pages, so that a sparse bind of the last block maps no page
	// past the file's end.
	if (ftruncate(fd_, off_t(RoundUpToPage(size_))) != 0) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
	if (p == MAP_FAILED) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	data_ = static_cast<uint8_t*>(p);
	mapped_size_ = size_;
	return VK_SUCCESS;
}

VkResult DeviceMemory::Import(int fd, VkExternalMemoryHandleTypeFlagBits type) {
	if (type != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT && type != VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT)
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	if (DescriptorSize(fd, type) < size_) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	data_ = static_cast<uint8_t*>(p);
	mapped_size_ = size_;
	// Vulkan: a successful import transfers ownership of the descriptor.
	fd_ = fd;
	fd_type_ = type;
	return VK_SUCCESS;
}

void DeviceMemory::CountUsage() {
	if (host_import_ || counted_) return;
	counted_ = true;
	g_process_usage.fetch_add(size_, std::memory_order_relaxed);
}

bool IsHostPointerHandle(VkExternalMemoryHandleTypeFlagBits type) {
	return type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT ||
	       type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_MAPPED_FOREIGN_MEMORY_BIT_EXT;
}

VkDeviceSize DescriptorSize(int fd, VkExternalMemoryHandleTypeFlagBits type) {
	if (type == VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT) {
		// The kernel's dma-buf documentation: "the size of the dma-buf can
		// be found with llseek(SEEK_END)" (a dma-buf has no read or write,
		// so its offset is nothing else's).
		const off_t end = lseek(fd, 0, SEEK_END);
		if (end < 0) return 0;
		lseek(fd, 0, SEEK_SET);
		return VkDeviceSize(end);
	}
	struct stat st;
	return fstat(fd, &st) == 0 && st.st_size > 0 ? VkDeviceSize(st.st_size) : 0;
}

VkResult DeviceMemory::ExportFd(VkExternalMemoryHandleTypeFlagBits type, int* fd) const {
	// A memfd is opaque; a dma-buf only goes back out as what came in
	// (exportFromImportedHandleTypes).
	if (fd_ < 0 || type != fd_type_) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	*fd = fcntl(fd_, F_DUPFD_CLOEXEC, 0);
	return *fd >= 0 ? VK_SUCCESS : VK_ERROR_TOO_MANY_OBJECTS;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::DeviceMemory;

VKAPI_ATTR VkResult VKAPI_CALL AllocateMemory(VkDevice device, const VkMemoryAllocateInfo* pAllocateInfo,
                                              const VkAllocationCallbacks* pAllocator, VkDeviceMemory* pMemory) {
	Device* self = Device::Cast(device);
	if (pAllocateInfo->memoryTypeIndex >= self->GetPhysicalDevice()->MemoryProperties().memoryTypeCount) {
		self->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
		             "vkAllocateMemory: memory type %u does not exist", pAllocateInfo->memoryTypeIndex);
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	const VkMemoryHeap& heap = self->GetPhysicalDevice()->MemoryProperties().memoryHeaps[0];
	if (pAllocateInfo->allocationSize > heap.size) {
		self->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
		             "vkAllocateMemory: %llu bytes is more than the heap's %llu",
		             (unsigned long long)pAllocateInfo->allocationSize, (unsigned long long)heap.size);
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	auto* memory = vk::New<DeviceMemory>(self->Allocator(pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self,
	                                     pAllocateInfo->allocationSize);
	if (!memory) return VK_ERROR_OUT_OF_HOST_MEMORY;
	VkResult result = memory->Init(*pAllocateInfo);
	if (result == VK_SUCCESS) result = self->AddMemoryRange(memory->Data(), memory->Size());
	if (result == VK_SUCCESS) memory->CountUsage();
	if (result != VK_SUCCESS) {
		vk::Delete(self->Allocator(pAllocator), memory);
		if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY)
			self->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
			             "vkAllocateMemory: the system could not provide %llu bytes",
			             (unsigned long long)pAllocateInfo->allocationSize);
		return result;
	}
	*pMemory = memory->ToHandle();
	return VK_SUCCESS;
}

// VK_EXT_external_memory_host: any host pointer of the two handle types can
// back memory of every type but the sparse one (all are host memory).
VKAPI_ATTR VkResult VKAPI_CALL GetMemoryHostPointerPropertiesEXT(
    VkDevice device, VkExternalMemoryHandleTypeFlagBits handleType, const void* pHostPointer,
    VkMemoryHostPointerPropertiesEXT* pMemoryHostPointerProperties) {
	if (!vk::IsHostPointerHandle(handleType) ||
	    reinterpret_cast<uintptr_t>(pHostPointer) % DeviceMemory::kHostImportAlignment)
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	const uint32_t types = Device::Cast(device)->GetPhysicalDevice()->MemoryProperties().memoryTypeCount;
	// Not kSparseMemoryType: the application's pages cannot be mapped elsewhere.
	pMemoryHostPointerProperties->memoryTypeBits =
	    (types >= 32 ? ~0u : (1u << types) - 1) & ~(1u << vk::DeviceMemory::kSparseMemoryType);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL FreeMemory(VkDevice device, VkDeviceMemory memory, const VkAllocationCallbacks* pAllocator) {
	if (!memory) return;
	Device::Cast(device)->RemoveMemoryRange(DeviceMemory::Cast(memory)->Data());
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), DeviceMemory::Cast(memory));
}

// VK_EXT_pageable_device_local_memory: a hint, like the priority given at
// allocation; the kernel pages host memory by its own use.
VKAPI_ATTR void VKAPI_CALL SetDeviceMemoryPriorityEXT(VkDevice, VkDeviceMemory, float) {}

VKAPI_ATTR VkResult VKAPI_CALL MapMemory(VkDevice, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize,
                                         VkMemoryMapFlags, void** ppData) {
	*ppData = DeviceMemory::Cast(memory)->Data() + offset;
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL UnmapMemory(VkDevice, VkDeviceMemory) {}

// VK_KHR_map_memory2: the same two commands, their parameters in a
// structure (flags are 0: the placed-mapping bits need
// VK_EXT_map_memory_placed, which is not offered).
VKAPI_ATTR VkResult VKAPI_CALL MapMemory2KHR(VkDevice device, const VkMemoryMapInfoKHR* pMemoryMapInfo, void** ppData) {
	return MapMemory(device, pMemoryMapInfo->memory, pMemoryMapInfo->offset, pMemoryMapInfo->size,
	                 pMemoryMapInfo->flags, ppData);
}

VKAPI_ATTR VkResult VKAPI_CALL UnmapMemory2KHR(VkDevice device, const VkMemoryUnmapInfoKHR* pMemoryUnmapInfo) {
	UnmapMemory(device, pMemoryUnmapInfo->memory);
	return VK_SUCCESS;
}

// The one memory type is host-coherent: flushes and invalidations have
// nothing to do.
VKAPI_ATTR VkResult VKAPI_CALL FlushMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange*) {
	return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL InvalidateMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange*) {
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL GetDeviceMemoryCommitment(VkDevice, VkDeviceMemory memory,
                                                     VkDeviceSize* pCommittedMemoryInBytes) {
	*pCommittedMemoryInBytes = DeviceMemory::Cast(memory)->Size();
}

VKAPI_ATTR VkResult VKAPI_CALL GetMemoryFdKHR(VkDevice, const VkMemoryGetFdInfoKHR* pGetFdInfo, int* pFd) {
	return DeviceMemory::Cast(pGetFdInfo->memory)->ExportFd(pGetFdInfo->handleType, pFd);
}

VKAPI_ATTR VkResult VKAPI_CALL GetMemoryFdPropertiesKHR(VkDevice device, VkExternalMemoryHandleTypeFlagBits handleType,
                                                        int fd, VkMemoryFdPropertiesKHR* pMemoryFdProperties) {
	pMemoryFdProperties->memoryTypeBits = 0;
	// Opaque descriptors are imported with vkAllocateMemory, not queried
	// here (VUID-vkGetMemoryFdPropertiesKHR-handleType-00674).
	if (handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	if (fd < 0 || vk::DescriptorSize(fd, handleType) == 0) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	// Any memory type but the sparse one, whose pages vkQueueBindSparse
	// maps from a memfd of Tessera's own.
	const uint32_t types = Device::Cast(device)->GetPhysicalDevice()->MemoryProperties().memoryTypeCount;
	pMemoryFdProperties->memoryTypeBits =
	    (types >= 32 ? ~0u : (1u << types) - 1) & ~(1u << vk::DeviceMemory::kSparseMemoryType);
	return VK_SUCCESS;
}

VKAPI_ATTR uint64_t VKAPI_CALL
GetDeviceMemoryOpaqueCaptureAddress(VkDevice, const VkDeviceMemoryOpaqueCaptureAddressInfo* pInfo) {
	return reinterpret_cast<uint64_t>(DeviceMemory::Cast(pInfo->memory)->Data());
}

}  // namespace tessera::entry
