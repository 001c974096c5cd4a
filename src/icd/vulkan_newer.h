// Vulkan definitions newer than the system's headers (Debian 12 ships
// 1.3.239), for the extensions Tessera advertises from registry_newer.xml.
// Written from the Vulkan 1.4 registry: each value is the registry's
// (an extension enum is 1000000000 + (number - 1) * 1000 + offset), and
// each block stands under its extension's macro, so newer system headers,
// which define the macro, take precedence.
//
// Several of these extensions are the KHR names of EXT extensions that
// Tessera already has; the registry gives the KHR names the EXT values, so
// the EXT structures and enums serve both.
#pragma once

#include <vulkan/vulkan.h>

#ifndef VK_KHR_map_memory2
#define VK_KHR_map_memory2 1
#define VK_KHR_MAP_MEMORY_2_SPEC_VERSION 1
#define VK_KHR_MAP_MEMORY_2_EXTENSION_NAME "VK_KHR_map_memory2"
constexpr VkStructureType VK_STRUCTURE_TYPE_MEMORY_MAP_INFO_KHR = VkStructureType(1000271000);
constexpr VkStructureType VK_STRUCTURE_TYPE_MEMORY_UNMAP_INFO_KHR = VkStructureType(1000271001);
typedef VkFlags VkMemoryUnmapFlagsKHR;
typedef struct VkMemoryMapInfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkMemoryMapFlags flags;
	VkDeviceMemory memory;
	VkDeviceSize offset;
	VkDeviceSize size;
} VkMemoryMapInfoKHR;
typedef struct VkMemoryUnmapInfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkMemoryUnmapFlagsKHR flags;
	VkDeviceMemory memory;
} VkMemoryUnmapInfoKHR;
typedef VkResult(VKAPI_PTR* PFN_vkMapMemory2KHR)(VkDevice device, const VkMemoryMapInfoKHR* pMemoryMapInfo,
                                                 void** ppData);
typedef VkResult(VKAPI_PTR* PFN_vkUnmapMemory2KHR)(VkDevice device, const VkMemoryUnmapInfoKHR* pMemoryUnmapInfo);
#endif

#ifndef VK_KHR_shader_subgroup_rotate
#define VK_KHR_shader_subgroup_rotate 1
#define VK_KHR_SHADER_SUBGROUP_ROTATE_SPEC_VERSION 2
#define VK_KHR_SHADER_SUBGROUP_ROTATE_EXTENSION_NAME "VK_KHR_shader_subgroup_rotate"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_ROTATE_FEATURES_KHR =
    VkStructureType(1000416000);
constexpr VkSubgroupFeatureFlagBits VK_SUBGROUP_FEATURE_ROTATE_BIT_KHR = VkSubgroupFeatureFlagBits(0x200);
constexpr VkSubgroupFeatureFlagBits VK_SUBGROUP_FEATURE_ROTATE_CLUSTERED_BIT_KHR = VkSubgroupFeatureFlagBits(0x400);
typedef struct VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 shaderSubgroupRotate;
	VkBool32 shaderSubgroupRotateClustered;
} VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR;
#endif

#ifndef VK_EXT_image_sliced_view_of_3d
#define VK_EXT_image_sliced_view_of_3d 1
#define VK_EXT_IMAGE_SLICED_VIEW_OF_3D_SPEC_VERSION 1
#define VK_EXT_IMAGE_SLICED_VIEW_OF_3D_EXTENSION_NAME "VK_EXT_image_sliced_view_of_3d"
#define VK_REMAINING_3D_SLICES_EXT (~0U)
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_SLICED_VIEW_OF_3D_FEATURES_EXT =
    VkStructureType(1000418000);
constexpr VkStructureType VK_STRUCTURE_TYPE_IMAGE_VIEW_SLICED_CREATE_INFO_EXT = VkStructureType(1000418001);
typedef struct VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 imageSlicedViewOf3D;
} VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT;
typedef struct VkImageViewSlicedCreateInfoEXT {
	VkStructureType sType;
	const void* pNext;
	uint32_t sliceOffset;
	uint32_t sliceCount;
} VkImageViewSlicedCreateInfoEXT;
#endif

#ifndef VK_EXT_nested_command_buffer
#define VK_EXT_nested_command_buffer 1
#define VK_EXT_NESTED_COMMAND_BUFFER_SPEC_VERSION 1
#define VK_EXT_NESTED_COMMAND_BUFFER_EXTENSION_NAME "VK_EXT_nested_command_buffer"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NESTED_COMMAND_BUFFER_FEATURES_EXT =
    VkStructureType(1000451000);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NESTED_COMMAND_BUFFER_PROPERTIES_EXT =
    VkStructureType(1000451001);
constexpr VkSubpassContents VK_SUBPASS_CONTENTS_INLINE_AND_SECONDARY_COMMAND_BUFFERS_EXT =
    VkSubpassContents(1000451000);
constexpr VkRenderingFlagBits VK_RENDERING_CONTENTS_INLINE_BIT_EXT = VkRenderingFlagBits(0x10);
typedef struct VkPhysicalDeviceNestedCommandBufferFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 nestedCommandBuffer;
	VkBool32 nestedCommandBufferRendering;
	VkBool32 nestedCommandBufferSimultaneousUse;
} VkPhysicalDeviceNestedCommandBufferFeaturesEXT;
typedef struct VkPhysicalDeviceNestedCommandBufferPropertiesEXT {
	VkStructureType sType;
	void* pNext;
	uint32_t maxCommandBufferNestingLevel;
} VkPhysicalDeviceNestedCommandBufferPropertiesEXT;
#endif

#ifndef VK_EXT_legacy_vertex_attributes
#define VK_EXT_legacy_vertex_attributes 1
#define VK_EXT_LEGACY_VERTEX_ATTRIBUTES_SPEC_VERSION 1
#define VK_EXT_LEGACY_VERTEX_ATTRIBUTES_EXTENSION_NAME "VK_EXT_legacy_vertex_attributes"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LEGACY_VERTEX_ATTRIBUTES_FEATURES_EXT =
    VkStructureType(1000495000);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LEGACY_VERTEX_ATTRIBUTES_PROPERTIES_EXT =
    VkStructureType(1000495001);
typedef struct VkPhysicalDeviceLegacyVertexAttributesFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 legacyVertexAttributes;
} VkPhysicalDeviceLegacyVertexAttributesFeaturesEXT;
typedef struct VkPhysicalDeviceLegacyVertexAttributesPropertiesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 nativeUnalignedPerformance;
} VkPhysicalDeviceLegacyVertexAttributesPropertiesEXT;
#endif

#ifndef VK_EXT_dynamic_rendering_unused_attachments
#define VK_EXT_dynamic_rendering_unused_attachments 1
#define VK_EXT_DYNAMIC_RENDERING_UNUSED_ATTACHMENTS_SPEC_VERSION 1
#define VK_EXT_DYNAMIC_RENDERING_UNUSED_ATTACHMENTS_EXTENSION_NAME "VK_EXT_dynamic_rendering_unused_attachments"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_UNUSED_ATTACHMENTS_FEATURES_EXT =
    VkStructureType(1000499000);
typedef struct VkPhysicalDeviceDynamicRenderingUnusedAttachmentsFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 dynamicRenderingUnusedAttachments;
} VkPhysicalDeviceDynamicRenderingUnusedAttachmentsFeaturesEXT;
#endif

#ifndef VK_KHR_vertex_attribute_divisor
#define VK_KHR_vertex_attribute_divisor 1
#define VK_KHR_VERTEX_ATTRIBUTE_DIVISOR_SPEC_VERSION 1
#define VK_KHR_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME "VK_KHR_vertex_attribute_divisor"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_KHR =
    VkStructureType(1000525000);
constexpr VkStructureType VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_KHR =
    VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT;
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_KHR =
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT;
typedef struct VkPhysicalDeviceVertexAttributeDivisorPropertiesKHR {
	VkStructureType sType;
	void* pNext;
	uint32_t maxVertexAttribDivisor;
	VkBool32 supportsNonZeroFirstInstance;
} VkPhysicalDeviceVertexAttributeDivisorPropertiesKHR;
typedef VkVertexInputBindingDivisorDescriptionEXT VkVertexInputBindingDivisorDescriptionKHR;
typedef VkPipelineVertexInputDivisorStateCreateInfoEXT VkPipelineVertexInputDivisorStateCreateInfoKHR;
typedef VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT VkPhysicalDeviceVertexAttributeDivisorFeaturesKHR;
#endif

#ifndef VK_KHR_load_store_op_none
#define VK_KHR_load_store_op_none 1
#define VK_KHR_LOAD_STORE_OP_NONE_SPEC_VERSION 1
#define VK_KHR_LOAD_STORE_OP_NONE_EXTENSION_NAME "VK_KHR_load_store_op_none"
constexpr VkAttachmentLoadOp VK_ATTACHMENT_LOAD_OP_NONE_KHR = VK_ATTACHMENT_LOAD_OP_NONE_EXT;
#endif

#ifndef VK_KHR_index_type_uint8
#define VK_KHR_index_type_uint8 1
#define VK_KHR_INDEX_TYPE_UINT8_SPEC_VERSION 1
#define VK_KHR_INDEX_TYPE_UINT8_EXTENSION_NAME "VK_KHR_index_type_uint8"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_KHR =
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT;
constexpr VkIndexType VK_INDEX_TYPE_UINT8_KHR = VK_INDEX_TYPE_UINT8_EXT;
typedef VkPhysicalDeviceIndexTypeUint8FeaturesEXT VkPhysicalDeviceIndexTypeUint8FeaturesKHR;
#endif

#ifndef VK_KHR_line_rasterization
#define VK_KHR_line_rasterization 1
#define VK_KHR_LINE_RASTERIZATION_SPEC_VERSION 1
#define VK_KHR_LINE_RASTERIZATION_EXTENSION_NAME "VK_KHR_line_rasterization"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_KHR =
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT;
constexpr VkStructureType VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_KHR =
    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT;
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_PROPERTIES_KHR =
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_PROPERTIES_EXT;
constexpr VkDynamicState VK_DYNAMIC_STATE_LINE_STIPPLE_KHR = VK_DYNAMIC_STATE_LINE_STIPPLE_EXT;
typedef VkLineRasterizationModeEXT VkLineRasterizationModeKHR;
typedef VkPhysicalDeviceLineRasterizationFeaturesEXT VkPhysicalDeviceLineRasterizationFeaturesKHR;
typedef VkPhysicalDeviceLineRasterizationPropertiesEXT VkPhysicalDeviceLineRasterizationPropertiesKHR;
typedef VkPipelineRasterizationLineStateCreateInfoEXT VkPipelineRasterizationLineStateCreateInfoKHR;
typedef PFN_vkCmdSetLineStippleEXT PFN_vkCmdSetLineStippleKHR;
#endif

