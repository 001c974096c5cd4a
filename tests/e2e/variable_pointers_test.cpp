// SPIR-V variable pointers (VK_KHR_variable_pointers, core since Vulkan 1.1)
// through the Vulkan API: corpus shaders select, merge, step, keep, compare
// and subtract pointers into storage buffers and Workgroup memory, then load,
// store and add atomically through them. Each shader runs on Tessera and on
// lavapipe with the same inputs, and every word either driver leaves behind
// must equal what the host computes from those inputs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "compute_kernel.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// Every shader here runs 4 workgroups of 64 invocations.
constexpr uint32_t kGroups = 4;
constexpr uint32_t kInvocations = kGroups * 64;
// What the outputs start as, so that a word the shader never wrote shows.
constexpr uint32_t kFill = 0xcdcdcdcdu;

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
	std::vector<uint8_t> bytes(values.size() * sizeof(T));
	std::memcpy(bytes.data(), values.data(), bytes.size());
	return bytes;
}

std::vector<uint32_t> Words(const std::vector<uint8_t>& bytes) {
	std::vector<uint32_t> words(bytes.size() / 4);
	std::memcpy(words.data(), bytes.data(), words.size() * 4);
	return words;
}

std::vector<uint32_t> RandomWords(std::mt19937& rng, size_t count) {
	std::vector<uint32_t> words(count);
	for (uint32_t& w : words) w = rng();
	return words;
}

// The features a shader needs: variablePointersStorageBuffer always,
// variablePointers unless storage_buffer_only, and run-time indexing of
// storage-buffer arrays where it indexes an array of descriptors.
struct Needs {
	bool storage_buffer_only = false;
	bool buffer_array_indexing = false;
};

struct EnabledFeatures {
	VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	explicit EnabledFeatures(const Needs& needs) {
		v11.variablePointersStorageBuffer = VK_TRUE;
		v11.variablePointers = !needs.storage_buffer_only;
		f2.pNext = &v11;
		f2.features.shaderStorageBufferArrayDynamicIndexing = needs.buffer_array_indexing;
	}
	EnabledFeatures(const EnabledFeatures&) = delete;
};

// The driver must advertise the features before a device can enable them.
void RequireAdvertised(Driver driver, const Needs& needs) {
	auto probe = Context::Create(driver);
	REQUIRE(probe);
	VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
	vkGetPhysicalDeviceFeatures2(probe->physical_device(), &f2);
	INFO(DriverName(driver));
	REQUIRE(v11.variablePointersStorageBuffer == VK_TRUE);
	if (!needs.storage_buffer_only) REQUIRE(v11.variablePointers == VK_TRUE);
	if (needs.buffer_array_indexing) REQUIRE(f2.features.shaderStorageBufferArrayDynamicIndexing == VK_TRUE);
}

using Buffers = std::vector<std::vector<uint8_t>>;
// Records and runs one dispatch over the storage buffers, in binding order.
using Dispatch = std::function<void(Context&, const std::vector<TestBuffer>&)>;

// Creates the storage buffers from `initial` on both drivers, runs
// `dispatch` and returns {Tessera's, lavapipe's} buffer contents afterwards.
std::pair<Buffers, Buffers> RunBoth(const Needs& needs, const Buffers& initial, const Dispatch& dispatch) {
	RequireAdvertised(Driver::Tessera, needs);
	RequireAdvertised(Driver::Lavapipe, needs);
	EnabledFeatures features(needs);
	ContextOptions options;
	options.device_features = &features.f2;
	auto run = [&](Driver driver) {
		auto ctx = Context::Create(driver, options);
		REQUIRE(ctx);
		std::vector<TestBuffer> buffers = CreateStorageBuffers(*ctx, initial);
		dispatch(*ctx, buffers);
		Buffers out = ReadAndDestroy(*ctx, buffers);
		CHECK(ctx->validation_errors() == 0);
		return out;
	};
	Buffers ours = run(Driver::Tessera);
	Buffers reference = run(Driver::Lavapipe);
	return {ours, reference};
}

