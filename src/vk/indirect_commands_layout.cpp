// vkCreateIndirectCommandsLayoutEXT / vkDestroyIndirectCommandsLayoutEXT
// (Vulkan "Device-Generated Commands", Indirect Commands Layout).
#include "vk/indirect_commands_layout.h"

#include <algorithm>

#include "vk/command_buffer.h"
#include "vk/device.h"

namespace tessera::vk {

uint32_t IndirectTokenSize(VkIndirectCommandsTokenTypeEXT type, uint32_t push_size) {
	switch (type) {
	case VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT: return sizeof(uint32_t);  // one index: pipelines
	case VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT: return push_size;
	case VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT: return sizeof(uint32_t);  // placeholder, not read
	case VK_INDIRECT_COMMANDS_TOKEN_TYPE_INDEX_BUFFER_EXT: return sizeof(VkBindIndexBufferIndirectCommandEXT);
	case VK_INDIRECT_COMMANDS_TOKEN_TYPE_VERTEX_BUFFER_EXT: return sizeof(VkBindVertexBufferIndirectCommandEXT);
	case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT: return sizeof(VkDrawIndexedIndirectCommand);
	case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT: return sizeof(VkDrawIndirectCommand);
	case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_COUNT_EXT:
	case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_COUNT_EXT: return sizeof(VkDrawIndirectCountIndirectCommandEXT);
	case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT: return sizeof(VkDispatchIndirectCommand);
	default: return 0;
	}
}

namespace {

bool IsAction(VkIndirectCommandsTokenTypeEXT type) {
	return type == VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT ||
	       type == VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT ||
	       type == VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_COUNT_EXT ||
	       type == VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_COUNT_EXT ||
	       type == VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT;
}

}  // namespace

VkResult IndirectCommandsLayout::Init(const Device& device, const VkIndirectCommandsLayoutCreateInfoEXT& info) {
	auto reject = [&](const char* why, uint32_t token) {
		device.Report(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_OBJECT_TYPE_DEVICE, 0,
		              "vkCreateIndirectCommandsLayoutEXT: token %u: %s", token, why);
		return VK_ERROR_UNKNOWN;
	};
	constexpr VkShaderStageFlags kGraphics = VK_SHADER_STAGE_ALL_GRAPHICS;
	if (info.tokenCount == 0 || info.tokenCount > kMaxIndirectCommandsTokenCount || !info.pTokens)
		return reject("tokenCount must be 1 to maxIndirectCommandsTokenCount", 0);
	if (info.indirectStride > kMaxIndirectCommandsIndirectStride)
		return reject("indirectStride is past maxIndirectCommandsIndirectStride", 0);
	if (info.shaderStages == VK_SHADER_STAGE_COMPUTE_BIT)
		compute_ = true;
	else if (info.shaderStages == 0 || (info.shaderStages & ~kGraphics))
		return reject("shaderStages must be graphics stages or the compute stage", 0);
	flags_ = info.flags;
	stride_ = info.indirectStride;
	tokens_.reserve(info.tokenCount);
	bool vertex_bound[kMaxVertexBindings] = {};
	for (uint32_t t = 0; t < info.tokenCount; ++t) {
		const VkIndirectCommandsLayoutTokenEXT& given = info.pTokens[t];
		IndirectToken token{given.type, given.offset};
		if (given.offset > kMaxIndirectCommandsTokenOffset || given.offset % 4)
			return reject("offset must be a multiple of 4 up to maxIndirectCommandsTokenOffset", t);
		const bool last = t + 1 == info.tokenCount;
		if (IsAction(given.type) != last) return reject("the one action token must be the last", t);
		switch (given.type) {
		case VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT:
			if (t != 0) return reject("an execution set token must be the first", t);
			if (!given.data.pExecutionSet ||
			    given.data.pExecutionSet->type != VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT)
				return reject("execution sets hold pipelines only (maxIndirectShaderObjectCount is 0)", t);
			break;
		case VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT:
		case VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT: {
			if (!given.data.pPushConstant) return reject("no push constant range", t);
			const VkPushConstantRange& range = given.data.pPushConstant->updateRange;
			const bool index = given.type == VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT;
			if (range.size == 0 || (index && range.size != 4) || range.offset > kMaxPushConstantsSize ||
			    range.size > kMaxPushConstantsSize - range.offset)
				return reject("the push constant range must lie in maxPushConstantsSize (4 bytes for an index)", t);
			token.push_offset = range.offset;
			token.push_size = range.size;
			break;
		}
		case VK_INDIRECT_COMMANDS_TOKEN_TYPE_INDEX_BUFFER_EXT: {
			if (compute_) return reject("an index buffer token needs a draw layout", t);
			const auto mode = given.data.pIndexBuffer ? given.data.pIndexBuffer->mode : 0;
			if (mode != VK_INDIRECT_COMMANDS_INPUT_MODE_VULKAN_INDEX_BUFFER_EXT &&
			    mode != VK_INDIRECT_COMMANDS_INPUT_MODE_DXGI_INDEX_BUFFER_EXT)
				return reject("the index buffer mode must be one input mode", t);
			token.dxgi_index_type = mode == VK_INDIRECT_COMMANDS_INPUT_MODE_DXGI_INDEX_BUFFER_EXT;
			break;
		}
		case VK_INDIRECT_COMMANDS_TOKEN_TYPE_VERTEX_BUFFER_EXT: {
			if (compute_) return reject("a vertex buffer token needs a draw layout", t);
			const uint32_t binding = given.data.pVertexBuffer ? given.data.pVertexBuffer->vertexBindingUnit : ~0u;
			if (binding >= kMaxVertexBindings || vertex_bound[binding])
				return reject("vertexBindingUnit must be a binding no other token binds", t);
			vertex_bound[binding] = true;
			token.vertex_binding = binding;
			break;
		}
		case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT:
		case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT:
		case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_COUNT_EXT:
		case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_COUNT_EXT:
			if (compute_) return reject("a draw token needs graphics shaderStages", t);
			break;
		case VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT:
			if (!compute_) return reject("a dispatch token needs shaderStages VK_SHADER_STAGE_COMPUTE_BIT", t);
			break;
		default: return reject("the token type is not supported (no mesh shading, ray tracing or push data)", t);
		}
		extent_ = std::max(extent_, given.offset + IndirectTokenSize(given.type, token.push_size));
		tokens_.push_back(token);
	}
	return VK_SUCCESS;
}

}  // namespace tessera::vk

