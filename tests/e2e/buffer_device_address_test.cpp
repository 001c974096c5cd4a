// Buffer device addresses (Vulkan 1.3 §12.7, bufferDeviceAddress) through the
// loader: buffers bound to VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT memory, their
// addresses in push constants and inside a buffer (a linked list), read,
// written and updated atomically by a GL_EXT_buffer_reference shader. Tessera
// and lavapipe run the same program; results are checked against the host.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

struct Node {  // std430 layout of the shader's Node
	uint64_t next;
	uint32_t value;
	uint32_t pad;
};

struct Push {
	uint64_t head, words, counter;
	uint32_t stride;
};

struct Out {
	uint32_t sum[16], count[16], loaded[16];
	uint32_t at[16][2];
	uint32_t ticket[16];
};

struct AddressedBuffer {
	VkBuffer buffer = VK_NULL_HANDLE;
	VkDeviceMemory memory = VK_NULL_HANDLE;
	uint8_t* data = nullptr;
	VkDeviceAddress address = 0;
};

// A host-visible buffer whose memory was allocated with
// VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT (VUID-vkBindBufferMemory-bufferDeviceAddress-03339).
AddressedBuffer CreateAddressed(Context& ctx, VkDeviceSize size) {
	AddressedBuffer b;
	VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
	info.size = size;
	info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
	REQUIRE(vkCreateBuffer(ctx.device(), &info, nullptr, &b.buffer) == VK_SUCCESS);
	VkMemoryRequirements requirements;
	vkGetBufferMemoryRequirements(ctx.device(), b.buffer, &requirements);
	VkPhysicalDeviceMemoryProperties properties;
	vkGetPhysicalDeviceMemoryProperties(ctx.physical_device(), &properties);
	const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	uint32_t type = UINT32_MAX;
	for (uint32_t t = 0; t < properties.memoryTypeCount && type == UINT32_MAX; ++t)
		if ((requirements.memoryTypeBits & (1u << t)) && (properties.memoryTypes[t].propertyFlags & wanted) == wanted)
			type = t;
	REQUIRE(type != UINT32_MAX);
	VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
	flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
	VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags};
	allocate.allocationSize = requirements.size;
	allocate.memoryTypeIndex = type;
	REQUIRE(vkAllocateMemory(ctx.device(), &allocate, nullptr, &b.memory) == VK_SUCCESS);
	REQUIRE(vkBindBufferMemory(ctx.device(), b.buffer, b.memory, 0) == VK_SUCCESS);
	REQUIRE(vkMapMemory(ctx.device(), b.memory, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(&b.data)) == VK_SUCCESS);
	VkBufferDeviceAddressInfo address{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
	address.buffer = b.buffer;
	b.address = vkGetBufferDeviceAddress(ctx.device(), &address);
	REQUIRE(b.address != 0);
	return b;
}

void Destroy(Context& ctx, AddressedBuffer& b) {
	vkDestroyBuffer(ctx.device(), b.buffer, nullptr);
	vkFreeMemory(ctx.device(), b.memory, nullptr);
}

ContextOptions AddressOptions() {
	static VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	static VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	features13.maintenance4 = VK_TRUE;  // glslang's LocalSizeId
	features12.bufferDeviceAddress = VK_TRUE;
	features12.pNext = &features13;
	ContextOptions options;
	options.device_features = &features12;
	return options;
}

// What one driver computed, with addresses made relative to the node buffer.
struct Result {
	Out out;
	std::vector<uint32_t> words;
	uint32_t counter = 0;
	std::vector<uint64_t> node_offsets;  // at[i] - the node buffer's address
};