#ifndef VK_KHR_shader_expect_assume
#define VK_KHR_shader_expect_assume 1
#define VK_KHR_SHADER_EXPECT_ASSUME_SPEC_VERSION 1
#define VK_KHR_SHADER_EXPECT_ASSUME_EXTENSION_NAME "VK_KHR_shader_expect_assume"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_EXPECT_ASSUME_FEATURES_KHR =
    VkStructureType(1000544000);
typedef struct VkPhysicalDeviceShaderExpectAssumeFeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 shaderExpectAssume;
} VkPhysicalDeviceShaderExpectAssumeFeaturesKHR;
#endif

#ifndef VK_KHR_maintenance6
#define VK_KHR_maintenance6 1
#define VK_KHR_MAINTENANCE_6_SPEC_VERSION 1
#define VK_KHR_MAINTENANCE_6_EXTENSION_NAME "VK_KHR_maintenance6"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR = VkStructureType(1000545000);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_PROPERTIES_KHR = VkStructureType(1000545001);
constexpr VkStructureType VK_STRUCTURE_TYPE_BIND_MEMORY_STATUS_KHR = VkStructureType(1000545002);
constexpr VkStructureType VK_STRUCTURE_TYPE_BIND_DESCRIPTOR_SETS_INFO_KHR = VkStructureType(1000545003);
constexpr VkStructureType VK_STRUCTURE_TYPE_PUSH_CONSTANTS_INFO_KHR = VkStructureType(1000545004);
constexpr VkStructureType VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_INFO_KHR = VkStructureType(1000545005);
constexpr VkStructureType VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_WITH_TEMPLATE_INFO_KHR = VkStructureType(1000545006);
constexpr VkStructureType VK_STRUCTURE_TYPE_SET_DESCRIPTOR_BUFFER_OFFSETS_INFO_EXT = VkStructureType(1000545007);
constexpr VkStructureType VK_STRUCTURE_TYPE_BIND_DESCRIPTOR_BUFFER_EMBEDDED_SAMPLERS_INFO_EXT =
    VkStructureType(1000545008);
typedef struct VkPhysicalDeviceMaintenance6FeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 maintenance6;
} VkPhysicalDeviceMaintenance6FeaturesKHR;
typedef struct VkPhysicalDeviceMaintenance6PropertiesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 blockTexelViewCompatibleMultipleLayers;
	uint32_t maxCombinedImageSamplerDescriptorCount;
	VkBool32 fragmentShadingRateClampCombinerInputs;
} VkPhysicalDeviceMaintenance6PropertiesKHR;
typedef struct VkBindMemoryStatusKHR {
	VkStructureType sType;
	const void* pNext;
	VkResult* pResult;
} VkBindMemoryStatusKHR;
typedef struct VkBindDescriptorSetsInfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkShaderStageFlags stageFlags;
	VkPipelineLayout layout;
	uint32_t firstSet;
	uint32_t descriptorSetCount;
	const VkDescriptorSet* pDescriptorSets;
	uint32_t dynamicOffsetCount;
	const uint32_t* pDynamicOffsets;
} VkBindDescriptorSetsInfoKHR;
typedef struct VkPushConstantsInfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkPipelineLayout layout;
	VkShaderStageFlags stageFlags;
	uint32_t offset;
	uint32_t size;
	const void* pValues;
} VkPushConstantsInfoKHR;
typedef struct VkPushDescriptorSetInfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkShaderStageFlags stageFlags;
	VkPipelineLayout layout;
	uint32_t set;
	uint32_t descriptorWriteCount;
	const VkWriteDescriptorSet* pDescriptorWrites;
} VkPushDescriptorSetInfoKHR;
typedef struct VkPushDescriptorSetWithTemplateInfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkDescriptorUpdateTemplate descriptorUpdateTemplate;
	VkPipelineLayout layout;
	uint32_t set;
	const void* pData;
} VkPushDescriptorSetWithTemplateInfoKHR;
typedef struct VkSetDescriptorBufferOffsetsInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkShaderStageFlags stageFlags;
	VkPipelineLayout layout;
	uint32_t firstSet;
	uint32_t setCount;
	const uint32_t* pBufferIndices;
	const VkDeviceSize* pOffsets;
} VkSetDescriptorBufferOffsetsInfoEXT;
typedef struct VkBindDescriptorBufferEmbeddedSamplersInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkShaderStageFlags stageFlags;
	VkPipelineLayout layout;
	uint32_t set;
} VkBindDescriptorBufferEmbeddedSamplersInfoEXT;
typedef void(VKAPI_PTR* PFN_vkCmdBindDescriptorSets2KHR)(VkCommandBuffer commandBuffer,
                                                         const VkBindDescriptorSetsInfoKHR* pBindDescriptorSetsInfo);
typedef void(VKAPI_PTR* PFN_vkCmdPushConstants2KHR)(VkCommandBuffer commandBuffer,
                                                    const VkPushConstantsInfoKHR* pPushConstantsInfo);
typedef void(VKAPI_PTR* PFN_vkCmdPushDescriptorSet2KHR)(VkCommandBuffer commandBuffer,
                                                        const VkPushDescriptorSetInfoKHR* pPushDescriptorSetInfo);
typedef void(VKAPI_PTR* PFN_vkCmdPushDescriptorSetWithTemplate2KHR)(
    VkCommandBuffer commandBuffer, const VkPushDescriptorSetWithTemplateInfoKHR* pPushDescriptorSetWithTemplateInfo);
#endif

#ifndef VK_EXT_attachment_feedback_loop_dynamic_state
#define VK_EXT_attachment_feedback_loop_dynamic_state 1
#define VK_EXT_ATTACHMENT_FEEDBACK_LOOP_DYNAMIC_STATE_SPEC_VERSION 1
#define VK_EXT_ATTACHMENT_FEEDBACK_LOOP_DYNAMIC_STATE_EXTENSION_NAME "VK_EXT_attachment_feedback_loop_dynamic_state"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_DYNAMIC_STATE_FEATURES_EXT =
    VkStructureType(1000524000);
constexpr VkDynamicState VK_DYNAMIC_STATE_ATTACHMENT_FEEDBACK_LOOP_ENABLE_EXT = VkDynamicState(1000524000);
typedef struct VkPhysicalDeviceAttachmentFeedbackLoopDynamicStateFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 attachmentFeedbackLoopDynamicState;
} VkPhysicalDeviceAttachmentFeedbackLoopDynamicStateFeaturesEXT;
typedef void(VKAPI_PTR* PFN_vkCmdSetAttachmentFeedbackLoopEnableEXT)(VkCommandBuffer commandBuffer,
                                                                     VkImageAspectFlags aspectMask);
#endif

#ifndef VK_KHR_maintenance5
#define VK_KHR_maintenance5 1
#define VK_KHR_MAINTENANCE_5_SPEC_VERSION 1
#define VK_KHR_MAINTENANCE_5_EXTENSION_NAME "VK_KHR_maintenance5"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR = VkStructureType(1000470000);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_PROPERTIES_KHR = VkStructureType(1000470001);
constexpr VkStructureType VK_STRUCTURE_TYPE_RENDERING_AREA_INFO_KHR = VkStructureType(1000470003);
constexpr VkStructureType VK_STRUCTURE_TYPE_DEVICE_IMAGE_SUBRESOURCE_INFO_KHR = VkStructureType(1000470004);
constexpr VkStructureType VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR = VkStructureType(1000470005);
constexpr VkStructureType VK_STRUCTURE_TYPE_BUFFER_USAGE_FLAGS_2_CREATE_INFO_KHR = VkStructureType(1000470006);
// The image subresource structures of VK_EXT_image_compression_control, under their KHR names.
constexpr VkStructureType VK_STRUCTURE_TYPE_SUBRESOURCE_LAYOUT_2_KHR = VK_STRUCTURE_TYPE_SUBRESOURCE_LAYOUT_2_EXT;
constexpr VkStructureType VK_STRUCTURE_TYPE_IMAGE_SUBRESOURCE_2_KHR = VK_STRUCTURE_TYPE_IMAGE_SUBRESOURCE_2_EXT;
constexpr VkFormat VK_FORMAT_A1B5G5R5_UNORM_PACK16_KHR = VkFormat(1000470000);
constexpr VkFormat VK_FORMAT_A8_UNORM_KHR = VkFormat(1000470001);
// Both 64-bit flag types keep the 32-bit types' bits at the same positions.
typedef VkFlags64 VkPipelineCreateFlags2KHR;
typedef VkFlags64 VkBufferUsageFlags2KHR;
typedef VkImageSubresource2EXT VkImageSubresource2KHR;
typedef VkSubresourceLayout2EXT VkSubresourceLayout2KHR;
typedef struct VkPhysicalDeviceMaintenance5FeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 maintenance5;
} VkPhysicalDeviceMaintenance5FeaturesKHR;
typedef struct VkPhysicalDeviceMaintenance5PropertiesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 earlyFragmentMultisampleCoverageAfterSampleCounting;
	VkBool32 earlyFragmentSampleMaskTestBeforeSampleCounting;
	VkBool32 depthStencilSwizzleOneSupport;
	VkBool32 polygonModePointSize;
	VkBool32 nonStrictSinglePixelWideLinesUseParallelogram;
	VkBool32 nonStrictWideLinesUseParallelogram;
} VkPhysicalDeviceMaintenance5PropertiesKHR;
typedef struct VkRenderingAreaInfoKHR {
	VkStructureType sType;
	const void* pNext;
	uint32_t viewMask;
	uint32_t colorAttachmentCount;
	const VkFormat* pColorAttachmentFormats;
	VkFormat depthAttachmentFormat;
	VkFormat stencilAttachmentFormat;
} VkRenderingAreaInfoKHR;
typedef struct VkDeviceImageSubresourceInfoKHR {
	VkStructureType sType;
	const void* pNext;
	const VkImageCreateInfo* pCreateInfo;
	const VkImageSubresource2KHR* pSubresource;
} VkDeviceImageSubresourceInfoKHR;
typedef struct VkPipelineCreateFlags2CreateInfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkPipelineCreateFlags2KHR flags;
} VkPipelineCreateFlags2CreateInfoKHR;
typedef struct VkBufferUsageFlags2CreateInfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkBufferUsageFlags2KHR usage;
} VkBufferUsageFlags2CreateInfoKHR;
typedef void(VKAPI_PTR* PFN_vkCmdBindIndexBuffer2KHR)(VkCommandBuffer commandBuffer, VkBuffer buffer,
                                                      VkDeviceSize offset, VkDeviceSize size, VkIndexType indexType);
typedef void(VKAPI_PTR* PFN_vkGetRenderingAreaGranularityKHR)(VkDevice device,
                                                              const VkRenderingAreaInfoKHR* pRenderingAreaInfo,
                                                              VkExtent2D* pGranularity);
typedef void(VKAPI_PTR* PFN_vkGetDeviceImageSubresourceLayoutKHR)(VkDevice device,
                                                                  const VkDeviceImageSubresourceInfoKHR* pInfo,
                                                                  VkSubresourceLayout2KHR* pLayout);
