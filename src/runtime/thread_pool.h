// One worker per CPU the process may use. Later stages (vertex batches,
// raster tiles, compute workgroups) spread their work over it with
// ParallelFor; the calling thread takes part, so a pool of N workers runs
// N + 1 items at once only when N is one less than the CPU count.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::runtime {

// The CPUs this process may run on: the affinity mask, capped by the cgroup
// CPU quota (containers and CI runners are often limited to 2 CPUs on a large
// host), overridden by TESSERA_THREADS.
unsigned UsableCpuCount();

class ThreadPool {
public:
	// thread_count counts the caller: a pool for 4 threads starts 3 workers.
	explicit ThreadPool(unsigned thread_count);
	~ThreadPool();
	ThreadPool(const ThreadPool&) = delete;
	ThreadPool& operator=(const ThreadPool&) = delete;

	unsigned ThreadCount() const { return static_cast<unsigned>(workers_.size()) + 1; }

	// Runs body(i) for i in [0, count), spread over the workers and the caller;
	// returns when all are done. Calls from several threads are serialized.
	// A job this thread Start()ed is finished first.
	void ParallelFor(uint32_t count, const std::function<void(uint32_t index)>& body);

	// Starts body(i) for i in [0, count) on the workers and returns at once,
	// so that the caller can go on with other work meanwhile; Wait() takes
	// part in what is left and returns when all are done. body must live
	// until then. Until this thread waits, the pool is its own: other
	// threads' jobs wait, and so does this thread's next ParallelFor or
	// Start (which waits first). Without workers body runs here and now.
	void Start(uint32_t count, const std::function<void(uint32_t index)>& body);
	// Finishes the job this thread started, if any.
	void Wait();
	// Whether the job this thread started has items not yet done (Wait
	// would then take part in them or wait for them).
	bool Started() const;

private:
	void WorkerLoop();
	void RunItems();
	void Begin(uint32_t count, const std::function<void(uint32_t)>& body);  // submit_mutex_ held
	void Finish();

	std::vector<std::thread> workers_;
	std::mutex submit_mutex_;  // one ParallelFor at a time
	mutable std::mutex mutex_;
	std::condition_variable wake_;
	std::condition_variable done_;
	const std::function<void(uint32_t)>* body_ = nullptr;
	uint32_t count_ = 0;
	std::atomic<uint32_t> next_{0};
	std::atomic<uint32_t> finished_{0};
	uint64_t generation_ = 0;
	unsigned busy_workers_ = 0;
	bool stopping_ = false;
	// The thread whose Start()ed job holds submit_mutex_ (none: a default id).
	std::atomic<std::thread::id> started_by_{};
};

// Splits [0, size) into contiguous ranges whose boundaries are multiples of
// granule, one per thread, and runs body(begin, end) on them in parallel;
// sizes below min_parallel run on the caller alone. For memory-bound loops
// (fills, copies) where one core cannot saturate the memory bus.
void ParallelRanges(ThreadPool& pool, uint64_t size, uint64_t granule, uint64_t min_parallel,
                    const std::function<void(uint64_t begin, uint64_t end)>& body);

}  // namespace tessera::runtime
