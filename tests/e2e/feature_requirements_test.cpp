// The Vulkan spec's "Feature Requirements": every feature the reported
// version, the advertised extensions and the supported features make
// mandatory is on. The rules are the registry's <require><feature> entries
// (vk.xml since 1.3.2xx; Debian's 1.3.239 registry predates them, so they are
// written out here) for Vulkan 1.0-1.4 and for each device extension Tessera
// can advertise. A rule whose extension is not advertised or whose
// condition feature is off does not apply.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

// A rule: when `by` (a version "1.x" or an extension) applies and any
// of `any_of` (extensions or features; empty: always) holds, every feature
// in `features` must be on.
struct Rule {
	const char* by;
	std::vector<const char*> any_of;
	std::vector<const char*> features;
};

const std::vector<Rule>& Rules() {
	// What descriptorIndexing (and VK_EXT_descriptor_indexing) brings.
	static const std::vector<const char*> indexing = {"shaderSampledImageArrayDynamicIndexing",
	                                                  "shaderStorageBufferArrayDynamicIndexing",
	                                                  "shaderUniformTexelBufferArrayDynamicIndexing",
	                                                  "shaderStorageTexelBufferArrayDynamicIndexing",
	                                                  "shaderSampledImageArrayNonUniformIndexing",
	                                                  "shaderStorageBufferArrayNonUniformIndexing",
	                                                  "shaderUniformTexelBufferArrayNonUniformIndexing",
	                                                  "descriptorBindingSampledImageUpdateAfterBind",
	                                                  "descriptorBindingStorageImageUpdateAfterBind",
	                                                  "descriptorBindingStorageBufferUpdateAfterBind",
	                                                  "descriptorBindingUniformTexelBufferUpdateAfterBind",
	                                                  "descriptorBindingStorageTexelBufferUpdateAfterBind",
	                                                  "descriptorBindingUpdateUnusedWhilePending",
	                                                  "descriptorBindingPartiallyBound",
	                                                  "runtimeDescriptorArray"};
	static const std::vector<Rule> rules = {
	    {"1.0", {}, {"robustBufferAccess"}},
	    {"1.1", {}, {"multiview"}},
	    {"1.1", {"uniformAndStorageBuffer16BitAccess"}, {"storageBuffer16BitAccess"}},
	    {"1.1", {"VK_KHR_shader_draw_parameters"}, {"shaderDrawParameters"}},
	    {"1.2",
	     {},
	     {"subgroupBroadcastDynamicId", "imagelessFramebuffer", "uniformBufferStandardLayout",
	      "shaderSubgroupExtendedTypes", "separateDepthStencilLayouts", "hostQueryReset", "timelineSemaphore"}},
	    {"1.2", {"VK_KHR_sampler_mirror_clamp_to_edge"}, {"samplerMirrorClampToEdge"}},
	    {"1.2", {"VK_KHR_draw_indirect_count"}, {"drawIndirectCount"}},
	    {"1.2", {"uniformAndStorageBuffer8BitAccess"}, {"storageBuffer8BitAccess"}},
	    {"1.2", {"shaderSharedInt64Atomics", "shaderBufferInt64Atomics"}, {"shaderInt64"}},
	    {"1.2", {"VK_EXT_descriptor_indexing"}, {"descriptorIndexing"}},
	    {"1.2", {"descriptorIndexing"}, indexing},
	    {"1.2", {"VK_EXT_shader_viewport_index_layer"}, {"shaderOutputViewportIndex", "shaderOutputLayer"}},
	    {"1.2", {"VK_EXT_sampler_filter_minmax"}, {"samplerFilterMinmax"}},
	    {"1.3",
	     {},
	     {"shaderTerminateInvocation", "shaderDemoteToHelperInvocation", "privateData", "pipelineCreationCacheControl",
	      "synchronization2", "shaderZeroInitializeWorkgroupMemory", "robustImageAccess", "subgroupSizeControl",
	      "computeFullSubgroups", "dynamicRendering", "shaderIntegerDotProduct", "maintenance4", "vulkanMemoryModel",
	      "vulkanMemoryModelDeviceScope", "inlineUniformBlock", "bufferDeviceAddress"}},
	    {"1.3",
	     {"VK_EXT_descriptor_indexing", "descriptorIndexing"},
	     {"descriptorBindingInlineUniformBlockUpdateAfterBind"}},
	    // Vulkan 1.4 (the registry's VK_VERSION_1_4 <require> features; the
	    // line and vertex attribute ones are named as the 1.4 structure's).
	    {"1.4",
	     {},
	     {"fullDrawIndexUint32",
	      "imageCubeArray",
	      "independentBlend",
	      "sampleRateShading",
	      "drawIndirectFirstInstance",
	      "depthClamp",
	      "depthBiasClamp",
	      "samplerAnisotropy",
	      "fragmentStoresAndAtomics",
	      "shaderStorageImageExtendedFormats",
	      "shaderUniformBufferArrayDynamicIndexing",
	      "shaderSampledImageArrayDynamicIndexing",
	      "shaderStorageBufferArrayDynamicIndexing",
	      "shaderStorageImageArrayDynamicIndexing",
	      "shaderImageGatherExtended",
	      "shaderInt16",
	      "largePoints",
	      "samplerYcbcrConversion",
	      "storageBuffer16BitAccess",
	      "variablePointers",
	      "variablePointersStorageBuffer",
	      "samplerMirrorClampToEdge",
	      "scalarBlockLayout",
	      "shaderUniformTexelBufferArrayDynamicIndexing",
	      "shaderStorageTexelBufferArrayDynamicIndexing",
	      "shaderInt8",
	      "storageBuffer8BitAccess",
	      "globalPriorityQuery",
	      "shaderSubgroupRotate",
	      "shaderSubgroupRotateClustered",
	      "shaderFloatControls2",
	      "shaderExpectAssume",
	      "bresenhamLines",
	      "vertexAttributeInstanceRateDivisor",
	      "indexTypeUint8",
	      "maintenance5",
	      "pushDescriptor",
	      "dynamicRenderingLocalRead",
	      "maintenance6",
	      "pipelineRobustness",
	      "pipelineProtectedAccess"}},
	    // Vulkan 1.4 "Feature Requirements": with a graphics queue family and
	    // no other transfer family, hostImageCopy (Tessera has one family).
	    {"1.4", {}, {"hostImageCopy"}},
	    // Extensions: the features their own specification requires.
	    {"VK_KHR_dynamic_rendering", {}, {"dynamicRendering"}},
	    {"VK_KHR_maintenance5", {}, {"maintenance5"}},
	    {"VK_KHR_dynamic_rendering_local_read", {}, {"dynamicRenderingLocalRead"}},
	    {"VK_EXT_host_image_copy", {}, {"hostImageCopy"}},
	    {"VK_KHR_shader_float_controls2", {}, {"shaderFloatControls2"}},
	    {"VK_KHR_shader_maximal_reconvergence", {}, {"shaderMaximalReconvergence"}},
	    {"VK_KHR_shader_quad_control", {}, {"shaderQuadControl"}},
	    {"VK_EXT_shader_replicated_composites", {}, {"shaderReplicatedComposites"}},
	    {"VK_KHR_shader_relaxed_extended_instruction", {}, {"shaderRelaxedExtendedInstruction"}},
	    {"VK_KHR_multiview", {}, {"multiview"}},
	    {"VK_KHR_shader_float16_int8", {"shaderFloat16", "shaderInt8"}, {}},  // at least one of them
	    {"VK_KHR_16bit_storage", {}, {"storageBuffer16BitAccess"}},
	    {"VK_KHR_imageless_framebuffer", {}, {"imagelessFramebuffer"}},
	    {"VK_EXT_inline_uniform_block", {}, {"inlineUniformBlock"}},
	    {"VK_EXT_inline_uniform_block",
	     {"VK_EXT_descriptor_indexing", "descriptorIndexing"},
	     {"descriptorBindingInlineUniformBlockUpdateAfterBind"}},
	    {"VK_KHR_sampler_ycbcr_conversion", {}, {"samplerYcbcrConversion"}},
	    {"VK_EXT_descriptor_indexing", {}, indexing},
	    {"VK_KHR_shader_subgroup_extended_types", {}, {"shaderSubgroupExtendedTypes"}},
	    {"VK_KHR_8bit_storage", {}, {"storageBuffer8BitAccess"}},
	    {"VK_KHR_shader_atomic_int64", {}, {"shaderBufferInt64Atomics"}},
	    {"VK_KHR_timeline_semaphore", {}, {"timelineSemaphore"}},
	    {"VK_KHR_vulkan_memory_model", {}, {"vulkanMemoryModel"}},
	    {"VK_KHR_shader_terminate_invocation", {}, {"shaderTerminateInvocation"}},
	    {"VK_EXT_scalar_block_layout", {}, {"scalarBlockLayout"}},
	    {"VK_EXT_subgroup_size_control", {}, {"subgroupSizeControl", "computeFullSubgroups"}},
	    {"VK_KHR_separate_depth_stencil_layouts", {}, {"separateDepthStencilLayouts"}},
	    {"VK_KHR_uniform_buffer_standard_layout", {}, {"uniformBufferStandardLayout"}},
	    {"VK_EXT_provoking_vertex", {}, {"provokingVertexLast"}},
	    {"VK_KHR_buffer_device_address", {}, {"bufferDeviceAddress"}},
	    {"VK_EXT_host_query_reset", {}, {"hostQueryReset"}},
	    {"VK_EXT_extended_dynamic_state", {}, {"extendedDynamicState"}},
	    {"VK_EXT_swapchain_maintenance1", {}, {"swapchainMaintenance1"}},
	    {"VK_EXT_shader_demote_to_helper_invocation", {}, {"shaderDemoteToHelperInvocation"}},
	    {"VK_KHR_shader_integer_dot_product", {}, {"shaderIntegerDotProduct"}},
	    {"VK_EXT_texel_buffer_alignment", {}, {"texelBufferAlignment"}},
	    {"VK_EXT_custom_border_color", {}, {"customBorderColors"}},
	    {"VK_EXT_private_data", {}, {"privateData"}},
	    {"VK_EXT_pipeline_creation_cache_control", {}, {"pipelineCreationCacheControl"}},
	    {"VK_KHR_synchronization2", {}, {"synchronization2"}},
	    {"VK_KHR_zero_initialize_workgroup_memory", {}, {"shaderZeroInitializeWorkgroupMemory"}},
	    {"VK_EXT_image_robustness", {}, {"robustImageAccess"}},
	    {"VK_EXT_extended_dynamic_state2", {}, {"extendedDynamicState2"}},
	    {"VK_KHR_maintenance4", {}, {"maintenance4"}},
	    {"VK_EXT_depth_clip_enable", {}, {"depthClipEnable"}},
	    {"VK_EXT_depth_clip_control", {}, {"depthClipControl"}},
	    {"VK_EXT_index_type_uint8", {}, {"indexTypeUint8"}},
	    {"VK_EXT_color_write_enable", {}, {"colorWriteEnable"}},
	    {"VK_EXT_primitive_topology_list_restart", {}, {"primitiveTopologyListRestart"}},
	    {"VK_EXT_shader_viewport_index_layer", {}, {"multiViewport"}},
	    {"VK_EXT_non_seamless_cube_map", {}, {"nonSeamlessCubeMap"}},
	    {"VK_EXT_4444_formats", {}, {"formatA4R4G4B4"}},
	    {"VK_EXT_vertex_attribute_divisor", {}, {"vertexAttributeInstanceRateDivisor"}},
	    {"VK_EXT_transform_feedback", {}, {"transformFeedback"}},
	    {"VK_EXT_multi_draw", {}, {"multiDraw"}},
	    {"VK_EXT_conditional_rendering", {}, {"conditionalRendering"}},
	    {"VK_EXT_primitives_generated_query", {}, {"primitivesGeneratedQuery"}},
	    {"VK_EXT_border_color_swizzle", {}, {"borderColorSwizzle"}},
	    {"VK_EXT_line_rasterization", {}, {"rectangularLines"}},
	    {"VK_KHR_shader_clock", {}, {"shaderSubgroupClock"}},
	    {"VK_EXT_image_2d_view_of_3d", {}, {"image2DViewOf3D"}},
	    {"VK_EXT_attachment_feedback_loop_layout", {}, {"attachmentFeedbackLoopLayout"}},
	    {"VK_EXT_rasterization_order_attachment_access",
	     {"rasterizationOrderColorAttachmentAccess", "rasterizationOrderDepthAttachmentAccess",
	      "rasterizationOrderStencilAttachmentAccess"},
	     {}},  // at least one of them
	    {"VK_EXT_depth_clamp_zero_one", {}, {"depthClampZeroOne"}},
	    {"VK_EXT_robustness2", {"robustBufferAccess2", "robustImageAccess2", "nullDescriptor"}, {}},  // one of them
	    {"VK_EXT_global_priority_query", {}, {"globalPriorityQuery"}},
	    {"VK_EXT_memory_priority", {}, {"memoryPriority"}},
	    {"VK_EXT_pageable_device_local_memory", {}, {"pageableDeviceLocalMemory"}},
	    {"VK_EXT_ycbcr_image_arrays", {}, {"ycbcrImageArrays"}},
	    {"VK_EXT_pipeline_robustness", {}, {"pipelineRobustness"}},
	    {"VK_EXT_graphics_pipeline_library", {}, {"graphicsPipelineLibrary"}},
	    // Extensions newer than the system's vk.xml (src/icd/registry_newer.xml).
	    {"VK_KHR_depth_clamp_zero_one", {}, {"depthClampZeroOne"}},
	    {"VK_KHR_robustness2", {"robustBufferAccess2", "robustImageAccess2", "nullDescriptor"}, {}},  // one of them
	    {"VK_KHR_internally_synchronized_queues", {}, {"internallySynchronizedQueues"}},
	    {"VK_KHR_index_type_uint8", {}, {"indexTypeUint8"}},
	    {"VK_KHR_line_rasterization",
	     {"rectangularLines", "bresenhamLines", "smoothLines", "stippledRectangularLines", "stippledBresenhamLines",
	      "stippledSmoothLines"},
	     {}},  // at least one of them
	    {"VK_KHR_vertex_attribute_divisor", {}, {"vertexAttributeInstanceRateDivisor"}},
	    {"VK_KHR_shader_expect_assume", {}, {"shaderExpectAssume"}},
	    {"VK_KHR_shader_subgroup_rotate", {}, {"shaderSubgroupRotate"}},
	    {"VK_EXT_dynamic_rendering_unused_attachments", {}, {"dynamicRenderingUnusedAttachments"}},
	    {"VK_EXT_nested_command_buffer", {}, {"nestedCommandBuffer"}},
	    {"VK_EXT_legacy_vertex_attributes", {}, {"legacyVertexAttributes"}},
	    {"VK_EXT_image_sliced_view_of_3d", {}, {"imageSlicedViewOf3D"}},
	    {"VK_KHR_maintenance6", {}, {"maintenance6"}},
	    {"VK_KHR_compute_shader_derivatives", {}, {"computeDerivativeGroupLinear"}},
	    {"VK_KHR_maintenance7", {}, {"maintenance7"}},
	    {"VK_KHR_maintenance8", {}, {"maintenance8"}},
	    {"VK_EXT_device_generated_commands", {}, {"deviceGeneratedCommands"}},
	    {"VK_EXT_attachment_feedback_loop_dynamic_state", {}, {"attachmentFeedbackLoopDynamicState"}},
	    // VK_EXT_shader_object's feature, and its dependency's (dynamic rendering).
	    {"VK_EXT_shader_object", {}, {"shaderObject", "dynamicRendering"}},
	};
	return rules;
}

