#include "vk/query_pool.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <ctime>
#include <iterator>
#include <new>

#include "vk/buffer.h"
#include "vk/command_buffer.h"
#include "vk/device.h"

namespace tessera::vk {

VkResult QueryPool::Init() {
	try {
		queries_ = std::make_unique<Query[]>(count_);
		counters_per_query_ = type_ == VK_QUERY_TYPE_PIPELINE_STATISTICS             ? uint32_t(Statistic::kCount)
		                      : type_ == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT ? 2
		                                                                             : 0;
		if (counters_per_query_)
			counters_ = std::make_unique<std::atomic<uint64_t>[]>(size_t(count_) * counters_per_query_);
	} catch (const std::bad_alloc&) {
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	return VK_SUCCESS;
}

uint64_t QueryPool::Now() {
	timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return uint64_t(t.tv_sec) * 1000000000u + uint64_t(t.tv_nsec);
}

void QueryPool::Reset(uint32_t first, uint32_t count) {
	for (uint32_t i = first; i < first + count; ++i) {
		queries_[i].available.store(0, std::memory_order_relaxed);
		queries_[i].value.store(0, std::memory_order_relaxed);
		for (uint32_t k = 0; k < counters_per_query_; ++k) Counter(i, k).store(0, std::memory_order_relaxed);
	}
}

void QueryPool::MakeAvailable(Query& query) {
	query.available.store(1, std::memory_order_release);
	device_->Notify();
}

void QueryPool::Begin(uint32_t query) {
	queries_[query].value.store(0, std::memory_order_relaxed);
	for (uint32_t k = 0; k < counters_per_query_; ++k) Counter(query, k).store(0, std::memory_order_relaxed);
}

void QueryPool::End(uint32_t query) { MakeAvailable(queries_[query]); }

void QueryPool::WriteTimestamp(uint32_t query) {
	queries_[query].value.store(Now(), std::memory_order_relaxed);
	MakeAvailable(queries_[query]);
}

void QueryPool::WriteZero(uint32_t query) {
	queries_[query].value.store(0, std::memory_order_relaxed);
	MakeAvailable(queries_[query]);
}

bool QueryPool::WriteResults(uint32_t first, uint32_t count, uint8_t* data, VkDeviceSize stride,
                             VkQueryResultFlags flags, bool wait_allowed) {
	const bool wide = (flags & VK_QUERY_RESULT_64_BIT) != 0;
	auto put = [wide](uint8_t* at, uint32_t index, uint64_t value) {
		if (wide) {
			std::memcpy(at + 8 * index, &value, 8);
		} else {
			// §18.2: without 64_BIT a result that does not fit may wrap or
			// saturate; VK_KHR_maintenance7 asks for the low 32 bits.
			uint32_t narrow = uint32_t(value);
			std::memcpy(at + 4 * index, &narrow, 4);
		}
	};
	bool all_available = true;
	for (uint32_t i = 0; i < count; ++i) {
		Query& q = queries_[first + i];
		bool available = q.available.load(std::memory_order_acquire) != 0;
		if (!available && wait_allowed && (flags & VK_QUERY_RESULT_WAIT_BIT)) {
			// A lost device may never make it available (§5.2.3: the wait
			// ends in finite time).
			device_->Wait([&] { return q.available.load(std::memory_order_acquire) != 0 || device_->IsLost(); });
			available = q.available.load(std::memory_order_acquire) != 0;
		}
		uint8_t* at = data + stride * i;
		// §18.2: an unavailable query's result is written only with
		// PARTIAL_BIT (a value between 0 and the final one: the count so
		// far); its availability word is written whenever asked for. A
		// statistics query writes its counters in bit order, then availability.
		// A transform feedback query writes primitives written, then needed.
		uint32_t values = 1;
		if (counters_) {
			values = 0;
			for (uint32_t k = 0; k < counters_per_query_; ++k) {
				if (type_ == VK_QUERY_TYPE_PIPELINE_STATISTICS && !(statistics_ >> k & 1)) continue;
				if (available || (flags & VK_QUERY_RESULT_PARTIAL_BIT))
					put(at, values, Counter(first + i, k).load(std::memory_order_relaxed));
				++values;
			}
		} else if (available || (flags & VK_QUERY_RESULT_PARTIAL_BIT)) {
			put(at, 0, q.value.load(std::memory_order_relaxed));
		}
		if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) put(at, values, available ? 1 : 0);
		all_available &= available;
	}
	return all_available;
}

namespace {

// Vulkan 1.3 §18.3: a query in a render pass instance with multiview takes
// as many consecutive queries as the subpass has views. Tessera reports the
// total of all views in the first (occlusion) or the timestamp there, and
// zero, available, in the others, as the spec allows.
uint32_t QueriesTaken(const ExecutionContext& context) {
	const GraphicsContext& g = context.graphics;
	return g.rendering && g.view_mask ? uint32_t(std::popcount(g.view_mask)) : 1;
}

struct ResetQueryPoolCommand : Command {
	QueryPool* pool;
	uint32_t first, count;
	void Execute(ExecutionContext&) const { pool->Reset(first, count); }
};

struct BeginQueryCommand : Command {
	QueryPool* pool;
	uint32_t query;
	uint32_t index = 0;  // the vertex stream of stream and primitives generated queries
	void Execute(ExecutionContext& context) const {
		const uint32_t taken = std::min(QueriesTaken(context), pool->Count() - query);
		for (uint32_t i = 0; i < taken; ++i) pool->Begin(query + i);
		// Draws until the matching end add their passing samples, draws and
		// dispatches their statistics.
		if (pool->Type() == VK_QUERY_TYPE_OCCLUSION) {
			context.graphics.occlusion_pool = pool;
			context.graphics.occlusion_query = query;
		}
		if (pool->Type() == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
			context.graphics.statistics_pool = pool;
			context.graphics.statistics_query = query;
		}
		if (pool->Type() == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
			context.graphics.xfb_query_pool[index] = pool;
			context.graphics.xfb_query[index] = query;
		}
		if (pool->Type() == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT) {
			context.graphics.generated_pool[index] = pool;
			context.graphics.generated_query[index] = query;
		}
	}
};

struct EndQueryCommand : Command {
	QueryPool* pool;
	uint32_t query;
	uint32_t index = 0;
	void Execute(ExecutionContext& context) const {
		if (context.graphics.occlusion_pool == pool && context.graphics.occlusion_query == query)
			context.graphics.occlusion_pool = nullptr;
		if (context.graphics.statistics_pool == pool && context.graphics.statistics_query == query)
			context.graphics.statistics_pool = nullptr;
		GraphicsContext& g = context.graphics;
		if (g.xfb_query_pool[index] == pool && g.xfb_query[index] == query) g.xfb_query_pool[index] = nullptr;
		if (g.generated_pool[index] == pool && g.generated_query[index] == query) g.generated_pool[index] = nullptr;
		const uint32_t taken = std::min(QueriesTaken(context), pool->Count() - query);
		for (uint32_t i = 0; i < taken; ++i) pool->End(query + i);
	}
};

// Commands run one after another and join their workers before returning,
// so "after all earlier commands reach the stage" is simply "now".
struct WriteTimestampCommand : Command {
	QueryPool* pool;
	uint32_t query;
	void Execute(ExecutionContext& context) const {
		pool->WriteTimestamp(query);
		const uint32_t taken = std::min(QueriesTaken(context), pool->Count() - query);
		for (uint32_t i = 1; i < taken; ++i) pool->WriteZero(query + i);
	}
};

// The queue runs in submission order, so every query this copy may wait for
// (VK_QUERY_RESULT_WAIT_BIT) has been written by an earlier command already.
struct CopyQueryPoolResultsCommand : Command {
	QueryPool* pool;
	uint32_t first, count;
	uint8_t* dst;  // the buffer at dstOffset, or vkCmdCopyQueryPoolResultsToMemoryKHR's address
	VkDeviceSize stride;
	VkQueryResultFlags flags;
	void Execute(ExecutionContext&) const {
		if (dst) pool->WriteResults(first, count, dst, stride, flags, false);
	}
};

void RecordCopyResults(VkCommandBuffer commandBuffer, VkQueryPool pool, uint32_t first, uint32_t count, uint8_t* dst,
                       VkDeviceSize stride, VkQueryResultFlags flags) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<CopyQueryPoolResultsCommand>()) {
		cmd->pool = QueryPool::Cast(pool);
		cmd->first = first;
		cmd->count = count;
		cmd->dst = dst;
		cmd->stride = stride;
		cmd->flags = flags;
	}
}

