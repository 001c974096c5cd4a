// A storage texel is written once, with its final bytes: PackTexel used to
// zero the texel in place and then OR the components in, so a thread reading
// the texel while another thread stored the value it already held could see
// zero. Vulkan CTS subgroups.basic.compute.subgroupmemorybarrierimage has
// workgroups on different threads store the same value to one texel and read
// it back; it failed now and then so.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <thread>

#include "texture/format.h"
#include "texture/texel.h"

using namespace tessera::texture;

#if !defined(__SANITIZE_THREAD__)  // the race is the point: ThreadSanitizer would report it
TEST_CASE("PackTexel rewriting a texel's value never shows a reader other bytes", "[texture]") {
	const FormatInfo& format = *FindFormat(VK_FORMAT_R32_UINT);
	TexelValue value{};
	value.u[0] = 0xdca345eau;
	alignas(64) uint32_t texel = 0;
	PackTexel(format, value, &texel);

	// One thread stores the value the texel already holds, over and over;
	// this one reads it meanwhile. Before the fix most reads on two cores
	// saw 0 (and some on one core, when the writer was preempted).
	std::atomic<bool> done{false};
	std::thread writer([&] {
		for (int i = 0; i < 2'000'000; ++i) PackTexel(format, value, &texel);
		done.store(true, std::memory_order_release);
	});
	uint64_t reads = 0, other = 0;
	while (!done.load(std::memory_order_acquire)) {
		const uint32_t seen = std::atomic_ref<uint32_t>(texel).load(std::memory_order_relaxed);
		other += seen != value.u[0];
		++reads;
	}
	writer.join();
	INFO(other << " of " << reads << " reads saw other bytes");
	CHECK(other == 0);
}
#endif