typedef void(VKAPI_PTR* PFN_vkGetImageSubresourceLayout2KHR)(VkDevice device, VkImage image,
                                                             const VkImageSubresource2KHR* pSubresource,
                                                             VkSubresourceLayout2KHR* pLayout);
#endif

#ifndef VK_KHR_dynamic_rendering_local_read
#define VK_KHR_dynamic_rendering_local_read 1
#define VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_SPEC_VERSION 1
#define VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME "VK_KHR_dynamic_rendering_local_read"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR =
    VkStructureType(1000232000);
constexpr VkStructureType VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_LOCATION_INFO_KHR = VkStructureType(1000232001);
constexpr VkStructureType VK_STRUCTURE_TYPE_RENDERING_INPUT_ATTACHMENT_INDEX_INFO_KHR = VkStructureType(1000232002);
constexpr VkImageLayout VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR = VkImageLayout(1000232000);
typedef struct VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 dynamicRenderingLocalRead;
} VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR;
typedef struct VkRenderingAttachmentLocationInfoKHR {
	VkStructureType sType;
	const void* pNext;
	uint32_t colorAttachmentCount;
	const uint32_t* pColorAttachmentLocations;
} VkRenderingAttachmentLocationInfoKHR;
typedef struct VkRenderingInputAttachmentIndexInfoKHR {
	VkStructureType sType;
	const void* pNext;
	uint32_t colorAttachmentCount;
	const uint32_t* pColorAttachmentInputIndices;
	const uint32_t* pDepthInputAttachmentIndex;
	const uint32_t* pStencilInputAttachmentIndex;
} VkRenderingInputAttachmentIndexInfoKHR;
typedef void(VKAPI_PTR* PFN_vkCmdSetRenderingAttachmentLocationsKHR)(
    VkCommandBuffer commandBuffer, const VkRenderingAttachmentLocationInfoKHR* pLocationInfo);
typedef void(VKAPI_PTR* PFN_vkCmdSetRenderingInputAttachmentIndicesKHR)(
    VkCommandBuffer commandBuffer, const VkRenderingInputAttachmentIndexInfoKHR* pInputAttachmentIndexInfo);
#endif

#ifndef VK_EXT_host_image_copy
#define VK_EXT_host_image_copy 1
#define VK_EXT_HOST_IMAGE_COPY_SPEC_VERSION 1
#define VK_EXT_HOST_IMAGE_COPY_EXTENSION_NAME "VK_EXT_host_image_copy"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_FEATURES_EXT = VkStructureType(1000270000);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_IMAGE_COPY_PROPERTIES_EXT =
    VkStructureType(1000270001);
constexpr VkStructureType VK_STRUCTURE_TYPE_MEMORY_TO_IMAGE_COPY_EXT = VkStructureType(1000270002);
constexpr VkStructureType VK_STRUCTURE_TYPE_IMAGE_TO_MEMORY_COPY_EXT = VkStructureType(1000270003);
constexpr VkStructureType VK_STRUCTURE_TYPE_COPY_IMAGE_TO_MEMORY_INFO_EXT = VkStructureType(1000270004);
constexpr VkStructureType VK_STRUCTURE_TYPE_COPY_MEMORY_TO_IMAGE_INFO_EXT = VkStructureType(1000270005);
constexpr VkStructureType VK_STRUCTURE_TYPE_HOST_IMAGE_LAYOUT_TRANSITION_INFO_EXT = VkStructureType(1000270006);
constexpr VkStructureType VK_STRUCTURE_TYPE_COPY_IMAGE_TO_IMAGE_INFO_EXT = VkStructureType(1000270007);
constexpr VkStructureType VK_STRUCTURE_TYPE_SUBRESOURCE_HOST_MEMCPY_SIZE_EXT = VkStructureType(1000270008);
constexpr VkStructureType VK_STRUCTURE_TYPE_HOST_IMAGE_COPY_DEVICE_PERFORMANCE_QUERY_EXT = VkStructureType(1000270009);
constexpr VkImageUsageFlagBits VK_IMAGE_USAGE_HOST_TRANSFER_BIT_EXT = VkImageUsageFlagBits(0x00400000);
constexpr VkFormatFeatureFlagBits2 VK_FORMAT_FEATURE_2_HOST_IMAGE_TRANSFER_BIT_EXT = 0x400000000000ULL;
typedef VkFlags VkHostImageCopyFlagsEXT;
constexpr VkHostImageCopyFlagsEXT VK_HOST_IMAGE_COPY_MEMCPY_EXT = 0x00000001;
typedef struct VkPhysicalDeviceHostImageCopyFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 hostImageCopy;
} VkPhysicalDeviceHostImageCopyFeaturesEXT;
typedef struct VkPhysicalDeviceHostImageCopyPropertiesEXT {
	VkStructureType sType;
	void* pNext;
	uint32_t copySrcLayoutCount;
	VkImageLayout* pCopySrcLayouts;
	uint32_t copyDstLayoutCount;
	VkImageLayout* pCopyDstLayouts;
	uint8_t optimalTilingLayoutUUID[VK_UUID_SIZE];
	VkBool32 identicalMemoryTypeRequirements;
} VkPhysicalDeviceHostImageCopyPropertiesEXT;
typedef struct VkMemoryToImageCopyEXT {
	VkStructureType sType;
	const void* pNext;
	const void* pHostPointer;
	uint32_t memoryRowLength;
	uint32_t memoryImageHeight;
	VkImageSubresourceLayers imageSubresource;
	VkOffset3D imageOffset;
	VkExtent3D imageExtent;
} VkMemoryToImageCopyEXT;
typedef struct VkImageToMemoryCopyEXT {
	VkStructureType sType;
	const void* pNext;
	void* pHostPointer;
	uint32_t memoryRowLength;
	uint32_t memoryImageHeight;
	VkImageSubresourceLayers imageSubresource;
	VkOffset3D imageOffset;
	VkExtent3D imageExtent;
} VkImageToMemoryCopyEXT;
typedef struct VkCopyMemoryToImageInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkHostImageCopyFlagsEXT flags;
	VkImage dstImage;
	VkImageLayout dstImageLayout;
	uint32_t regionCount;
	const VkMemoryToImageCopyEXT* pRegions;
} VkCopyMemoryToImageInfoEXT;
typedef struct VkCopyImageToMemoryInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkHostImageCopyFlagsEXT flags;
	VkImage srcImage;
	VkImageLayout srcImageLayout;
	uint32_t regionCount;
	const VkImageToMemoryCopyEXT* pRegions;
} VkCopyImageToMemoryInfoEXT;
typedef struct VkCopyImageToImageInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkHostImageCopyFlagsEXT flags;
	VkImage srcImage;
	VkImageLayout srcImageLayout;
	VkImage dstImage;
	VkImageLayout dstImageLayout;
	uint32_t regionCount;
	const VkImageCopy2* pRegions;
} VkCopyImageToImageInfoEXT;
typedef struct VkHostImageLayoutTransitionInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkImage image;
	VkImageLayout oldLayout;
	VkImageLayout newLayout;
	VkImageSubresourceRange subresourceRange;
} VkHostImageLayoutTransitionInfoEXT;
typedef struct VkSubresourceHostMemcpySizeEXT {
	VkStructureType sType;
	void* pNext;
	VkDeviceSize size;
} VkSubresourceHostMemcpySizeEXT;
typedef struct VkHostImageCopyDevicePerformanceQueryEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 optimalDeviceAccess;
	VkBool32 identicalMemoryLayout;
} VkHostImageCopyDevicePerformanceQueryEXT;
typedef VkResult(VKAPI_PTR* PFN_vkCopyMemoryToImageEXT)(VkDevice device,
                                                        const VkCopyMemoryToImageInfoEXT* pCopyMemoryToImageInfo);
typedef VkResult(VKAPI_PTR* PFN_vkCopyImageToMemoryEXT)(VkDevice device,
                                                        const VkCopyImageToMemoryInfoEXT* pCopyImageToMemoryInfo);
typedef VkResult(VKAPI_PTR* PFN_vkCopyImageToImageEXT)(VkDevice device,
                                                       const VkCopyImageToImageInfoEXT* pCopyImageToImageInfo);
typedef VkResult(VKAPI_PTR* PFN_vkTransitionImageLayoutEXT)(VkDevice device, uint32_t transitionCount,
                                                            const VkHostImageLayoutTransitionInfoEXT* pTransitions);
#endif

#ifndef VK_KHR_shader_float_controls2
#define VK_KHR_shader_float_controls2 1
#define VK_KHR_SHADER_FLOAT_CONTROLS_2_SPEC_VERSION 1
#define VK_KHR_SHADER_FLOAT_CONTROLS_2_EXTENSION_NAME "VK_KHR_shader_float_controls2"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT_CONTROLS_2_FEATURES_KHR =
    VkStructureType(1000528000);
typedef struct VkPhysicalDeviceShaderFloatControls2FeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 shaderFloatControls2;
} VkPhysicalDeviceShaderFloatControls2FeaturesKHR;
#endif

// Vulkan 1.4: the version's structures (its commands are the extensions'
// above under names without the suffix; registry_newer.xml lists them).
#ifndef VK_VERSION_1_4
#define VK_VERSION_1_4 1
#define VK_API_VERSION_1_4 VK_MAKE_API_VERSION(0, 1, 4, 0)
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_FEATURES = VkStructureType(55);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_PROPERTIES = VkStructureType(56);
typedef struct VkPhysicalDeviceVulkan14Features {
	VkStructureType sType;
	void* pNext;
	VkBool32 globalPriorityQuery;
	VkBool32 shaderSubgroupRotate;
	VkBool32 shaderSubgroupRotateClustered;
	VkBool32 shaderFloatControls2;
	VkBool32 shaderExpectAssume;
	VkBool32 rectangularLines;
	VkBool32 bresenhamLines;
	VkBool32 smoothLines;
	VkBool32 stippledRectangularLines;
	VkBool32 stippledBresenhamLines;
	VkBool32 stippledSmoothLines;
	VkBool32 vertexAttributeInstanceRateDivisor;
	VkBool32 vertexAttributeInstanceRateZeroDivisor;
	VkBool32 indexTypeUint8;
	VkBool32 dynamicRenderingLocalRead;
	VkBool32 maintenance5;
	VkBool32 maintenance6;
	VkBool32 pipelineProtectedAccess;
	VkBool32 pipelineRobustness;
	VkBool32 hostImageCopy;
	VkBool32 pushDescriptor;
} VkPhysicalDeviceVulkan14Features;
typedef struct VkPhysicalDeviceVulkan14Properties {
	VkStructureType sType;
	void* pNext;
	uint32_t lineSubPixelPrecisionBits;
	uint32_t maxVertexAttribDivisor;
	VkBool32 supportsNonZeroFirstInstance;
	uint32_t maxPushDescriptors;
	VkBool32 dynamicRenderingLocalReadDepthStencilAttachments;
	VkBool32 dynamicRenderingLocalReadMultisampledAttachments;
	VkBool32 earlyFragmentMultisampleCoverageAfterSampleCounting;
	VkBool32 earlyFragmentSampleMaskTestBeforeSampleCounting;
	VkBool32 depthStencilSwizzleOneSupport;
	VkBool32 polygonModePointSize;
	VkBool32 nonStrictSinglePixelWideLinesUseParallelogram;
	VkBool32 nonStrictWideLinesUseParallelogram;
	VkBool32 blockTexelViewCompatibleMultipleLayers;
	uint32_t maxCombinedImageSamplerDescriptorCount;
	VkBool32 fragmentShadingRateClampCombinerInputs;
	VkPipelineRobustnessBufferBehaviorEXT defaultRobustnessStorageBuffers;
	VkPipelineRobustnessBufferBehaviorEXT defaultRobustnessUniformBuffers;
	VkPipelineRobustnessBufferBehaviorEXT defaultRobustnessVertexInputs;
	VkPipelineRobustnessImageBehaviorEXT defaultRobustnessImages;
	uint32_t copySrcLayoutCount;
	VkImageLayout* pCopySrcLayouts;
	uint32_t copyDstLayoutCount;
	VkImageLayout* pCopyDstLayouts;
	uint8_t optimalTilingLayoutUUID[VK_UUID_SIZE];
	VkBool32 identicalMemoryTypeRequirements;
} VkPhysicalDeviceVulkan14Properties;
#endif

