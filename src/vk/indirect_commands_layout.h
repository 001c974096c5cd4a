// VkIndirectCommandsLayoutEXT (VK_EXT_device_generated_commands): the tokens
// of one sequence in an indirect buffer, checked and reduced to plain data
// at creation. vkCmdExecuteGeneratedCommandsEXT performs them
// (vk/cmd_generated_commands.cpp).
#pragma once

#include <vector>

#include "icd/vulkan_newer.h"
#include "vk/object.h"

namespace tessera::vk {

class Device;

// VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT's limits (the spec's
// minimums but the token count).
constexpr uint32_t kMaxIndirectPipelineCount = 1u << 12;
constexpr uint32_t kMaxIndirectSequenceCount = 1u << 20;
constexpr uint32_t kMaxIndirectCommandsTokenCount = 64;
constexpr uint32_t kMaxIndirectCommandsTokenOffset = 2047;
constexpr uint32_t kMaxIndirectCommandsIndirectStride = 2048;

// One token as the execution needs it: where its data lies in a sequence,
// and what creation fixed.
struct IndirectToken {
	VkIndirectCommandsTokenTypeEXT type;
	uint32_t offset;  // in the sequence
	// PUSH_CONSTANT and SEQUENCE_INDEX: the push constant bytes written.
	uint32_t push_offset = 0;
	uint32_t push_size = 0;
	// VERTEX_BUFFER: the binding.
	uint32_t vertex_binding = 0;
	// INDEX_BUFFER: the record holds a DXGI_FORMAT instead of a VkIndexType.
	bool dxgi_index_type = false;
};

class IndirectCommandsLayout
    : public Object<IndirectCommandsLayout, VkIndirectCommandsLayoutEXT, VK_OBJECT_TYPE_INDIRECT_COMMANDS_LAYOUT_EXT> {
public:
	// Checks the create info against the rules Tessera's execution relies on
	// (one action token, last; data within the limits; pipelines only);
	// reports the first broken one through the device's messengers and
	// returns VK_ERROR_UNKNOWN.
	VkResult Init(const Device& device, const VkIndirectCommandsLayoutCreateInfoEXT& info);

	VkIndirectCommandsLayoutUsageFlagsEXT Flags() const { return flags_; }
	bool Compute() const { return compute_; }
	uint32_t Stride() const { return stride_; }
	const std::vector<IndirectToken>& Tokens() const { return tokens_; }
	// Bytes of a sequence the tokens read: offset of the last byte + 1.
	uint32_t Extent() const { return extent_; }
	bool HasExecutionSet() const {
		return !tokens_.empty() && tokens_[0].type == VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT;
	}

private:
	VkIndirectCommandsLayoutUsageFlagsEXT flags_ = 0;
	bool compute_ = false;  // a dispatch layout; otherwise a draw layout
	uint32_t stride_ = 0;
	uint32_t extent_ = 0;
	std::vector<IndirectToken> tokens_;
};

// The bytes of a token's data in a sequence.
uint32_t IndirectTokenSize(VkIndirectCommandsTokenTypeEXT type, uint32_t push_size);

}  // namespace tessera::vk
