// vkGetPhysicalDeviceProperties2: the Vulkan 1.1/1.2/1.3 property structures
// and every individual structure they aggregate. The three aggregates are
// built once; each individual structure copies its fields from them, so the
// two ways of asking always agree.
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>

#include "icd/vulkan_newer.h"
#include "runtime/build_id.h"
#include "shader/ir.h"
#include "shader/program_serialize.h"
#include "vk/command_buffer.h"
#include "vk/descriptor_set_layout.h"
#include "vk/device_memory.h"
#include "vk/indirect_commands_layout.h"
#include "vk/physical_device.h"

namespace tessera::vk {

namespace {

// No VkDriverId is registered for Tessera. Vulkan 1.3, VkDriverId:
// "There may be unregistered driver IDs returned." This one spells "TESS" and
// is far from the small sequential values Khronos hands out.
constexpr VkDriverId kDriverId = static_cast<VkDriverId>(0x54455353);
constexpr const char* kDriverName = "Tessera";

// A 128-bit FNV-1a hash: the UUIDs are the same in every run and process
// for one driver build, and differ when the name or version does.
void HashToUuid(const char* text, uint8_t uuid[VK_UUID_SIZE]) {
	uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
	for (const char* p = text; *p; ++p) {
		a = (a ^ uint8_t(*p)) * 0x100000001b3ull;
		b = (b ^ uint8_t(*p)) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
	}
	std::memcpy(uuid, &a, 8);
	std::memcpy(uuid + 8, &b, 8);
	// Mark it as an RFC 4122 name-based UUID (version 5 layout, variant 1).
	uuid[6] = uint8_t((uuid[6] & 0x0f) | 0x50);
	uuid[8] = uint8_t((uuid[8] & 0x3f) | 0x80);
}

template <typename T>
void Copy(T& to, const T& from) {
	std::memcpy(&to, &from, sizeof to);
}

}  // namespace

// Copies the run of fields first..last (all 4 bytes wide, same order) from an
// aggregate structure into an individual one, checking the layouts agree.
#define TESSERA_COPY_FIELDS(Individual, Aggregate, from, first, last)                                          \
	do {                                                                                                       \
		constexpr size_t kBytes = offsetof(Individual, last) + sizeof(uint32_t) - offsetof(Individual, first); \
		static_assert(offsetof(Aggregate, last) + sizeof(uint32_t) - offsetof(Aggregate, first) == kBytes);    \
		std::memcpy(&reinterpret_cast<Individual*>(s)->first, &(from).first, kBytes);                          \
	} while (0)

void PhysicalDevice::InitExtendedProperties() {
	const VkPhysicalDeviceLimits& limits = properties_.limits;
	char version[64];
	std::snprintf(version, sizeof version, "%u.%u.%u", VK_API_VERSION_MAJOR(properties_.driverVersion),
	              VK_API_VERSION_MINOR(properties_.driverVersion), VK_API_VERSION_PATCH(properties_.driverVersion));

	VkPhysicalDeviceVulkan11Properties& p11 = vulkan11_;
	p11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
	char seed[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE + 96];
	std::snprintf(seed, sizeof seed, "device:%s:%s", properties_.deviceName, version);
	HashToUuid(seed, p11.deviceUUID);
	std::snprintf(seed, sizeof seed, "driver:%s:%s", kDriverName, version);
	HashToUuid(seed, p11.driverUUID);
	// Vulkan 1.3 §10.7: cache data is only accepted by a device with the same
	// pipelineCacheUUID, so it changes with the driver version, the format of
	// the compiled programs the cache holds, and the driver binary's build ID
	// (any rebuild with changed code: no program from another build is
	// served, whether or not kProgramFormatVersion was bumped).
	std::string cache_seed = std::string("pipeline-cache:") + kDriverName + ":" + version + ":program-format-" +
	                         std::to_string(shader::kProgramFormatVersion) + ":build-";
	for (uint8_t b : runtime::OwnBuildId()) {
		static const char kHex[] = "0123456789abcdef";
		cache_seed += kHex[b >> 4];
		cache_seed += kHex[b & 15];
	}
	HashToUuid(cache_seed.c_str(), properties_.pipelineCacheUUID);
	HashToUuid(("optimal-tiling:" + cache_seed).c_str(), optimal_tiling_uuid_);
	// A shader binary (vkGetShaderBinaryDataEXT) is a serialized program,
	// usable by the same build only, as pipeline cache data is.
	HashToUuid(("shader-binary:" + cache_seed).c_str(), shader_binary_uuid_);
	p11.deviceNodeMask = 0;
	p11.deviceLUIDValid = VK_FALSE;
	// Subgroups of shader::kSubgroupSize (32) invocations, fixed whatever the
	// CPU, so results do not change from one runner to the next. The shader
	// engine runs every OpGroupNonUniform* instruction but PartitionNV
	// (src/spirv/translate_subgroup.cpp). In a graphics stage a subgroup is
	// 32 consecutive lanes of the lane group the stage runs (a vertex or
	// fragment batch, a geometry stage's primitives' invocations, a
	// tessellation control stage's patches' invocations, which may share a
	// subgroup or span two, an evaluation stage's domain points), and the
	// subgroup built-ins count lanes in the group (shader/stage.cpp
	// RunStage). Quads are 4 aligned lanes in every stage (a fragment
	// batch's 2x2 quads; helper lanes are active, which the spec allows).
	p11.subgroupSize = kSubgroupSize;
	p11.subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_ALL_GRAPHICS;
	p11.subgroupSupportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
	                                  VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
	                                  VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
	                                  VK_SUBGROUP_FEATURE_CLUSTERED_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT |
	                                  VK_SUBGROUP_FEATURE_ROTATE_BIT_KHR | VK_SUBGROUP_FEATURE_ROTATE_CLUSTERED_BIT_KHR;
	p11.subgroupQuadOperationsInAllStages = VK_TRUE;
	// Points are clipped like other primitives by every plane (what the
	// rasterizer will do); this is the stricter of the two behaviours.
	p11.pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
	// Multiview: the spec's minimum limits (lavapipe's too).
	p11.maxMultiviewViewCount = 6;
	p11.maxMultiviewInstanceIndex = (1u << 27) - 1;
	p11.protectedNoFault = VK_FALSE;
	p11.maxPerSetDescriptors = 1u << 20;
	p11.maxMemoryAllocationSize = memory_properties_.memoryHeaps[0].size;

	VkPhysicalDeviceVulkan12Properties& p12 = vulkan12_;
	p12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
	p12.driverID = kDriverId;
	std::snprintf(p12.driverName, sizeof p12.driverName, "%s", kDriverName);
	std::snprintf(p12.driverInfo, sizeof p12.driverInfo, "Tessera %s (CPU)", version);
	// Not conformant: no conformance test suite run has passed.
	p12.conformanceVersion = {0, 0, 0, 0};
	// Float controls: every program keeps signed zeros, infinities and NaNs
	// and rounds to nearest even (spirv::Translator accepts the
	// SignedZeroInfNanPreserve and RoundingModeRTE execution modes; see
	// kSupportedCapabilities). No denormal mode and no RTZ rounding mode.
	p12.denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
	p12.roundingModeIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
	p12.shaderSignedZeroInfNanPreserveFloat16 = VK_TRUE;
	p12.shaderSignedZeroInfNanPreserveFloat32 = VK_TRUE;
	p12.shaderSignedZeroInfNanPreserveFloat64 = VK_TRUE;
	p12.shaderRoundingModeRTEFloat16 = VK_TRUE;
	p12.shaderRoundingModeRTEFloat32 = VK_TRUE;
	p12.shaderRoundingModeRTEFloat64 = VK_TRUE;
	// Descriptor indexing (the shader*ArrayNonUniformIndexing features):
	// each lane of a non-uniformly indexed access reads its own descriptor
	// once (Interpreter::ExecuteDescriptorArray, Interpreter::ExecuteImage
	// batches lanes by element), never re-running the instruction: native.
	// Input attachments too: a subpass load is an image read at the
	// fragment's position (translate_image.cpp), batched the same way.
	p12.shaderUniformBufferArrayNonUniformIndexingNative = VK_TRUE;
	p12.shaderSampledImageArrayNonUniformIndexingNative = VK_TRUE;
	p12.shaderStorageBufferArrayNonUniformIndexingNative = VK_TRUE;
	p12.shaderStorageImageArrayNonUniformIndexingNative = VK_TRUE;
	p12.shaderInputAttachmentArrayNonUniformIndexingNative = VK_TRUE;
	// Implicit LOD takes the derivatives of the whole quad's coordinates,
	// whichever descriptor each lane reads (Interpreter::ExecuteImage makes
	// them before batching lanes by element).
	p12.quadDivergentImplicitLod = VK_TRUE;
	// Update-after-bind descriptors are read at execution like any other, with
	// the same bounds checks.
	p12.robustBufferAccessUpdateAfterBind = VK_TRUE;
	// The update-after-bind limits: the ordinary limits, which are above the
	// minimums Vulkan 1.3 "Required Limits" sets when descriptorIndexing is
	// supported (500000 descriptors; 12 uniform buffers per stage, 72 per
	// set; 8 dynamic uniform and 4 dynamic storage buffers per set).
	p12.maxUpdateAfterBindDescriptorsInAllPools = 1u << 20;
	p12.maxPerStageDescriptorUpdateAfterBindSamplers = limits.maxPerStageDescriptorSamplers;
	p12.maxPerStageDescriptorUpdateAfterBindUniformBuffers = limits.maxPerStageDescriptorUniformBuffers;
	p12.maxPerStageDescriptorUpdateAfterBindStorageBuffers = limits.maxPerStageDescriptorStorageBuffers;
	p12.maxPerStageDescriptorUpdateAfterBindSampledImages = limits.maxPerStageDescriptorSampledImages;
	p12.maxPerStageDescriptorUpdateAfterBindStorageImages = limits.maxPerStageDescriptorStorageImages;
	p12.maxPerStageDescriptorUpdateAfterBindInputAttachments = limits.maxPerStageDescriptorInputAttachments;
	p12.maxPerStageUpdateAfterBindResources = limits.maxPerStageResources;
	p12.maxDescriptorSetUpdateAfterBindSamplers = limits.maxDescriptorSetSamplers;
	p12.maxDescriptorSetUpdateAfterBindUniformBuffers = limits.maxDescriptorSetUniformBuffers;
	p12.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic = limits.maxDescriptorSetUniformBuffersDynamic;
	p12.maxDescriptorSetUpdateAfterBindStorageBuffers = limits.maxDescriptorSetStorageBuffers;
	p12.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic = limits.maxDescriptorSetStorageBuffersDynamic;
	p12.maxDescriptorSetUpdateAfterBindSampledImages = limits.maxDescriptorSetSampledImages;
	p12.maxDescriptorSetUpdateAfterBindStorageImages = limits.maxDescriptorSetStorageImages;
	p12.maxDescriptorSetUpdateAfterBindInputAttachments = limits.maxDescriptorSetInputAttachments;
	// VkPhysicalDeviceDepthStencilResolveProperties: render-pass resolves
	// reduce each aspect on its own by its mode (vk/cmd_render_pass.cpp,
	// ResolveView), so any pair of modes, NONE included, works; AVERAGE is
	// not a stencil mode.
	p12.supportedDepthResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT |
	                                 VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
	p12.supportedStencilResolveModes =
	    VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
	p12.independentResolveNone = VK_TRUE;
	p12.independentResolve = VK_TRUE;
	// Min/max reductions (texture/sample.cpp, ReduceMinMax) work on every
	// format with SAMPLED_IMAGE_FILTER_LINEAR, the required single-component
	// and depth formats among them (format_support.cpp), and component-wise,
	// before the view's swizzle like any filtered value.
	p12.filterMinmaxSingleComponentFormats = VK_TRUE;
	p12.filterMinmaxImageComponentMapping = VK_TRUE;
	// Timeline values are 64-bit counters compared directly; any difference
	// that fits works. The spec minimum is 2^31-1.
	p12.maxTimelineSemaphoreValueDifference = UINT64_MAX;
	p12.framebufferIntegerColorSampleCounts = VK_SAMPLE_COUNT_1_BIT;

	VkPhysicalDeviceVulkan13Properties& p13 = vulkan13_;
	p13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
	p13.minSubgroupSize = kSubgroupSize;
	p13.maxSubgroupSize = kSubgroupSize;
	p13.maxComputeWorkgroupSubgroups = limits.maxComputeWorkGroupInvocations / kSubgroupSize;
	// (Every subgroup of every stage has the one size.)
	p13.requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_ALL_GRAPHICS;
	// Inline uniform blocks (descriptor_set_layout.h). A pipeline layout
	// holds at most maxBoundDescriptorSets sets of full ones.
	p13.maxInlineUniformBlockSize = kMaxInlineUniformBlockSize;
	p13.maxPerStageDescriptorInlineUniformBlocks = kMaxInlineUniformBlocks;
	p13.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = kMaxInlineUniformBlocks;
	p13.maxDescriptorSetInlineUniformBlocks = kMaxInlineUniformBlocks;
	p13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks = kMaxInlineUniformBlocks;
	p13.maxInlineUniformTotalSize = limits.maxBoundDescriptorSets * kMaxSetInlineUniformBytes;
	// integerDotProduct*Accelerated: all false. The dot products run
	// (shaderIntegerDotProduct), but as interpreted multiply-adds, no faster
	// than the same arithmetic written out in the shader.
	p13.storageTexelBufferOffsetAlignmentBytes = limits.minTexelBufferOffsetAlignment;
	// Texel buffers read and write their texels with byte copies
	// (shader/image_ops.cpp, texture::UnpackTexel / PackTexel), so a view
	// may start at any texel (any component of a 3-component format); the
	// one aligned access, an R32 atomic, is 4-aligned at any texel.
	p13.storageTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
	p13.uniformTexelBufferOffsetAlignmentBytes = limits.minTexelBufferOffsetAlignment;
	p13.uniformTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
	p13.maxBufferSize = memory_properties_.memoryHeaps[0].size;
}

// Fills one structure of a VkPhysicalDeviceProperties2 chain; structures this
// driver does not know are left untouched.
void PhysicalDevice::FillProperties(VkBaseOutStructure* s) const {
	const auto& p11 = vulkan11_;
	const auto& p12 = vulkan12_;
	const auto& p13 = vulkan13_;
	switch (s->sType) {
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES: {
		VkBaseOutStructure* next = s->pNext;
		std::memcpy(s, &p11, sizeof p11);
		s->pNext = next;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES: {
		VkBaseOutStructure* next = s->pNext;
		std::memcpy(s, &p12, sizeof p12);
		s->pNext = next;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES: {
		VkBaseOutStructure* next = s->pNext;
		std::memcpy(s, &p13, sizeof p13);
		s->pNext = next;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_PROPERTIES_EXT: {
		// Linking copies the translated stages and links their interfaces,
		// as fast without VK_PIPELINE_CREATE_LINK_TIME_OPTIMIZATION_BIT_EXT;
		// interpolation follows the fragment stage's decorations alone.
		auto* p = reinterpret_cast<VkPhysicalDeviceGraphicsPipelineLibraryPropertiesEXT*>(s);
		p->graphicsPipelineLibraryFastLinking = VK_TRUE;
		p->graphicsPipelineLibraryIndependentInterpolationDecoration = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_PROPERTIES_EXT: {
		// robustness2's behavior always (physical_device_features.cpp).
		auto* p = reinterpret_cast<VkPhysicalDevicePipelineRobustnessPropertiesEXT*>(s);
		p->defaultRobustnessStorageBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
		p->defaultRobustnessUniformBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
		p->defaultRobustnessVertexInputs = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
		p->defaultRobustnessImages = VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_ROBUST_IMAGE_ACCESS_2_EXT;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_PROPERTIES_EXT:
		// A draw takes its topology, of any class, from the dynamic state
		// (vk/draw.cpp, ComposeState): the pipeline's topology fixes nothing
		// that points, lines or triangles read later (line and point state is
		// always in the rasterizer's DrawState).
		reinterpret_cast<VkPhysicalDeviceExtendedDynamicState3PropertiesEXT*>(s)->dynamicPrimitiveTopologyUnrestricted =
		    VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceIDProperties*>(s);
		Copy(p->deviceUUID, p11.deviceUUID);
		Copy(p->driverUUID, p11.driverUUID);
		Copy(p->deviceLUID, p11.deviceLUID);
		p->deviceNodeMask = p11.deviceNodeMask;
		p->deviceLUIDValid = p11.deviceLUIDValid;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceDriverProperties*>(s);
		p->driverID = p12.driverID;
		Copy(p->driverName, p12.driverName);
		Copy(p->driverInfo, p12.driverInfo);
		p->conformanceVersion = p12.conformanceVersion;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceSubgroupProperties*>(s);
		p->subgroupSize = p11.subgroupSize;
		p->supportedStages = p11.subgroupSupportedStages;
		p->supportedOperations = p11.subgroupSupportedOperations;
		p->quadOperationsInAllStages = p11.subgroupQuadOperationsInAllStages;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES:
		reinterpret_cast<VkPhysicalDevicePointClippingProperties*>(s)->pointClippingBehavior =
		    p11.pointClippingBehavior;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceMultiviewProperties*>(s);
		p->maxMultiviewViewCount = p11.maxMultiviewViewCount;
		p->maxMultiviewInstanceIndex = p11.maxMultiviewInstanceIndex;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES:
		reinterpret_cast<VkPhysicalDeviceProtectedMemoryProperties*>(s)->protectedNoFault = p11.protectedNoFault;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceMaintenance3Properties*>(s);
		p->maxPerSetDescriptors = p11.maxPerSetDescriptors;
		p->maxMemoryAllocationSize = p11.maxMemoryAllocationSize;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES:
		reinterpret_cast<VkPhysicalDeviceMaintenance4Properties*>(s)->maxBufferSize = p13.maxBufferSize;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES:
		TESSERA_COPY_FIELDS(VkPhysicalDeviceFloatControlsProperties, VkPhysicalDeviceVulkan12Properties, p12,
		                    denormBehaviorIndependence, shaderRoundingModeRTZFloat64);
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES:
		TESSERA_COPY_FIELDS(VkPhysicalDeviceDescriptorIndexingProperties, VkPhysicalDeviceVulkan12Properties, p12,
		                    maxUpdateAfterBindDescriptorsInAllPools, maxDescriptorSetUpdateAfterBindInputAttachments);
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceDepthStencilResolveProperties*>(s);
		p->supportedDepthResolveModes = p12.supportedDepthResolveModes;
		p->supportedStencilResolveModes = p12.supportedStencilResolveModes;
		p->independentResolveNone = p12.independentResolveNone;
		p->independentResolve = p12.independentResolve;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_FILTER_MINMAX_PROPERTIES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceSamplerFilterMinmaxProperties*>(s);
		p->filterMinmaxSingleComponentFormats = p12.filterMinmaxSingleComponentFormats;
		p->filterMinmaxImageComponentMapping = p12.filterMinmaxImageComponentMapping;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES:
		reinterpret_cast<VkPhysicalDeviceTimelineSemaphoreProperties*>(s)->maxTimelineSemaphoreValueDifference =
		    p12.maxTimelineSemaphoreValueDifference;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_PROPERTIES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceInlineUniformBlockProperties*>(s);
		p->maxInlineUniformBlockSize = p13.maxInlineUniformBlockSize;
		p->maxPerStageDescriptorInlineUniformBlocks = p13.maxPerStageDescriptorInlineUniformBlocks;
		p->maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks =
		    p13.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks;
		p->maxDescriptorSetInlineUniformBlocks = p13.maxDescriptorSetInlineUniformBlocks;
		p->maxDescriptorSetUpdateAfterBindInlineUniformBlocks = p13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_PROPERTIES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceTexelBufferAlignmentProperties*>(s);
		p->storageTexelBufferOffsetAlignmentBytes = p13.storageTexelBufferOffsetAlignmentBytes;
		p->storageTexelBufferOffsetSingleTexelAlignment = p13.storageTexelBufferOffsetSingleTexelAlignment;
		p->uniformTexelBufferOffsetAlignmentBytes = p13.uniformTexelBufferOffsetAlignmentBytes;
		p->uniformTexelBufferOffsetSingleTexelAlignment = p13.uniformTexelBufferOffsetSingleTexelAlignment;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceSubgroupSizeControlProperties*>(s);
		p->minSubgroupSize = p13.minSubgroupSize;
		p->maxSubgroupSize = p13.maxSubgroupSize;
		p->maxComputeWorkgroupSubgroups = p13.maxComputeWorkgroupSubgroups;
		p->requiredSubgroupSizeStages = p13.requiredSubgroupSizeStages;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES:
		TESSERA_COPY_FIELDS(VkPhysicalDeviceShaderIntegerDotProductProperties, VkPhysicalDeviceVulkan13Properties, p13,
		                    integerDotProduct8BitUnsignedAccelerated,
		                    integerDotProductAccumulatingSaturating64BitMixedSignednessAccelerated);
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_PROPERTIES_EXT:
		// Line endpoints snap to the same grid as every vertex (raster::kSubPixelBits).
		reinterpret_cast<VkPhysicalDeviceLineRasterizationPropertiesEXT*>(s)->lineSubPixelPrecisionBits = 8;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONSERVATIVE_RASTERIZATION_PROPERTIES_EXT: {
		// Filled triangles only (raster/primitive.cpp, SetupOne): edges moved
		// by half a pixel's extent, tested at pixel centers. Overestimation
		// is exact along the edges (the snapped vertices', 1/256 pixel); the
		// grown edges' corners stay inside the pixels touching the grown box.
		auto* p = reinterpret_cast<VkPhysicalDeviceConservativeRasterizationPropertiesEXT*>(s);
		p->primitiveOverestimationSize = 1.0f / 256;
		p->maxExtraPrimitiveOverestimationSize = raster::kMaxExtraOverestimation;
		p->extraPrimitiveOverestimationSizeGranularity = 1.0f / 256;
		p->primitiveUnderestimation = VK_TRUE;
		p->conservativePointAndLineRasterization = VK_FALSE;
		p->degenerateTrianglesRasterized = VK_FALSE;
		p->degenerateLinesRasterized = VK_FALSE;
		p->fullyCoveredFragmentShaderInputVariable = VK_FALSE;
		p->conservativeRasterizationPostDepthCoverage = VK_FALSE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DISCARD_RECTANGLE_PROPERTIES_EXT:
		// Tested per quad against those meeting the triangle's box in a tile
		// (raster/rasterizer.cpp, ClassifyDiscard).
		reinterpret_cast<VkPhysicalDeviceDiscardRectanglePropertiesEXT*>(s)->maxDiscardRectangles =
		    raster::kMaxDiscardRectangles;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_PROPERTIES_EXT:
		// The color lives in the sampler object: no table to fill, so the
		// limit is only there to be finite (the spec's minimum is 32).
		reinterpret_cast<VkPhysicalDeviceCustomBorderColorPropertiesEXT*>(s)->maxCustomBorderColorSamplers = 1u << 20;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_PROPERTIES_EXT: {
		// The mode is pipeline state (raster::RasterState::provoking_vertex_last),
		// so pipelines of either mode mix in one render pass. Transform
		// feedback writes fan triangles, like the others, with the provoking
		// vertex first or last as the mode says (vk/draw.cpp,
		// CaptureTransformFeedback; raster::AssembleTriangles).
		auto* p = reinterpret_cast<VkPhysicalDeviceProvokingVertexPropertiesEXT*>(s);
		p->provokingVertexModePerPipeline = VK_TRUE;
		p->transformFeedbackPreservesTriangleFanProvokingVertex = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_PROPERTIES_KHR:
		// A strip's odd triangles list their vertices as the provoking vertex
		// mode says (raster::AssembleTriangles), as the spec's second table does.
		reinterpret_cast<VkPhysicalDeviceFragmentShaderBarycentricPropertiesKHR*>(s)
		    ->triStripVertexOrderIndependentOfProvokingVertex = VK_FALSE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT:
		// The divisor divides the instance number (vk/draw.cpp, FetchAttribute): any 32-bit value.
		reinterpret_cast<VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT*>(s)->maxVertexAttribDivisor = UINT32_MAX;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_KHR: {
		// VK_KHR_vertex_attribute_divisor: as the EXT's, and a divided
		// instance counts from firstInstance, as the spec's address
		// calculation asks (vk/draw.cpp, FetchAttribute).
		auto* p = reinterpret_cast<VkPhysicalDeviceVertexAttributeDivisorPropertiesKHR*>(s);
		p->maxVertexAttribDivisor = UINT32_MAX;
		p->supportsNonZeroFirstInstance = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT:
		reinterpret_cast<VkPhysicalDeviceExternalMemoryHostPropertiesEXT*>(s)->minImportedHostPointerAlignment =
		    DeviceMemory::kHostImportAlignment;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT: {
		// Four vertex streams from the geometry stage, any of them rasterized
		// (vk/draw.cpp DrawGeometryStage); four buffers (XfbBuffer 0..3);
		// records of up to 512 bytes, as lavapipe's.
		auto* p = reinterpret_cast<VkPhysicalDeviceTransformFeedbackPropertiesEXT*>(s);
		p->maxTransformFeedbackStreams = shader::kMaxVertexStreams;
		p->maxTransformFeedbackBuffers = shader::kMaxXfbBuffers;
		p->maxTransformFeedbackBufferSize = UINT32_MAX;  // the counters are 32-bit
		p->maxTransformFeedbackStreamDataSize = 512;
		p->maxTransformFeedbackBufferDataSize = 512;
		p->maxTransformFeedbackBufferDataStride = 512;
		p->transformFeedbackQueries = VK_TRUE;
		p->transformFeedbackStreamsLinesTriangles = VK_TRUE;
		p->transformFeedbackRasterizationStreamSelect = VK_TRUE;
		p->transformFeedbackDraw = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_PROPERTIES_EXT: {
		// Host copies read and write images in any layout: an image keeps one
		// memory layout whatever its VkImageLayout. The layout of optimal
		// images (tiles or rows, vk/image.cpp) is the code's: the UUID
		// changes with every build, as pipelineCacheUUID does. Host-transfer
		// usage changes no memory requirement.
		static constexpr VkImageLayout kLayouts[] = {
		    VK_IMAGE_LAYOUT_GENERAL,
		    VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
		    VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
		    VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL,
		    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
		    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
		    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		    VK_IMAGE_LAYOUT_PREINITIALIZED,
		    VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL,
		    VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL,
		    VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
		    VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL,
		    VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL,
		    VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL,
		    VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL,
		    VK_IMAGE_LAYOUT_ATTACHMENT_OPTIMAL,
		    VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
		    VK_IMAGE_LAYOUT_SHARED_PRESENT_KHR,
		    VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT,
		    VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR,
		};
		constexpr uint32_t kCount = uint32_t(std::size(kLayouts));
		auto* p = reinterpret_cast<VkPhysicalDeviceHostImageCopyPropertiesEXT*>(s);
		for (auto [count, layouts] : {std::pair{&p->copySrcLayoutCount, p->pCopySrcLayouts},
		                              std::pair{&p->copyDstLayoutCount, p->pCopyDstLayouts}}) {
			if (layouts) {
				*count = std::min(*count, kCount);
				std::copy(kLayouts, kLayouts + *count, layouts);
			} else {
				*count = kCount;
			}
		}
		std::memcpy(p->optimalTilingLayoutUUID, optimal_tiling_uuid_, VK_UUID_SIZE);
		p->identicalMemoryTypeRequirements = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_PROPERTIES_KHR:
		// No mesh or task shaders.
		reinterpret_cast<VkPhysicalDeviceComputeShaderDerivativesPropertiesKHR*>(s)->meshAndTaskShaderDerivatives =
		    VK_FALSE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_PROPERTIES_KHR: {
		// With EarlyFragmentTests the rasterizer counts samples after the
		// depth and stencil tests and before shading, alpha to coverage and
		// the shader's sample mask; the static sample mask is applied to
		// coverage before any test (raster/rasterizer.cpp), the order of
		// Vulkan's "Fragment Operations". A swizzle of ONE reads 1 for depth
		// and stencil views as for any other (texture/sample.cpp). Points
		// drawn by polygon mode POINT take PointSize (vk/draw.cpp). Lines are
		// always strict (strictLines), so the lines that could be non-strict
		// are parallelograms.
		auto* p = reinterpret_cast<VkPhysicalDeviceMaintenance5PropertiesKHR*>(s);
		p->earlyFragmentMultisampleCoverageAfterSampleCounting = VK_TRUE;
		p->earlyFragmentSampleMaskTestBeforeSampleCounting = VK_TRUE;
		p->depthStencilSwizzleOneSupport = VK_TRUE;
		p->polygonModePointSize = VK_TRUE;
		p->nonStrictSinglePixelWideLinesUseParallelogram = VK_TRUE;
		p->nonStrictWideLinesUseParallelogram = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_PROPERTIES_KHR: {
		// Uncompressed views of compressed images may have several layers:
		// a view's layers are the image's, a block a texel
		// (texture::PrepareImage). One descriptor serves every Y'CbCr format
		// (format_support.cpp); no fragment shading rates.
		auto* p = reinterpret_cast<VkPhysicalDeviceMaintenance6PropertiesKHR*>(s);
		p->blockTexelViewCompatibleMultipleLayers = VK_TRUE;
		p->maxCombinedImageSamplerDescriptorCount = 1;
		p->fragmentShadingRateClampCombinerInputs = VK_FALSE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_PROPERTIES_EXT: {
		auto* p = reinterpret_cast<VkPhysicalDeviceShaderObjectPropertiesEXT*>(s);
		std::memcpy(p->shaderBinaryUUID, shader_binary_uuid_, VK_UUID_SIZE);
		p->shaderBinaryVersion = kShaderBinaryVersion;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_PROPERTIES_KHR: {
		// Depth and stencil are separate planes of an image (texture/
		// image_layout.cpp): writing one never reads or writes the other. No
		// fragment shading rate attachments. Dynamic buffers: a bound set
		// points at its bind command's offsets, so the only limits are the
		// per-type ones, whose sum is the total; the update-after-bind
		// figures are the same (Vulkan 1.2 properties above).
		auto* p = reinterpret_cast<VkPhysicalDeviceMaintenance7PropertiesKHR*>(s);
		p->robustFragmentShadingRateAttachmentAccess = VK_FALSE;
		p->separateDepthStencilAttachmentAccess = VK_TRUE;
		const VkPhysicalDeviceLimits& limits = properties_.limits;
		p->maxDescriptorSetTotalUniformBuffersDynamic = limits.maxDescriptorSetUniformBuffersDynamic;
		p->maxDescriptorSetTotalStorageBuffersDynamic = limits.maxDescriptorSetStorageBuffersDynamic;
		p->maxDescriptorSetTotalBuffersDynamic =
		    limits.maxDescriptorSetUniformBuffersDynamic + limits.maxDescriptorSetStorageBuffersDynamic;
		p->maxDescriptorSetUpdateAfterBindTotalUniformBuffersDynamic =
		    p12.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic;
		p->maxDescriptorSetUpdateAfterBindTotalStorageBuffersDynamic =
		    p12.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic;
		p->maxDescriptorSetUpdateAfterBindTotalBuffersDynamic =
		    p12.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic +
		    p12.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LAYERED_API_PROPERTIES_LIST_KHR:
		// Tessera implements Vulkan itself, on no other graphics API: no
		// layered implementation underneath, so the count is 0 and nothing
		// is written to pLayeredApis (VK_KHR_maintenance7: "An
		// implementation that is not a layer will return 0").
		reinterpret_cast<VkPhysicalDeviceLayeredApiPropertiesListKHR*>(s)->layeredApiCount = 0;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_PROPERTIES_EXT: {
		// A sequence's tokens are the commands they stand for, run on the
		// queue thread (vk/cmd_generated_commands.cpp): nothing is generated
		// into a preprocess buffer, so the limits are the spec's minimums
		// except the token count, whose cost is a loop (CTS fills the whole
		// push constant block with one token per word). Execution sets hold
		// pipelines only: shader objects (VK_EXT_shader_object) are bound by
		// vkCmdBindShadersEXT, not through a set. Every stage Tessera runs may be bound; count tokens and
		// transform feedback work as in direct draws.
		auto* p = reinterpret_cast<VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT*>(s);
		p->maxIndirectPipelineCount = kMaxIndirectPipelineCount;
		p->maxIndirectShaderObjectCount = 0;
		p->maxIndirectSequenceCount = kMaxIndirectSequenceCount;
		p->maxIndirectCommandsTokenCount = kMaxIndirectCommandsTokenCount;
		p->maxIndirectCommandsTokenOffset = kMaxIndirectCommandsTokenOffset;
		p->maxIndirectCommandsIndirectStride = kMaxIndirectCommandsIndirectStride;
		p->supportedIndirectCommandsInputModes = VK_INDIRECT_COMMANDS_INPUT_MODE_VULKAN_INDEX_BUFFER_EXT |
		                                         VK_INDIRECT_COMMANDS_INPUT_MODE_DXGI_INDEX_BUFFER_EXT;
		const VkShaderStageFlags stages = VK_SHADER_STAGE_ALL_GRAPHICS | VK_SHADER_STAGE_COMPUTE_BIT;
		p->supportedIndirectCommandsShaderStages = stages;
		p->supportedIndirectCommandsShaderStagesPipelineBinding = stages;
		p->supportedIndirectCommandsShaderStagesShaderBinding = 0;
		p->deviceGeneratedCommandsTransformFeedback = VK_TRUE;
		p->deviceGeneratedCommandsMultiDrawIndirectCount = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LEGACY_VERTEX_ATTRIBUTES_PROPERTIES_EXT:
		// Every attribute is fetched with memcpy: alignment costs nothing.
		reinterpret_cast<VkPhysicalDeviceLegacyVertexAttributesPropertiesEXT*>(s)->nativeUnalignedPerformance = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NESTED_COMMAND_BUFFER_PROPERTIES_EXT:
		// Each level of nesting is one recursion of
		// CommandBuffer::ExecuteCommands (a few hundred bytes of stack).
		reinterpret_cast<VkPhysicalDeviceNestedCommandBufferPropertiesEXT*>(s)->maxCommandBufferNestingLevel =
		    vk::kMaxCommandBufferNesting;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT:
		// The draws are copied into the command buffer: any count that fits in memory.
		reinterpret_cast<VkPhysicalDeviceMultiDrawPropertiesEXT*>(s)->maxMultiDrawCount = 1u << 20;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_PROPERTIES_EXT: {
		// Buffer bounds are checked to the byte: no rounding of the range.
		auto* p = reinterpret_cast<VkPhysicalDeviceRobustness2PropertiesEXT*>(s);
		p->robustStorageBufferAccessSizeAlignment = 1;
		p->robustUniformBufferAccessSizeAlignment = 1;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT: {
		// Every descriptor is kBufferDescriptorSize bytes (descriptor_set_layout.h),
		// a combined image sampler among them (one array). Any buffer may hold
		// samplers and resources alike, up to kMaxDescriptorBufferBindings; a
		// set's place needs the 16-byte alignment of a set's memory. Nothing
		// bounds the buffers' sizes but the host's address space (device
		// addresses are host pointers). Capture and replay is not offered.
		auto* p = reinterpret_cast<VkPhysicalDeviceDescriptorBufferPropertiesEXT*>(s);
		p->combinedImageSamplerDescriptorSingleArray = VK_TRUE;
		p->bufferlessPushDescriptors = VK_TRUE;
		p->allowSamplerImageViewPostSubmitCreation = VK_FALSE;
		p->descriptorBufferOffsetAlignment = 16;
		p->maxDescriptorBufferBindings = kMaxDescriptorBufferBindings;
		p->maxResourceDescriptorBufferBindings = kMaxDescriptorBufferBindings;
		p->maxSamplerDescriptorBufferBindings = kMaxDescriptorBufferBindings;
		p->maxEmbeddedImmutableSamplerBindings = kMaxBoundDescriptorSets;
		p->maxEmbeddedImmutableSamplers = properties_.limits.maxSamplerAllocationCount;
		p->bufferCaptureReplayDescriptorDataSize = 0;
		p->imageCaptureReplayDescriptorDataSize = 0;
		p->imageViewCaptureReplayDescriptorDataSize = 0;
		p->samplerCaptureReplayDescriptorDataSize = 0;
		p->accelerationStructureCaptureReplayDescriptorDataSize = 0;
		p->samplerDescriptorSize = kBufferDescriptorSize;
		p->combinedImageSamplerDescriptorSize = kBufferDescriptorSize;
		p->sampledImageDescriptorSize = kBufferDescriptorSize;
		p->storageImageDescriptorSize = kBufferDescriptorSize;
		p->uniformTexelBufferDescriptorSize = kBufferDescriptorSize;
		p->robustUniformTexelBufferDescriptorSize = kBufferDescriptorSize;
		p->storageTexelBufferDescriptorSize = kBufferDescriptorSize;
		p->robustStorageTexelBufferDescriptorSize = kBufferDescriptorSize;
		p->uniformBufferDescriptorSize = kBufferDescriptorSize;
		p->robustUniformBufferDescriptorSize = kBufferDescriptorSize;
		p->storageBufferDescriptorSize = kBufferDescriptorSize;
		p->robustStorageBufferDescriptorSize = kBufferDescriptorSize;
		p->inputAttachmentDescriptorSize = kBufferDescriptorSize;
		p->accelerationStructureDescriptorSize = 0;  // no ray tracing
		p->maxSamplerDescriptorBufferRange = uint64_t(1) << 32;
		p->maxResourceDescriptorBufferRange = uint64_t(1) << 32;
		p->samplerDescriptorBufferAddressSpaceSize = uint64_t(1) << 47;
		p->resourceDescriptorBufferAddressSpaceSize = uint64_t(1) << 47;
		p->descriptorBufferAddressSpaceSize = uint64_t(1) << 47;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR:
		reinterpret_cast<VkPhysicalDevicePushDescriptorPropertiesKHR*>(s)->maxPushDescriptors = kMaxPushDescriptors;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_PROPERTIES: {
		// Each as the structure of the extension Vulkan 1.4 took it from
		// says (the cases above), so the two never disagree.
		auto* p = reinterpret_cast<VkPhysicalDeviceVulkan14Properties*>(s);
		auto filled = [this](auto structure, VkStructureType type) {
			structure.sType = type;
			structure.pNext = nullptr;
			FillProperties(reinterpret_cast<VkBaseOutStructure*>(&structure));
			return structure;
		};
		p->lineSubPixelPrecisionBits = filled(VkPhysicalDeviceLineRasterizationPropertiesEXT{},
		                                      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_PROPERTIES_EXT)
		                                   .lineSubPixelPrecisionBits;
		const auto divisor = filled(VkPhysicalDeviceVertexAttributeDivisorPropertiesKHR{},
		                            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_KHR);
		p->maxVertexAttribDivisor = divisor.maxVertexAttribDivisor;
		p->supportsNonZeroFirstInstance = divisor.supportsNonZeroFirstInstance;
		p->maxPushDescriptors = kMaxPushDescriptors;
		// Input attachments are read through their descriptors, whatever
		// aspect or sample count (VK_KHR_dynamic_rendering_local_read).
		p->dynamicRenderingLocalReadDepthStencilAttachments = VK_TRUE;
		p->dynamicRenderingLocalReadMultisampledAttachments = VK_TRUE;
		const auto m5 = filled(VkPhysicalDeviceMaintenance5PropertiesKHR{},
		                       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_PROPERTIES_KHR);
		p->earlyFragmentMultisampleCoverageAfterSampleCounting = m5.earlyFragmentMultisampleCoverageAfterSampleCounting;
		p->earlyFragmentSampleMaskTestBeforeSampleCounting = m5.earlyFragmentSampleMaskTestBeforeSampleCounting;
		p->depthStencilSwizzleOneSupport = m5.depthStencilSwizzleOneSupport;
		p->polygonModePointSize = m5.polygonModePointSize;
		p->nonStrictSinglePixelWideLinesUseParallelogram = m5.nonStrictSinglePixelWideLinesUseParallelogram;
		p->nonStrictWideLinesUseParallelogram = m5.nonStrictWideLinesUseParallelogram;
		const auto m6 = filled(VkPhysicalDeviceMaintenance6PropertiesKHR{},
		                       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_PROPERTIES_KHR);
		p->blockTexelViewCompatibleMultipleLayers = m6.blockTexelViewCompatibleMultipleLayers;
		p->maxCombinedImageSamplerDescriptorCount = m6.maxCombinedImageSamplerDescriptorCount;
		p->fragmentShadingRateClampCombinerInputs = m6.fragmentShadingRateClampCombinerInputs;
		const auto robustness = filled(VkPhysicalDevicePipelineRobustnessPropertiesEXT{},
		                               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_PROPERTIES_EXT);
		p->defaultRobustnessStorageBuffers = robustness.defaultRobustnessStorageBuffers;
		p->defaultRobustnessUniformBuffers = robustness.defaultRobustnessUniformBuffers;
		p->defaultRobustnessVertexInputs = robustness.defaultRobustnessVertexInputs;
		p->defaultRobustnessImages = robustness.defaultRobustnessImages;
		// The layout lists go to the application's arrays, as with the
		// extension's structure.
		VkPhysicalDeviceHostImageCopyPropertiesEXT host{
		    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_PROPERTIES_EXT};
		host.copySrcLayoutCount = p->copySrcLayoutCount;
		host.pCopySrcLayouts = p->pCopySrcLayouts;
		host.copyDstLayoutCount = p->copyDstLayoutCount;
		host.pCopyDstLayouts = p->pCopyDstLayouts;
		FillProperties(reinterpret_cast<VkBaseOutStructure*>(&host));
		p->copySrcLayoutCount = host.copySrcLayoutCount;
		p->copyDstLayoutCount = host.copyDstLayoutCount;
		std::memcpy(p->optimalTilingLayoutUUID, host.optimalTilingLayoutUUID, VK_UUID_SIZE);
		p->identicalMemoryTypeRequirements = host.identicalMemoryTypeRequirements;
		break;
	}
	default: break;
	}
}

void PhysicalDevice::GetProperties(VkPhysicalDeviceProperties2* properties) const {
	properties->properties = properties_;
	for (auto* s = static_cast<VkBaseOutStructure*>(properties->pNext); s; s = s->pNext) FillProperties(s);
}

}  // namespace tessera::vk

namespace tessera::entry {

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                                        VkPhysicalDeviceProperties2* pProperties) {
	vk::PhysicalDevice::Cast(physicalDevice)->GetProperties(pProperties);
}

}  // namespace tessera::entry