#ifndef VK_KHR_shader_maximal_reconvergence
#define VK_KHR_shader_maximal_reconvergence 1
#define VK_KHR_SHADER_MAXIMAL_RECONVERGENCE_SPEC_VERSION 1
#define VK_KHR_SHADER_MAXIMAL_RECONVERGENCE_EXTENSION_NAME "VK_KHR_shader_maximal_reconvergence"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_MAXIMAL_RECONVERGENCE_FEATURES_KHR =
    VkStructureType(1000434000);
typedef struct VkPhysicalDeviceShaderMaximalReconvergenceFeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 shaderMaximalReconvergence;
} VkPhysicalDeviceShaderMaximalReconvergenceFeaturesKHR;
#endif

#ifndef VK_KHR_shader_quad_control
#define VK_KHR_shader_quad_control 1
#define VK_KHR_SHADER_QUAD_CONTROL_SPEC_VERSION 1
#define VK_KHR_SHADER_QUAD_CONTROL_EXTENSION_NAME "VK_KHR_shader_quad_control"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_QUAD_CONTROL_FEATURES_KHR =
    VkStructureType(1000235000);
typedef struct VkPhysicalDeviceShaderQuadControlFeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 shaderQuadControl;
} VkPhysicalDeviceShaderQuadControlFeaturesKHR;
#endif

#ifndef VK_KHR_compute_shader_derivatives
#define VK_KHR_compute_shader_derivatives 1
#define VK_KHR_COMPUTE_SHADER_DERIVATIVES_SPEC_VERSION 1
#define VK_KHR_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME "VK_KHR_compute_shader_derivatives"
// The features are VK_NV_compute_shader_derivatives' (the same structure
// and sType); the properties are new.
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_KHR =
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_NV;
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_PROPERTIES_KHR =
    VkStructureType(1000511000);
typedef VkPhysicalDeviceComputeShaderDerivativesFeaturesNV VkPhysicalDeviceComputeShaderDerivativesFeaturesKHR;
typedef struct VkPhysicalDeviceComputeShaderDerivativesPropertiesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 meshAndTaskShaderDerivatives;
} VkPhysicalDeviceComputeShaderDerivativesPropertiesKHR;
#endif

#ifndef VK_EXT_shader_replicated_composites
#define VK_EXT_shader_replicated_composites 1
#define VK_EXT_SHADER_REPLICATED_COMPOSITES_SPEC_VERSION 1
#define VK_EXT_SHADER_REPLICATED_COMPOSITES_EXTENSION_NAME "VK_EXT_shader_replicated_composites"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_REPLICATED_COMPOSITES_FEATURES_EXT =
    VkStructureType(1000564000);
typedef struct VkPhysicalDeviceShaderReplicatedCompositesFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 shaderReplicatedComposites;
} VkPhysicalDeviceShaderReplicatedCompositesFeaturesEXT;
#endif

#ifndef VK_KHR_shader_relaxed_extended_instruction
#define VK_KHR_shader_relaxed_extended_instruction 1
#define VK_KHR_SHADER_RELAXED_EXTENDED_INSTRUCTION_SPEC_VERSION 1
#define VK_KHR_SHADER_RELAXED_EXTENDED_INSTRUCTION_EXTENSION_NAME "VK_KHR_shader_relaxed_extended_instruction"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_RELAXED_EXTENDED_INSTRUCTION_FEATURES_KHR =
    VkStructureType(1000558000);
typedef struct VkPhysicalDeviceShaderRelaxedExtendedInstructionFeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 shaderRelaxedExtendedInstruction;
} VkPhysicalDeviceShaderRelaxedExtendedInstructionFeaturesKHR;
#endif

#ifndef VK_KHR_maintenance7
#define VK_KHR_maintenance7 1
#define VK_KHR_MAINTENANCE_7_SPEC_VERSION 1
#define VK_KHR_MAINTENANCE_7_EXTENSION_NAME "VK_KHR_maintenance7"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_FEATURES_KHR = VkStructureType(1000562000);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_PROPERTIES_KHR = VkStructureType(1000562001);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LAYERED_API_PROPERTIES_LIST_KHR =
    VkStructureType(1000562002);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LAYERED_API_PROPERTIES_KHR = VkStructureType(1000562003);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LAYERED_API_VULKAN_PROPERTIES_KHR =
    VkStructureType(1000562004);
// Promoted from VK_EXT_nested_command_buffer, with the same values.
constexpr VkSubpassContents VK_SUBPASS_CONTENTS_INLINE_AND_SECONDARY_COMMAND_BUFFERS_KHR =
    VkSubpassContents(1000451000);
constexpr VkRenderingFlagBits VK_RENDERING_CONTENTS_INLINE_BIT_KHR = VkRenderingFlagBits(0x10);
typedef enum VkPhysicalDeviceLayeredApiKHR {
	VK_PHYSICAL_DEVICE_LAYERED_API_VULKAN_KHR = 0,
	VK_PHYSICAL_DEVICE_LAYERED_API_D3D12_KHR = 1,
	VK_PHYSICAL_DEVICE_LAYERED_API_METAL_KHR = 2,
	VK_PHYSICAL_DEVICE_LAYERED_API_OPENGL_KHR = 3,
	VK_PHYSICAL_DEVICE_LAYERED_API_OPENGLES_KHR = 4,
	VK_PHYSICAL_DEVICE_LAYERED_API_MAX_ENUM_KHR = 0x7FFFFFFF
} VkPhysicalDeviceLayeredApiKHR;
typedef struct VkPhysicalDeviceMaintenance7FeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 maintenance7;
} VkPhysicalDeviceMaintenance7FeaturesKHR;
typedef struct VkPhysicalDeviceMaintenance7PropertiesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 robustFragmentShadingRateAttachmentAccess;
	VkBool32 separateDepthStencilAttachmentAccess;
	uint32_t maxDescriptorSetTotalUniformBuffersDynamic;
	uint32_t maxDescriptorSetTotalStorageBuffersDynamic;
	uint32_t maxDescriptorSetTotalBuffersDynamic;
	uint32_t maxDescriptorSetUpdateAfterBindTotalUniformBuffersDynamic;
	uint32_t maxDescriptorSetUpdateAfterBindTotalStorageBuffersDynamic;
	uint32_t maxDescriptorSetUpdateAfterBindTotalBuffersDynamic;
} VkPhysicalDeviceMaintenance7PropertiesKHR;
typedef struct VkPhysicalDeviceLayeredApiPropertiesKHR {
	VkStructureType sType;
	void* pNext;
	uint32_t vendorID;
	uint32_t deviceID;
	VkPhysicalDeviceLayeredApiKHR layeredAPI;
	char deviceName[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
} VkPhysicalDeviceLayeredApiPropertiesKHR;
typedef struct VkPhysicalDeviceLayeredApiPropertiesListKHR {
	VkStructureType sType;
	void* pNext;
	uint32_t layeredApiCount;
	VkPhysicalDeviceLayeredApiPropertiesKHR* pLayeredApis;
} VkPhysicalDeviceLayeredApiPropertiesListKHR;
typedef struct VkPhysicalDeviceLayeredApiVulkanPropertiesKHR {
	VkStructureType sType;
	void* pNext;
	VkPhysicalDeviceProperties2 properties;
} VkPhysicalDeviceLayeredApiVulkanPropertiesKHR;
#endif

#ifndef VK_KHR_maintenance8
#define VK_KHR_maintenance8 1
#define VK_KHR_MAINTENANCE_8_SPEC_VERSION 1
#define VK_KHR_MAINTENANCE_8_EXTENSION_NAME "VK_KHR_maintenance8"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_8_FEATURES_KHR = VkStructureType(1000574000);
constexpr VkStructureType VK_STRUCTURE_TYPE_MEMORY_BARRIER_ACCESS_FLAGS_3_KHR = VkStructureType(1000574002);
constexpr VkPipelineCacheCreateFlagBits VK_PIPELINE_CACHE_CREATE_INTERNALLY_SYNCHRONIZED_MERGE_BIT_KHR =
    VkPipelineCacheCreateFlagBits(0x00000008);
constexpr VkDependencyFlagBits VK_DEPENDENCY_QUEUE_FAMILY_OWNERSHIP_TRANSFER_USE_ALL_STAGES_BIT_KHR =
    VkDependencyFlagBits(0x00000020);
typedef VkFlags64 VkAccessFlags3KHR;
typedef VkFlags64 VkAccessFlagBits3KHR;
constexpr VkAccessFlagBits3KHR VK_ACCESS_3_NONE_KHR = 0ULL;
typedef struct VkPhysicalDeviceMaintenance8FeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 maintenance8;
} VkPhysicalDeviceMaintenance8FeaturesKHR;
typedef struct VkMemoryBarrierAccessFlags3KHR {
	VkStructureType sType;
	const void* pNext;
	VkAccessFlags3KHR srcAccessMask3;
	VkAccessFlags3KHR dstAccessMask3;
} VkMemoryBarrierAccessFlags3KHR;
#endif

#ifndef VK_EXT_device_generated_commands
#define VK_EXT_device_generated_commands 1
#define VK_EXT_DEVICE_GENERATED_COMMANDS_SPEC_VERSION 1
#define VK_EXT_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME "VK_EXT_device_generated_commands"
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkIndirectExecutionSetEXT)
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkIndirectCommandsLayoutEXT)
// VK_EXT_shader_object's handle, which the extension's shader-object
// structures name. The same typedef again (where VK_EXT_shader_object
// defines it) is allowed in C++.
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkShaderEXT)
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT =
    VkStructureType(1000572000);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_PROPERTIES_EXT =
    VkStructureType(1000572001);
