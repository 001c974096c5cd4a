// What a shader program binds, resolved at execution time through the
// descriptor sets bound to a bind point: plain pointers and sizes for the
// shader engine (shader::Resources). Shared by dispatches and draws.
#pragma once

#include <memory>
#include <vector>

#include "shader/image_ops.h"
#include "shader/interpreter.h"
#include "texture/decoded_view.h"
#include "vk/command_buffer.h"
#include "vk/device.h"

namespace tessera::vk {

class Pipeline;

// Owns the arrays shader::Resources points into; keep it alive while the
// program runs.
struct BoundResources {
	std::vector<shader::BufferView> buffers;
	std::vector<shader::ImageBinding> images;
	// Decoded copies of compressed and Y'CbCr views (texture/decoded_view.h),
	// held while the program runs (a view's cache may replace its copy).
	std::vector<std::shared_ptr<const texture::DecodedView>> decoded;
	std::shared_ptr<const Device::AddressRanges> address_ranges;
	shader::Resources resources;
};

// Fills out for program (one of pipeline's stages) from the state of
// bind_point. Returns false when memory runs out (reported through the
// device's messengers as `what`; the caller skips the work).
bool ResolveResources(const ExecutionContext& context, BindPoint bind_point, const Pipeline& pipeline,
                      const shader::Program& program, const char* what, BoundResources& out);

// The engine's run options for dispatches and draws: TESSERA_SHADER_STEP_LIMIT
// overrides how many blocks one lane group may run before the device is
// declared lost (an endless loop); the default is the engine's generous bound.
// Read once.
const shader::RunOptions& ShaderRunOptions();

}  // namespace tessera::vk