void RecordWriteTimestamp(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<WriteTimestampCommand>()) {
		cmd->pool = QueryPool::Cast(queryPool);
		cmd->query = query;
	}
}

}  // namespace

}  // namespace tessera::vk

namespace tessera::entry {

using vk::CommandBuffer;
using vk::Device;
using vk::QueryPool;

VKAPI_ATTR VkResult VKAPI_CALL CreateQueryPool(VkDevice device, const VkQueryPoolCreateInfo* pCreateInfo,
                                               const VkAllocationCallbacks* pAllocator, VkQueryPool* pQueryPool) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	// Extension query types are not supported.
	if (pCreateInfo->queryType != VK_QUERY_TYPE_OCCLUSION && pCreateInfo->queryType != VK_QUERY_TYPE_TIMESTAMP &&
	    pCreateInfo->queryType != VK_QUERY_TYPE_PIPELINE_STATISTICS &&
	    pCreateInfo->queryType != VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT &&
	    pCreateInfo->queryType != VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT) {
		self->Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
		             "vkCreateQueryPool: query type %d is not supported", int(pCreateInfo->queryType));
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	auto* pool = vk::New<QueryPool>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, self, *pCreateInfo);
	if (!pool) return VK_ERROR_OUT_OF_HOST_MEMORY;
	if (VkResult result = pool->Init(); result != VK_SUCCESS) {
		vk::Delete(allocator, pool);
		return result;
	}
	*pQueryPool = pool->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyQueryPool(VkDevice device, VkQueryPool queryPool,
                                            const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), QueryPool::Cast(queryPool));
}