// The features the rules name, as the driver reports them.
std::map<std::string, bool> QueryFeatures(VkPhysicalDevice gpu) {
	VkPhysicalDeviceComputeShaderDerivativesFeaturesKHR derivatives{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_KHR};
	VkPhysicalDeviceShaderReplicatedCompositesFeaturesEXT replicated{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_REPLICATED_COMPOSITES_FEATURES_EXT, &derivatives};
	VkPhysicalDeviceShaderRelaxedExtendedInstructionFeaturesKHR relaxed{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_RELAXED_EXTENDED_INSTRUCTION_FEATURES_KHR, &replicated};
	VkPhysicalDeviceShaderQuadControlFeaturesKHR quad_control{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_QUAD_CONTROL_FEATURES_KHR, &relaxed};
	VkPhysicalDeviceShaderMaximalReconvergenceFeaturesKHR maximal{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_MAXIMAL_RECONVERGENCE_FEATURES_KHR, &quad_control};
	VkPhysicalDeviceShaderObjectFeaturesEXT shader_object{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT,
	                                                      &maximal};
	VkPhysicalDeviceVulkan14Features v14{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_FEATURES, &shader_object};
	VkPhysicalDeviceAttachmentFeedbackLoopDynamicStateFeaturesEXT feedback_dynamic{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_DYNAMIC_STATE_FEATURES_EXT, &v14};
	VkPhysicalDeviceMaintenance8FeaturesKHR maintenance8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_8_FEATURES_KHR,
	                                                     &feedback_dynamic};
	VkPhysicalDeviceDeviceGeneratedCommandsFeaturesEXT generated_commands{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEVICE_GENERATED_COMMANDS_FEATURES_EXT, &maintenance8};
	VkPhysicalDeviceMaintenance7FeaturesKHR maintenance7{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_7_FEATURES_KHR,
	                                                     &generated_commands};
	VkPhysicalDeviceMaintenance6FeaturesKHR maintenance6{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR,
	                                                     &maintenance7};
	VkPhysicalDeviceImageSlicedViewOf3DFeaturesEXT sliced_view{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_SLICED_VIEW_OF_3D_FEATURES_EXT, &maintenance6};
	VkPhysicalDeviceLegacyVertexAttributesFeaturesEXT legacy_attributes{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LEGACY_VERTEX_ATTRIBUTES_FEATURES_EXT, &sliced_view};
	VkPhysicalDeviceNestedCommandBufferFeaturesEXT nested{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NESTED_COMMAND_BUFFER_FEATURES_EXT, &legacy_attributes};
	VkPhysicalDeviceDynamicRenderingUnusedAttachmentsFeaturesEXT unused_attachments{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_UNUSED_ATTACHMENTS_FEATURES_EXT, &nested};
	VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR rotate{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_ROTATE_FEATURES_KHR, &unused_attachments};
	VkPhysicalDeviceShaderExpectAssumeFeaturesKHR expect_assume{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_EXPECT_ASSUME_FEATURES_KHR, &rotate};
	VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT pipeline_library{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT, &expect_assume};
	VkPhysicalDevicePipelineRobustnessFeaturesEXT pipeline_robustness{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT, &pipeline_library};
	VkPhysicalDeviceYcbcrImageArraysFeaturesEXT ycbcr_arrays{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_YCBCR_IMAGE_ARRAYS_FEATURES_EXT, &pipeline_robustness};
	VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR,
	                                             &ycbcr_arrays};
	VkPhysicalDeviceImage2DViewOf3DFeaturesEXT view_of_3d{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT, &clock};
	VkPhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT feedback_loop{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT, &view_of_3d};
	VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT raster_order{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT, &feedback_loop};
	VkPhysicalDeviceDepthClampZeroOneFeaturesEXT zero_one{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLAMP_ZERO_ONE_FEATURES_EXT, &raster_order};
	VkPhysicalDeviceGlobalPriorityQueryFeaturesKHR priority_query{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GLOBAL_PRIORITY_QUERY_FEATURES_KHR, &zero_one};
	VkPhysicalDeviceMemoryPriorityFeaturesEXT memory_priority{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PRIORITY_FEATURES_EXT, &priority_query};
	VkPhysicalDevicePageableDeviceLocalMemoryFeaturesEXT pageable{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PAGEABLE_DEVICE_LOCAL_MEMORY_FEATURES_EXT, &memory_priority};
	VkPhysicalDeviceLineRasterizationFeaturesEXT line{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT,
	                                                  &pageable};
	VkPhysicalDeviceBorderColorSwizzleFeaturesEXT border_swizzle{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT, &line};
	VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT, &border_swizzle};
	VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT generated{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT, &conditional};
	VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
	                                                 &generated};
	VkPhysicalDeviceMultiDrawFeaturesEXT multi_draw{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT, &xfb};
	VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT non_seamless{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT, &multi_draw};
	VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT list_restart{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT, &non_seamless};
	VkPhysicalDeviceColorWriteEnableFeaturesEXT color_write{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT, &list_restart};
	VkPhysicalDeviceIndexTypeUint8FeaturesEXT uint8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT,
	                                                &color_write};
	VkPhysicalDevice4444FormatsFeaturesEXT formats4444{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_4444_FORMATS_FEATURES_EXT,
	                                                   &uint8};
	VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT, &formats4444};
	VkPhysicalDeviceDepthClipControlFeaturesEXT clip_control{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT, &divisor};
	VkPhysicalDeviceDepthClipEnableFeaturesEXT clip_enable{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT, &clip_control};
	VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT, &clip_enable};
	VkPhysicalDeviceExtendedDynamicStateFeaturesEXT eds{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT, &eds2};
	VkPhysicalDeviceCustomBorderColorFeaturesEXT border{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT, &eds};
	VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT texel{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT, &border};
	VkPhysicalDeviceProvokingVertexFeaturesEXT provoking{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT, &texel};
	VkPhysicalDeviceInternallySynchronizedQueuesFeaturesKHR internal_sync{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES_KHR, &provoking};
	VkPhysicalDeviceRobustness2FeaturesEXT robustness2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT,
	                                                   &internal_sync};
	VkPhysicalDeviceSwapchainMaintenance1FeaturesEXT swapchain{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SWAPCHAIN_MAINTENANCE_1_FEATURES_EXT, &robustness2};
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &swapchain};
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
	VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
	VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
	vkGetPhysicalDeviceFeatures2(gpu, &f);
	std::map<std::string, bool> m;
