// The feature bits Tessera reports. A bit is set only when what it promises
// works end to end; each later stage (shaders, rasterization, sampling) turns
// its own bits on as it lands.
#include <cstring>

#include "icd/vulkan_newer.h"
#include "vk/physical_device.h"

namespace tessera::vk {

namespace {

// Every feature structure is { sType, pNext, VkBool32... }.
constexpr size_t kBoolsOffset = offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess);

struct FeatureStruct {
	VkStructureType type;
	size_t size;  // up to the end of the last VkBool32, without tail padding
};

#define TESSERA_FEATURE_END(Struct, last) (offsetof(Struct, last) + sizeof(VkBool32))

// Every feature structure of core Vulkan 1.1-1.3 (those our extensions
// define are among them).
constexpr FeatureStruct kFeatureStructs[] = {
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceVulkan11Features, shaderDrawParameters)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceVulkan12Features, subgroupBroadcastDynamicId)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceVulkan13Features, maintenance4)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceVulkan14Features, pushDescriptor)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDevice16BitStorageFeatures, storageInputOutput16)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceMultiviewFeatures, multiviewTessellationShader)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceVariablePointersFeatures, variablePointers)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceProtectedMemoryFeatures, protectedMemory)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceSamplerYcbcrConversionFeatures, samplerYcbcrConversion)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderDrawParametersFeatures, shaderDrawParameters)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDevice8BitStorageFeatures, storagePushConstant8)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderAtomicInt64Features, shaderSharedInt64Atomics)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderFloat16Int8Features, shaderInt8)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceDescriptorIndexingFeatures, runtimeDescriptorArray)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceScalarBlockLayoutFeatures, scalarBlockLayout)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceImagelessFramebufferFeatures, imagelessFramebuffer)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceUniformBufferStandardLayoutFeatures, uniformBufferStandardLayout)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures, shaderSubgroupExtendedTypes)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures, separateDepthStencilLayouts)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceHostQueryResetFeatures, hostQueryReset)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceTimelineSemaphoreFeatures, timelineSemaphore)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceBufferDeviceAddressFeatures, bufferDeviceAddressMultiDevice)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceVulkanMemoryModelFeatures, vulkanMemoryModelAvailabilityVisibilityChains)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceImageRobustnessFeatures, robustImageAccess)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceInlineUniformBlockFeatures,
                         descriptorBindingInlineUniformBlockUpdateAfterBind)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDevicePipelineCreationCacheControlFeatures, pipelineCreationCacheControl)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDevicePrivateDataFeatures, privateData)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures, shaderDemoteToHelperInvocation)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderTerminateInvocationFeatures, shaderTerminateInvocation)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceSubgroupSizeControlFeatures, computeFullSubgroups)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceSynchronization2Features, synchronization2)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceTextureCompressionASTCHDRFeatures, textureCompressionASTC_HDR)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures, shaderZeroInitializeWorkgroupMemory)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceDynamicRenderingFeatures, dynamicRendering)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderIntegerDotProductFeatures, shaderIntegerDotProduct)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES,
     TESSERA_FEATURE_END(VkPhysicalDeviceMaintenance4Features, maintenance4)},
    // VK_EXT_swapchain_maintenance1 (src/wsi).
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT, swapchainMaintenance1)},
    // VK_EXT_custom_border_color (texture/sample.cpp, BorderTexel).
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceCustomBorderColorFeaturesEXT, customBorderColorWithoutFormat)},
    // VK_EXT_extended_dynamic_state and _state2: the states are core 1.3
    // (vk/graphics_pipeline.cpp, ToDynamic); VK_EXT_texel_buffer_alignment:
    // the 1.3 properties.
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceExtendedDynamicStateFeaturesEXT, extendedDynamicState)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceExtendedDynamicState2FeaturesEXT, extendedDynamicState2PatchControlPoints)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT, texelBufferAlignment)},
    // VK_EXT_depth_clip_enable and VK_EXT_depth_clip_control (raster/primitive.cpp).
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceDepthClipEnableFeaturesEXT, depthClipEnable)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceDepthClipControlFeaturesEXT, depthClipControl)},
    // VK_EXT_index_type_uint8 (vk/draw.cpp, ReadIndex), VK_EXT_4444_formats
    // (texture/texel.cpp packs them like every packed format) and
    // VK_EXT_vertex_attribute_divisor (vk/draw.cpp, FetchAttribute).
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT, nonSeamlessCubeMap)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT, primitiveTopologyPatchListRestart)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceColorWriteEnableFeaturesEXT, colorWriteEnable)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_BIAS_CONTROL_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceDepthBiasControlFeaturesEXT, depthBiasExact)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_CONTROL_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceDepthClampControlFeaturesEXT, depthClampControl)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_UNIFORM_BUFFER_UNSIZED_ARRAY_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderUniformBufferUnsizedArrayFeaturesEXT, shaderUniformBufferUnsizedArray)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_DEVICE_MEMORY_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceZeroInitializeDeviceMemoryFeaturesEXT, zeroInitializeDeviceMemory)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_INTERLOCK_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT, fragmentShaderShadingRateInterlock)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceInternallySynchronizedQueuesFeaturesKHR, internallySynchronizedQueues)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR, fragmentShaderBarycentric)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_ADDRESS_COMMANDS_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR, deviceAddressCommands)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR,
                         workgroupMemoryExplicitLayout16BitAccess)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR,
                         shaderSubgroupUniformControlFlow)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceDescriptorBufferFeaturesEXT, descriptorBufferPushDescriptors)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MUTABLE_DESCRIPTOR_TYPE_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceMutableDescriptorTypeFeaturesEXT, mutableDescriptorType)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_YCBCR_2_PLANE_444_FORMATS_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceYcbcr2Plane444FormatsFeaturesEXT, ycbcr2plane444Formats)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_VIEW_MIN_LOD_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceImageViewMinLodFeaturesEXT, minLod)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT,
                         multisampledRenderToSingleSampled)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceIndexTypeUint8FeaturesEXT, indexTypeUint8)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_4444_FORMATS_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDevice4444FormatsFeaturesEXT, formatA4B4G4R4)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT, vertexAttributeInstanceRateZeroDivisor)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceLineRasterizationFeaturesEXT, stippledSmoothLines)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceBorderColorSwizzleFeaturesEXT, borderColorSwizzleFromImage)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT, vertexInputDynamicState)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceConditionalRenderingFeaturesEXT, inheritedConditionalRendering)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT,
                         primitivesGeneratedQueryWithNonZeroStreams)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceTransformFeedbackFeaturesEXT, geometryStreams)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceMultiDrawFeaturesEXT, multiDraw)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceRobustness2FeaturesEXT, nullDescriptor)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderClockFeaturesKHR, shaderDeviceClock)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceImage2DViewOf3DFeaturesEXT, sampler2DViewOf3D)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderAtomicFloatFeaturesEXT, sparseImageFloat32AtomicAdd)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT, sparseImageFloat32AtomicMinMax)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT, attachmentFeedbackLoopLayout)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT,
                         rasterizationOrderStencilAttachmentAccess)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_ZERO_ONE_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceDepthClampZeroOneFeaturesEXT, depthClampZeroOne)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GLOBAL_PRIORITY_QUERY_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceGlobalPriorityQueryFeaturesKHR, globalPriorityQuery)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceMemoryPriorityFeaturesEXT, memoryPriority)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT, pageableDeviceLocalMemory)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_YCBCR_IMAGE_ARRAYS_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceYcbcrImageArraysFeaturesEXT, ycbcrImageArrays)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceExtendedDynamicState3FeaturesEXT,
                         extendedDynamicState3ShadingRateImageEnable)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDevicePipelineRobustnessFeaturesEXT, pipelineRobustness)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_PROTECTED_ACCESS_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDevicePipelineProtectedAccessFeaturesEXT, pipelineProtectedAccess)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT, graphicsPipelineLibrary)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_DYNAMIC_STATE_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceAttachmentFeedbackLoopDynamicStateFeaturesEXT,
                         attachmentFeedbackLoopDynamicState)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_REPLICATED_COMPOSITES_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderReplicatedCompositesFeaturesEXT, shaderReplicatedComposites)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_RELAXED_EXTENDED_INSTRUCTION_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderRelaxedExtendedInstructionFeaturesKHR,
                         shaderRelaxedExtendedInstruction)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_QUAD_CONTROL_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderQuadControlFeaturesKHR, shaderQuadControl)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceComputeShaderDerivativesFeaturesKHR, computeDerivativeGroupLinear)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_MAXIMAL_RECONVERGENCE_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderMaximalReconvergenceFeaturesKHR, shaderMaximalReconvergence)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT_CONTROLS_2_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderFloatControls2FeaturesKHR, shaderFloatControls2)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceHostImageCopyFeaturesEXT, hostImageCopy)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR, dynamicRenderingLocalRead)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceMaintenance5FeaturesKHR, maintenance5)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceMaintenance6FeaturesKHR, maintenance6)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceMaintenance7FeaturesKHR, maintenance7)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT, dynamicGeneratedPipelineLayout)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_8_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceMaintenance8FeaturesKHR, maintenance8)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderObjectFeaturesEXT, shaderObject)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_SLICED_VIEW_OF_3D_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT, imageSlicedViewOf3D)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LEGACY_VERTEX_ATTRIBUTES_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceLegacyVertexAttributesFeaturesEXT, legacyVertexAttributes)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NESTED_COMMAND_BUFFER_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceNestedCommandBufferFeaturesEXT, nestedCommandBufferSimultaneousUse)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_UNUSED_ATTACHMENTS_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceDynamicRenderingUnusedAttachmentsFeaturesEXT,
                         dynamicRenderingUnusedAttachments)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_EXPECT_ASSUME_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderExpectAssumeFeaturesKHR, shaderExpectAssume)},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_ROTATE_FEATURES_KHR,
     TESSERA_FEATURE_END(VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR, shaderSubgroupRotateClustered)},
    // VK_EXT_provoking_vertex (raster::AssembleTriangles, flat varyings).
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT,
     TESSERA_FEATURE_END(VkPhysicalDeviceProvokingVertexFeaturesEXT, transformFeedbackPreservesProvokingVertex)},
};