constexpr VkStructureType VK_STRUCTURE_TYPE_GENERATED_COMMANDS_MEMORY_REQUIREMENTS_INFO_EXT =
    VkStructureType(1000572002);
constexpr VkStructureType VK_STRUCTURE_TYPE_INDIRECT_EXECUTION_SET_CREATE_INFO_EXT = VkStructureType(1000572003);
constexpr VkStructureType VK_STRUCTURE_TYPE_GENERATED_COMMANDS_INFO_EXT = VkStructureType(1000572004);
constexpr VkStructureType VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_CREATE_INFO_EXT = VkStructureType(1000572006);
constexpr VkStructureType VK_STRUCTURE_TYPE_INDIRECT_COMMANDS_LAYOUT_TOKEN_EXT = VkStructureType(1000572007);
constexpr VkStructureType VK_STRUCTURE_TYPE_WRITE_INDIRECT_EXECUTION_SET_PIPELINE_EXT = VkStructureType(1000572008);
constexpr VkStructureType VK_STRUCTURE_TYPE_WRITE_INDIRECT_EXECUTION_SET_SHADER_EXT = VkStructureType(1000572009);
constexpr VkStructureType VK_STRUCTURE_TYPE_INDIRECT_EXECUTION_SET_PIPELINE_INFO_EXT = VkStructureType(1000572010);
constexpr VkStructureType VK_STRUCTURE_TYPE_INDIRECT_EXECUTION_SET_SHADER_INFO_EXT = VkStructureType(1000572011);
constexpr VkStructureType VK_STRUCTURE_TYPE_INDIRECT_EXECUTION_SET_SHADER_LAYOUT_INFO_EXT = VkStructureType(1000572012);
constexpr VkStructureType VK_STRUCTURE_TYPE_GENERATED_COMMANDS_PIPELINE_INFO_EXT = VkStructureType(1000572013);
constexpr VkStructureType VK_STRUCTURE_TYPE_GENERATED_COMMANDS_SHADER_INFO_EXT = VkStructureType(1000572014);
constexpr VkObjectType VK_OBJECT_TYPE_INDIRECT_COMMANDS_LAYOUT_EXT = VkObjectType(1000572000);
constexpr VkObjectType VK_OBJECT_TYPE_INDIRECT_EXECUTION_SET_EXT = VkObjectType(1000572001);
constexpr VkPipelineStageFlagBits VK_PIPELINE_STAGE_COMMAND_PREPROCESS_BIT_EXT = VkPipelineStageFlagBits(0x00020000);
constexpr VkAccessFlagBits VK_ACCESS_COMMAND_PREPROCESS_READ_BIT_EXT = VkAccessFlagBits(0x00020000);
constexpr VkAccessFlagBits VK_ACCESS_COMMAND_PREPROCESS_WRITE_BIT_EXT = VkAccessFlagBits(0x00040000);
constexpr VkPipelineStageFlagBits2 VK_PIPELINE_STAGE_2_COMMAND_PREPROCESS_BIT_EXT = 0x00020000ULL;
constexpr VkAccessFlagBits2 VK_ACCESS_2_COMMAND_PREPROCESS_READ_BIT_EXT = 0x00020000ULL;
constexpr VkAccessFlagBits2 VK_ACCESS_2_COMMAND_PREPROCESS_WRITE_BIT_EXT = 0x00040000ULL;
constexpr VkBufferUsageFlags2KHR VK_BUFFER_USAGE_2_PREPROCESS_BUFFER_BIT_EXT = 0x80000000ULL;
constexpr VkPipelineCreateFlags2KHR VK_PIPELINE_CREATE_2_INDIRECT_BINDABLE_BIT_EXT = 0x4000000000ULL;
typedef enum VkIndirectExecutionSetInfoTypeEXT {
	VK_INDIRECT_EXECUTION_SET_INFO_TYPE_PIPELINES_EXT = 0,
	VK_INDIRECT_EXECUTION_SET_INFO_TYPE_SHADER_OBJECTS_EXT = 1,
	VK_INDIRECT_EXECUTION_SET_INFO_TYPE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkIndirectExecutionSetInfoTypeEXT;
typedef enum VkIndirectCommandsTokenTypeEXT {
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_EXECUTION_SET_EXT = 0,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_PUSH_CONSTANT_EXT = 1,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_SEQUENCE_INDEX_EXT = 2,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_INDEX_BUFFER_EXT = 3,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_VERTEX_BUFFER_EXT = 4,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_EXT = 5,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_EXT = 6,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_INDEXED_COUNT_EXT = 7,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_COUNT_EXT = 8,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_DISPATCH_EXT = 9,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_MESH_TASKS_NV_EXT = 1000202002,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_MESH_TASKS_COUNT_NV_EXT = 1000202003,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_MESH_TASKS_EXT = 1000328000,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_DRAW_MESH_TASKS_COUNT_EXT = 1000328001,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_TRACE_RAYS2_EXT = 1000386004,
	VK_INDIRECT_COMMANDS_TOKEN_TYPE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkIndirectCommandsTokenTypeEXT;
typedef enum VkIndirectCommandsInputModeFlagBitsEXT {
	VK_INDIRECT_COMMANDS_INPUT_MODE_VULKAN_INDEX_BUFFER_EXT = 0x00000001,
	VK_INDIRECT_COMMANDS_INPUT_MODE_DXGI_INDEX_BUFFER_EXT = 0x00000002,
	VK_INDIRECT_COMMANDS_INPUT_MODE_FLAG_BITS_MAX_ENUM_EXT = 0x7FFFFFFF
} VkIndirectCommandsInputModeFlagBitsEXT;
typedef VkFlags VkIndirectCommandsInputModeFlagsEXT;
typedef enum VkIndirectCommandsLayoutUsageFlagBitsEXT {
	VK_INDIRECT_COMMANDS_LAYOUT_USAGE_EXPLICIT_PREPROCESS_BIT_EXT = 0x00000001,
	VK_INDIRECT_COMMANDS_LAYOUT_USAGE_UNORDERED_SEQUENCES_BIT_EXT = 0x00000002,
	VK_INDIRECT_COMMANDS_LAYOUT_USAGE_FLAG_BITS_MAX_ENUM_EXT = 0x7FFFFFFF
} VkIndirectCommandsLayoutUsageFlagBitsEXT;
typedef VkFlags VkIndirectCommandsLayoutUsageFlagsEXT;
typedef struct VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 deviceGeneratedCommands;
	VkBool32 dynamicGeneratedPipelineLayout;
} VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT;
typedef struct VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT {
	VkStructureType sType;
	void* pNext;
	uint32_t maxIndirectPipelineCount;
	uint32_t maxIndirectShaderObjectCount;
	uint32_t maxIndirectSequenceCount;
	uint32_t maxIndirectCommandsTokenCount;
	uint32_t maxIndirectCommandsTokenOffset;
	uint32_t maxIndirectCommandsIndirectStride;
	VkIndirectCommandsInputModeFlagsEXT supportedIndirectCommandsInputModes;
	VkShaderStageFlags supportedIndirectCommandsShaderStages;
	VkShaderStageFlags supportedIndirectCommandsShaderStagesPipelineBinding;
	VkShaderStageFlags supportedIndirectCommandsShaderStagesShaderBinding;
	VkBool32 deviceGeneratedCommandsTransformFeedback;
	VkBool32 deviceGeneratedCommandsMultiDrawIndirectCount;
} VkPhysicalDeviceDeviceGeneratedCommandsPropertiesEXT;
typedef struct VkGeneratedCommandsMemoryRequirementsInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkIndirectExecutionSetEXT indirectExecutionSet;
	VkIndirectCommandsLayoutEXT indirectCommandsLayout;
	uint32_t maxSequenceCount;
	uint32_t maxDrawCount;
} VkGeneratedCommandsMemoryRequirementsInfoEXT;
typedef struct VkIndirectExecutionSetPipelineInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkPipeline initialPipeline;
	uint32_t maxPipelineCount;
} VkIndirectExecutionSetPipelineInfoEXT;
typedef struct VkIndirectExecutionSetShaderLayoutInfoEXT {
	VkStructureType sType;
	const void* pNext;
	uint32_t setLayoutCount;
	const VkDescriptorSetLayout* pSetLayouts;
} VkIndirectExecutionSetShaderLayoutInfoEXT;
typedef struct VkIndirectExecutionSetShaderInfoEXT {
	VkStructureType sType;
	const void* pNext;
	uint32_t shaderCount;
	const VkShaderEXT* pInitialShaders;
	const VkIndirectExecutionSetShaderLayoutInfoEXT* pSetLayoutInfos;
	uint32_t maxShaderCount;
	uint32_t pushConstantRangeCount;
	const VkPushConstantRange* pPushConstantRanges;
} VkIndirectExecutionSetShaderInfoEXT;
typedef union VkIndirectExecutionSetInfoEXT {
	const VkIndirectExecutionSetPipelineInfoEXT* pPipelineInfo;
	const VkIndirectExecutionSetShaderInfoEXT* pShaderInfo;
} VkIndirectExecutionSetInfoEXT;
typedef struct VkIndirectExecutionSetCreateInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkIndirectExecutionSetInfoTypeEXT type;
	VkIndirectExecutionSetInfoEXT info;
} VkIndirectExecutionSetCreateInfoEXT;
typedef struct VkGeneratedCommandsInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkShaderStageFlags shaderStages;
	VkIndirectExecutionSetEXT indirectExecutionSet;
	VkIndirectCommandsLayoutEXT indirectCommandsLayout;
	VkDeviceAddress indirectAddress;
	VkDeviceSize indirectAddressSize;
	VkDeviceAddress preprocessAddress;
	VkDeviceSize preprocessSize;
	uint32_t maxSequenceCount;
	VkDeviceAddress sequenceCountAddress;
	uint32_t maxDrawCount;
} VkGeneratedCommandsInfoEXT;
typedef struct VkWriteIndirectExecutionSetPipelineEXT {
	VkStructureType sType;
	const void* pNext;
	uint32_t index;
	VkPipeline pipeline;
} VkWriteIndirectExecutionSetPipelineEXT;
typedef struct VkIndirectCommandsPushConstantTokenEXT {
	VkPushConstantRange updateRange;
} VkIndirectCommandsPushConstantTokenEXT;
typedef struct VkIndirectCommandsVertexBufferTokenEXT {
	uint32_t vertexBindingUnit;
} VkIndirectCommandsVertexBufferTokenEXT;
typedef struct VkIndirectCommandsIndexBufferTokenEXT {
	VkIndirectCommandsInputModeFlagBitsEXT mode;
} VkIndirectCommandsIndexBufferTokenEXT;
typedef struct VkIndirectCommandsExecutionSetTokenEXT {
	VkIndirectExecutionSetInfoTypeEXT type;
	VkShaderStageFlags shaderStages;
} VkIndirectCommandsExecutionSetTokenEXT;
typedef union VkIndirectCommandsTokenDataEXT {
	const VkIndirectCommandsPushConstantTokenEXT* pPushConstant;
	const VkIndirectCommandsVertexBufferTokenEXT* pVertexBuffer;
	const VkIndirectCommandsIndexBufferTokenEXT* pIndexBuffer;
	const VkIndirectCommandsExecutionSetTokenEXT* pExecutionSet;
} VkIndirectCommandsTokenDataEXT;
typedef struct VkIndirectCommandsLayoutTokenEXT {
	VkStructureType sType;
	const void* pNext;
	VkIndirectCommandsTokenTypeEXT type;
	VkIndirectCommandsTokenDataEXT data;
	uint32_t offset;
} VkIndirectCommandsLayoutTokenEXT;
typedef struct VkIndirectCommandsLayoutCreateInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkIndirectCommandsLayoutUsageFlagsEXT flags;
	VkShaderStageFlags shaderStages;
	uint32_t indirectStride;
	VkPipelineLayout pipelineLayout;
	uint32_t tokenCount;
	const VkIndirectCommandsLayoutTokenEXT* pTokens;
} VkIndirectCommandsLayoutCreateInfoEXT;
typedef struct VkDrawIndirectCountIndirectCommandEXT {
	VkDeviceAddress bufferAddress;
	uint32_t stride;
	uint32_t commandCount;
} VkDrawIndirectCountIndirectCommandEXT;
typedef struct VkBindVertexBufferIndirectCommandEXT {
	VkDeviceAddress bufferAddress;
	uint32_t size;
	uint32_t stride;
} VkBindVertexBufferIndirectCommandEXT;
typedef struct VkBindIndexBufferIndirectCommandEXT {
	VkDeviceAddress bufferAddress;
	uint32_t size;
	VkIndexType indexType;
} VkBindIndexBufferIndirectCommandEXT;
typedef struct VkGeneratedCommandsPipelineInfoEXT {
	VkStructureType sType;
	void* pNext;
	VkPipeline pipeline;
} VkGeneratedCommandsPipelineInfoEXT;
typedef struct VkGeneratedCommandsShaderInfoEXT {
	VkStructureType sType;
	void* pNext;
	uint32_t shaderCount;
	const VkShaderEXT* pShaders;
} VkGeneratedCommandsShaderInfoEXT;
typedef struct VkWriteIndirectExecutionSetShaderEXT {
	VkStructureType sType;
	const void* pNext;
	uint32_t index;
	VkShaderEXT shader;
} VkWriteIndirectExecutionSetShaderEXT;
typedef void(VKAPI_PTR* PFN_vkGetGeneratedCommandsMemoryRequirementsEXT)(
    VkDevice device, const VkGeneratedCommandsMemoryRequirementsInfoEXT* pInfo,
    VkMemoryRequirements2* pMemoryRequirements);