#define TESSERA_F(s, name) m[#name] = (s).name != VK_FALSE
	const VkPhysicalDeviceFeatures& c = f.features;
	TESSERA_F(c, robustBufferAccess);
	TESSERA_F(c, fullDrawIndexUint32);
	TESSERA_F(c, imageCubeArray);
	TESSERA_F(c, independentBlend);
	TESSERA_F(c, sampleRateShading);
	TESSERA_F(c, drawIndirectFirstInstance);
	TESSERA_F(c, depthClamp);
	TESSERA_F(c, depthBiasClamp);
	TESSERA_F(c, samplerAnisotropy);
	TESSERA_F(c, fragmentStoresAndAtomics);
	TESSERA_F(c, shaderStorageImageExtendedFormats);
	TESSERA_F(c, shaderUniformBufferArrayDynamicIndexing);
	TESSERA_F(c, shaderStorageImageArrayDynamicIndexing);
	TESSERA_F(c, shaderImageGatherExtended);
	TESSERA_F(c, shaderInt16);
	TESSERA_F(c, largePoints);
	TESSERA_F(c, shaderInt64);
	TESSERA_F(c, multiViewport);
	TESSERA_F(c, shaderSampledImageArrayDynamicIndexing);
	TESSERA_F(c, shaderStorageBufferArrayDynamicIndexing);
	TESSERA_F(v11, multiview);
	TESSERA_F(v11, variablePointers);
	TESSERA_F(v11, variablePointersStorageBuffer);
	TESSERA_F(v11, storageBuffer16BitAccess);
	TESSERA_F(v11, uniformAndStorageBuffer16BitAccess);
	TESSERA_F(v11, shaderDrawParameters);
	TESSERA_F(v11, samplerYcbcrConversion);
	TESSERA_F(v12, samplerMirrorClampToEdge);
	TESSERA_F(v12, drawIndirectCount);
	TESSERA_F(v12, storageBuffer8BitAccess);
	TESSERA_F(v12, uniformAndStorageBuffer8BitAccess);
	TESSERA_F(v12, shaderBufferInt64Atomics);
	TESSERA_F(v12, shaderSharedInt64Atomics);
	TESSERA_F(v12, shaderFloat16);
	TESSERA_F(v12, shaderInt8);
	TESSERA_F(v12, descriptorIndexing);
	TESSERA_F(v12, shaderUniformTexelBufferArrayDynamicIndexing);
	TESSERA_F(v12, shaderStorageTexelBufferArrayDynamicIndexing);
	TESSERA_F(v12, shaderSampledImageArrayNonUniformIndexing);
	TESSERA_F(v12, shaderStorageBufferArrayNonUniformIndexing);
	TESSERA_F(v12, shaderUniformTexelBufferArrayNonUniformIndexing);
	TESSERA_F(v12, descriptorBindingSampledImageUpdateAfterBind);
	TESSERA_F(v12, descriptorBindingStorageImageUpdateAfterBind);
	TESSERA_F(v12, descriptorBindingStorageBufferUpdateAfterBind);
	TESSERA_F(v12, descriptorBindingUniformTexelBufferUpdateAfterBind);
	TESSERA_F(v12, descriptorBindingStorageTexelBufferUpdateAfterBind);
	TESSERA_F(v12, descriptorBindingUpdateUnusedWhilePending);
	TESSERA_F(v12, descriptorBindingPartiallyBound);
	TESSERA_F(v12, runtimeDescriptorArray);
	TESSERA_F(v12, samplerFilterMinmax);
	TESSERA_F(v12, scalarBlockLayout);
	TESSERA_F(v12, imagelessFramebuffer);
	TESSERA_F(v12, uniformBufferStandardLayout);
	TESSERA_F(v12, shaderSubgroupExtendedTypes);
	TESSERA_F(v12, separateDepthStencilLayouts);
	TESSERA_F(v12, hostQueryReset);
	TESSERA_F(v12, timelineSemaphore);
	TESSERA_F(v12, bufferDeviceAddress);
	TESSERA_F(v12, vulkanMemoryModel);
	TESSERA_F(v12, vulkanMemoryModelDeviceScope);
	TESSERA_F(v12, shaderOutputViewportIndex);
	TESSERA_F(v12, shaderOutputLayer);
	TESSERA_F(v12, subgroupBroadcastDynamicId);
	TESSERA_F(v13, robustImageAccess);
	TESSERA_F(v13, inlineUniformBlock);
	TESSERA_F(v13, descriptorBindingInlineUniformBlockUpdateAfterBind);
	TESSERA_F(v13, pipelineCreationCacheControl);
	TESSERA_F(v13, privateData);
	TESSERA_F(v13, shaderDemoteToHelperInvocation);
	TESSERA_F(v13, shaderTerminateInvocation);
	TESSERA_F(v13, subgroupSizeControl);
	TESSERA_F(v13, computeFullSubgroups);
	TESSERA_F(v13, synchronization2);
	TESSERA_F(v13, shaderZeroInitializeWorkgroupMemory);
	TESSERA_F(v13, dynamicRendering);
	TESSERA_F(v13, shaderIntegerDotProduct);
	TESSERA_F(v13, maintenance4);
	TESSERA_F(v14, globalPriorityQuery);
	TESSERA_F(v14, shaderSubgroupRotate);
	TESSERA_F(v14, shaderSubgroupRotateClustered);
	TESSERA_F(v14, shaderFloatControls2);
	TESSERA_F(v14, shaderExpectAssume);
	TESSERA_F(v14, bresenhamLines);
	TESSERA_F(v14, vertexAttributeInstanceRateDivisor);
	TESSERA_F(v14, indexTypeUint8);
	TESSERA_F(v14, dynamicRenderingLocalRead);
	TESSERA_F(v14, maintenance5);
	TESSERA_F(v14, maintenance6);
	TESSERA_F(v14, pipelineProtectedAccess);
	TESSERA_F(v14, pipelineRobustness);
	TESSERA_F(v14, hostImageCopy);
	TESSERA_F(v14, pushDescriptor);
	TESSERA_F(maximal, shaderMaximalReconvergence);
	TESSERA_F(quad_control, shaderQuadControl);
	TESSERA_F(replicated, shaderReplicatedComposites);
	TESSERA_F(derivatives, computeDerivativeGroupLinear);
	TESSERA_F(relaxed, shaderRelaxedExtendedInstruction);
	TESSERA_F(swapchain, swapchainMaintenance1);
	TESSERA_F(provoking, provokingVertexLast);
	TESSERA_F(texel, texelBufferAlignment);
	TESSERA_F(border, customBorderColors);
	TESSERA_F(eds, extendedDynamicState);
	TESSERA_F(eds2, extendedDynamicState2);
	TESSERA_F(clip_enable, depthClipEnable);
	TESSERA_F(clip_control, depthClipControl);
	TESSERA_F(uint8, indexTypeUint8);
	TESSERA_F(color_write, colorWriteEnable);
	TESSERA_F(list_restart, primitiveTopologyListRestart);
	TESSERA_F(non_seamless, nonSeamlessCubeMap);
	TESSERA_F(formats4444, formatA4R4G4B4);
	TESSERA_F(divisor, vertexAttributeInstanceRateDivisor);
	TESSERA_F(xfb, transformFeedback);
	TESSERA_F(multi_draw, multiDraw);
	TESSERA_F(conditional, conditionalRendering);
	TESSERA_F(generated, primitivesGeneratedQuery);
	TESSERA_F(border_swizzle, borderColorSwizzle);
	TESSERA_F(line, rectangularLines);
	TESSERA_F(line, bresenhamLines);
	TESSERA_F(line, smoothLines);
	TESSERA_F(line, stippledRectangularLines);
	TESSERA_F(line, stippledBresenhamLines);
	TESSERA_F(line, stippledSmoothLines);
	TESSERA_F(expect_assume, shaderExpectAssume);
	TESSERA_F(rotate, shaderSubgroupRotate);
	TESSERA_F(unused_attachments, dynamicRenderingUnusedAttachments);
	TESSERA_F(nested, nestedCommandBuffer);
	TESSERA_F(legacy_attributes, legacyVertexAttributes);
	TESSERA_F(sliced_view, imageSlicedViewOf3D);
	TESSERA_F(maintenance6, maintenance6);
	TESSERA_F(maintenance7, maintenance7);
	TESSERA_F(maintenance8, maintenance8);
	TESSERA_F(generated_commands, deviceGeneratedCommands);
	TESSERA_F(feedback_dynamic, attachmentFeedbackLoopDynamicState);
	TESSERA_F(shader_object, shaderObject);
	TESSERA_F(clock, shaderSubgroupClock);
	TESSERA_F(view_of_3d, image2DViewOf3D);
	TESSERA_F(feedback_loop, attachmentFeedbackLoopLayout);
	TESSERA_F(raster_order, rasterizationOrderColorAttachmentAccess);
	TESSERA_F(raster_order, rasterizationOrderDepthAttachmentAccess);
	TESSERA_F(raster_order, rasterizationOrderStencilAttachmentAccess);
	TESSERA_F(zero_one, depthClampZeroOne);
	TESSERA_F(robustness2, robustBufferAccess2);
	TESSERA_F(robustness2, robustImageAccess2);
	TESSERA_F(robustness2, nullDescriptor);
	TESSERA_F(internal_sync, internallySynchronizedQueues);
	TESSERA_F(priority_query, globalPriorityQuery);
	TESSERA_F(memory_priority, memoryPriority);
	TESSERA_F(pageable, pageableDeviceLocalMemory);
	TESSERA_F(ycbcr_arrays, ycbcrImageArrays);
	TESSERA_F(pipeline_robustness, pipelineRobustness);
	TESSERA_F(pipeline_library, graphicsPipelineLibrary);