Result Run(Driver driver) {
	auto ctx = Context::Create(driver, AddressOptions());
	REQUIRE(ctx);
	Result result;
	{
		ComputeKernel kernel(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "buffer_reference.spv"), 1);
		REQUIRE(kernel.ok());
		AddressedBuffer nodes = CreateAddressed(*ctx, 16 * sizeof(Node));
		AddressedBuffer words = CreateAddressed(*ctx, 80 * 4);
		AddressedBuffer counter = CreateAddressed(*ctx, 4);
		AddressedBuffer out = CreateAddressed(*ctx, sizeof(Out));
		for (uint32_t k = 0; k < 16; ++k) {
			Node node{k + 1 < 16 ? nodes.address + (k + 1) * sizeof(Node) : 0, (k + 1) * 7, 0};
			memcpy(nodes.data + k * sizeof(Node), &node, sizeof(node));
		}
		for (uint32_t j = 0; j < 80; ++j) {
			uint32_t w = j * 11 + 5;
			memcpy(words.data + j * 4, &w, 4);
		}
		memset(counter.data, 0, 4);
		memset(out.data, 0xcd, sizeof(Out));
		kernel.Bind(0, out.buffer);
		Push push{nodes.address, words.address, counter.address, 8};
		ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, &push, sizeof(push), 1); });
		memcpy(&result.out, out.data, sizeof(Out));
		result.words.resize(80);
		memcpy(result.words.data(), words.data, 80 * 4);
		memcpy(&result.counter, counter.data, 4);
		for (uint32_t i = 0; i < 16; ++i)
			result.node_offsets.push_back(((uint64_t{result.out.at[i][1]} << 32) | result.out.at[i][0]) -
			                              nodes.address);
		for (AddressedBuffer* b : {&nodes, &words, &counter, &out}) Destroy(*ctx, *b);
	}
	CHECK(ctx->validation_errors() == 0);
	return result;
}

}  // namespace

TEST_CASE("buffer device addresses: a list walk, pointer arithmetic, stores and atomics match lavapipe",
          "[compute][bda]") {
	Result ours = Run(Driver::Tessera);
	Result reference = Run(Driver::Lavapipe);
	for (const Result* r : {&ours, &reference}) {
		for (uint32_t i = 0; i < 16; ++i) {
			INFO((r == &ours ? "Tessera" : "lavapipe") << ", invocation " << i);
			uint32_t sum = 0;
			for (uint32_t k = i; k < 16; ++k) sum += (k + 1) * 7;
			CHECK(r->out.sum[i] == sum);
			CHECK(r->out.count[i] == 16 - i);
			CHECK(r->node_offsets[i] == i * sizeof(Node));
			CHECK(r->out.loaded[i] == 2 * i * 11 + 5);
			CHECK(r->words[64 + i] == (2 * i * 11 + 5) * 3);
		}
		CHECK(r->counter == 136);
	}
	// Atomics: invocations may take their tickets in any order, so check that
	// each driver's tickets tile [0, 136): invocation i adds i + 1, and sorted
	// by ticket each one starts where the previous one ended.
	for (const Result* r : {&ours, &reference}) {
		std::vector<std::pair<uint32_t, uint32_t>> tickets;
		for (uint32_t i = 0; i < 16; ++i) tickets.push_back({r->out.ticket[i], i + 1});
		std::sort(tickets.begin(), tickets.end());
		uint32_t next = 0;
		for (auto [ticket, added] : tickets) {
			CHECK(ticket == next);
			next = ticket + added;
		}
	}
	CHECK(ours.words == reference.words);
}

// Vulkan 1.3 §15.9.1: accesses through device addresses are not covered by
// robustBufferAccess, so a wild pointer is the application's bug; it must
// still not take the host process down. Tessera checks every device-address
// access against the device's live allocations. (Tessera only: another
// driver may legitimately crash here.)
TEST_CASE("a wild device address is dropped instead of crashing the process", "[compute][bda]") {
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	v13.maintenance4 = VK_TRUE;
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	v12.pNext = &v13;
	v12.bufferDeviceAddress = VK_TRUE;
	ContextOptions options;
	options.device_features = &v12;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	ComputeKernel kernel(*ctx, LoadCorpusShader(TESSERA_SHADER_DIR, "wild_pointer.spv"), 1);
	REQUIRE(kernel.ok());
	TestBuffer out = ctx->CreateBuffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	std::fill(out.data, out.data + 16, uint8_t(0xee));
	kernel.Bind(0, out.buffer);
	for (uint64_t address : {uint64_t(0x10), uint64_t(0x7f0000001000), uint64_t(0xdead0000beef0000)}) {
		INFO("address " << address);
		ctx->Submit([&](VkCommandBuffer cb) { kernel.Record(cb, &address, sizeof address, 1); });
		uint32_t words[4];
		std::memcpy(words, out.data, 16);
		for (uint32_t w : words) CHECK(w == 1u);  // the load read 0
	}
	ctx->Destroy(out);
	CHECK(ctx->validation_errors() == 0);
}