typedef void(VKAPI_PTR* PFN_vkCmdPreprocessGeneratedCommandsEXT)(
    VkCommandBuffer commandBuffer, const VkGeneratedCommandsInfoEXT* pGeneratedCommandsInfo,
    VkCommandBuffer stateCommandBuffer);
typedef void(VKAPI_PTR* PFN_vkCmdExecuteGeneratedCommandsEXT)(VkCommandBuffer commandBuffer, VkBool32 isPreprocessed,
                                                              const VkGeneratedCommandsInfoEXT* pGeneratedCommandsInfo);
typedef VkResult(VKAPI_PTR* PFN_vkCreateIndirectCommandsLayoutEXT)(
    VkDevice device, const VkIndirectCommandsLayoutCreateInfoEXT* pCreateInfo, const VkAllocationCallbacks* pAllocator,
    VkIndirectCommandsLayoutEXT* pIndirectCommandsLayout);
typedef void(VKAPI_PTR* PFN_vkDestroyIndirectCommandsLayoutEXT)(VkDevice device,
                                                                VkIndirectCommandsLayoutEXT indirectCommandsLayout,
                                                                const VkAllocationCallbacks* pAllocator);
typedef VkResult(VKAPI_PTR* PFN_vkCreateIndirectExecutionSetEXT)(VkDevice device,
                                                                 const VkIndirectExecutionSetCreateInfoEXT* pCreateInfo,
                                                                 const VkAllocationCallbacks* pAllocator,
                                                                 VkIndirectExecutionSetEXT* pIndirectExecutionSet);
typedef void(VKAPI_PTR* PFN_vkDestroyIndirectExecutionSetEXT)(VkDevice device,
                                                              VkIndirectExecutionSetEXT indirectExecutionSet,
                                                              const VkAllocationCallbacks* pAllocator);
typedef void(VKAPI_PTR* PFN_vkUpdateIndirectExecutionSetPipelineEXT)(
    VkDevice device, VkIndirectExecutionSetEXT indirectExecutionSet, uint32_t executionSetWriteCount,
    const VkWriteIndirectExecutionSetPipelineEXT* pExecutionSetWrites);
typedef void(VKAPI_PTR* PFN_vkUpdateIndirectExecutionSetShaderEXT)(
    VkDevice device, VkIndirectExecutionSetEXT indirectExecutionSet, uint32_t executionSetWriteCount,
    const VkWriteIndirectExecutionSetShaderEXT* pExecutionSetWrites);
#endif

#ifndef VK_EXT_shader_object
#define VK_EXT_shader_object 1
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkShaderEXT)
#define VK_EXT_SHADER_OBJECT_SPEC_VERSION 1
#define VK_EXT_SHADER_OBJECT_EXTENSION_NAME "VK_EXT_shader_object"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT = VkStructureType(1000482000);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_PROPERTIES_EXT = VkStructureType(1000482001);
constexpr VkStructureType VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT = VkStructureType(1000482002);
constexpr VkStructureType VK_STRUCTURE_TYPE_SHADER_REQUIRED_SUBGROUP_SIZE_CREATE_INFO_EXT =
    VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO;
constexpr VkObjectType VK_OBJECT_TYPE_SHADER_EXT = VkObjectType(1000482000);
// A success code (positive): the binary is not one this device can use.
constexpr VkResult VK_INCOMPATIBLE_SHADER_BINARY_EXT = VkResult(1000482000);
constexpr VkResult VK_ERROR_INCOMPATIBLE_SHADER_BINARY_EXT = VK_INCOMPATIBLE_SHADER_BINARY_EXT;
typedef enum VkShaderCodeTypeEXT {
	VK_SHADER_CODE_TYPE_BINARY_EXT = 0,
	VK_SHADER_CODE_TYPE_SPIRV_EXT = 1,
	VK_SHADER_CODE_TYPE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkShaderCodeTypeEXT;
typedef enum VkShaderCreateFlagBitsEXT {
	VK_SHADER_CREATE_LINK_STAGE_BIT_EXT = 0x00000001,
	VK_SHADER_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT_EXT = 0x00000002,
	VK_SHADER_CREATE_REQUIRE_FULL_SUBGROUPS_BIT_EXT = 0x00000004,
	VK_SHADER_CREATE_NO_TASK_SHADER_BIT_EXT = 0x00000008,
	VK_SHADER_CREATE_DISPATCH_BASE_BIT_EXT = 0x00000010,
	VK_SHADER_CREATE_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_EXT = 0x00000020,
	VK_SHADER_CREATE_FRAGMENT_DENSITY_MAP_ATTACHMENT_BIT_EXT = 0x00000040,
	VK_SHADER_CREATE_FLAG_BITS_MAX_ENUM_EXT = 0x7FFFFFFF
} VkShaderCreateFlagBitsEXT;
typedef VkFlags VkShaderCreateFlagsEXT;
typedef struct VkPhysicalDeviceShaderObjectFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 shaderObject;
} VkPhysicalDeviceShaderObjectFeaturesEXT;
typedef struct VkPhysicalDeviceShaderObjectPropertiesEXT {
	VkStructureType sType;
	void* pNext;
	uint8_t shaderBinaryUUID[VK_UUID_SIZE];
	uint32_t shaderBinaryVersion;
} VkPhysicalDeviceShaderObjectPropertiesEXT;
typedef struct VkShaderCreateInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkShaderCreateFlagsEXT flags;
	VkShaderStageFlagBits stage;
	VkShaderStageFlags nextStage;
	VkShaderCodeTypeEXT codeType;
	size_t codeSize;
	const void* pCode;
	const char* pName;
	uint32_t setLayoutCount;
	const VkDescriptorSetLayout* pSetLayouts;
	uint32_t pushConstantRangeCount;
	const VkPushConstantRange* pPushConstantRanges;
	const VkSpecializationInfo* pSpecializationInfo;
} VkShaderCreateInfoEXT;
typedef VkPipelineShaderStageRequiredSubgroupSizeCreateInfo VkShaderRequiredSubgroupSizeCreateInfoEXT;
typedef VkResult(VKAPI_PTR* PFN_vkCreateShadersEXT)(VkDevice device, uint32_t createInfoCount,
                                                    const VkShaderCreateInfoEXT* pCreateInfos,
                                                    const VkAllocationCallbacks* pAllocator, VkShaderEXT* pShaders);
typedef void(VKAPI_PTR* PFN_vkDestroyShaderEXT)(VkDevice device, VkShaderEXT shader,
                                                const VkAllocationCallbacks* pAllocator);
typedef VkResult(VKAPI_PTR* PFN_vkGetShaderBinaryDataEXT)(VkDevice device, VkShaderEXT shader, size_t* pDataSize,
                                                          void* pData);
typedef void(VKAPI_PTR* PFN_vkCmdBindShadersEXT)(VkCommandBuffer commandBuffer, uint32_t stageCount,
                                                 const VkShaderStageFlagBits* pStages, const VkShaderEXT* pShaders);
#endif

// VK_EXT_discard_rectangles' specification version 2 (the 1.3.239 headers
// have version 1): the test's enable and mode as dynamic state.
#if VK_EXT_DISCARD_RECTANGLES_SPEC_VERSION < 2
#undef VK_EXT_DISCARD_RECTANGLES_SPEC_VERSION
#define VK_EXT_DISCARD_RECTANGLES_SPEC_VERSION 2
constexpr VkDynamicState VK_DYNAMIC_STATE_DISCARD_RECTANGLE_ENABLE_EXT = VkDynamicState(1000099001);
constexpr VkDynamicState VK_DYNAMIC_STATE_DISCARD_RECTANGLE_MODE_EXT = VkDynamicState(1000099002);
typedef void(VKAPI_PTR* PFN_vkCmdSetDiscardRectangleEnableEXT)(VkCommandBuffer commandBuffer,
                                                               VkBool32 discardRectangleEnable);
typedef void(VKAPI_PTR* PFN_vkCmdSetDiscardRectangleModeEXT)(VkCommandBuffer commandBuffer,
                                                             VkDiscardRectangleModeEXT discardRectangleMode);
#endif

#ifndef VK_EXT_depth_bias_control
#define VK_EXT_depth_bias_control 1
#define VK_EXT_DEPTH_BIAS_CONTROL_SPEC_VERSION 1
#define VK_EXT_DEPTH_BIAS_CONTROL_EXTENSION_NAME "VK_EXT_depth_bias_control"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_BIAS_CONTROL_FEATURES_EXT =
    VkStructureType(1000283000);
