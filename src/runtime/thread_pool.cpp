#include "runtime/thread_pool.h"

#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace tessera::runtime {

namespace {

// cgroup v2 "cpu.max" holds "<quota> <period>" or "max <period>"; cgroup v1
// has the two numbers in separate files.
unsigned CgroupCpuLimit() {
	long long quota = -1, period = 0;
	if (std::ifstream f("/sys/fs/cgroup/cpu.max"); f) {
		std::string q;
		f >> q >> period;
		if (q != "max") quota = std::atoll(q.c_str());
	} else {
		std::ifstream fq("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), fp("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
		if (fq && fp) fq >> quota, fp >> period;
	}
	if (quota <= 0 || period <= 0) return 0;
	return static_cast<unsigned>((quota + period - 1) / period);
}

}  // namespace

unsigned UsableCpuCount() {
	if (const char* forced = std::getenv("TESSERA_THREADS")) {
		long n = std::strtol(forced, nullptr, 10);
		if (n >= 1 && n <= 1024) return static_cast<unsigned>(n);
	}
	unsigned count = std::thread::hardware_concurrency();
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0) count = static_cast<unsigned>(CPU_COUNT(&set));
	if (unsigned limit = CgroupCpuLimit(); limit && limit < count) count = limit;
	return count ? count : 1;
}

ThreadPool::ThreadPool(unsigned thread_count) {
	for (unsigned i = 1; i < thread_count; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

ThreadPool::~ThreadPool() {
	{
		std::lock_guard lock(mutex_);
		stopping_ = true;
	}
	wake_.notify_all();
	for (auto& worker : workers_) worker.join();
}

void ThreadPool::RunItems() {
	for (;;) {
		uint32_t index = next_.fetch_add(1, std::memory_order_relaxed);
		if (index >= count_) return;
		(*body_)(index);
		// Counted without the lock (a job of many small items took it once
		// an item, against the thread asking Started once a draw); the last
		// one takes it to notify, so that a waiter between its check and its
		// wait cannot miss the notification.
		if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == count_) {
			std::lock_guard lock(mutex_);
			done_.notify_all();
		}
	}
}

void ThreadPool::WorkerLoop() {
	uint64_t seen = 0;
	std::unique_lock lock(mutex_);
	for (;;) {
		wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
		if (stopping_) return;
		seen = generation_;
		++busy_workers_;
		lock.unlock();
		RunItems();
		lock.lock();
		if (--busy_workers_ == 0) done_.notify_all();
	}
}

void ThreadPool::Begin(uint32_t count, const std::function<void(uint32_t)>& body) {
	{
		std::unique_lock lock(mutex_);
		// Workers still leaving the previous job must not pick up this one's
		// items with the old body.
		done_.wait(lock, [&] { return busy_workers_ == 0; });
		body_ = &body;
		count_ = count;
		finished_.store(0, std::memory_order_relaxed);
		next_.store(0, std::memory_order_relaxed);
		++generation_;
	}
	wake_.notify_all();
}

void ThreadPool::Finish() {
	RunItems();
	std::unique_lock lock(mutex_);
	done_.wait(lock, [&] { return finished_ == count_ && busy_workers_ == 0; });
	body_ = nullptr;
}

void ThreadPool::ParallelFor(uint32_t count, const std::function<void(uint32_t)>& body) {
	if (count == 0) return;
	if (workers_.empty() || count == 1) {
		for (uint32_t i = 0; i < count; ++i) body(i);
		return;
	}
	Wait();
	std::lock_guard submit(submit_mutex_);
	Begin(count, body);
	Finish();
}

void ThreadPool::Start(uint32_t count, const std::function<void(uint32_t)>& body) {
	if (count == 0) return;
	if (workers_.empty()) {
		for (uint32_t i = 0; i < count; ++i) body(i);
		return;
	}
	Wait();
	submit_mutex_.lock();  // unlocked by Wait, on this thread
	started_by_.store(std::this_thread::get_id(), std::memory_order_relaxed);
	Begin(count, body);
}

void ThreadPool::Wait() {
	// Only the starting thread stores its id here, and clears it before
	// unlocking: another thread never reads its own id.
	if (started_by_.load(std::memory_order_relaxed) != std::this_thread::get_id()) return;
	Finish();
	started_by_.store(std::thread::id{}, std::memory_order_relaxed);
	submit_mutex_.unlock();
}

bool ThreadPool::Started() const {
	if (started_by_.load(std::memory_order_relaxed) != std::this_thread::get_id()) return false;
	return finished_.load(std::memory_order_acquire) != count_;  // (count_ is this thread's own write)
}

void ParallelRanges(ThreadPool& pool, uint64_t size, uint64_t granule, uint64_t min_parallel,
                    const std::function<void(uint64_t begin, uint64_t end)>& body) {
	if (size == 0) return;
	uint32_t parts = pool.ThreadCount();
	if (size < min_parallel || parts == 1 || granule == 0) {
		body(0, size);
		return;
	}
	uint64_t granules = (size + granule - 1) / granule;
	if (granules < parts) parts = uint32_t(granules);
	uint64_t per_part = (granules + parts - 1) / parts * granule;
	pool.ParallelFor(parts, [&](uint32_t i) {
		uint64_t begin = i * per_part;
		uint64_t end = begin + per_part < size ? begin + per_part : size;
		if (begin < end) body(begin, end);
	});
}

}  // namespace tessera::runtime
