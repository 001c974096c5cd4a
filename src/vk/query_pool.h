// VkQueryPool (Vulkan 1.3 §18): timestamp, occlusion, pipeline statistics,
// transform feedback stream and primitives generated queries.
//
// Each query is a value and an availability flag, both atomic: the queue
// thread writes them while the host may read them (vkGetQueryPoolResults).
// Making a query available calls Device::Notify(), so VK_QUERY_RESULT_WAIT_BIT
// sleeps on the device's condition variable like every other host wait.
// Timestamps are CLOCK_MONOTONIC nanoseconds (timestampPeriod 1.0, 64 valid
// bits). A pipeline statistics query keeps the eleven counters of
// VkQueryPipelineStatisticFlagBits (Statistic) and reports those the pool
// was created with, in bit order; a transform feedback stream query keeps
// two, primitives written and primitives needed, reported in that order.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "vk/object.h"

namespace tessera::vk {

class Device;

// The counters of a pipeline statistics query: bit k of
// VkQueryPipelineStatisticFlagBits is counter k.
enum class Statistic : uint32_t {
	kInputAssemblyVertices,
	kInputAssemblyPrimitives,
	kVertexShaderInvocations,
	kGeometryShaderInvocations,
	kGeometryShaderPrimitives,
	kClippingInvocations,
	kClippingPrimitives,
	kFragmentShaderInvocations,
	kTessellationControlPatches,
	kTessellationEvaluationInvocations,
	kComputeShaderInvocations,
	kCount,
};

class QueryPool : public Object<QueryPool, VkQueryPool, VK_OBJECT_TYPE_QUERY_POOL> {
public:
	QueryPool(Device* device, const VkQueryPoolCreateInfo& info)
	    : device_(device),
	      type_(info.queryType),
	      count_(info.queryCount),
	      statistics_(info.queryType == VK_QUERY_TYPE_PIPELINE_STATISTICS ? info.pipelineStatistics : 0) {}
	VkResult Init();

	VkQueryType Type() const { return type_; }
	uint32_t Count() const { return count_; }

	// Host (vkResetQueryPool) or queue (vkCmdResetQueryPool): unavailable, zero.
	void Reset(uint32_t first, uint32_t count);
	// Queue side.
	void Begin(uint32_t query);
	void End(uint32_t query);
	void WriteTimestamp(uint32_t query);
	void WriteZero(uint32_t query);  // the other queries of a multiview timestamp
	// Occlusion: draws add the samples that pass the tests while the query
	// is active (vk/draw.cpp; precise counts).
	void AddSamples(uint32_t query, uint64_t samples) {
		queries_[query].value.fetch_add(samples, std::memory_order_relaxed);
	}
	// Pipeline statistics: draws and dispatches add to the counters while the
	// query is active.
	void AddStatistic(uint32_t query, Statistic statistic, uint64_t value) {
		if (value && counters_) Counter(query, uint32_t(statistic)).fetch_add(value, std::memory_order_relaxed);
	}
	// Primitives generated (VK_EXT_primitives_generated_query): draws add
	// the primitives they assemble while the query is active.
	void AddPrimitivesGenerated(uint32_t query, uint64_t primitives) {
		queries_[query].value.fetch_add(primitives, std::memory_order_relaxed);
	}
	// Transform feedback: draws add the primitives they captured and those
	// they would have captured with room enough.
	void AddTransformFeedback(uint32_t query, uint64_t written, uint64_t needed) {
		Counter(query, 0).fetch_add(written, std::memory_order_relaxed);
		Counter(query, 1).fetch_add(needed, std::memory_order_relaxed);
	}

	// Writes results as §18.2 lays them out; returns false when some query
	// was unavailable (vkGetQueryPoolResults then returns VK_NOT_READY). Only
	// a host call (wait_allowed) honours VK_QUERY_RESULT_WAIT_BIT.
	bool WriteResults(uint32_t first, uint32_t count, uint8_t* data, VkDeviceSize stride, VkQueryResultFlags flags,
	                  bool wait_allowed);

	static uint64_t Now();  // the timestamp clock, in nanoseconds

private:
	struct Query {
		std::atomic<uint64_t> value{0};
		std::atomic<uint32_t> available{0};
	};
	void MakeAvailable(Query& query);
	std::atomic<uint64_t>& Counter(uint32_t query, uint32_t k) {
		return counters_[size_t(query) * counters_per_query_ + k];
	}

	Device* device_;
	VkQueryType type_;
	uint32_t count_;
	VkQueryPipelineStatisticFlags statistics_;
	std::unique_ptr<Query[]> queries_;
	// Counters of statistics (Statistic::kCount a query) and transform
	// feedback (2) pools; none for the others.
	uint32_t counters_per_query_ = 0;
	std::unique_ptr<std::atomic<uint64_t>[]> counters_;
};

}  // namespace tessera::vk