constexpr VkStructureType VK_STRUCTURE_TYPE_DEPTH_BIAS_INFO_EXT = VkStructureType(1000283001);
constexpr VkStructureType VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT = VkStructureType(1000283002);
typedef enum VkDepthBiasRepresentationEXT {
	VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORMAT_EXT = 0,
	VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORCE_UNORM_EXT = 1,
	VK_DEPTH_BIAS_REPRESENTATION_FLOAT_EXT = 2,
	VK_DEPTH_BIAS_REPRESENTATION_MAX_ENUM_EXT = 0x7FFFFFFF
} VkDepthBiasRepresentationEXT;
typedef struct VkPhysicalDeviceDepthBiasControlFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 depthBiasControl;
	VkBool32 leastRepresentableValueForceUnormRepresentation;
	VkBool32 floatRepresentation;
	VkBool32 depthBiasExact;
} VkPhysicalDeviceDepthBiasControlFeaturesEXT;
typedef struct VkDepthBiasInfoEXT {
	VkStructureType sType;
	const void* pNext;
	float depthBiasConstantFactor;
	float depthBiasClamp;
	float depthBiasSlopeFactor;
} VkDepthBiasInfoEXT;
typedef struct VkDepthBiasRepresentationInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkDepthBiasRepresentationEXT depthBiasRepresentation;
	VkBool32 depthBiasExact;
} VkDepthBiasRepresentationInfoEXT;
typedef void(VKAPI_PTR* PFN_vkCmdSetDepthBias2EXT)(VkCommandBuffer commandBuffer,
                                                   const VkDepthBiasInfoEXT* pDepthBiasInfo);
#endif

#ifndef VK_EXT_depth_clamp_control
#define VK_EXT_depth_clamp_control 1
#define VK_EXT_DEPTH_CLAMP_CONTROL_SPEC_VERSION 1
#define VK_EXT_DEPTH_CLAMP_CONTROL_EXTENSION_NAME "VK_EXT_depth_clamp_control"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_CONTROL_FEATURES_EXT =
    VkStructureType(1000582000);
constexpr VkStructureType VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLAMP_CONTROL_CREATE_INFO_EXT =
    VkStructureType(1000582001);
constexpr VkDynamicState VK_DYNAMIC_STATE_DEPTH_CLAMP_RANGE_EXT = VkDynamicState(1000582000);
typedef enum VkDepthClampModeEXT {
	VK_DEPTH_CLAMP_MODE_VIEWPORT_RANGE_EXT = 0,
	VK_DEPTH_CLAMP_MODE_USER_DEFINED_RANGE_EXT = 1,
	VK_DEPTH_CLAMP_MODE_MAX_ENUM_EXT = 0x7FFFFFFF
} VkDepthClampModeEXT;
typedef struct VkDepthClampRangeEXT {
	float minDepthClamp;
	float maxDepthClamp;
} VkDepthClampRangeEXT;
typedef struct VkPhysicalDeviceDepthClampControlFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 depthClampControl;
} VkPhysicalDeviceDepthClampControlFeaturesEXT;
typedef struct VkPipelineViewportDepthClampControlCreateInfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkDepthClampModeEXT depthClampMode;
	const VkDepthClampRangeEXT* pDepthClampRange;
} VkPipelineViewportDepthClampControlCreateInfoEXT;
typedef void(VKAPI_PTR* PFN_vkCmdSetDepthClampRangeEXT)(VkCommandBuffer commandBuffer,
                                                        VkDepthClampModeEXT depthClampMode,
                                                        const VkDepthClampRangeEXT* pDepthClampRange);
#endif

#ifndef VK_EXT_shader_uniform_buffer_unsized_array
#define VK_EXT_shader_uniform_buffer_unsized_array 1
#define VK_EXT_SHADER_UNIFORM_BUFFER_UNSIZED_ARRAY_SPEC_VERSION 1
#define VK_EXT_SHADER_UNIFORM_BUFFER_UNSIZED_ARRAY_EXTENSION_NAME "VK_EXT_shader_uniform_buffer_unsized_array"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_UNIFORM_BUFFER_UNSIZED_ARRAY_FEATURES_EXT =
    VkStructureType(1000642000);
typedef struct VkPhysicalDeviceShaderUniformBufferUnsizedArrayFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 shaderUniformBufferUnsizedArray;
} VkPhysicalDeviceShaderUniformBufferUnsizedArrayFeaturesEXT;
#endif

#ifndef VK_EXT_zero_initialize_device_memory
#define VK_EXT_zero_initialize_device_memory 1
#define VK_EXT_ZERO_INITIALIZE_DEVICE_MEMORY_SPEC_VERSION 1
#define VK_EXT_ZERO_INITIALIZE_DEVICE_MEMORY_EXTENSION_NAME "VK_EXT_zero_initialize_device_memory"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_DEVICE_MEMORY_FEATURES_EXT =
    VkStructureType(1000620000);
constexpr VkMemoryAllocateFlagBits VK_MEMORY_ALLOCATE_ZERO_INITIALIZE_BIT_EXT = VkMemoryAllocateFlagBits(0x00000008);
constexpr VkImageLayout VK_IMAGE_LAYOUT_ZERO_INITIALIZED_EXT = VkImageLayout(1000620000);
typedef struct VkPhysicalDeviceZeroInitializeDeviceMemoryFeaturesEXT {
	VkStructureType sType;
	void* pNext;
	VkBool32 zeroInitializeDeviceMemory;
} VkPhysicalDeviceZeroInitializeDeviceMemoryFeaturesEXT;
#endif

// VK_KHR_device_address_commands (extension 319): the registry's structures
// of the commands Tessera implements (no mesh, marker or acceleration
// structure ones).
#ifndef VK_KHR_device_address_commands
#define VK_KHR_device_address_commands 1
#define VK_KHR_DEVICE_ADDRESS_COMMANDS_SPEC_VERSION 1
#define VK_KHR_DEVICE_ADDRESS_COMMANDS_EXTENSION_NAME "VK_KHR_device_address_commands"
constexpr VkStructureType VK_STRUCTURE_TYPE_DEVICE_MEMORY_COPY_KHR = VkStructureType(1000318000);
constexpr VkStructureType VK_STRUCTURE_TYPE_COPY_DEVICE_MEMORY_INFO_KHR = VkStructureType(1000318001);
constexpr VkStructureType VK_STRUCTURE_TYPE_DEVICE_MEMORY_IMAGE_COPY_KHR = VkStructureType(1000318002);
constexpr VkStructureType VK_STRUCTURE_TYPE_COPY_DEVICE_MEMORY_IMAGE_INFO_KHR = VkStructureType(1000318003);
constexpr VkStructureType VK_STRUCTURE_TYPE_MEMORY_RANGE_BARRIERS_INFO_KHR = VkStructureType(1000318004);
constexpr VkStructureType VK_STRUCTURE_TYPE_MEMORY_RANGE_BARRIER_KHR = VkStructureType(1000318005);
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_ADDRESS_COMMANDS_FEATURES_KHR =
    VkStructureType(1000318006);
constexpr VkStructureType VK_STRUCTURE_TYPE_BIND_INDEX_BUFFER_3_INFO_KHR = VkStructureType(1000318007);
constexpr VkStructureType VK_STRUCTURE_TYPE_BIND_VERTEX_BUFFER_3_INFO_KHR = VkStructureType(1000318008);
constexpr VkStructureType VK_STRUCTURE_TYPE_DRAW_INDIRECT_2_INFO_KHR = VkStructureType(1000318009);
constexpr VkStructureType VK_STRUCTURE_TYPE_DRAW_INDIRECT_COUNT_2_INFO_KHR = VkStructureType(1000318010);
constexpr VkStructureType VK_STRUCTURE_TYPE_DISPATCH_INDIRECT_2_INFO_KHR = VkStructureType(1000318011);
constexpr VkStructureType VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_2_EXT = VkStructureType(1000318012);
constexpr VkStructureType VK_STRUCTURE_TYPE_BIND_TRANSFORM_FEEDBACK_BUFFER_2_INFO_EXT = VkStructureType(1000318013);
typedef VkFlags VkAddressCommandFlagsKHR;
typedef enum VkAddressCommandFlagBitsKHR {
	VK_ADDRESS_COMMAND_PROTECTED_BIT_KHR = 0x00000001,
	VK_ADDRESS_COMMAND_FULLY_BOUND_BIT_KHR = 0x00000002,
	VK_ADDRESS_COMMAND_STORAGE_BUFFER_USAGE_BIT_KHR = 0x00000004,
	VK_ADDRESS_COMMAND_UNKNOWN_STORAGE_BUFFER_USAGE_BIT_KHR = 0x00000008,
	VK_ADDRESS_COMMAND_TRANSFORM_FEEDBACK_BUFFER_USAGE_BIT_KHR = 0x00000010,
	VK_ADDRESS_COMMAND_UNKNOWN_TRANSFORM_FEEDBACK_BUFFER_USAGE_BIT_KHR = 0x00000020,
	VK_ADDRESS_COMMAND_FLAG_BITS_MAX_ENUM_KHR = 0x7FFFFFFF
} VkAddressCommandFlagBitsKHR;
typedef struct VkDeviceAddressRangeKHR {
	VkDeviceAddress address;
	VkDeviceSize size;
} VkDeviceAddressRangeKHR;
typedef struct VkStridedDeviceAddressRangeKHR {
	VkDeviceAddress address;
	VkDeviceSize size;
	VkDeviceSize stride;
} VkStridedDeviceAddressRangeKHR;
typedef struct VkDeviceMemoryCopyKHR {
	VkStructureType sType;
	const void* pNext;
	VkDeviceAddressRangeKHR srcRange;
	VkAddressCommandFlagsKHR srcFlags;
	VkDeviceAddressRangeKHR dstRange;
	VkAddressCommandFlagsKHR dstFlags;
} VkDeviceMemoryCopyKHR;
typedef struct VkCopyDeviceMemoryInfoKHR {
	VkStructureType sType;
	const void* pNext;
	uint32_t regionCount;
	const VkDeviceMemoryCopyKHR* pRegions;
} VkCopyDeviceMemoryInfoKHR;
typedef struct VkDeviceMemoryImageCopyKHR {
	VkStructureType sType;
	const void* pNext;
	VkDeviceAddressRangeKHR addressRange;
	VkAddressCommandFlagsKHR addressFlags;
	uint32_t addressRowLength;
	uint32_t addressImageHeight;
	VkImageSubresourceLayers imageSubresource;
	VkImageLayout imageLayout;
	VkOffset3D imageOffset;
	VkExtent3D imageExtent;
} VkDeviceMemoryImageCopyKHR;
typedef struct VkCopyDeviceMemoryImageInfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkImage image;
	uint32_t regionCount;
	const VkDeviceMemoryImageCopyKHR* pRegions;
} VkCopyDeviceMemoryImageInfoKHR;
typedef struct VkMemoryRangeBarrierKHR {
	VkStructureType sType;
	const void* pNext;
	VkPipelineStageFlags2 srcStageMask;
	VkAccessFlags2 srcAccessMask;
	VkPipelineStageFlags2 dstStageMask;
	VkAccessFlags2 dstAccessMask;
	uint32_t srcQueueFamilyIndex;
	uint32_t dstQueueFamilyIndex;
	VkDeviceAddressRangeKHR addressRange;
	VkAddressCommandFlagsKHR addressFlags;
} VkMemoryRangeBarrierKHR;
typedef struct VkMemoryRangeBarriersInfoKHR {
	VkStructureType sType;
	const void* pNext;
	uint32_t memoryRangeBarrierCount;
	const VkMemoryRangeBarrierKHR* pMemoryRangeBarriers;
} VkMemoryRangeBarriersInfoKHR;
typedef struct VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 deviceAddressCommands;
} VkPhysicalDeviceDeviceAddressCommandsFeaturesKHR;
typedef struct VkBindIndexBuffer3InfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkDeviceAddressRangeKHR addressRange;
	VkAddressCommandFlagsKHR addressFlags;
	VkIndexType indexType;
} VkBindIndexBuffer3InfoKHR;
typedef struct VkBindVertexBuffer3InfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkBool32 setStride;
	VkStridedDeviceAddressRangeKHR addressRange;
	VkAddressCommandFlagsKHR addressFlags;
} VkBindVertexBuffer3InfoKHR;
typedef struct VkDrawIndirect2InfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkStridedDeviceAddressRangeKHR addressRange;
	VkAddressCommandFlagsKHR addressFlags;
	uint32_t drawCount;
} VkDrawIndirect2InfoKHR;
typedef struct VkDrawIndirectCount2InfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkStridedDeviceAddressRangeKHR addressRange;
	VkAddressCommandFlagsKHR addressFlags;
	VkDeviceAddressRangeKHR countAddressRange;
	VkAddressCommandFlagsKHR countAddressFlags;
	uint32_t maxDrawCount;
} VkDrawIndirectCount2InfoKHR;
typedef struct VkDispatchIndirect2InfoKHR {
	VkStructureType sType;
	const void* pNext;
	VkDeviceAddressRangeKHR addressRange;
	VkAddressCommandFlagsKHR addressFlags;
} VkDispatchIndirect2InfoKHR;
typedef struct VkConditionalRenderingBeginInfo2EXT {
	VkStructureType sType;
	const void* pNext;
	VkDeviceAddressRangeKHR addressRange;
	VkAddressCommandFlagsKHR addressFlags;
	VkConditionalRenderingFlagsEXT flags;
} VkConditionalRenderingBeginInfo2EXT;
typedef struct VkBindTransformFeedbackBuffer2InfoEXT {
	VkStructureType sType;
	const void* pNext;
	VkDeviceAddressRangeKHR addressRange;
	VkAddressCommandFlagsKHR addressFlags;
} VkBindTransformFeedbackBuffer2InfoEXT;
typedef void(VKAPI_PTR* PFN_vkCmdBindIndexBuffer3KHR)(VkCommandBuffer commandBuffer,
                                                      const VkBindIndexBuffer3InfoKHR* pInfo);
