#include "vk/sync_payload.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <ctime>
#include <new>

namespace tessera::vk {

namespace {

constexpr size_t kPageSize = 4096;

// The memfd's one page.
struct SharedPage {
	uint32_t kind;
	uint32_t version;
	SyncPayload payload;
};
static_assert(sizeof(SharedPage) <= kPageSize);
constexpr uint32_t kLayoutVersion = 1;

long Futex(std::atomic<uint32_t>* word, int op, uint32_t value, const timespec* timeout) {
	return syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), op, value, timeout, nullptr, FUTEX_BITSET_MATCH_ANY);
}

}  // namespace

SharedPayload::~SharedPayload() {
	if (payload_) munmap(reinterpret_cast<char*>(payload_) - offsetof(SharedPage, payload), kPageSize);
	if (fd_ >= 0) close(fd_);
}

VkResult SharedPayload::Create(Kind kind, uint64_t initial) {
	int fd = memfd_create("tessera-sync", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) return VK_ERROR_OUT_OF_HOST_MEMORY;
	// A fixed size: an importer may trust that the page stays mapped.
	if (ftruncate(fd, kPageSize) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) != 0) {
		close(fd);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	void* p = mmap(nullptr, kPageSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	auto* page = new (p) SharedPage{uint32_t(kind), kLayoutVersion, {}};
	page->payload.value.store(initial, std::memory_order_release);
	fd_ = fd;
	payload_ = &page->payload;
	return VK_SUCCESS;
}

VkResult SharedPayload::Import(Kind kind, int fd) {
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size != off_t(kPageSize)) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	void* p = mmap(nullptr, kPageSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	auto* page = static_cast<SharedPage*>(p);
	if (page->kind != uint32_t(kind) || page->version != kLayoutVersion) {
		munmap(p, kPageSize);
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	}
	// Vulkan 1.3 §7.4.5: a successful import transfers ownership of fd.
	fd_ = fd;
	payload_ = &page->payload;
	return VK_SUCCESS;
}

VkResult SharedPayload::Export(int* fd) const {
	*fd = fcntl(fd_, F_DUPFD_CLOEXEC, 0);
	return *fd >= 0 ? VK_SUCCESS : VK_ERROR_TOO_MANY_OBJECTS;
}

void WakeSharedWaiters(SyncPayload* payload) { Futex(&payload->sequence, FUTEX_WAKE, INT_MAX, nullptr); }

void WaitSharedChange(SyncPayload* payload, uint32_t seen, std::chrono::steady_clock::time_point deadline) {
	if (deadline == std::chrono::steady_clock::time_point::max()) {
		Futex(&payload->sequence, FUTEX_WAIT, seen, nullptr);
		return;
	}
	// FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC time, the clock
	// behind steady_clock on Linux.
	auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count();
	if (ns < 0) ns = 0;
	timespec at{time_t(ns / 1000000000), long(ns % 1000000000)};
	Futex(&payload->sequence, FUTEX_WAIT_BITSET, seen, &at);
}

}  // namespace tessera::vk

namespace tessera::vk {

void PayloadHolder::UpdateCurrent() {
	SyncPayload* current = temporary_.Get() ? temporary_.Get() : permanent_.Get() ? permanent_.Get() : &local_;
	current_.store(current, std::memory_order_release);
	has_temporary_.store(temporary_.Get() != nullptr, std::memory_order_release);
}

VkResult PayloadHolder::MakeShareable(SharedPayload::Kind kind) {
	std::lock_guard lock(mutex_);
	VkResult result = permanent_.Create(kind, local_.value.load(std::memory_order_relaxed));
	UpdateCurrent();
	return result;
}

VkResult PayloadHolder::Import(SharedPayload::Kind kind, int fd, bool temporary) {
	// Declared before the lock, so the replaced mappings are unmapped after
	// it is released.
	SharedPayload imported, dropped;
	if (VkResult result = imported.Import(kind, fd); result != VK_SUCCESS) return result;
	std::lock_guard lock(mutex_);
	(temporary ? temporary_ : permanent_).Swap(imported);
	// A permanent import also ends any temporary one: the new payload is the
	// object's payload from now on.
	if (!temporary) temporary_.Swap(dropped);
	UpdateCurrent();
	return VK_SUCCESS;
}

VkResult PayloadHolder::Export(int* fd) const {
	std::lock_guard lock(mutex_);
	const SharedPayload& current = temporary_.Get() ? temporary_ : permanent_;
	if (!current.Get()) return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	return current.Export(fd);
}

void PayloadHolder::DropTemporary() {
	SharedPayload dropped;
	std::lock_guard lock(mutex_);
	temporary_.Swap(dropped);
	UpdateCurrent();
}

}  // namespace tessera::vk