// A corpus shader with one storage buffer per binding.
Dispatch Kernel(const char* shader) {
	return [shader](Context& ctx, const std::vector<TestBuffer>& buffers) {
		std::vector<uint32_t> words = LoadCorpusShader(TESSERA_SHADER_DIR, shader);
		REQUIRE(!words.empty());
		ComputeKernel kernel(ctx, words, uint32_t(buffers.size()));
		REQUIRE(kernel.ok());
		for (uint32_t i = 0; i < buffers.size(); ++i) kernel.Bind(i, buffers[i].buffer);
		ctx.Submit([&](VkCommandBuffer cb) { kernel.Record(cb, nullptr, 0, kGroups); });
	};
}

// A corpus shader whose binding b is an array of counts[b] storage buffers,
// taken from `buffers` in order (ComputeKernel gives each binding one).
Dispatch ArrayedKernel(const char* shader, std::vector<uint32_t> counts) {
	return [shader, counts](Context& ctx, const std::vector<TestBuffer>& buffers) {
		VkDevice device = ctx.device();
		std::vector<VkDescriptorSetLayoutBinding> bindings;
		uint32_t total = 0;
		for (uint32_t b = 0; b < counts.size(); ++b) {
			bindings.push_back({b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, counts[b], VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
			total += counts[b];
		}
		REQUIRE(total == buffers.size());
		VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
		dslci.bindingCount = uint32_t(bindings.size());
		dslci.pBindings = bindings.data();
		VkDescriptorSetLayout set_layout;
		REQUIRE(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &set_layout) == VK_SUCCESS);
		VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
		plci.setLayoutCount = 1;
		plci.pSetLayouts = &set_layout;
		VkPipelineLayout layout;
		REQUIRE(vkCreatePipelineLayout(device, &plci, nullptr, &layout) == VK_SUCCESS);
		VkPipeline pipeline = CreateCorpusComputePipeline(device, TESSERA_SHADER_DIR, shader, layout);
		REQUIRE(pipeline != VK_NULL_HANDLE);

		VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, total};
		VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
		dpci.maxSets = 1;
		dpci.poolSizeCount = 1;
		dpci.pPoolSizes = &size;
		VkDescriptorPool pool;
		REQUIRE(vkCreateDescriptorPool(device, &dpci, nullptr, &pool) == VK_SUCCESS);
		VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
		dsai.descriptorPool = pool;
		dsai.descriptorSetCount = 1;
		dsai.pSetLayouts = &set_layout;
		VkDescriptorSet set;
		REQUIRE(vkAllocateDescriptorSets(device, &dsai, &set) == VK_SUCCESS);
		std::vector<VkDescriptorBufferInfo> infos;
		for (const TestBuffer& b : buffers) infos.push_back({b.buffer, 0, VK_WHOLE_SIZE});
		std::vector<VkWriteDescriptorSet> writes;
		for (uint32_t b = 0, first = 0; b < counts.size(); first += counts[b++]) {
			VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
			write.dstSet = set;
			write.dstBinding = b;
			write.descriptorCount = counts[b];
			write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
			write.pBufferInfo = &infos[first];
			writes.push_back(write);
		}
		vkUpdateDescriptorSets(device, uint32_t(writes.size()), writes.data(), 0, nullptr);

		ctx.Submit([&](VkCommandBuffer cb) {
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
			vkCmdDispatch(cb, kGroups, 1, 1);
			VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
			barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
			barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
			                     0, nullptr, 0, nullptr);
		});
		vkDestroyDescriptorPool(device, pool, nullptr);
		vkDestroyPipeline(device, pipeline, nullptr);
		vkDestroyPipelineLayout(device, layout, nullptr);
		vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
	};
}

// Checks one buffer of one driver against the host's words; a mismatch
// names the first wrong word (as invocation and output index, `stride`
// words per invocation) and how many are wrong.
void CheckWords(const char* driver, const char* buffer, const std::vector<uint8_t>& bytes,
                const std::vector<uint32_t>& expected, uint32_t stride = 1) {
	const std::vector<uint32_t> got = Words(bytes);
	REQUIRE(got.size() == expected.size());
	size_t wrong = 0, first = 0;
	for (size_t i = 0; i < got.size(); ++i)
		if (got[i] != expected[i] && wrong++ == 0) first = i;
	INFO(driver << ", " << buffer << ": " << wrong << " words differ from the host's; the first is word "
	            << first % stride << " of invocation " << first / stride << ": 0x" << std::hex << got[first]
	            << " for 0x" << expected[first]);
	CHECK(wrong == 0);
}

}  // namespace