namespace tessera::entry {

using vk::Device;
using vk::IndirectCommandsLayout;

VKAPI_ATTR VkResult VKAPI_CALL CreateIndirectCommandsLayoutEXT(VkDevice device,
                                                               const VkIndirectCommandsLayoutCreateInfoEXT* pCreateInfo,
                                                               const VkAllocationCallbacks* pAllocator,
                                                               VkIndirectCommandsLayoutEXT* pIndirectCommandsLayout) {
	Device* self = Device::Cast(device);
	const VkAllocationCallbacks* allocator = self->Allocator(pAllocator);
	auto* layout = vk::New<IndirectCommandsLayout>(allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
	if (!layout) return VK_ERROR_OUT_OF_HOST_MEMORY;
	VkResult result;
	try {
		result = layout->Init(*self, *pCreateInfo);
	} catch (const std::bad_alloc&) {
		result = VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	if (result != VK_SUCCESS) {
		vk::Delete(allocator, layout);
		return result;
	}
	*pIndirectCommandsLayout = layout->ToHandle();
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyIndirectCommandsLayoutEXT(VkDevice device,
                                                            VkIndirectCommandsLayoutEXT indirectCommandsLayout,
                                                            const VkAllocationCallbacks* pAllocator) {
	vk::Delete(Device::Cast(device)->Allocator(pAllocator), IndirectCommandsLayout::Cast(indirectCommandsLayout));
}

}  // namespace tessera::entry