constexpr size_t kLargestFeatureStruct = 512;
constexpr bool AllFit() {
	for (const auto& f : kFeatureStructs)
		if (f.size > kLargestFeatureStruct) return false;
	return true;
}
static_assert(AllFit());

const FeatureStruct* FindFeatureStruct(VkStructureType type) {
	for (const auto& f : kFeatureStructs)
		if (f.type == type) return &f;
	return nullptr;
}

// What Tessera supports, as the core structure and the 1.1/1.2/1.3
// aggregates; every other feature structure is filled from these.
struct Supported {
	VkPhysicalDeviceFeatures core{};
	VkPhysicalDeviceVulkan11Features v11{};
	VkPhysicalDeviceVulkan12Features v12{};
	VkPhysicalDeviceVulkan13Features v13{};

	Supported() {
		// The shader engine (src/shader): every buffer access is
		// bounds-checked, and so is vertex fetch (robustBufferAccess: reads
		// past a binding's end give zeros, vk/draw.cpp), descriptor arrays
		// of buffers take run-time indices, and 8/16-bit and 64-bit integers,
		// 16- and 64-bit floats work in arithmetic and in buffers, with 64-bit
		// atomics.
		core.robustBufferAccess = VK_TRUE;
		// Sparse buffers and images: their addresses are reserved, and
		// vkQueueBindSparse maps the pages of memfd-backed memory into them
		// (vk/sparse_range.h), so any block may be bound, rebound, unbound
		// (zero pages) or bound in several places at once. Partially
		// resident 2D and 3D images are stored in tiles whose blocks are
		// whole pages (texture::SparseBlock); single-sampled only.
		core.sparseBinding = VK_TRUE;
		core.sparseResidencyBuffer = VK_TRUE;
		core.sparseResidencyImage2D = VK_TRUE;
		core.sparseResidencyImage3D = VK_TRUE;
		core.sparseResidencyAliased = VK_TRUE;
		// OpImageSparse*: the lookup, then again lane by lane with each
		// texel read checked against the image's bound pages
		// (shader/image_ops.cpp, ImageOpKind::kResidency).
		core.shaderResourceResidency = VK_TRUE;
		core.shaderInt16 = VK_TRUE;
		core.shaderInt64 = VK_TRUE;
		core.shaderFloat64 = VK_TRUE;
		core.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
		core.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
		// Images, samplers and texel buffers in the shader engine
		// (src/spirv/translate_image.cpp, src/shader/image_ops.cpp): arrays of
		// them indexed per lane, storage images read and written with or
		// without a declared format (the view's format decides), every SPIR-V
		// storage image format, cube arrays (texture/sample.h).
		core.shaderSampledImageArrayDynamicIndexing = VK_TRUE;
		core.shaderStorageImageArrayDynamicIndexing = VK_TRUE;
		core.shaderStorageImageReadWithoutFormat = VK_TRUE;
		core.shaderStorageImageWriteWithoutFormat = VK_TRUE;
		core.shaderStorageImageExtendedFormats = VK_TRUE;
		core.imageCubeArray = VK_TRUE;
		core.shaderImageGatherExtended = VK_TRUE;  // Offset and ConstOffsets on gathers
		core.shaderResourceMinLod = VK_TRUE;       // the MinLod image operand (texture/sample.h)
		// Every BC, ETC2/EAC and ASTC LDR format decodes (texture/compressed.h)
		// for sampling (texture/decoded_view.h), blits and copies.
		core.textureCompressionBC = VK_TRUE;
		core.textureCompressionETC2 = VK_TRUE;
		core.textureCompressionASTC_LDR = VK_TRUE;

		v11.storageBuffer16BitAccess = VK_TRUE;
		v11.uniformAndStorageBuffer16BitAccess = VK_TRUE;
		v11.storagePushConstant16 = VK_TRUE;
		// 16-bit interface variables: held widened in their words, made exact
		// (a half, a zero-extended integer) where a stage reads them
		// (spirv::Translator, InterfaceWord::width); 2 bytes each in
		// transform feedback.
		v11.storageInputOutput16 = VK_TRUE;
		// Pointers chosen at run time among storage buffer and workgroup
		// variables (spirv/translate_pointers.cpp).
		v11.variablePointersStorageBuffer = VK_TRUE;
		v11.variablePointers = VK_TRUE;
		// Sampler Y'CbCr conversion (vk/sampler_ycbcr.cpp, texture/ycbcr.h).
		v11.samplerYcbcrConversion = VK_TRUE;
		// Draws broadcast to each view of the view mask (vk/draw.cpp), load
		// ops and resolves per view (vk/cmd_render_pass.cpp). The geometry
		// and tessellation stages run once per view too, reading ViewIndex.
		v11.multiview = VK_TRUE;
		v11.multiviewGeometryShader = VK_TRUE;
		v11.multiviewTessellationShader = VK_TRUE;
		// Layer written by the vertex stage: primitives sorted by layer
		// (vk/draw.cpp DrawLayers). One viewport, so no ViewportIndex.
		v12.shaderOutputLayer = VK_TRUE;
		// Several viewports, chosen per primitive by the vertex stage's
		// ViewportIndex (vk/draw.cpp DrawAssembled).
		core.multiViewport = VK_TRUE;
		v12.shaderOutputViewportIndex = VK_TRUE;

		v12.storageBuffer8BitAccess = VK_TRUE;
		v12.uniformAndStorageBuffer8BitAccess = VK_TRUE;
		v12.storagePushConstant8 = VK_TRUE;
		v12.shaderFloat16 = VK_TRUE;
		v12.shaderInt8 = VK_TRUE;
		v12.shaderBufferInt64Atomics = VK_TRUE;
		v12.shaderSharedInt64Atomics = VK_TRUE;
		v12.samplerMirrorClampToEdge = VK_TRUE;  // texture/sampling_math.cpp wraps it
		v12.samplerFilterMinmax = VK_TRUE;       // texture/sample.cpp, ReduceMinMax
		v12.shaderUniformTexelBufferArrayDynamicIndexing = VK_TRUE;
		v12.shaderStorageTexelBufferArrayDynamicIndexing = VK_TRUE;
		v12.shaderInputAttachmentArrayDynamicIndexing = VK_TRUE;
		// Descriptor arrays are indexed per lane (src/spirv/translator.cpp,
		// kSupportedCapabilities), so the index may differ between the lanes
		// of one lane group; input attachments are image slots like the rest.
		v12.shaderUniformBufferArrayNonUniformIndexing = VK_TRUE;
		v12.shaderInputAttachmentArrayNonUniformIndexing = VK_TRUE;
		v12.shaderSampledImageArrayNonUniformIndexing = VK_TRUE;
		v12.shaderStorageBufferArrayNonUniformIndexing = VK_TRUE;
		v12.shaderStorageImageArrayNonUniformIndexing = VK_TRUE;
		v12.shaderUniformTexelBufferArrayNonUniformIndexing = VK_TRUE;
		v12.shaderStorageTexelBufferArrayNonUniformIndexing = VK_TRUE;
		// Runtime-sized descriptor arrays take their size from the pipeline
		// layout (spirv::LinkRuntimeDescriptorArrays); a variable-count
		// binding is read up to the set's own count (vk/shader_resources.cpp).
		v12.runtimeDescriptorArray = VK_TRUE;
		v12.descriptorBindingVariableDescriptorCount = VK_TRUE;
		// Bound sets are recorded as pointers to their memory and descriptors
		// are read when the dispatch or draw executes, so writes made after
		// vkCmdBindDescriptorSets and before submission are seen (update
		// after bind). An image, sampler or texel buffer descriptor is read
		// only when an instruction first uses it (vk::LazyImages), so
		// elements the shader does not use may name destroyed objects
		// (partially bound) or be rewritten while the work is pending (update
		// unused while pending). Buffer descriptors hold plain pointers and
		// sizes (no object is dereferenced) and are copied when the work
		// starts: an unused one rewritten at that moment may be copied torn,
		// and is never used.
		v12.descriptorBindingUniformBufferUpdateAfterBind = VK_TRUE;
		v12.descriptorBindingSampledImageUpdateAfterBind = VK_TRUE;
		v12.descriptorBindingStorageImageUpdateAfterBind = VK_TRUE;
		v12.descriptorBindingStorageBufferUpdateAfterBind = VK_TRUE;
		v12.descriptorBindingUniformTexelBufferUpdateAfterBind = VK_TRUE;
		v12.descriptorBindingStorageTexelBufferUpdateAfterBind = VK_TRUE;
		v12.descriptorBindingPartiallyBound = VK_TRUE;
		v12.descriptorBindingUpdateUnusedWhilePending = VK_TRUE;
		// Vulkan 1.3 "Feature Requirements": descriptorIndexing requires
		// sampled image and storage buffer array dynamic indexing, both texel
		// buffer array dynamic indexing features, non-uniform indexing of
		// sampled images, storage buffers and uniform texel buffers, update
		// after bind of sampled and storage images, storage buffers and both
		// texel buffers, update unused while pending, partially bound and
		// runtime descriptor arrays: all reported above.
		v12.descriptorIndexing = VK_TRUE;
		// Offsets and strides come from the SPIR-V decorations, and every
		// access is scalarized, so no layout rule is assumed at run time; the
		// validator follows what the application enabled (spirv::ValidationRules).
		v12.uniformBufferStandardLayout = VK_TRUE;
		v12.scalarBlockLayout = VK_TRUE;
		// Device addresses are host pointers (vkGetBufferDeviceAddress); the
		// engine runs PhysicalStorageBuffer loads, stores and atomics
		// (src/spirv/translate_physical.cpp, src/shader/physical_memory.cpp).
		v12.bufferDeviceAddress = VK_TRUE;
		v12.timelineSemaphore = VK_TRUE;
		v12.hostQueryReset = VK_TRUE;
		v12.vulkanMemoryModel = VK_TRUE;
		v12.vulkanMemoryModelDeviceScope = VK_TRUE;
		// Availability and visibility chains: device memory is the host's,
		// coherent, so a write is available and visible to every scope once
		// the operations that order it (barriers, acquire and release
		// atomics, which the engine runs as fences) have run; a chain of such
		// operations to wider scopes orders no less than one of them.
		v12.vulkanMemoryModelAvailabilityVisibilityChains = VK_TRUE;
		// Images keep one memory layout whatever their VkImageLayout, so the
		// separate depth and stencil layouts need nothing more.
		v12.separateDepthStencilLayouts = VK_TRUE;
		// Subgroup arithmetic on 8/16/64-bit integers and 16-bit floats
		// (src/spirv/translate_subgroup.cpp), and OpGroupNonUniformBroadcast
		// with a dynamically uniform id (SPIR-V 1.5+; a shuffle underneath).
		v12.shaderSubgroupExtendedTypes = VK_TRUE;
		v12.subgroupBroadcastDynamicId = VK_TRUE;

		v13.synchronization2 = VK_TRUE;
		// Image accesses outside the view are checked everywhere: loads and
		// fetches read zero (alpha 1 where the format has none), stores and
		// atomics are dropped (shader/image_ops.cpp, texture/sample.cpp), the
		// robustImageAccess2 values, which robustImageAccess allows.
		v13.robustImageAccess = VK_TRUE;
		v13.privateData = VK_TRUE;
		v13.maintenance4 = VK_TRUE;
		v13.pipelineCreationCacheControl = VK_TRUE;  // see vkCreateComputePipelines
		// Inline uniform blocks live in the set's memory, which shaders read
		// like a uniform buffer when the work executes (vk/shader_resources.cpp),
		// so a block written after vkCmdBindDescriptorSets is what they see
		// (update after bind; required with descriptorIndexing).
		v13.inlineUniformBlock = VK_TRUE;
		v13.descriptorBindingInlineUniformBlockUpdateAfterBind = VK_TRUE;
		// The interpreter zeroes workgroup memory before every workgroup.
		v13.shaderZeroInitializeWorkgroupMemory = VK_TRUE;
		// The subgroup size is fixed (shader::kSubgroupSize), so a required
		// size equal to it is always met.
		v13.subgroupSizeControl = VK_TRUE;

		// Graphics (vk/graphics_pipeline.cpp, vk/draw.cpp, vk/cmd_render_pass.cpp
		// over src/raster): 32-bit indices up to 2^32 - 1, per-attachment
		// blend state, logic ops, depth clamp and bias clamp, indirect draws
		// with several draws and a first instance, the draw parameters, clip
		// distances, render passes with imageless framebuffers, and dynamic
		// rendering.
		core.fullDrawIndexUint32 = VK_TRUE;
		core.independentBlend = VK_TRUE;
		core.logicOp = VK_TRUE;
		core.depthClamp = VK_TRUE;
		core.depthBiasClamp = VK_TRUE;
		core.multiDrawIndirect = VK_TRUE;
		core.drawIndirectFirstInstance = VK_TRUE;
		core.shaderClipDistance = VK_TRUE;
		// Primitives whose vertices all have a negative cull distance for one
		// plane are dropped before rasterization (vk/draw.cpp, DrawAssembled).
		core.shaderCullDistance = VK_TRUE;
		// Pipeline statistics: draws and dispatches count into the active query
		// (vk/query_pool.h, Statistic).
		core.pipelineStatisticsQuery = VK_TRUE;
		// Geometry shaders between the vertex stage and rasterization, stream
		// 0 only (vk/geometry_stage.cpp); PointSize from them is honoured.
		core.geometryShader = VK_TRUE;
		core.shaderTessellationAndGeometryPointSize = VK_TRUE;
		// Tessellation control and evaluation stages and the tessellator
		// (vk/tessellation_stage.cpp, raster/tessellator.h).
		core.tessellationShader = VK_TRUE;
		// Storage images of 4 samples: image operations take the sample operand
		// (shader/image_ops.cpp StorageTexel, texture::Fetch).
		core.shaderStorageImageMultisample = VK_TRUE;
		// Buffer stores and atomics from the vertex and fragment stages;
		// helper lanes' writes are dropped (src/shader/stage.cpp).
		core.vertexPipelineStoresAndAtomics = VK_TRUE;
		core.fragmentStoresAndAtomics = VK_TRUE;
		core.samplerAnisotropy = VK_TRUE;
		// src/raster: polygon modes LINE and POINT, lines and points wider
		// than one pixel, the depth bounds test, alpha to one, and sample
		// shading (the fragment program once per covered sample).
		core.fillModeNonSolid = VK_TRUE;
		core.wideLines = VK_TRUE;
		core.largePoints = VK_TRUE;
		core.depthBounds = VK_TRUE;
		core.alphaToOne = VK_TRUE;
		core.sampleRateShading = VK_TRUE;
		// Occlusion queries count exactly the samples that pass (raster::Renderer::Draw).
		core.occlusionQueryPrecise = VK_TRUE;
		// A secondary command buffer runs in its primary's execution context
		// (vk/command_buffer.cpp, ExecuteCommandsCommand), so the queries
		// active there count its draws and dispatches.
		core.inheritedQueries = VK_TRUE;
		core.dualSrcBlend = VK_TRUE;
		v11.shaderDrawParameters = VK_TRUE;
		v12.imagelessFramebuffer = VK_TRUE;
		v12.drawIndirectCount = VK_TRUE;
		v13.dynamicRendering = VK_TRUE;
		// OpDemoteToHelperInvocation and OpTerminateInvocation
		// (src/spirv/translate_stage.cpp; compared with lavapipe in
		// draw_shader_test.cpp).
		v13.shaderDemoteToHelperInvocation = VK_TRUE;
		v13.shaderTerminateInvocation = VK_TRUE;
		// A workgroup with subgroups runs as one lane group whose subgroups
		// are consecutive runs of kSubgroupSize local invocation indices, all
		// of them active at the start: when local_size_x is a multiple of the
		// subgroup size (VUID-VkPipelineShaderStageCreateInfo-flags-02758/02759)
		// every subgroup is full, whatever the stage flags ask.
		v13.computeFullSubgroups = VK_TRUE;
		// OpSDot/OpUDot/OpSUDot and the AccSat forms (src/spirv/translate_dot.cpp).
		v13.shaderIntegerDotProduct = VK_TRUE;
	}
};