// With VariablePointersStorageBuffer alone: OpSelect, a loop's OpPhi,
// OpPtrAccessChain and a Function variable of pointers, each within one
// buffer.
TEST_CASE("Variable pointers within one storage buffer load and store the words they select",
          "[compute][features][variable_pointers]") {
	std::mt19937 rng(41);
	// Pair: a[256], then b[263].
	std::vector<uint32_t> pair = RandomWords(rng, kInvocations + kInvocations + 7);
	uint32_t* a = pair.data();
	uint32_t* b = pair.data() + kInvocations;
	// 64 linked nodes, each list ending at a node whose next is -1, and 4
	// unlinked ones past them for the OpPtrAccessChain beyond a list's end.
	struct Node {
		uint32_t value;
		int32_t next;
	};
	std::vector<Node> list(68);
	for (uint32_t i = 0; i < list.size(); ++i) {
		list[i].value = rng();
		const bool last = i >= 63 || rng() % 4 == 0;
		list[i].next = last ? -1 : static_cast<int32_t>(i + 1 + rng() % std::min(6u, 63 - i));
	}
	// Table: a key per invocation, then 1024 data words.
	const std::vector<uint32_t> table = RandomWords(rng, kInvocations + 1024);
	constexpr uint32_t kOutputs = 6;
	const Buffers initial = {Bytes(pair), Bytes(list), Bytes(table),
	                         Bytes(std::vector<uint32_t>(kInvocations * kOutputs, kFill))};
	auto [ours, reference] =
	    RunBoth({.storage_buffer_only = true}, initial, Kernel("variable_pointers_storage_buffer.spv"));

	// The host runs the invocations one after another: each touches only its
	// own a[g] and b[g + 7] of Pair.
	std::vector<uint32_t> out(kInvocations * kOutputs);
	const int32_t steps[5] = {-2, -1, 3, 1, 2};
	for (uint32_t g = 0; g < kInvocations; ++g) {
		const uint32_t key = table[g];
		uint32_t* o = &out[g * kOutputs];
		uint32_t& chosen = g & 1 ? b[g + 7] : a[g];
		o[0] = chosen;
		chosen = chosen * 3 + g;
		uint32_t node = key % 64, sum = 0, length = 0;
		for (;; node = uint32_t(list[node].next)) {
			sum += list[node].value;
			++length;
			if (list[node].next < 0) break;
		}
		o[1] = sum;
		o[2] = length;
		o[3] = list[node + ((key >> 8) & 3)].value;
		const uint32_t base = (key >> 10) & 1 ? 256 + g : 512 + 2 * g;
		const int32_t step = steps[(key >> 12) % 5];
		o[4] = 0;
		for (int32_t i = 0; i < 4; ++i) o[4] += table[base + i * step];
		uint32_t& kept = (key >> 16) & 1 ? b[g + 7] : a[g];
		o[5] = kept;
		kept += 1000;
	}
	for (auto& [driver, buffers] : {std::pair{"Tessera", ours}, std::pair{"lavapipe", reference}}) {
		CheckWords(driver, "Out", buffers[3], out, kOutputs);
		CheckWords(driver, "Pair", buffers[0], pair);
	}
}

