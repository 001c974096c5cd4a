// A whole compute dispatch: every workgroup of a vkCmdDispatch(Base), spread
// over the thread pool, one Interpreter per thread.
#pragma once

#include <cstdint>

#include "runtime/thread_pool.h"
#include "shader/interpreter.h"

namespace tessera::shader {

struct DispatchSize {
	uint32_t base[3] = {0, 0, 0};   // vkCmdDispatchBase's first workgroup (WorkgroupId starts here)
	uint32_t count[3] = {1, 1, 1};  // workgroups per dimension (NumWorkgroups)
};

// Runs the dispatch on `pool` (or on the calling thread when pool is null).
// kDeviceLost when any workgroup ran past the step bound; the remaining
// work is then skipped.
RunStatus RunDispatch(const Program& program, const Resources& resources, const DispatchSize& size,
                      runtime::ThreadPool* pool, const RunOptions& options = {});

}  // namespace tessera::shader
