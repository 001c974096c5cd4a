#include "shader/dispatch.h"

#include <algorithm>
#include <atomic>

namespace tessera::shader {

RunStatus RunDispatch(const Program& program, const Resources& resources, const DispatchSize& size,
                      runtime::ThreadPool* pool, const RunOptions& options) {
	const uint64_t rows = uint64_t{size.count[1]} * size.count[2];
	if (rows == 0 || size.count[0] == 0) return RunStatus::kSuccess;
	// Work items: a run of consecutive workgroups along x (small workgroups
	// share lane groups within it). Enough items for every thread to stay
	// busy, few enough that each keeps its lane groups wide.
	const unsigned threads = pool ? pool->ThreadCount() : 1;
	const uint64_t total = rows * size.count[0];
	const uint64_t wanted_items = std::min<uint64_t>(total, uint64_t{threads} * 8);
	const uint32_t chunks_per_row = static_cast<uint32_t>(std::clamp<uint64_t>(wanted_items / rows, 1, size.count[0]));
	const uint32_t chunk = (size.count[0] + chunks_per_row - 1) / chunks_per_row;
	const uint64_t items = rows * chunks_per_row;

	std::atomic<bool> lost{false};
	auto run_item = [&](uint64_t item) {
		if (lost.load(std::memory_order_relaxed)) return;
		thread_local Interpreter interpreter;
		uint64_t row = item / chunks_per_row;
		uint32_t first = static_cast<uint32_t>(item % chunks_per_row) * chunk;
		if (first >= size.count[0]) return;
		WorkgroupPosition position;
		position.id[0] = size.base[0] + first;
		position.id[1] = size.base[1] + static_cast<uint32_t>(row % size.count[1]);
		position.id[2] = size.base[2] + static_cast<uint32_t>(row / size.count[1]);
		for (int k = 0; k < 3; ++k) position.count[k] = size.count[k];
		uint32_t count = std::min(chunk, size.count[0] - first);
		if (interpreter.RunWorkgroups(program, resources, position, count, options) != RunStatus::kSuccess)
			lost.store(true);
	};
	if (pool && items > 1 && items <= UINT32_MAX) {
		pool->ParallelFor(static_cast<uint32_t>(items), [&](uint32_t item) { run_item(item); });
	} else {
		for (uint64_t item = 0; item < items; ++item) run_item(item);
	}
	return lost.load() ? RunStatus::kDeviceLost : RunStatus::kSuccess;
}

}  // namespace tessera::shader