TEST_CASE("Variable pointers across storage buffers load, store, add atomically, compare with null and subtract",
          "[compute][features][variable_pointers]") {
	std::mt19937 rng(43);
	std::vector<uint32_t> a = RandomWords(rng, 512), b = RandomWords(rng, 512);
	// For some invocations &A.v[(b >> 4) % 256], the comparisons' second
	// pointer when bit 2 of b is clear, is &A.v[g].
	for (uint32_t g = 5; g < kInvocations; g += 16) b[g] = (b[g] & ~0xff4u) | g << 4;
	// X and Y: 4 counters, then a word per invocation.
	constexpr uint32_t kDual = 4 + kInvocations;
	std::vector<uint32_t> x(kDual, kFill), y(kDual, kFill);
	for (uint32_t c = 0; c < 4; ++c) x[c] = 1000 * c + 7, y[c] = 5000 * c + 3;
	const std::vector<uint32_t> x_initial = x, y_initial = y;
	constexpr uint32_t kOutputs = 8;
	const Buffers initial = {Bytes(a), Bytes(b), Bytes(std::vector<uint32_t>(kInvocations * kOutputs, kFill)), Bytes(x),
	                         Bytes(y)};
	auto [ours, reference] = RunBoth({}, initial, Kernel("variable_pointers.spv"));

	std::vector<uint32_t> out(kInvocations * kOutputs);
	for (uint32_t g = 0; g < kInvocations; ++g) {
		const uint32_t ka = a[g], kb = b[g];
		uint32_t* o = &out[g * kOutputs];
		o[0] = ka & 1 ? b[g + 1] : a[g + 2];
		o[1] = kb & 2 ? a[(kb >> 2) % 256] : b[(ka >> 2) % 256];
		const uint32_t* hop = &a[g];
		o[2] = 0;
		for (uint32_t n = 0; n < 2 + kb % 5; ++n) {
			const uint32_t value = *hop;
			o[2] += value;
			hop = &(value & 1 ? b : a)[(value >> 1) % 256];
		}
		((ka >> 3) & 1 ? x : y)[4 + g] = ka ^ kb;
		((kb >> 3) & 1 ? x : y)[g % 4] += g + 1;
		o[3] = 0;  // OpAtomicIAdd's result depends on the order: checked below
		const bool real = ka & 4;
		const bool self = (kb & 4) || (kb >> 4) % 256 == g;
		o[4] = uint32_t(!real) | uint32_t(!real || !self) << 1 | uint32_t(self) << 2;
		o[5] = real ? ka : 0xffffffffu;
		const uint32_t picked = ka & 128 ? (kb >> 8) % 256 : (kb >> 16) % 256;
		o[6] = picked - g;
		o[7] = g - (picked + (ka >> 4) % 8);
	}
	for (auto& [driver, buffers] : {std::pair{"Tessera", ours}, std::pair{"lavapipe", reference}}) {
		std::vector<uint32_t> got = Words(buffers[2]);
		// The values OpAtomicIAdd returned on one counter, in order, must each
		// be the one before plus that one's addend, starting from the
		// counter's first value: every addition happened once, whole. (The
		// counters' last values are checked with the rest of X and Y.)
		for (uint32_t c = 0; c < 8; ++c) {  // X's 4 counters, then Y's
			const bool in_x = c < 4;
			std::vector<std::pair<uint32_t, uint32_t>> returned;  // {value returned, addend}
			for (uint32_t g = c % 4; g < kInvocations; g += 4)
				if (bool((b[g] >> 3) & 1) == in_x) returned.push_back({got[g * kOutputs + 3], g + 1});
			std::sort(returned.begin(), returned.end());
			uint32_t value = (in_x ? x_initial : y_initial)[c % 4];
			size_t broken = 0;
			for (auto [old, addend] : returned) {
				broken += old != value;
				value = old + addend;
			}
			INFO(driver << ": counter " << c % 4 << " of " << (in_x ? "X" : "Y"));
			CHECK(broken == 0);
		}
		for (uint32_t g = 0; g < kInvocations; ++g) got[g * kOutputs + 3] = 0;
		CheckWords(driver, "Out", Bytes(got), out, kOutputs);
		CheckWords(driver, "X", buffers[3], x);
		CheckWords(driver, "Y", buffers[4], y);
	}
}

