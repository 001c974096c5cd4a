// VkShaderEXT (VK_EXT_shader_object, Vulkan "Shader Objects"): one shader
// stage translated alone, with the descriptor set layouts and push constant
// ranges it was made with, bound to a command buffer without a pipeline.
//
// A compute shader is a compute Pipeline of its program, bound to the
// compute bind point like one. Graphics shaders are linked at draw time:
// the stages bound when a draw executes become the GraphicsPipeline that
// draw.cpp consumes, made as a pipeline library's parts are linked
// (pipeline_library.h) with every state dynamic, and kept for the next draw
// of the same stages until one of them is destroyed (LinkedPipeline).
//
// The binary (vkGetShaderBinaryDataEXT) is a header (kBinaryMagic, the
// device's shaderBinaryVersion and shaderBinaryUUID, the stage) and the
// program's program_serialize bytes, which carry their own SHA-256: a binary
// from another build, of another stage, or corrupted is refused with
// VK_INCOMPATIBLE_SHADER_BINARY_EXT.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "icd/vulkan_newer.h"
#include "shader/ir.h"
#include "vk/object.h"
#include "vk/pipeline_library.h"

namespace tessera::vk {

class Device;
class Pipeline;
class PipelineLayout;

class Shader : public Object<Shader, VkShaderEXT, VK_OBJECT_TYPE_SHADER_EXT> {
public:
	static constexpr char kBinaryMagic[4] = {'T', 'S', 'S', 'O'};

	Shader(Device* device, const VkAllocationCallbacks* allocator);
	~Shader();
	Shader(const Shader&) = delete;
	Shader& operator=(const Shader&) = delete;

	// Translates the SPIR-V or reads the binary of `info`; reports why not
	// through the device's messengers. VK_INCOMPATIBLE_SHADER_BINARY_EXT for
	// a binary this build did not write.
	VkResult Init(const VkShaderCreateInfoEXT& info);

	VkShaderStageFlagBits Stage() const { return stage_; }
	// The stage's index among GraphicsPipeline's programs (graphics stages).
	GraphicsStage Graphics() const { return graphics_stage_; }
	const PipelineLayout& Layout() const { return *layout_; }
	// vkGetShaderBinaryDataEXT's bytes.
	const std::vector<uint8_t>& Binary() const { return binary_; }
	// A compute shader's pipeline (null for other stages).
	const Pipeline* ComputePipeline() const { return compute_; }

	// The graphics pipeline of the shaders in `stages` (indexed by
	// GraphicsStage, null where none is bound; a vertex shader among them):
	// linked at the first draw of these stages, then kept until one of them
	// is destroyed, which no pending command buffer allows while a draw may
	// use it. Null (reported) when they cannot be linked. Called by the
	// queue thread; safe against concurrent calls and destructions.
	static const Pipeline* LinkedPipeline(const Shader* const (&stages)[size_t(GraphicsStage::kCount)]);

private:
	VkResult Compile(const VkShaderCreateInfoEXT& info, std::unique_ptr<shader::Program>& program);
	VkResult ReadBinary(const VkShaderCreateInfoEXT& info, std::unique_ptr<shader::Program>& program);

	const VkAllocationCallbacks* Allocator() const { return has_allocator_ ? &allocator_ : nullptr; }

	Device* device_;
	// The callbacks the shader was made with: its layout and pipelines,
	// made later, take them too.
	VkAllocationCallbacks allocator_{};
	bool has_allocator_ = false;
	// A number no other shader of the process has: what LinkedPipeline's
	// cache is keyed by (an address may be reused by a later shader).
	uint64_t serial_;
	VkShaderStageFlagBits stage_ = VK_SHADER_STAGE_VERTEX_BIT;
	GraphicsStage graphics_stage_ = GraphicsStage::kCount;
	PipelineLayout* layout_ = nullptr;  // retained
	std::shared_ptr<const shader::Program> program_;
	std::vector<uint8_t> binary_;
	Pipeline* compute_ = nullptr;  // owned
};

}  // namespace tessera::vk