const Supported& SupportedFeatures() {
	static const Supported supported;
	return supported;
}

template <typename Aggregate>
void CopyBools(const Aggregate& from, VkBaseOutStructure* to, size_t size) {
	std::memcpy(reinterpret_cast<char*>(to) + kBoolsOffset, reinterpret_cast<const char*>(&from) + kBoolsOffset,
	            size - kBoolsOffset);
}

// Writes the supported bits of one feature structure, leaving sType/pNext.
void FillFeatures(VkBaseOutStructure* s) {
	const FeatureStruct* known = FindFeatureStruct(s->sType);
	if (!known) return;
	std::memset(reinterpret_cast<char*>(s) + kBoolsOffset, 0, known->size - kBoolsOffset);
	const Supported& f = SupportedFeatures();
	switch (s->sType) {
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: CopyBools(f.v11, s, known->size); break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: CopyBools(f.v12, s, known->size); break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: CopyBools(f.v13, s, known->size); break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_FEATURES: {
		// Each as the structure of the extension Vulkan 1.4 took it from
		// says (the cases below), so the two never disagree.
		auto* p = reinterpret_cast<VkPhysicalDeviceVulkan14Features*>(s);
		auto filled = [](auto structure, VkStructureType type) {
			structure.sType = type;
			structure.pNext = nullptr;
			FillFeatures(reinterpret_cast<VkBaseOutStructure*>(&structure));
			return structure;
		};
		const auto priority = filled(VkPhysicalDeviceGlobalPriorityQueryFeaturesKHR{},
		                             VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GLOBAL_PRIORITY_QUERY_FEATURES_KHR);
		const auto rotate = filled(VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR{},
		                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_ROTATE_FEATURES_KHR);
		const auto lines = filled(VkPhysicalDeviceLineRasterizationFeaturesEXT{},
		                          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT);
		const auto divisor = filled(VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT{},
		                            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT);
		p->globalPriorityQuery = priority.globalPriorityQuery;
		p->shaderSubgroupRotate = rotate.shaderSubgroupRotate;
		p->shaderSubgroupRotateClustered = rotate.shaderSubgroupRotateClustered;
		p->shaderFloatControls2 = filled(VkPhysicalDeviceShaderFloatControls2FeaturesKHR{},
		                                 VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT_CONTROLS_2_FEATURES_KHR)
		                              .shaderFloatControls2;
		p->shaderExpectAssume = filled(VkPhysicalDeviceShaderExpectAssumeFeaturesKHR{},
		                               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_EXPECT_ASSUME_FEATURES_KHR)
		                            .shaderExpectAssume;
		p->rectangularLines = lines.rectangularLines;
		p->bresenhamLines = lines.bresenhamLines;
		p->smoothLines = lines.smoothLines;
		p->stippledRectangularLines = lines.stippledRectangularLines;
		p->stippledBresenhamLines = lines.stippledBresenhamLines;
		p->stippledSmoothLines = lines.stippledSmoothLines;
		p->vertexAttributeInstanceRateDivisor = divisor.vertexAttributeInstanceRateDivisor;
		p->vertexAttributeInstanceRateZeroDivisor = divisor.vertexAttributeInstanceRateZeroDivisor;
		p->indexTypeUint8 = filled(VkPhysicalDeviceIndexTypeUint8FeaturesEXT{},
		                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT)
		                        .indexTypeUint8;
		p->dynamicRenderingLocalRead =
		    filled(VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR{},
		           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR)
		        .dynamicRenderingLocalRead;
		p->maintenance5 = filled(VkPhysicalDeviceMaintenance5FeaturesKHR{},
		                         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR)
		                      .maintenance5;
		p->maintenance6 = filled(VkPhysicalDeviceMaintenance6FeaturesKHR{},
		                         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR)
		                      .maintenance6;
		p->pipelineProtectedAccess = filled(VkPhysicalDevicePipelineProtectedAccessFeaturesEXT{},
		                                    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_PROTECTED_ACCESS_FEATURES_EXT)
		                                 .pipelineProtectedAccess;
		p->pipelineRobustness = filled(VkPhysicalDevicePipelineRobustnessFeaturesEXT{},
		                               VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT)
		                            .pipelineRobustness;
		p->hostImageCopy = filled(VkPhysicalDeviceHostImageCopyFeaturesEXT{},
		                          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_FEATURES_EXT)
		                       .hostImageCopy;
		p->pushDescriptor = VK_TRUE;  // VK_KHR_push_descriptor (vk/descriptor_set.cpp)
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDevice16BitStorageFeatures*>(s);
		p->storageBuffer16BitAccess = f.v11.storageBuffer16BitAccess;
		p->uniformAndStorageBuffer16BitAccess = f.v11.uniformAndStorageBuffer16BitAccess;
		p->storagePushConstant16 = f.v11.storagePushConstant16;
		p->storageInputOutput16 = f.v11.storageInputOutput16;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDevice8BitStorageFeatures*>(s);
		p->storageBuffer8BitAccess = f.v12.storageBuffer8BitAccess;
		p->uniformAndStorageBuffer8BitAccess = f.v12.uniformAndStorageBuffer8BitAccess;
		p->storagePushConstant8 = f.v12.storagePushConstant8;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceShaderFloat16Int8Features*>(s);
		p->shaderFloat16 = f.v12.shaderFloat16;
		p->shaderInt8 = f.v12.shaderInt8;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceShaderAtomicInt64Features*>(s);
		p->shaderBufferInt64Atomics = f.v12.shaderBufferInt64Atomics;
		p->shaderSharedInt64Atomics = f.v12.shaderSharedInt64Atomics;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceBufferDeviceAddressFeatures*>(s);
		p->bufferDeviceAddress = f.v12.bufferDeviceAddress;
		p->bufferDeviceAddressCaptureReplay = f.v12.bufferDeviceAddressCaptureReplay;
		p->bufferDeviceAddressMultiDevice = f.v12.bufferDeviceAddressMultiDevice;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES:
		reinterpret_cast<VkPhysicalDeviceUniformBufferStandardLayoutFeatures*>(s)->uniformBufferStandardLayout =
		    f.v12.uniformBufferStandardLayout;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceVulkanMemoryModelFeatures*>(s);
		p->vulkanMemoryModel = f.v12.vulkanMemoryModel;
		p->vulkanMemoryModelDeviceScope = f.v12.vulkanMemoryModelDeviceScope;
		p->vulkanMemoryModelAvailabilityVisibilityChains = f.v12.vulkanMemoryModelAvailabilityVisibilityChains;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
		reinterpret_cast<VkPhysicalDeviceTimelineSemaphoreFeatures*>(s)->timelineSemaphore = f.v12.timelineSemaphore;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES:
		reinterpret_cast<VkPhysicalDeviceHostQueryResetFeatures*>(s)->hostQueryReset = f.v12.hostQueryReset;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
		reinterpret_cast<VkPhysicalDeviceSynchronization2Features*>(s)->synchronization2 = f.v13.synchronization2;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES:
		reinterpret_cast<VkPhysicalDevicePrivateDataFeatures*>(s)->privateData = f.v13.privateData;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES:
		reinterpret_cast<VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures*>(s)->separateDepthStencilLayouts =
		    f.v12.separateDepthStencilLayouts;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES:
		reinterpret_cast<VkPhysicalDevicePipelineCreationCacheControlFeatures*>(s)->pipelineCreationCacheControl =
		    f.v13.pipelineCreationCacheControl;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceInlineUniformBlockFeatures*>(s);
		p->inlineUniformBlock = f.v13.inlineUniformBlock;
		p->descriptorBindingInlineUniformBlockUpdateAfterBind =
		    f.v13.descriptorBindingInlineUniformBlockUpdateAfterBind;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES:
		reinterpret_cast<VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures*>(s)
		    ->shaderZeroInitializeWorkgroupMemory = f.v13.shaderZeroInitializeWorkgroupMemory;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES:
		reinterpret_cast<VkPhysicalDeviceMaintenance4Features*>(s)->maintenance4 = f.v13.maintenance4;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceSubgroupSizeControlFeatures*>(s);
		p->subgroupSizeControl = f.v13.subgroupSizeControl;
		p->computeFullSubgroups = f.v13.computeFullSubgroups;
		break;
	}
	// Vulkan 1.3 §47.1: each member of VkPhysicalDeviceVulkan11/12/13Features
	// is the same feature as the member of that name in the structure it was
	// promoted from, so the two must report the same value.
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceMultiviewFeatures*>(s);
		p->multiview = f.v11.multiview;
		p->multiviewGeometryShader = f.v11.multiviewGeometryShader;
		p->multiviewTessellationShader = f.v11.multiviewTessellationShader;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceVariablePointersFeatures*>(s);
		p->variablePointersStorageBuffer = f.v11.variablePointersStorageBuffer;
		p->variablePointers = f.v11.variablePointers;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES:
		reinterpret_cast<VkPhysicalDeviceProtectedMemoryFeatures*>(s)->protectedMemory = f.v11.protectedMemory;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES:
		reinterpret_cast<VkPhysicalDeviceSamplerYcbcrConversionFeatures*>(s)->samplerYcbcrConversion =
		    f.v11.samplerYcbcrConversion;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES:
		reinterpret_cast<VkPhysicalDeviceShaderDrawParametersFeatures*>(s)->shaderDrawParameters =
		    f.v11.shaderDrawParameters;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES: {
		auto* p = reinterpret_cast<VkPhysicalDeviceDescriptorIndexingFeatures*>(s);
		p->shaderInputAttachmentArrayDynamicIndexing = f.v12.shaderInputAttachmentArrayDynamicIndexing;
		p->shaderUniformTexelBufferArrayDynamicIndexing = f.v12.shaderUniformTexelBufferArrayDynamicIndexing;
		p->shaderStorageTexelBufferArrayDynamicIndexing = f.v12.shaderStorageTexelBufferArrayDynamicIndexing;
		p->shaderUniformBufferArrayNonUniformIndexing = f.v12.shaderUniformBufferArrayNonUniformIndexing;
		p->shaderSampledImageArrayNonUniformIndexing = f.v12.shaderSampledImageArrayNonUniformIndexing;
		p->shaderStorageBufferArrayNonUniformIndexing = f.v12.shaderStorageBufferArrayNonUniformIndexing;
		p->shaderStorageImageArrayNonUniformIndexing = f.v12.shaderStorageImageArrayNonUniformIndexing;
		p->shaderInputAttachmentArrayNonUniformIndexing = f.v12.shaderInputAttachmentArrayNonUniformIndexing;
		p->shaderUniformTexelBufferArrayNonUniformIndexing = f.v12.shaderUniformTexelBufferArrayNonUniformIndexing;
		p->shaderStorageTexelBufferArrayNonUniformIndexing = f.v12.shaderStorageTexelBufferArrayNonUniformIndexing;
		p->descriptorBindingUniformBufferUpdateAfterBind = f.v12.descriptorBindingUniformBufferUpdateAfterBind;
		p->descriptorBindingSampledImageUpdateAfterBind = f.v12.descriptorBindingSampledImageUpdateAfterBind;
		p->descriptorBindingStorageImageUpdateAfterBind = f.v12.descriptorBindingStorageImageUpdateAfterBind;
		p->descriptorBindingStorageBufferUpdateAfterBind = f.v12.descriptorBindingStorageBufferUpdateAfterBind;
		p->descriptorBindingUniformTexelBufferUpdateAfterBind =
		    f.v12.descriptorBindingUniformTexelBufferUpdateAfterBind;
		p->descriptorBindingStorageTexelBufferUpdateAfterBind =
		    f.v12.descriptorBindingStorageTexelBufferUpdateAfterBind;
		p->descriptorBindingUpdateUnusedWhilePending = f.v12.descriptorBindingUpdateUnusedWhilePending;
		p->descriptorBindingPartiallyBound = f.v12.descriptorBindingPartiallyBound;
		p->descriptorBindingVariableDescriptorCount = f.v12.descriptorBindingVariableDescriptorCount;
		p->runtimeDescriptorArray = f.v12.runtimeDescriptorArray;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES:
		reinterpret_cast<VkPhysicalDeviceScalarBlockLayoutFeatures*>(s)->scalarBlockLayout = f.v12.scalarBlockLayout;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES:
		reinterpret_cast<VkPhysicalDeviceImagelessFramebufferFeatures*>(s)->imagelessFramebuffer =
		    f.v12.imagelessFramebuffer;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES:
		reinterpret_cast<VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures*>(s)->shaderSubgroupExtendedTypes =
		    f.v12.shaderSubgroupExtendedTypes;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES:
		reinterpret_cast<VkPhysicalDeviceImageRobustnessFeatures*>(s)->robustImageAccess = f.v13.robustImageAccess;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES:
		reinterpret_cast<VkPhysicalDeviceShaderTerminateInvocationFeatures*>(s)->shaderTerminateInvocation =
		    f.v13.shaderTerminateInvocation;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES:
		reinterpret_cast<VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures*>(s)->shaderDemoteToHelperInvocation =
		    f.v13.shaderDemoteToHelperInvocation;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES:
		reinterpret_cast<VkPhysicalDeviceTextureCompressionASTCHDRFeatures*>(s)->textureCompressionASTC_HDR =
		    f.v13.textureCompressionASTC_HDR;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
		reinterpret_cast<VkPhysicalDeviceDynamicRenderingFeatures*>(s)->dynamicRendering = f.v13.dynamicRendering;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES:
		reinterpret_cast<VkPhysicalDeviceShaderIntegerDotProductFeatures*>(s)->shaderIntegerDotProduct =
		    f.v13.shaderIntegerDotProduct;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT:
		// Present fences, present mode changes, vkReleaseSwapchainImagesEXT.
		reinterpret_cast<VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT*>(s)->swapchainMaintenance1 = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT:
		// Every state of the extension is core Vulkan 1.3 and dynamic here.
		reinterpret_cast<VkPhysicalDeviceExtendedDynamicStateFeaturesEXT*>(s)->extendedDynamicState = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT: {
		// Rasterizer discard, depth bias and primitive restart enables (core
		// 1.3), the logic op (vk/draw.cpp, ComposeState) and patch control
		// points (read per draw: vk/draw.cpp, TessellationRun).
		auto* p = reinterpret_cast<VkPhysicalDeviceExtendedDynamicState2FeaturesEXT*>(s);
		p->extendedDynamicState2 = VK_TRUE;
		p->extendedDynamicState2LogicOp = VK_TRUE;
		p->extendedDynamicState2PatchControlPoints = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT:
		// The alignments of VkPhysicalDeviceTexelBufferAlignmentProperties (core 1.3).
		reinterpret_cast<VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT*>(s)->texelBufferAlignment = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT:
		// Clipping against z separate from depth clamp (raster::RasterState::depth_clip).
		reinterpret_cast<VkPhysicalDeviceDepthClipEnableFeaturesEXT*>(s)->depthClipEnable = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT:
		// negativeOneToOne: the [-w, w] view volume (raster/primitive.cpp).
		reinterpret_cast<VkPhysicalDeviceDepthClipControlFeaturesEXT*>(s)->depthClipControl = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT:
		// Cube faces filtered on their own (texture::SamplerState::non_seamless_cube).
		reinterpret_cast<VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT*>(s)->nonSeamlessCubeMap = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT:
		// Restart in lists (raster::AssembleList) and patch lists (vk/draw.cpp,
		// where a draw's patches are cut).
		reinterpret_cast<VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT*>(s)->primitiveTopologyListRestart =
		    VK_TRUE;
		reinterpret_cast<VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT*>(s)
		    ->primitiveTopologyPatchListRestart = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT:
		// Per-attachment write enables, static or dynamic (vk/draw.cpp, ComposeState).
		reinterpret_cast<VkPhysicalDeviceColorWriteEnableFeaturesEXT*>(s)->colorWriteEnable = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_BIAS_CONTROL_FEATURES_EXT: {
		// The three representations of r (raster/primitive.cpp, DepthBias),
		// each exact: r is never scaled up.
		auto* f = reinterpret_cast<VkPhysicalDeviceDepthBiasControlFeaturesEXT*>(s);
		f->depthBiasControl = VK_TRUE;
		f->leastRepresentableValueForceUnormRepresentation = VK_TRUE;
		f->floatRepresentation = VK_TRUE;
		f->depthBiasExact = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_CONTROL_FEATURES_EXT:
		// USER_DEFINED_RANGE: depth clamping clamps to the pipeline's or
		// vkCmdSetDepthClampRangeEXT's range (raster/fragment_ops.cpp).
		reinterpret_cast<VkPhysicalDeviceDepthClampControlFeaturesEXT*>(s)->depthClampControl = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_UNIFORM_BUFFER_UNSIZED_ARRAY_FEATURES_EXT:
		// Uniform blocks are read as storage blocks are, a runtime array past
		// the last member included; the validator sees it sized
		// (spirv/newer_extensions.h, WithSizedUniformArrays).
		reinterpret_cast<VkPhysicalDeviceShaderUniformBufferUnsizedArrayFeaturesEXT*>(s)
		    ->shaderUniformBufferUnsizedArray = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_INTERLOCK_FEATURES_EXT: {
		// A batch holds one primitive's quads and, with pixel interlock and
		// sample shading, one sample of a quad (raster::FragmentShader
		// ::interlock); a tile's batches run in order on one thread. No
		// fragment shading rates, so no shading rate interlock.
		auto* f = reinterpret_cast<VkPhysicalDeviceFragmentShaderInterlockFeaturesEXT*>(s);
		f->fragmentShaderSampleInterlock = VK_TRUE;
		f->fragmentShaderPixelInterlock = VK_TRUE;
		f->fragmentShaderShadingRateInterlock = VK_FALSE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES_KHR:
		// Every queue command is safe from several threads (vk/queue.h).
		reinterpret_cast<VkPhysicalDeviceInternallySynchronizedQueuesFeaturesKHR*>(s)->internallySynchronizedQueues =
		    VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR:
		// BaryCoordKHR, BaryCoordNoPerspKHR and PerVertexKHR inputs are
		// varyings the draw sets per vertex of each primitive
		// (GraphicsPipeline::place_varyings).
		reinterpret_cast<VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR*>(s)->fragmentShaderBarycentric = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_ADDRESS_COMMANDS_FEATURES_KHR:
		// Address ranges name host memory directly (vk/buffer.h, RangeOf):
		// every command of the extension reads or writes them as its
		// buffer form reads or writes a buffer's bytes.
		reinterpret_cast<VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR*>(s)->deviceAddressCommands = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_DEVICE_MEMORY_FEATURES_EXT:
		// Every allocation Tessera makes is zeroed (vk/device_memory.cpp,
		// DeviceMemory::Init), and image layouts change no bytes, so the
		// ZERO_INITIALIZED_EXT layout keeps the zeros a transition from it
		// must keep.
		reinterpret_cast<VkPhysicalDeviceZeroInitializeDeviceMemoryFeaturesEXT*>(s)->zeroInitializeDeviceMemory =
		    VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR: {
		// Workgroup Blocks are laid out by their decorations and share byte 0
		// (spirv/translate_memory.cpp); workgroup memory is bytes, read and
		// written at any scalar's width and alignment, as buffers are.
		auto* p = reinterpret_cast<VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR*>(s);
		p->workgroupMemoryExplicitLayout = VK_TRUE;
		p->workgroupMemoryExplicitLayoutScalarBlockLayout = VK_TRUE;
		p->workgroupMemoryExplicitLayout8BitAccess = VK_TRUE;
		p->workgroupMemoryExplicitLayout16BitAccess = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR:
		// Lanes that diverge meet again at the construct's merge block: the
		// scheduler runs the lowest block any lane waits at, and a merge
		// block comes after every block of its construct
		// (spirv::Translator::StructuredOrder).
		reinterpret_cast<VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR*>(s)
		    ->shaderSubgroupUniformControlFlow = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT: {
		// A set in a descriptor buffer is read as a descriptor set's memory is
		// (vk/descriptor_buffer.cpp). Image layouts are never read, and push
		// descriptors stay in the command buffer (bufferlessPushDescriptors).
		// Capture and replay is not offered: descriptors hold host pointers.
		auto* p = reinterpret_cast<VkPhysicalDeviceDescriptorBufferFeaturesEXT*>(s);
		p->descriptorBuffer = VK_TRUE;
		p->descriptorBufferCaptureReplay = VK_FALSE;
		p->descriptorBufferImageLayoutIgnored = VK_TRUE;
		p->descriptorBufferPushDescriptors = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MUTABLE_DESCRIPTOR_TYPE_FEATURES_EXT:
		// A mutable descriptor keeps the type it was written as
		// (vk/descriptor_set.h, DescriptorType).
		reinterpret_cast<VkPhysicalDeviceMutableDescriptorTypeFeaturesEXT*>(s)->mutableDescriptorType = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_YCBCR_2_PLANE_444_FORMATS_FEATURES_EXT:
		// The four 2-plane 444 formats convert like the others
		// (texture/ycbcr.cpp, CanConvertYcbcr).
		reinterpret_cast<VkPhysicalDeviceYcbcr2Plane444FormatsFeaturesEXT*>(s)->ycbcr2plane444Formats = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_VIEW_MIN_LOD_FEATURES_EXT:
		// Level selection, fetches and gathers honour the view's minLod
		// (texture::SampledImage::min_level).
		reinterpret_cast<VkPhysicalDeviceImageViewMinLodFeaturesEXT*>(s)->minLod = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT:
		// Implicit multisampled images per subpass (vk/cmd_render_pass.cpp).
		reinterpret_cast<VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT*>(s)
		    ->multisampledRenderToSingleSampled = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_DYNAMIC_STATE_FEATURES_EXT:
		// The loop's aspects set at draw time (vk/draw.cpp).
		reinterpret_cast<VkPhysicalDeviceAttachmentFeedbackLoopDynamicStateFeaturesEXT*>(s)
		    ->attachmentFeedbackLoopDynamicState = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_REPLICATED_COMPOSITES_FEATURES_EXT:
		// Replicated composites are spelled out when the module is read
		// (spirv::ExpandReplicatedComposites).
		reinterpret_cast<VkPhysicalDeviceShaderReplicatedCompositesFeaturesEXT*>(s)->shaderReplicatedComposites =
		    VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_RELAXED_EXTENDED_INSTRUCTION_FEATURES_KHR:
		// Non-semantic instructions (debug information), forward references
		// or not, are removed when the module is read
		// (spirv::RemoveRelaxedExtendedInstructions).
		reinterpret_cast<VkPhysicalDeviceShaderRelaxedExtendedInstructionFeaturesKHR*>(s)
		    ->shaderRelaxedExtendedInstruction = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_QUAD_CONTROL_FEATURES_KHR:
		// Quad votes as clustered reductions over 4 lanes; fragment quads
		// are always full (helpers included) and derivatives are taken
		// within them (spirv::RewriteQuadControl).
		reinterpret_cast<VkPhysicalDeviceShaderQuadControlFeaturesKHR*>(s)->shaderQuadControl = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_KHR: {
		// Every run of 4 lanes is a quad in compute too: a workgroup's lanes
		// are laid out in 2x2 quads of LocalInvocationId for
		// DerivativeGroupQuadsKHR, in LocalInvocationIndex order for
		// DerivativeGroupLinearKHR (Program::derivative_group,
		// Interpreter::RunLanes); derivatives, implicit LOD and quad
		// operations then work as in fragment shaders.
		auto* f = reinterpret_cast<VkPhysicalDeviceComputeShaderDerivativesFeaturesKHR*>(s);
		f->computeDerivativeGroupQuads = VK_TRUE;
		f->computeDerivativeGroupLinear = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_MAXIMAL_RECONVERGENCE_FEATURES_KHR:
		// Lanes that diverge run apart only until control flow joins again:
		// the scheduler runs the lowest block any lane waits at, so lanes
		// waiting at the same block run it together (the mode's execution
		// modes are dropped when the module is read,
		// spirv::RemoveMaximalReconvergence).
		reinterpret_cast<VkPhysicalDeviceShaderMaximalReconvergenceFeaturesKHR*>(s)->shaderMaximalReconvergence =
		    VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT_CONTROLS_2_FEATURES_KHR:
		// Floating-point operations follow IEEE 754 whatever a module's fast
		// math flags permit (never contracted, reassociated or assuming no
		// NaN); the flags are dropped when the module is read
		// (spirv::RemoveFloatControls2).
		reinterpret_cast<VkPhysicalDeviceShaderFloatControls2FeaturesKHR*>(s)->shaderFloatControls2 = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_FEATURES_EXT:
		// Copies between host memory and images, and between images, by the
		// transfer commands' code run on the calling thread (vk/cmd_copy.cpp).
		reinterpret_cast<VkPhysicalDeviceHostImageCopyFeaturesEXT*>(s)->hostImageCopy = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR:
		// Barriers inside dynamic rendering order nothing more than the
		// queue's one-command-after-another already does; a draw that reads
		// input attachments runs after the draws before it have written
		// theirs (vk/draw.cpp, may_queue); input attachments are read through
		// their descriptors and outputs reach the attachments their
		// Locations are mapped to (vkCmdSetRenderingAttachmentLocationsKHR).
		reinterpret_cast<VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR*>(s)->dynamicRenderingLocalRead = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR:
		// vkCmdBindIndexBuffer2KHR's ranges (vk/cmd_draw_state.cpp), the
		// 64-bit pipeline and buffer flags, the A1B5G5R5 and A8 formats,
		// subresource layouts without an image (vk/image.cpp), and a lost
		// device reported by every command that may report it.
		reinterpret_cast<VkPhysicalDeviceMaintenance5FeaturesKHR*>(s)->maintenance5 = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR:
		// The *2 binding commands (vk/cmd_state.cpp), VkBindMemoryStatus, and
		// a null index buffer read as zeros with nullDescriptor (vk/draw.cpp).
		reinterpret_cast<VkPhysicalDeviceMaintenance6FeaturesKHR*>(s)->maintenance6 = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT:
		// Shaders made alone (vk/shader_object.h) and linked, with every
		// state dynamic, into the graphics pipeline form draws take.
		reinterpret_cast<VkPhysicalDeviceShaderObjectFeaturesEXT*>(s)->shaderObject = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_FEATURES_KHR:
		// Its properties (physical_device_properties.cpp); render pass
		// contents flags are not read, so inline commands and secondaries mix
		// (vk/cmd_render_pass.cpp, as for VK_EXT_nested_command_buffer);
		// 32-bit query results are the low bits of the 64-bit ones
		// (vk/query_pool.cpp, QueryPool::WriteResults).
		reinterpret_cast<VkPhysicalDeviceMaintenance7FeaturesKHR*>(s)->maintenance7 = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_8_FEATURES_KHR:
		// Image copies move an aspect's bytes whatever the other side's
		// aspect (vk/cmd_copy.cpp), so depth/stencil <-> matching color
		// copies work; blits pair a 3D slice with any layer (cmd_blit.cpp);
		// the Offset image operand is a per-lane offset
		// (spirv/translate_image.cpp), let through validation when this is
		// enabled (Device::Init); OpSRem/OpSMod follow SPIR-V for negative
		// operands (shader/alu_scalar.inc); merges lock the destination
		// cache (vk/pipeline_cache.cpp); barriers record nothing, whatever
		// their access flags 3 or ownership transfer stages (vk/cmd_sync.cpp).
		reinterpret_cast<VkPhysicalDeviceMaintenance8FeaturesKHR*>(s)->maintenance8 = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT: {
		// Each sequence's tokens run on the queue thread as the commands they
		// stand for (vk/cmd_generated_commands.cpp). Push constants are one
		// block whatever the layout, so a layout given only as a
		// VkPipelineLayoutCreateInfo serves as well as a VkPipelineLayout.
		auto* f = reinterpret_cast<VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT*>(s);
		f->deviceGeneratedCommands = VK_TRUE;
		f->dynamicGeneratedPipelineLayout = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_SLICED_VIEW_OF_3D_FEATURES_EXT:
		// A sliced view's level starts at its first slice and is as deep as
		// its slice count, for reads, writes, atomics and size queries alike
		// (texture/sample.cpp, PrepareImage).
		reinterpret_cast<VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT*>(s)->imageSlicedViewOf3D = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LEGACY_VERTEX_ATTRIBUTES_FEATURES_EXT:
		// Attributes are copied out byte by byte at any offset and stride,
		// converted as their format says, and the shader's input takes the
		// 32-bit words whatever its numeric type: the implementation-
		// dependent values the extension allows are those bits
		// (vk/draw.cpp, FetchAttribute).
		reinterpret_cast<VkPhysicalDeviceLegacyVertexAttributesFeaturesEXT*>(s)->legacyVertexAttributes = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NESTED_COMMAND_BUFFER_FEATURES_EXT: {
		// vkCmdExecuteCommands in a secondary replays the nested buffers'
		// commands in the one execution context, render pass state included;
		// a buffer's recorded commands are never changed by running them, so
		// simultaneous use is as for primaries (vk/command_buffer.cpp).
		auto* p = reinterpret_cast<VkPhysicalDeviceNestedCommandBufferFeaturesEXT*>(s);
		p->nestedCommandBuffer = VK_TRUE;
		p->nestedCommandBufferRendering = VK_TRUE;
		p->nestedCommandBufferSimultaneousUse = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_UNUSED_ATTACHMENTS_FEATURES_EXT:
		// Draws write the attachments the render pass instance binds, from
		// the outputs the pipeline has; neither side's unused attachments
		// matter (vk/cmd_render_pass.cpp).
		reinterpret_cast<VkPhysicalDeviceDynamicRenderingUnusedAttachmentsFeaturesEXT*>(s)
		    ->dynamicRenderingUnusedAttachments = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_EXPECT_ASSUME_FEATURES_KHR:
		// OpExpectKHR and OpAssumeTrueKHR (spirv/translate_ops.cpp).
		reinterpret_cast<VkPhysicalDeviceShaderExpectAssumeFeaturesKHR*>(s)->shaderExpectAssume = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_ROTATE_FEATURES_KHR: {
		// OpGroupNonUniformRotateKHR, with and without ClusterSize: a shuffle
		// from the rotated invocation (spirv/translate_subgroup.cpp).
		auto* p = reinterpret_cast<VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR*>(s);
		p->shaderSubgroupRotate = VK_TRUE;
		p->shaderSubgroupRotateClustered = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT:
		reinterpret_cast<VkPhysicalDeviceIndexTypeUint8FeaturesEXT*>(s)->indexTypeUint8 = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_4444_FORMATS_FEATURES_EXT: {
		// Both formats render, blend, sample and blit (vk/format_support.cpp).
		auto* p = reinterpret_cast<VkPhysicalDevice4444FormatsFeaturesEXT*>(s);
		p->formatA4R4G4B4 = VK_TRUE;
		p->formatA4B4G4R4 = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT: {
		auto* p = reinterpret_cast<VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT*>(s);
		p->vertexAttributeInstanceRateDivisor = VK_TRUE;
		p->vertexAttributeInstanceRateZeroDivisor = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT:
		// Last-vertex mode: the raster takes flat values from vertex 2 of each
		// assembled triangle (1 of a line); transform feedback writes each
		// primitive with its provoking vertex first or last, as the mode says
		// (vk/draw.cpp, CaptureTransformFeedback).
		reinterpret_cast<VkPhysicalDeviceProvokingVertexFeaturesEXT*>(s)->provokingVertexLast = VK_TRUE;
		reinterpret_cast<VkPhysicalDeviceProvokingVertexFeaturesEXT*>(s)->transformFeedbackPreservesProvokingVertex =
		    VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT: {
		// Rectangular, Bresenham and smooth lines (raster/primitive.cpp,
		// SetupLine); a stipple drops the unit-length rectangles, or for
		// Bresenham lines the fragments, whose pattern bit is 0 (the
		// rasterizer, before the tests and the fragment stage).
		auto* p = reinterpret_cast<VkPhysicalDeviceLineRasterizationFeaturesEXT*>(s);
		p->rectangularLines = VK_TRUE;
		p->bresenhamLines = VK_TRUE;
		p->smoothLines = VK_TRUE;
		p->stippledRectangularLines = VK_TRUE;
		p->stippledBresenhamLines = VK_TRUE;
		p->stippledSmoothLines = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT: {
		// The border replaces the texel before the view's swizzle, which then
		// applies as to any texel (texture/sample.cpp, BorderTexel); the view
		// is known when sampling, so no mapping need come with the sampler.
		auto* p = reinterpret_cast<VkPhysicalDeviceBorderColorSwizzleFeaturesEXT*>(s);
		p->borderColorSwizzle = VK_TRUE;
		p->borderColorSwizzleFromImage = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT:
		// Bindings and attributes from vkCmdSetVertexInputEXT, mapped to the
		// pipeline's input words at each draw (vk/draw.cpp).
		reinterpret_cast<VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT*>(s)->vertexInputDynamicState = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT: {
		// The predicate is latched when the begin executes; secondaries share
		// their primary's context, so they inherit it (vk/cmd_conditional_rendering.cpp).
		auto* p = reinterpret_cast<VkPhysicalDeviceConditionalRenderingFeaturesEXT*>(s);
		p->conditionalRendering = VK_TRUE;
		p->inheritedConditionalRendering = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT: {
		// Draws count the primitives they assemble, with rasterizer discard
		// too (vk/draw.cpp), per vertex stream.
		auto* p = reinterpret_cast<VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT*>(s);
		p->primitivesGeneratedQuery = VK_TRUE;
		p->primitivesGeneratedQueryWithRasterizerDiscard = VK_TRUE;
		// A query of stream k counts what the geometry stage emits to k.
		p->primitivesGeneratedQueryWithNonZeroStreams = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT: {
		// The last pre-rasterization stage's Xfb outputs, captured by draws in
		// primitive order (vk/draw.cpp, CaptureTransformFeedback), each vertex
		// stream of the geometry stage into its own buffers.
		auto* p = reinterpret_cast<VkPhysicalDeviceTransformFeedbackFeaturesEXT*>(s);
		p->transformFeedback = VK_TRUE;
		p->geometryStreams = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT:
		// Each draw of the list runs as its own vkCmdDraw* (vk/draw.cpp, MultiDrawCommand).
		reinterpret_cast<VkPhysicalDeviceMultiDrawFeaturesEXT*>(s)->multiDraw = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR: {
		// OpReadClockKHR reads the host's monotonic clock in nanoseconds,
		// one clock for every thread, so device scope holds too.
		auto* p = reinterpret_cast<VkPhysicalDeviceShaderClockFeaturesKHR*>(s);
		p->shaderSubgroupClock = VK_TRUE;
		p->shaderDeviceClock = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT: {
		// A 2D view of a 3D image sees one depth slice of one level as its
		// layer (vk/image.h ImageView::LayerOffset; texture/sample.cpp takes
		// a volume's slices as layers for views that are not 3D), for
		// storage images and sampling alike.
		auto* p = reinterpret_cast<VkPhysicalDeviceImage2DViewOf3DFeaturesEXT*>(s);
		p->image2DViewOf3D = VK_TRUE;
		p->sampler2DViewOf3D = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT: {
		// The states a draw can take from the command buffer (draw.cpp
		// ComposeState), each a field of the rasterizer's state. Not
		// offered: the states of extensions Tessera lacks (conservative
		// rasterization, sample locations, advanced blending, the NV ones).
		auto* p = reinterpret_cast<VkPhysicalDeviceExtendedDynamicState3FeaturesEXT*>(s);
		p->extendedDynamicState3DepthClampEnable = VK_TRUE;
		p->extendedDynamicState3PolygonMode = VK_TRUE;
		p->extendedDynamicState3SampleMask = VK_TRUE;
		p->extendedDynamicState3AlphaToCoverageEnable = VK_TRUE;
		p->extendedDynamicState3AlphaToOneEnable = VK_TRUE;
		p->extendedDynamicState3LogicOpEnable = VK_TRUE;
		p->extendedDynamicState3ColorBlendEnable = VK_TRUE;
		p->extendedDynamicState3ColorBlendEquation = VK_TRUE;
		p->extendedDynamicState3ColorWriteMask = VK_TRUE;
		p->extendedDynamicState3DepthClipEnable = VK_TRUE;
		p->extendedDynamicState3ProvokingVertexMode = VK_TRUE;
		p->extendedDynamicState3LineRasterizationMode = VK_TRUE;
		p->extendedDynamicState3LineStippleEnable = VK_TRUE;
		p->extendedDynamicState3DepthClipNegativeOneToOne = VK_TRUE;
		p->extendedDynamicState3TessellationDomainOrigin = VK_TRUE;  // vk/draw.cpp, TessellationRun
		p->extendedDynamicState3RasterizationSamples = VK_TRUE;      // vk/draw.cpp, ComposeState
		p->extendedDynamicState3RasterizationStream = VK_TRUE;       // vk/draw.cpp, DrawGeometryStage
		p->extendedDynamicState3ConservativeRasterizationMode = VK_TRUE;
		p->extendedDynamicState3ExtraPrimitiveOverestimationSize = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT:
		// Libraries translate their stages and keep their state subsets;
		// linking merges them (vk/pipeline_library.h).
		reinterpret_cast<VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT*>(s)->graphicsPipelineLibrary = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT:
		// Every access is bounded as robustness2 says whatever is enabled
		// (see ROBUSTNESS_2 below), so each behavior a pipeline may ask
		// for is met; VkPipelineRobustnessCreateInfoEXT changes nothing.
		reinterpret_cast<VkPhysicalDevicePipelineRobustnessFeaturesEXT*>(s)->pipelineRobustness = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_PROTECTED_ACCESS_FEATURES_EXT:
		// VK_PIPELINE_CREATE_NO_PROTECTED_ACCESS_BIT_EXT and
		// PROTECTED_ACCESS_ONLY_BIT_EXT only restrict which command buffers
		// may bind a pipeline. Tessera has no protected memory
		// (protectedMemory is false), so every command buffer is
		// unprotected: a pipeline of either kind is made and runs as
		// without the flag (the second may not be bound, by the spec's
		// valid usage).
		reinterpret_cast<VkPhysicalDevicePipelineProtectedAccessFeaturesEXT*>(s)->pipelineProtectedAccess = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_YCBCR_IMAGE_ARRAYS_FEATURES_EXT:
		// Images of formats that need a Y'CbCr conversion may have array
		// layers; views of any of them decode their own layers.
		reinterpret_cast<VkPhysicalDeviceYcbcrImageArraysFeaturesEXT*>(s)->ycbcrImageArrays = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_ZERO_ONE_FEATURES_EXT:
		// Vulkan "Depth Clamping and Range Adjustment": z_f is clamped to
		// [0, 1] after the depth clamp, except in a floating-point
		// attachment with VK_EXT_depth_range_unrestricted enabled. That is
		// what the depth test always does (raster/fragment_ops.cpp, the
		// DepthD* conversions), whether or not the feature is enabled.
		reinterpret_cast<VkPhysicalDeviceDepthClampZeroOneFeaturesEXT*>(s)->depthClampZeroOne = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GLOBAL_PRIORITY_QUERY_FEATURES_KHR:
		// The queue family lists the four priorities (physical_device.cpp);
		// a queue's priority sets its thread's nice value (vk/queue.cpp).
		reinterpret_cast<VkPhysicalDeviceGlobalPriorityQueryFeaturesKHR*>(s)->globalPriorityQuery = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT:
		// VkMemoryPriorityAllocateInfoEXT is a hint (Vulkan "Device Memory"):
		// device memory is host memory, which the kernel pages by its own use.
		reinterpret_cast<VkPhysicalDeviceMemoryPriorityFeaturesEXT*>(s)->memoryPriority = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT:
		// Device-local memory is pageable host memory: the kernel already
		// moves it out when other programs need the space.
		reinterpret_cast<VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT*>(s)->pageableDeviceLocalMemory = VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT:
		// Attachments are rows of texels in memory that sampling reads as
		// they are, and a pipeline made for a feedback loop is never queued
		// behind other draws (vk/graphics_pipeline.cpp), so after a
		// feedback-loop barrier a fragment samples what earlier draws wrote.
		reinterpret_cast<VkPhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT*>(s)->attachmentFeedbackLoopLayout =
		    VK_TRUE;
		break;
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT: {
		// A pipeline with the rasterization order flags shades one
		// primitive's quads at a time and writes them before the next
		// primitive's shader reads its input attachments
		// (raster/rasterizer.cpp RasterizeTile); depth and stencil inputs
		// already see late tests' writes the same way.
		auto* p = reinterpret_cast<VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT*>(s);
		p->rasterizationOrderColorAttachmentAccess = VK_TRUE;
		p->rasterizationOrderDepthAttachmentAccess = VK_TRUE;
		p->rasterizationOrderStencilAttachmentAccess = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT: {
		// Float load, store and exchange move bits like the integer atomics;
		// OpAtomicFAddEXT is a compare-exchange loop around an IEEE add
		// (shader/interpreter.cpp AtomicApply, shader/atomic64.cpp), in
		// storage buffers (device addresses too), workgroup memory, and
		// R32_SFLOAT storage images and texel buffers (shader/image_ops.cpp).
		auto* p = reinterpret_cast<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT*>(s);
		p->shaderBufferFloat32Atomics = VK_TRUE;
		p->shaderBufferFloat32AtomicAdd = VK_TRUE;
		p->shaderBufferFloat64Atomics = VK_TRUE;
		p->shaderBufferFloat64AtomicAdd = VK_TRUE;
		p->shaderSharedFloat32Atomics = VK_TRUE;
		p->shaderSharedFloat32AtomicAdd = VK_TRUE;
		p->shaderSharedFloat64Atomics = VK_TRUE;
		p->shaderSharedFloat64AtomicAdd = VK_TRUE;
		p->shaderImageFloat32Atomics = VK_TRUE;
		p->shaderImageFloat32AtomicAdd = VK_TRUE;
		// Partially resident images' tiles take image atomics as any
		// storage image's (StorageTexel reads tiled layouts).
		p->sparseImageFloat32Atomics = VK_TRUE;
		p->sparseImageFloat32AtomicAdd = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT: {
		// OpAtomicFMinEXT / FMaxEXT: compare-exchange loops around C's fmin and
		// fmax, which give the SPIR-V extension's NaN and signed-zero rules.
		// 32- and 64-bit on buffers and workgroup memory, 32-bit on
		// R32_SFLOAT images; no 16-bit float atomics.
		auto* p = reinterpret_cast<VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT*>(s);
		p->shaderBufferFloat32AtomicMinMax = VK_TRUE;
		p->shaderBufferFloat64AtomicMinMax = VK_TRUE;
		p->shaderSharedFloat32AtomicMinMax = VK_TRUE;
		p->shaderSharedFloat64AtomicMinMax = VK_TRUE;
		p->shaderImageFloat32AtomicMinMax = VK_TRUE;
		p->sparseImageFloat32AtomicMinMax = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT: {
		// Every bounds check is exact to the byte (robustness2's alignments
		// are 1): buffer loads outside a descriptor's range read zero and
		// stores and atomics are dropped (shader/interpreter.cpp, LoadLanes),
		// vertex fetch outside the bound range reads zero with (0,0,1) for
		// missing G, B, A (vk/draw.cpp, FetchAttribute), and so do image and
		// texel buffer accesses outside the view (shader/image_ops.cpp). A
		// null descriptor is all zeros (no data, no view), which every path
		// already reads as zero and never writes through.
		auto* p = reinterpret_cast<VkPhysicalDeviceRobustness2FeaturesEXT*>(s);
		p->robustBufferAccess2 = VK_TRUE;
		p->robustImageAccess2 = VK_TRUE;
		p->nullDescriptor = VK_TRUE;
		break;
	}
	case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT: {
		// The border is fitted to the view's format when the view is bound,
		// so a sampler needs no format (texture/sample.cpp, BorderTexel).
		auto* c = reinterpret_cast<VkPhysicalDeviceCustomBorderColorFeaturesEXT*>(s);
		c->customBorderColors = VK_TRUE;
		c->customBorderColorWithoutFormat = VK_TRUE;
		break;
	}
	default: break;  // every bit of the other structures is off in the aggregates too
	}
}

void FillCoreFeatures(VkPhysicalDeviceFeatures* f) { *f = SupportedFeatures().core; }

// True if every bit set in requested is set in supported.
bool Covers(const void* supported, const void* requested, size_t offset, size_t size) {
	auto* s = static_cast<const VkBool32*>(supported);
	auto* r = static_cast<const VkBool32*>(requested);
	for (size_t i = offset / sizeof(VkBool32); i < size / sizeof(VkBool32); ++i)
		if (r[i] && !s[i]) return false;
	return true;
}

}  // namespace

void PhysicalDevice::GetFeatures(VkPhysicalDeviceFeatures2* features) const {
	FillCoreFeatures(&features->features);
	for (auto* s = static_cast<VkBaseOutStructure*>(features->pNext); s; s = s->pNext) FillFeatures(s);
}

bool PhysicalDevice::SupportsRequestedFeatures(const VkDeviceCreateInfo& info) const {
	VkPhysicalDeviceFeatures core;
	FillCoreFeatures(&core);
	if (info.pEnabledFeatures && !Covers(&core, info.pEnabledFeatures, 0, sizeof core)) return false;
	for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext) {
		if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
			auto* f2 = reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s);
			if (!Covers(&core, &f2->features, 0, sizeof core)) return false;
			continue;
		}
		const FeatureStruct* known = FindFeatureStruct(s->sType);
		if (!known) continue;
		alignas(8) unsigned char supported[kLargestFeatureStruct];
		std::memcpy(supported, s, known->size);
		FillFeatures(reinterpret_cast<VkBaseOutStructure*>(supported));
		if (!Covers(supported, s, kBoolsOffset, known->size)) return false;
	}
	return true;
}

}  // namespace tessera::vk