#undef TESSERA_F
	return m;
}

}  // namespace

TEST_CASE("every feature the reported version and extensions make mandatory is on", "[device]") {
	auto ctx = Context::Create(Driver::Tessera);
	REQUIRE(ctx);
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(ctx->physical_device(), &props);
	uint32_t count = 0;
	vkEnumerateDeviceExtensionProperties(ctx->physical_device(), nullptr, &count, nullptr);
	std::vector<VkExtensionProperties> list(count);
	vkEnumerateDeviceExtensionProperties(ctx->physical_device(), nullptr, &count, list.data());
	std::set<std::string> extensions;
	for (const VkExtensionProperties& e : list) extensions.insert(e.extensionName);
	const std::map<std::string, bool> features = QueryFeatures(ctx->physical_device());

	auto holds = [&](const std::string& name) {
		if (name.rfind("VK_", 0) == 0) return extensions.count(name) != 0;
		auto f = features.find(name);
		REQUIRE(f != features.end());  // every name a rule uses is queried
		return f->second;
	};
	auto version_applies = [&](const std::string& v) {
		const uint32_t minor = uint32_t(v[2] - '0');
		return VK_API_VERSION_MAJOR(props.apiVersion) == 1 && VK_API_VERSION_MINOR(props.apiVersion) >= minor;
	};
	uint32_t applied = 0;
	for (const Rule& rule : Rules()) {
		const std::string by = rule.by;
		const bool applies = by.rfind("VK_", 0) == 0 ? holds(by) : version_applies(by);
		if (!applies) continue;
		bool condition = rule.any_of.empty();
		for (const char* c : rule.any_of) condition |= holds(c);
		INFO(by);
		if (rule.features.empty()) {  // "one of": the condition itself is the requirement
			CHECK(condition);
			continue;
		}
		if (!condition) continue;
		++applied;
		for (const char* f : rule.features) {
			INFO(f);
			CHECK(holds(f));
		}
	}
	CHECK(applied > 20);  // Vulkan 1.3 and the advertised extensions bring many rules
	CHECK(ctx->validation_errors() == 0);
}