TEST_CASE("Variable pointers into two shared arrays and two shared counters store, load, compare and add",
          "[compute][features][variable_pointers]") {
	std::mt19937 rng(47);
	std::vector<uint32_t> keys = RandomWords(rng, kInvocations);
	// Some invocations read their own slot of S: bit 1 set, (key >> 2) % 64
	// their local index.
	for (uint32_t g = 3; g < kInvocations; g += 8) keys[g] = (keys[g] & ~0xfcu) | (g % 64) << 2 | 2;
	constexpr uint32_t kOutputs = 3;
	const Buffers initial = {Bytes(keys), Bytes(std::vector<uint32_t>(kInvocations * kOutputs, kFill)),
	                         Bytes(std::vector<uint32_t>(2 * kGroups, kFill))};
	auto [ours, reference] = RunBoth({}, initial, Kernel("variable_pointers_workgroup.spv"));

	std::vector<uint32_t> out(kInvocations * kOutputs), counts(2 * kGroups, 0);
	for (uint32_t w = 0; w < kGroups; ++w) {
		const uint32_t* key = &keys[w * 64];
		uint32_t s[64], t[64];
		for (uint32_t l = 0; l < 64; ++l) {
			(key[l] & 1 ? s : t)[l] = key[l];
			(key[l] & 1 ? t : s)[l] = key[l] * 3 + w;
		}
		for (uint32_t l = 0; l < 64; ++l) {
			uint32_t* o = &out[(w * 64 + l) * kOutputs];
			const bool read_s = (key[l] >> 1) & 1;
			const uint32_t j = (key[l] >> 2) % 64;
			o[0] = (read_s ? s : t)[j];
			o[1] = (key[l] >> 8) & 1 ? s[63 - l] : t[(l + 1) % 64];
			o[2] = uint32_t(read_s && j == l) | uint32_t(read_s) << 1;
			counts[2 * w + ((key[l] >> 9) & 1 ? 0 : 1)] += 1 + (key[l] & 255);
		}
	}
	for (auto& [driver, buffers] : {std::pair{"Tessera", ours}, std::pair{"lavapipe", reference}}) {
		CheckWords(driver, "Out", buffers[1], out, kOutputs);
		CheckWords(driver, "Counts", buffers[2], counts, 2);
	}
}

// The array index is the workgroup's, mod 3: dynamically uniform, as lavapipe
// 22.3 has no shaderStorageBufferArrayNonUniformIndexing. The selections are
// per invocation.
TEST_CASE("Variable pointers select between descriptors of an array and another storage buffer",
          "[compute][features][variable_pointers]") {
	std::mt19937 rng(53);
	// Binding 0: Blocks[3]; binding 1: Other (a key per invocation, then the
	// words the stores may replace); binding 2: Out.
	std::vector<std::vector<uint32_t>> blocks = {RandomWords(rng, 512), RandomWords(rng, 512), RandomWords(rng, 512)};
	std::vector<uint32_t> other = RandomWords(rng, 512);
	constexpr uint32_t kOutputs = 2;
	const Buffers initial = {Bytes(blocks[0]), Bytes(blocks[1]), Bytes(blocks[2]), Bytes(other),
	                         Bytes(std::vector<uint32_t>(kInvocations * kOutputs, kFill))};
	auto [ours, reference] = RunBoth({.buffer_array_indexing = true}, initial,
	                                 ArrayedKernel("variable_pointers_descriptor_array.spv", {3, 1, 1}));

	// Loads read words [0, 256) and stores write [256, 512): no invocation
	// reads what another writes.
	std::vector<uint32_t> out(kInvocations * kOutputs);
	for (uint32_t g = 0; g < kInvocations; ++g) {
		const uint32_t d = g / 64 % 3, key = other[g];
		out[g * kOutputs] = key & 1 ? blocks[d][g] : other[g];
		out[g * kOutputs + 1] = (key >> 2) & 1 ? blocks[(d + 1) % 3][(key >> 4) % 256] : blocks[d][g];
		((key >> 1) & 1 ? blocks[d] : other)[256 + g] = key ^ g;
	}
	for (auto& [driver, buffers] : {std::pair{"Tessera", ours}, std::pair{"lavapipe", reference}}) {
		CheckWords(driver, "Out", buffers[4], out, kOutputs);
		CheckWords(driver, "Blocks[0]", buffers[0], blocks[0]);
		CheckWords(driver, "Blocks[1]", buffers[1], blocks[1]);
		CheckWords(driver, "Blocks[2]", buffers[2], blocks[2]);
		CheckWords(driver, "Other", buffers[3], other);
	}
}