VKAPI_ATTR void VKAPI_CALL ResetQueryPool(VkDevice, VkQueryPool queryPool, uint32_t firstQuery, uint32_t queryCount) {
	QueryPool::Cast(queryPool)->Reset(firstQuery, queryCount);
}

VKAPI_ATTR VkResult VKAPI_CALL GetQueryPoolResults(VkDevice device, VkQueryPool queryPool, uint32_t firstQuery,
                                                   uint32_t queryCount, size_t, void* pData, VkDeviceSize stride,
                                                   VkQueryResultFlags flags) {
	if (vk::Device::Cast(device)->IsLost()) return VK_ERROR_DEVICE_LOST;
	bool available = QueryPool::Cast(queryPool)->WriteResults(firstQuery, queryCount, static_cast<uint8_t*>(pData),
	                                                          stride, flags, true);
	return available ? VK_SUCCESS : VK_NOT_READY;
}

VKAPI_ATTR void VKAPI_CALL CmdResetQueryPool(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t firstQuery,
                                             uint32_t queryCount) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<vk::ResetQueryPoolCommand>()) {
		cmd->pool = QueryPool::Cast(queryPool);
		cmd->first = firstQuery;
		cmd->count = queryCount;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdBeginQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query,
                                         VkQueryControlFlags) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<vk::BeginQueryCommand>()) {
		cmd->pool = QueryPool::Cast(queryPool);
		cmd->query = query;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdEndQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<vk::EndQueryCommand>()) {
		cmd->pool = QueryPool::Cast(queryPool);
		cmd->query = query;
	}
}

// VK_EXT_transform_feedback: stream `index` (below maxTransformFeedbackStreams)
// of a transform feedback stream or primitives generated query; other
// query types take index 0.
VKAPI_ATTR void VKAPI_CALL CmdBeginQueryIndexedEXT(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query,
                                                   VkQueryControlFlags, uint32_t index) {
	CommandBuffer* cb = CommandBuffer::Cast(commandBuffer);
	if (auto* cmd = cb->Add<vk::BeginQueryCommand>()) {
		cmd->pool = QueryPool::Cast(queryPool);
		cmd->query = query;
		cmd->index = index % shader::kMaxVertexStreams;
	}
}

