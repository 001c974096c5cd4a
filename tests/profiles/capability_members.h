// Member lists of the structures tests/profiles/device_capabilities.cpp
// writes, from the Vulkan registry (vk.xml of Vulkan-Headers 1.4.359):
// TESSERA_FEATURES_<struct>(X) names each VkBool32 member; TESSERA_
// PROPERTIES_<struct>(X) each member of a type the profiles compare
// (Bool, Number, their fixed-size arrays, and four flag types whose bits
// are written by name). Enumerations, strings and UUIDs are left out: no
// profile requires them.
#pragma once

#include <cstdint>

namespace tessera::test {

struct BitName {
	uint32_t bit;
	const char* name;
};

#define TESSERA_FEATURES_Features(X)           \
	X(robustBufferAccess)                      \
	X(fullDrawIndexUint32)                     \
	X(imageCubeArray)                          \
	X(independentBlend)                        \
	X(geometryShader)                          \
	X(tessellationShader)                      \
	X(sampleRateShading)                       \
	X(dualSrcBlend)                            \
	X(logicOp)                                 \
	X(multiDrawIndirect)                       \
	X(drawIndirectFirstInstance)               \
	X(depthClamp)                              \
	X(depthBiasClamp)                          \
	X(fillModeNonSolid)                        \
	X(depthBounds)                             \
	X(wideLines)                               \
	X(largePoints)                             \
	X(alphaToOne)                              \
	X(multiViewport)                           \
	X(samplerAnisotropy)                       \
	X(textureCompressionETC2)                  \
	X(textureCompressionASTC_LDR)              \
	X(textureCompressionBC)                    \
	X(occlusionQueryPrecise)                   \
	X(pipelineStatisticsQuery)                 \
	X(vertexPipelineStoresAndAtomics)          \
	X(fragmentStoresAndAtomics)                \
	X(shaderTessellationAndGeometryPointSize)  \
	X(shaderImageGatherExtended)               \
	X(shaderStorageImageExtendedFormats)       \
	X(shaderStorageImageMultisample)           \
	X(shaderStorageImageReadWithoutFormat)     \
	X(shaderStorageImageWriteWithoutFormat)    \
	X(shaderUniformBufferArrayDynamicIndexing) \
	X(shaderSampledImageArrayDynamicIndexing)  \
	X(shaderStorageBufferArrayDynamicIndexing) \
	X(shaderStorageImageArrayDynamicIndexing)  \
	X(shaderClipDistance)                      \
	X(shaderCullDistance)                      \
	X(shaderFloat64)                           \
	X(shaderInt64)                             \
	X(shaderInt16)                             \
	X(shaderResourceResidency)                 \
	X(shaderResourceMinLod)                    \
	X(sparseBinding)                           \
	X(sparseResidencyBuffer)                   \
	X(sparseResidencyImage2D)                  \
	X(sparseResidencyImage3D)                  \
	X(sparseResidency2Samples)                 \
	X(sparseResidency4Samples)                 \
	X(sparseResidency8Samples)                 \
	X(sparseResidency16Samples)                \
	X(sparseResidencyAliased)                  \
	X(variableMultisampleRate)                 \
	X(inheritedQueries)

#define TESSERA_FEATURES_Vulkan11Features(X) \
	X(storageBuffer16BitAccess)              \
	X(uniformAndStorageBuffer16BitAccess)    \
	X(storagePushConstant16)                 \
	X(storageInputOutput16)                  \
	X(multiview)                             \
	X(multiviewGeometryShader)               \
	X(multiviewTessellationShader)           \
	X(variablePointersStorageBuffer)         \
	X(variablePointers)                      \
	X(protectedMemory)                       \
	X(samplerYcbcrConversion)                \
	X(shaderDrawParameters)

#define TESSERA_FEATURES_Vulkan12Features(X)              \
	X(samplerMirrorClampToEdge)                           \
	X(drawIndirectCount)                                  \
	X(storageBuffer8BitAccess)                            \
	X(uniformAndStorageBuffer8BitAccess)                  \
	X(storagePushConstant8)                               \
	X(shaderBufferInt64Atomics)                           \
	X(shaderSharedInt64Atomics)                           \
	X(shaderFloat16)                                      \
	X(shaderInt8)                                         \
	X(descriptorIndexing)                                 \
	X(shaderInputAttachmentArrayDynamicIndexing)          \
	X(shaderUniformTexelBufferArrayDynamicIndexing)       \
	X(shaderStorageTexelBufferArrayDynamicIndexing)       \
	X(shaderUniformBufferArrayNonUniformIndexing)         \
	X(shaderSampledImageArrayNonUniformIndexing)          \
	X(shaderStorageBufferArrayNonUniformIndexing)         \
	X(shaderStorageImageArrayNonUniformIndexing)          \
	X(shaderInputAttachmentArrayNonUniformIndexing)       \
	X(shaderUniformTexelBufferArrayNonUniformIndexing)    \
	X(shaderStorageTexelBufferArrayNonUniformIndexing)    \
	X(descriptorBindingUniformBufferUpdateAfterBind)      \
	X(descriptorBindingSampledImageUpdateAfterBind)       \
	X(descriptorBindingStorageImageUpdateAfterBind)       \
	X(descriptorBindingStorageBufferUpdateAfterBind)      \
	X(descriptorBindingUniformTexelBufferUpdateAfterBind) \
	X(descriptorBindingStorageTexelBufferUpdateAfterBind) \
	X(descriptorBindingUpdateUnusedWhilePending)          \
	X(descriptorBindingPartiallyBound)                    \
	X(descriptorBindingVariableDescriptorCount)           \
	X(runtimeDescriptorArray)                             \
	X(samplerFilterMinmax)                                \
	X(scalarBlockLayout)                                  \
	X(imagelessFramebuffer)                               \
	X(uniformBufferStandardLayout)                        \
	X(shaderSubgroupExtendedTypes)                        \
	X(separateDepthStencilLayouts)                        \
	X(hostQueryReset)                                     \
	X(timelineSemaphore)                                  \
	X(bufferDeviceAddress)                                \
	X(bufferDeviceAddressCaptureReplay)                   \
	X(bufferDeviceAddressMultiDevice)                     \
	X(vulkanMemoryModel)                                  \
	X(vulkanMemoryModelDeviceScope)                       \
	X(vulkanMemoryModelAvailabilityVisibilityChains)      \
	X(shaderOutputViewportIndex)                          \
	X(shaderOutputLayer)                                  \
	X(subgroupBroadcastDynamicId)

#define TESSERA_FEATURES_Vulkan13Features(X)              \
	X(robustImageAccess)                                  \
	X(inlineUniformBlock)                                 \
	X(descriptorBindingInlineUniformBlockUpdateAfterBind) \
	X(pipelineCreationCacheControl)                       \
	X(privateData)                                        \
	X(shaderDemoteToHelperInvocation)                     \
	X(shaderTerminateInvocation)                          \
	X(subgroupSizeControl)                                \
	X(computeFullSubgroups)                               \
	X(synchronization2)                                   \
	X(textureCompressionASTC_HDR)                         \
	X(shaderZeroInitializeWorkgroupMemory)                \
	X(dynamicRendering)                                   \
	X(shaderIntegerDotProduct)                            \
	X(maintenance4)

#define TESSERA_FEATURES_GlobalPriorityQueryFeaturesKHR(X) X(globalPriorityQuery)

#define TESSERA_FEATURES_ShaderQuadControlFeaturesKHR(X) X(shaderQuadControl)

#define TESSERA_FEATURES_ShaderMaximalReconvergenceFeaturesKHR(X) X(shaderMaximalReconvergence)

#define TESSERA_FEATURES_ShaderSubgroupUniformControlFlowFeaturesKHR(X) X(shaderSubgroupUniformControlFlow)

#define TESSERA_FEATURES_ShaderSubgroupRotateFeaturesKHR(X) \
	X(shaderSubgroupRotate)                                 \
	X(shaderSubgroupRotateClustered)

#define TESSERA_FEATURES_ShaderFloatControls2FeaturesKHR(X) X(shaderFloatControls2)

#define TESSERA_FEATURES_ShaderExpectAssumeFeaturesKHR(X) X(shaderExpectAssume)

#define TESSERA_FEATURES_VertexAttributeDivisorFeaturesKHR(X) \
	X(vertexAttributeInstanceRateDivisor)                     \
	X(vertexAttributeInstanceRateZeroDivisor)

#define TESSERA_FEATURES_IndexTypeUint8FeaturesKHR(X) X(indexTypeUint8)

#define TESSERA_FEATURES_DynamicRenderingLocalReadFeaturesKHR(X) X(dynamicRenderingLocalRead)

#define TESSERA_FEATURES_Maintenance5FeaturesKHR(X) X(maintenance5)

#define TESSERA_FEATURES_LineRasterizationFeaturesKHR(X) \
	X(rectangularLines)                                  \
	X(bresenhamLines)                                    \
	X(smoothLines)                                       \
	X(stippledRectangularLines)                          \
	X(stippledBresenhamLines)                            \
	X(stippledSmoothLines)

#define TESSERA_PROPERTIES_Limits(X)                               \
	X(Number, maxImageDimension1D)                                 \
	X(Number, maxImageDimension2D)                                 \
	X(Number, maxImageDimension3D)                                 \
	X(Number, maxImageDimensionCube)                               \
	X(Number, maxImageArrayLayers)                                 \
	X(Number, maxTexelBufferElements)                              \
	X(Number, maxUniformBufferRange)                               \
	X(Number, maxStorageBufferRange)                               \
	X(Number, maxPushConstantsSize)                                \
	X(Number, maxMemoryAllocationCount)                            \
	X(Number, maxSamplerAllocationCount)                           \
	X(Number, bufferImageGranularity)                              \
	X(Number, sparseAddressSpaceSize)                              \
	X(Number, maxBoundDescriptorSets)                              \
	X(Number, maxPerStageDescriptorSamplers)                       \
	X(Number, maxPerStageDescriptorUniformBuffers)                 \
	X(Number, maxPerStageDescriptorStorageBuffers)                 \
	X(Number, maxPerStageDescriptorSampledImages)                  \
	X(Number, maxPerStageDescriptorStorageImages)                  \
	X(Number, maxPerStageDescriptorInputAttachments)               \
	X(Number, maxPerStageResources)                                \
	X(Number, maxDescriptorSetSamplers)                            \
	X(Number, maxDescriptorSetUniformBuffers)                      \
	X(Number, maxDescriptorSetUniformBuffersDynamic)               \
	X(Number, maxDescriptorSetStorageBuffers)                      \
	X(Number, maxDescriptorSetStorageBuffersDynamic)               \
	X(Number, maxDescriptorSetSampledImages)                       \
	X(Number, maxDescriptorSetStorageImages)                       \
	X(Number, maxDescriptorSetInputAttachments)                    \
	X(Number, maxVertexInputAttributes)                            \
	X(Number, maxVertexInputBindings)                              \
	X(Number, maxVertexInputAttributeOffset)                       \
	X(Number, maxVertexInputBindingStride)                         \
	X(Number, maxVertexOutputComponents)                           \
	X(Number, maxTessellationGenerationLevel)                      \
	X(Number, maxTessellationPatchSize)                            \
	X(Number, maxTessellationControlPerVertexInputComponents)      \
	X(Number, maxTessellationControlPerVertexOutputComponents)     \
	X(Number, maxTessellationControlPerPatchOutputComponents)      \
	X(Number, maxTessellationControlTotalOutputComponents)         \
	X(Number, maxTessellationEvaluationInputComponents)            \
	X(Number, maxTessellationEvaluationOutputComponents)           \
	X(Number, maxGeometryShaderInvocations)                        \
	X(Number, maxGeometryInputComponents)                          \
	X(Number, maxGeometryOutputComponents)                         \
	X(Number, maxGeometryOutputVertices)                           \
	X(Number, maxGeometryTotalOutputComponents)                    \
	X(Number, maxFragmentInputComponents)                          \
	X(Number, maxFragmentOutputAttachments)                        \
	X(Number, maxFragmentDualSrcAttachments)                       \
	X(Number, maxFragmentCombinedOutputResources)                  \
	X(Number, maxComputeSharedMemorySize)                          \
	X(ArrayNumber, maxComputeWorkGroupCount)                       \
	X(Number, maxComputeWorkGroupInvocations)                      \
	X(ArrayNumber, maxComputeWorkGroupSize)                        \
	X(Number, subPixelPrecisionBits)                               \
	X(Number, subTexelPrecisionBits)                               \
	X(Number, mipmapPrecisionBits)                                 \
	X(Number, maxDrawIndexedIndexValue)                            \
	X(Number, maxDrawIndirectCount)                                \
	X(Number, maxSamplerLodBias)                                   \
	X(Number, maxSamplerAnisotropy)                                \
	X(Number, maxViewports)                                        \
	X(ArrayNumber, maxViewportDimensions)                          \
	X(ArrayNumber, viewportBoundsRange)                            \
	X(Number, viewportSubPixelBits)                                \
	X(Number, minMemoryMapAlignment)                               \
	X(Number, minTexelBufferOffsetAlignment)                       \
	X(Number, minUniformBufferOffsetAlignment)                     \
	X(Number, minStorageBufferOffsetAlignment)                     \
	X(Number, minTexelOffset)                                      \
	X(Number, maxTexelOffset)                                      \
	X(Number, minTexelGatherOffset)                                \
	X(Number, maxTexelGatherOffset)                                \
	X(Number, minInterpolationOffset)                              \
	X(Number, maxInterpolationOffset)                              \
	X(Number, subPixelInterpolationOffsetBits)                     \
	X(Number, maxFramebufferWidth)                                 \
	X(Number, maxFramebufferHeight)                                \
	X(Number, maxFramebufferLayers)                                \
	X(Flags_SampleCountBits, framebufferColorSampleCounts)         \
	X(Flags_SampleCountBits, framebufferDepthSampleCounts)         \
	X(Flags_SampleCountBits, framebufferStencilSampleCounts)       \
	X(Flags_SampleCountBits, framebufferNoAttachmentsSampleCounts) \
	X(Number, maxColorAttachments)                                 \
	X(Flags_SampleCountBits, sampledImageColorSampleCounts)        \
	X(Flags_SampleCountBits, sampledImageIntegerSampleCounts)      \
	X(Flags_SampleCountBits, sampledImageDepthSampleCounts)        \
	X(Flags_SampleCountBits, sampledImageStencilSampleCounts)      \
	X(Flags_SampleCountBits, storageImageSampleCounts)             \
	X(Number, maxSampleMaskWords)                                  \
	X(Bool, timestampComputeAndGraphics)                           \
	X(Number, timestampPeriod)                                     \
	X(Number, maxClipDistances)                                    \
	X(Number, maxCullDistances)                                    \
	X(Number, maxCombinedClipAndCullDistances)                     \
	X(Number, discreteQueuePriorities)                             \
	X(ArrayNumber, pointSizeRange)                                 \
	X(ArrayNumber, lineWidthRange)                                 \
	X(Number, pointSizeGranularity)                                \
	X(Number, lineWidthGranularity)                                \
	X(Bool, strictLines)                                           \
	X(Bool, standardSampleLocations)                               \
	X(Number, optimalBufferCopyOffsetAlignment)                    \
	X(Number, optimalBufferCopyRowPitchAlignment)                  \
	X(Number, nonCoherentAtomSize)

#define TESSERA_PROPERTIES_Vulkan11Properties(X)              \
	X(Number, deviceNodeMask)                                 \
	X(Bool, deviceLUIDValid)                                  \
	X(Number, subgroupSize)                                   \
	X(Flags_ShaderStageBits, subgroupSupportedStages)         \
	X(Flags_SubgroupFeatureBits, subgroupSupportedOperations) \
	X(Bool, subgroupQuadOperationsInAllStages)                \
	X(Number, maxMultiviewViewCount)                          \
	X(Number, maxMultiviewInstanceIndex)                      \
	X(Bool, protectedNoFault)                                 \
	X(Number, maxPerSetDescriptors)                           \
	X(Number, maxMemoryAllocationSize)

#define TESSERA_PROPERTIES_Vulkan12Properties(X)                    \
	X(Bool, shaderSignedZeroInfNanPreserveFloat16)                  \
	X(Bool, shaderSignedZeroInfNanPreserveFloat32)                  \
	X(Bool, shaderSignedZeroInfNanPreserveFloat64)                  \
	X(Bool, shaderDenormPreserveFloat16)                            \
	X(Bool, shaderDenormPreserveFloat32)                            \
	X(Bool, shaderDenormPreserveFloat64)                            \
	X(Bool, shaderDenormFlushToZeroFloat16)                         \
	X(Bool, shaderDenormFlushToZeroFloat32)                         \
	X(Bool, shaderDenormFlushToZeroFloat64)                         \
	X(Bool, shaderRoundingModeRTEFloat16)                           \
	X(Bool, shaderRoundingModeRTEFloat32)                           \
	X(Bool, shaderRoundingModeRTEFloat64)                           \
	X(Bool, shaderRoundingModeRTZFloat16)                           \
	X(Bool, shaderRoundingModeRTZFloat32)                           \
	X(Bool, shaderRoundingModeRTZFloat64)                           \
	X(Number, maxUpdateAfterBindDescriptorsInAllPools)              \
	X(Bool, shaderUniformBufferArrayNonUniformIndexingNative)       \
	X(Bool, shaderSampledImageArrayNonUniformIndexingNative)        \
	X(Bool, shaderStorageBufferArrayNonUniformIndexingNative)       \
	X(Bool, shaderStorageImageArrayNonUniformIndexingNative)        \
	X(Bool, shaderInputAttachmentArrayNonUniformIndexingNative)     \
	X(Bool, robustBufferAccessUpdateAfterBind)                      \
	X(Bool, quadDivergentImplicitLod)                               \
	X(Number, maxPerStageDescriptorUpdateAfterBindSamplers)         \
	X(Number, maxPerStageDescriptorUpdateAfterBindUniformBuffers)   \
	X(Number, maxPerStageDescriptorUpdateAfterBindStorageBuffers)   \
	X(Number, maxPerStageDescriptorUpdateAfterBindSampledImages)    \
	X(Number, maxPerStageDescriptorUpdateAfterBindStorageImages)    \
	X(Number, maxPerStageDescriptorUpdateAfterBindInputAttachments) \
	X(Number, maxPerStageUpdateAfterBindResources)                  \
	X(Number, maxDescriptorSetUpdateAfterBindSamplers)              \
	X(Number, maxDescriptorSetUpdateAfterBindUniformBuffers)        \
	X(Number, maxDescriptorSetUpdateAfterBindUniformBuffersDynamic) \
	X(Number, maxDescriptorSetUpdateAfterBindStorageBuffers)        \
	X(Number, maxDescriptorSetUpdateAfterBindStorageBuffersDynamic) \
	X(Number, maxDescriptorSetUpdateAfterBindSampledImages)         \
	X(Number, maxDescriptorSetUpdateAfterBindStorageImages)         \
	X(Number, maxDescriptorSetUpdateAfterBindInputAttachments)      \
	X(Flags_ResolveModeBits, supportedDepthResolveModes)            \
	X(Flags_ResolveModeBits, supportedStencilResolveModes)          \
	X(Bool, independentResolveNone)                                 \
	X(Bool, independentResolve)                                     \
	X(Bool, filterMinmaxSingleComponentFormats)                     \
	X(Bool, filterMinmaxImageComponentMapping)                      \
	X(Number, maxTimelineSemaphoreValueDifference)                  \
	X(Flags_SampleCountBits, framebufferIntegerColorSampleCounts)

#define TESSERA_PROPERTIES_Vulkan13Properties(X)                                           \
	X(Number, minSubgroupSize)                                                             \
	X(Number, maxSubgroupSize)                                                             \
	X(Number, maxComputeWorkgroupSubgroups)                                                \
	X(Flags_ShaderStageBits, requiredSubgroupSizeStages)                                   \
	X(Number, maxInlineUniformBlockSize)                                                   \
	X(Number, maxPerStageDescriptorInlineUniformBlocks)                                    \
	X(Number, maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks)                     \
	X(Number, maxDescriptorSetInlineUniformBlocks)                                         \
	X(Number, maxDescriptorSetUpdateAfterBindInlineUniformBlocks)                          \
	X(Number, maxInlineUniformTotalSize)                                                   \
	X(Bool, integerDotProduct8BitUnsignedAccelerated)                                      \
	X(Bool, integerDotProduct8BitSignedAccelerated)                                        \
	X(Bool, integerDotProduct8BitMixedSignednessAccelerated)                               \
	X(Bool, integerDotProduct4x8BitPackedUnsignedAccelerated)                              \
	X(Bool, integerDotProduct4x8BitPackedSignedAccelerated)                                \
	X(Bool, integerDotProduct4x8BitPackedMixedSignednessAccelerated)                       \
	X(Bool, integerDotProduct16BitUnsignedAccelerated)                                     \
	X(Bool, integerDotProduct16BitSignedAccelerated)                                       \
	X(Bool, integerDotProduct16BitMixedSignednessAccelerated)                              \
	X(Bool, integerDotProduct32BitUnsignedAccelerated)                                     \
	X(Bool, integerDotProduct32BitSignedAccelerated)                                       \
	X(Bool, integerDotProduct32BitMixedSignednessAccelerated)                              \
	X(Bool, integerDotProduct64BitUnsignedAccelerated)                                     \
	X(Bool, integerDotProduct64BitSignedAccelerated)                                       \
	X(Bool, integerDotProduct64BitMixedSignednessAccelerated)                              \
	X(Bool, integerDotProductAccumulatingSaturating8BitUnsignedAccelerated)                \
	X(Bool, integerDotProductAccumulatingSaturating8BitSignedAccelerated)                  \
	X(Bool, integerDotProductAccumulatingSaturating8BitMixedSignednessAccelerated)         \
	X(Bool, integerDotProductAccumulatingSaturating4x8BitPackedUnsignedAccelerated)        \
	X(Bool, integerDotProductAccumulatingSaturating4x8BitPackedSignedAccelerated)          \
	X(Bool, integerDotProductAccumulatingSaturating4x8BitPackedMixedSignednessAccelerated) \
	X(Bool, integerDotProductAccumulatingSaturating16BitUnsignedAccelerated)               \
	X(Bool, integerDotProductAccumulatingSaturating16BitSignedAccelerated)                 \
	X(Bool, integerDotProductAccumulatingSaturating16BitMixedSignednessAccelerated)        \
	X(Bool, integerDotProductAccumulatingSaturating32BitUnsignedAccelerated)               \
	X(Bool, integerDotProductAccumulatingSaturating32BitSignedAccelerated)                 \
	X(Bool, integerDotProductAccumulatingSaturating32BitMixedSignednessAccelerated)        \
	X(Bool, integerDotProductAccumulatingSaturating64BitUnsignedAccelerated)               \
	X(Bool, integerDotProductAccumulatingSaturating64BitSignedAccelerated)                 \
	X(Bool, integerDotProductAccumulatingSaturating64BitMixedSignednessAccelerated)        \
	X(Number, storageTexelBufferOffsetAlignmentBytes)                                      \
	X(Bool, storageTexelBufferOffsetSingleTexelAlignment)                                  \
	X(Number, uniformTexelBufferOffsetAlignmentBytes)                                      \
	X(Bool, uniformTexelBufferOffsetSingleTexelAlignment)                                  \
	X(Number, maxBufferSize)

constexpr BitName kShaderStageBits[] = {{0x1u, "VK_SHADER_STAGE_VERTEX_BIT"},
                                        {0x2u, "VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT"},
                                        {0x4u, "VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT"},
                                        {0x8u, "VK_SHADER_STAGE_GEOMETRY_BIT"},
                                        {0x10u, "VK_SHADER_STAGE_FRAGMENT_BIT"},
                                        {0x20u, "VK_SHADER_STAGE_COMPUTE_BIT"},
                                        {0x40u, "VK_SHADER_STAGE_TASK_BIT_EXT"},
                                        {0x80u, "VK_SHADER_STAGE_MESH_BIT_EXT"},
                                        {0x100u, "VK_SHADER_STAGE_RAYGEN_BIT_KHR"},
                                        {0x200u, "VK_SHADER_STAGE_ANY_HIT_BIT_KHR"},
                                        {0x400u, "VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR"},
                                        {0x800u, "VK_SHADER_STAGE_MISS_BIT_KHR"},
                                        {0x1000u, "VK_SHADER_STAGE_INTERSECTION_BIT_KHR"},
                                        {0x2000u, "VK_SHADER_STAGE_CALLABLE_BIT_KHR"},
                                        {0x4000u, "VK_SHADER_STAGE_SUBPASS_SHADING_BIT_HUAWEI"},
                                        {0x8000u, "VK_SHADER_STAGE_RESERVED_15_BIT_NV"},
                                        {0x10000u, "VK_SHADER_STAGE_RESERVED_16_BIT_HUAWEI"},
                                        {0x80000u, "VK_SHADER_STAGE_CLUSTER_CULLING_BIT_HUAWEI"}};

constexpr BitName kSubgroupFeatureBits[] = {{0x1u, "VK_SUBGROUP_FEATURE_BASIC_BIT"},
                                            {0x2u, "VK_SUBGROUP_FEATURE_VOTE_BIT"},
                                            {0x4u, "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT"},
                                            {0x8u, "VK_SUBGROUP_FEATURE_BALLOT_BIT"},
                                            {0x10u, "VK_SUBGROUP_FEATURE_SHUFFLE_BIT"},
                                            {0x20u, "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT"},
                                            {0x40u, "VK_SUBGROUP_FEATURE_CLUSTERED_BIT"},
                                            {0x80u, "VK_SUBGROUP_FEATURE_QUAD_BIT"},
                                            {0x100u, "VK_SUBGROUP_FEATURE_PARTITIONED_BIT_EXT"},
                                            {0x200u, "VK_SUBGROUP_FEATURE_ROTATE_BIT"},
                                            {0x400u, "VK_SUBGROUP_FEATURE_ROTATE_CLUSTERED_BIT"}};

constexpr BitName kSampleCountBits[] = {{0x1u, "VK_SAMPLE_COUNT_1_BIT"},   {0x2u, "VK_SAMPLE_COUNT_2_BIT"},
                                        {0x4u, "VK_SAMPLE_COUNT_4_BIT"},   {0x8u, "VK_SAMPLE_COUNT_8_BIT"},
                                        {0x10u, "VK_SAMPLE_COUNT_16_BIT"}, {0x20u, "VK_SAMPLE_COUNT_32_BIT"},
                                        {0x40u, "VK_SAMPLE_COUNT_64_BIT"}};

constexpr BitName kResolveModeBits[] = {{0x1u, "VK_RESOLVE_MODE_SAMPLE_ZERO_BIT"},
                                        {0x2u, "VK_RESOLVE_MODE_AVERAGE_BIT"},
                                        {0x4u, "VK_RESOLVE_MODE_MIN_BIT"},
                                        {0x8u, "VK_RESOLVE_MODE_MAX_BIT"},
                                        {0x10u, "VK_RESOLVE_MODE_EXTERNAL_FORMAT_DOWNSAMPLE_BIT_ANDROID"},
                                        {0x20u, "VK_RESOLVE_MODE_CUSTOM_BIT_EXT"}};

}  // namespace tessera::test