typedef void(VKAPI_PTR* PFN_vkCmdBindVertexBuffers3KHR)(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                        uint32_t bindingCount,
                                                        const VkBindVertexBuffer3InfoKHR* pBindingInfos);
typedef void(VKAPI_PTR* PFN_vkCmdDrawIndirect2KHR)(VkCommandBuffer commandBuffer, const VkDrawIndirect2InfoKHR* pInfo);
typedef void(VKAPI_PTR* PFN_vkCmdDrawIndexedIndirect2KHR)(VkCommandBuffer commandBuffer,
                                                          const VkDrawIndirect2InfoKHR* pInfo);
typedef void(VKAPI_PTR* PFN_vkCmdDrawIndirectCount2KHR)(VkCommandBuffer commandBuffer,
                                                        const VkDrawIndirectCount2InfoKHR* pInfo);
typedef void(VKAPI_PTR* PFN_vkCmdDrawIndexedIndirectCount2KHR)(VkCommandBuffer commandBuffer,
                                                               const VkDrawIndirectCount2InfoKHR* pInfo);
typedef void(VKAPI_PTR* PFN_vkCmdDispatchIndirect2KHR)(VkCommandBuffer commandBuffer,
                                                       const VkDispatchIndirect2InfoKHR* pInfo);
typedef void(VKAPI_PTR* PFN_vkCmdCopyMemoryKHR)(VkCommandBuffer commandBuffer,
                                                const VkCopyDeviceMemoryInfoKHR* pCopyMemoryInfo);
typedef void(VKAPI_PTR* PFN_vkCmdCopyMemoryToImageKHR)(VkCommandBuffer commandBuffer,
                                                       const VkCopyDeviceMemoryImageInfoKHR* pCopyMemoryInfo);
typedef void(VKAPI_PTR* PFN_vkCmdCopyImageToMemoryKHR)(VkCommandBuffer commandBuffer,
                                                       const VkCopyDeviceMemoryImageInfoKHR* pCopyMemoryInfo);
typedef void(VKAPI_PTR* PFN_vkCmdUpdateMemoryKHR)(VkCommandBuffer commandBuffer,
                                                  const VkDeviceAddressRangeKHR* pDstRange,
                                                  VkAddressCommandFlagsKHR dstFlags, VkDeviceSize dataSize,
                                                  const void* pData);
typedef void(VKAPI_PTR* PFN_vkCmdFillMemoryKHR)(VkCommandBuffer commandBuffer, const VkDeviceAddressRangeKHR* pDstRange,
                                                VkAddressCommandFlagsKHR dstFlags, uint32_t data);
typedef void(VKAPI_PTR* PFN_vkCmdCopyQueryPoolResultsToMemoryKHR)(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                                  uint32_t firstQuery, uint32_t queryCount,
                                                                  const VkStridedDeviceAddressRangeKHR* pDstRange,
                                                                  VkAddressCommandFlagsKHR dstFlags,
                                                                  VkQueryResultFlags queryResultFlags);
typedef void(VKAPI_PTR* PFN_vkCmdBeginConditionalRendering2EXT)(
    VkCommandBuffer commandBuffer, const VkConditionalRenderingBeginInfo2EXT* pConditionalRenderingBegin);
typedef void(VKAPI_PTR* PFN_vkCmdBindTransformFeedbackBuffers2EXT)(
    VkCommandBuffer commandBuffer, uint32_t firstBinding, uint32_t bindingCount,
    const VkBindTransformFeedbackBuffer2InfoEXT* pBindingInfos);
typedef void(VKAPI_PTR* PFN_vkCmdBeginTransformFeedback2EXT)(
    VkCommandBuffer commandBuffer, uint32_t firstCounterRange, uint32_t counterRangeCount,
    const VkBindTransformFeedbackBuffer2InfoEXT* pCounterInfos);
typedef void(VKAPI_PTR* PFN_vkCmdEndTransformFeedback2EXT)(VkCommandBuffer commandBuffer, uint32_t firstCounterRange,
                                                           uint32_t counterRangeCount,
                                                           const VkBindTransformFeedbackBuffer2InfoEXT* pCounterInfos);
typedef void(VKAPI_PTR* PFN_vkCmdDrawIndirectByteCount2EXT)(VkCommandBuffer commandBuffer, uint32_t instanceCount,
                                                            uint32_t firstInstance,
                                                            const VkBindTransformFeedbackBuffer2InfoEXT* pCounterInfo,
                                                            uint32_t counterOffset, uint32_t vertexStride);
#endif

// The KHR promotions of VK_EXT_calibrated_timestamps, VK_EXT_depth_clamp_zero_one
// and VK_EXT_robustness2: their structures and sType values are the EXT ones.
#ifndef VK_KHR_calibrated_timestamps
#define VK_KHR_calibrated_timestamps 1
#define VK_KHR_CALIBRATED_TIMESTAMPS_SPEC_VERSION 1
#define VK_KHR_CALIBRATED_TIMESTAMPS_EXTENSION_NAME "VK_KHR_calibrated_timestamps"
constexpr VkStructureType VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_KHR =
    VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT;
typedef VkTimeDomainEXT VkTimeDomainKHR;
typedef VkCalibratedTimestampInfoEXT VkCalibratedTimestampInfoKHR;
constexpr VkTimeDomainKHR VK_TIME_DOMAIN_DEVICE_KHR = VK_TIME_DOMAIN_DEVICE_EXT;
constexpr VkTimeDomainKHR VK_TIME_DOMAIN_CLOCK_MONOTONIC_KHR = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
typedef PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR;
typedef PFN_vkGetCalibratedTimestampsEXT PFN_vkGetCalibratedTimestampsKHR;
#endif

#ifndef VK_KHR_depth_clamp_zero_one
#define VK_KHR_depth_clamp_zero_one 1
#define VK_KHR_DEPTH_CLAMP_ZERO_ONE_SPEC_VERSION 1
#define VK_KHR_DEPTH_CLAMP_ZERO_ONE_EXTENSION_NAME "VK_KHR_depth_clamp_zero_one"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_ZERO_ONE_FEATURES_KHR =
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_ZERO_ONE_FEATURES_EXT;
typedef VkPhysicalDeviceDepthClampZeroOneFeaturesEXT VkPhysicalDeviceDepthClampZeroOneFeaturesKHR;
#endif

#ifndef VK_KHR_robustness2
#define VK_KHR_robustness2 1
#define VK_KHR_ROBUSTNESS_2_SPEC_VERSION 1
#define VK_KHR_ROBUSTNESS_2_EXTENSION_NAME "VK_KHR_robustness2"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_KHR =
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT;
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_PROPERTIES_KHR =
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_PROPERTIES_EXT;
typedef VkPhysicalDeviceRobustness2FeaturesEXT VkPhysicalDeviceRobustness2FeaturesKHR;
typedef VkPhysicalDeviceRobustness2PropertiesEXT VkPhysicalDeviceRobustness2PropertiesKHR;
#endif

#ifndef VK_KHR_internally_synchronized_queues
#define VK_KHR_internally_synchronized_queues 1
#define VK_KHR_INTERNALLY_SYNCHRONIZED_QUEUES_SPEC_VERSION 1
#define VK_KHR_INTERNALLY_SYNCHRONIZED_QUEUES_EXTENSION_NAME "VK_KHR_internally_synchronized_queues"
constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES_KHR =
    VkStructureType(1000504000);
constexpr VkDeviceQueueCreateFlagBits VK_DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT_KHR =
    VkDeviceQueueCreateFlagBits(0x00000004);
typedef struct VkPhysicalDeviceInternallySynchronizedQueuesFeaturesKHR {
	VkStructureType sType;
	void* pNext;
	VkBool32 internallySynchronizedQueues;
} VkPhysicalDeviceInternallySynchronizedQueuesFeaturesKHR;
#endif