VKAPI_ATTR void VKAPI_CALL CmdEndQueryIndexedEXT(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query,
                                                 uint32_t index) {
	if (auto* cmd = CommandBuffer::Cast(commandBuffer)->Add<vk::EndQueryCommand>()) {
		cmd->pool = QueryPool::Cast(queryPool);
		cmd->query = query;
		cmd->index = index % shader::kMaxVertexStreams;
	}
}

// VK_EXT_calibrated_timestamps: the device's timestamps are CLOCK_MONOTONIC
// nanoseconds (QueryPool::Now), so the device domain and CLOCK_MONOTONIC are
// one clock; CLOCK_MONOTONIC_RAW is offered too.
VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceCalibrateableTimeDomainsEXT(VkPhysicalDevice,
                                                                            uint32_t* pTimeDomainCount,
                                                                            VkTimeDomainEXT* pTimeDomains) {
	static const VkTimeDomainEXT kDomains[] = {VK_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT,
	                                           VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT};
	return vk::FillArray(kDomains, uint32_t(std::size(kDomains)), pTimeDomainCount, pTimeDomains);
}

VKAPI_ATTR VkResult VKAPI_CALL GetCalibratedTimestampsEXT(VkDevice, uint32_t timestampCount,
                                                          const VkCalibratedTimestampInfoEXT* pTimestampInfos,
                                                          uint64_t* pTimestamps, uint64_t* pMaxDeviation) {
	auto read = [](clockid_t clock) {
		timespec t;
		clock_gettime(clock, &t);
		return uint64_t(t.tv_sec) * 1000000000u + uint64_t(t.tv_nsec);
	};
	// The samples are taken one after another: they may be apart by as much
	// as the whole sequence took (CLOCK_MONOTONIC_RAW before and after).
	const uint64_t begin = read(CLOCK_MONOTONIC_RAW);
	for (uint32_t i = 0; i < timestampCount; ++i) {
		switch (pTimestampInfos[i].timeDomain) {
		case VK_TIME_DOMAIN_DEVICE_EXT: pTimestamps[i] = QueryPool::Now(); break;
		case VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT: pTimestamps[i] = read(CLOCK_MONOTONIC); break;
		case VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT: pTimestamps[i] = read(CLOCK_MONOTONIC_RAW); break;
		default: pTimestamps[i] = 0; break;  // not offered
		}
	}
	const uint64_t end = read(CLOCK_MONOTONIC_RAW);
	*pMaxDeviation = end - begin + 1;
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL CmdWriteTimestamp(VkCommandBuffer commandBuffer, VkPipelineStageFlagBits,
                                             VkQueryPool queryPool, uint32_t query) {
	vk::RecordWriteTimestamp(commandBuffer, queryPool, query);
}

VKAPI_ATTR void VKAPI_CALL CmdWriteTimestamp2(VkCommandBuffer commandBuffer, VkPipelineStageFlags2,
                                              VkQueryPool queryPool, uint32_t query) {
	vk::RecordWriteTimestamp(commandBuffer, queryPool, query);
}

VKAPI_ATTR void VKAPI_CALL CmdCopyQueryPoolResults(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                   uint32_t firstQuery, uint32_t queryCount, VkBuffer dstBuffer,
                                                   VkDeviceSize dstOffset, VkDeviceSize stride,
                                                   VkQueryResultFlags flags) {
	vk::RecordCopyResults(commandBuffer, queryPool, firstQuery, queryCount,
	                      vk::RangeOf(vk::Buffer::Cast(dstBuffer), dstOffset).data, stride, flags);
}

VKAPI_ATTR void VKAPI_CALL CmdCopyQueryPoolResultsToMemoryKHR(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                              uint32_t firstQuery, uint32_t queryCount,
                                                              const VkStridedDeviceAddressRangeKHR* pDstRange,
                                                              VkAddressCommandFlagsKHR,
                                                              VkQueryResultFlags queryResultFlags) {
	vk::RecordCopyResults(commandBuffer, queryPool, firstQuery, queryCount,
	                      vk::RangeOf(pDstRange->address, pDstRange->size).data, pDstRange->stride, queryResultFlags);
}

}  // namespace tessera::entry
