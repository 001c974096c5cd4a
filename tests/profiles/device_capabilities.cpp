// tessera-device-capabilities: writes the first Vulkan device's extensions,
// features and properties as JSON in the schema of the Khronos profiles
// ({"capabilities": {"device": {"extensions", "features", "properties"}}}),
// which is what `vulkaninfo --json` writes. Debian's vulkaninfo (1.3.239)
// knows no structure newer than its headers, so it cannot show what the
// Roadmap 2024 profile asks of a Vulkan 1.4 device (quad control, maximal
// reconvergence, maintenance5, ...); this tool queries those too, through
// the loader. tests/scripts/profile_check.py compares its output with a
// profile.
#include <vulkan/vulkan.h>

#include <cstdio>
#include <string>
#include <vector>

#include "capability_members.h"
#include "icd/vulkan_newer.h"

using namespace tessera::test;

namespace {

// A JSON object written member by member.
class JsonObject {
public:
	explicit JsonObject(std::string& out) : out_(out) { out_ += '{'; }
	~JsonObject() { out_ += '}'; }
	std::string& Key(const char* name) {
		if (!first_) out_ += ',';
		first_ = false;
		out_ += '"';
		out_ += name;
		out_ += "\":";
		return out_;
	}

private:
	std::string& out_;
	bool first_ = true;
};

void Write(std::string& out, bool value) { out += value ? "true" : "false"; }
void Write(std::string& out, uint32_t value) { out += std::to_string(value); }
void Write(std::string& out, int32_t value) { out += std::to_string(value); }
void Write(std::string& out, uint64_t value) { out += std::to_string(value); }
void Write(std::string& out, float value) {
	char text[32];
	std::snprintf(text, sizeof(text), "%.9g", double(value));
	out += text;
}
template <class T, size_t N>
void WriteArray(std::string& out, const T (&values)[N]) {
	out += '[';
	for (size_t i = 0; i < N; ++i) {
		if (i) out += ',';
		Write(out, values[i]);
	}
	out += ']';
}
template <size_t N>
void WriteFlags(std::string& out, uint32_t flags, const BitName (&names)[N]) {
	out += '[';
	bool first = true;
	for (const BitName& bit : names)
		if (flags & bit.bit) {
			out += first ? "\"" : ",\"";
			out += bit.name;
			out += '"';
			first = false;
		}
	out += ']';
}

// A feature structure chained into vkGetPhysicalDeviceFeatures2 and written
// under its name.
struct FeatureStruct {
	const char* name;
	VkBaseOutStructure* chain;
	void (*write)(std::string& out, const void* s);
};

#define TESSERA_WRITE_FEATURE(member) Write(object.Key(#member), s.member != VK_FALSE);
#define TESSERA_FEATURE_WRITER(Struct, List)                              \
	[](std::string& out, const void* p) {                                 \
		const auto& s = *static_cast<const VkPhysicalDevice##Struct*>(p); \
		JsonObject object(out);                                           \
		List(TESSERA_WRITE_FEATURE)                                       \
	}

#define TESSERA_WRITE_PROPERTY_Bool(member) Write(object.Key(#member), s.member != VK_FALSE)
#define TESSERA_WRITE_PROPERTY_Number(member) Write(object.Key(#member), s.member)
#define TESSERA_WRITE_PROPERTY_ArrayNumber(member) WriteArray(object.Key(#member), s.member)
#define TESSERA_WRITE_PROPERTY_Flags_ShaderStageBits(member) WriteFlags(object.Key(#member), s.member, kShaderStageBits)
#define TESSERA_WRITE_PROPERTY_Flags_SubgroupFeatureBits(member) \
	WriteFlags(object.Key(#member), s.member, kSubgroupFeatureBits)
#define TESSERA_WRITE_PROPERTY_Flags_SampleCountBits(member) WriteFlags(object.Key(#member), s.member, kSampleCountBits)
#define TESSERA_WRITE_PROPERTY_Flags_ResolveModeBits(member) WriteFlags(object.Key(#member), s.member, kResolveModeBits)
#define TESSERA_WRITE_PROPERTY(kind, member) TESSERA_WRITE_PROPERTY_##kind(member);

template <class T>
void WriteProperties(std::string& out, const T& s);
template <>
void WriteProperties(std::string& out, const VkPhysicalDeviceLimits& s) {
	JsonObject object(out);
	TESSERA_PROPERTIES_Limits(TESSERA_WRITE_PROPERTY)
}
template <>
void WriteProperties(std::string& out, const VkPhysicalDeviceVulkan11Properties& s) {
	JsonObject object(out);
	TESSERA_PROPERTIES_Vulkan11Properties(TESSERA_WRITE_PROPERTY)
}
template <>
void WriteProperties(std::string& out, const VkPhysicalDeviceVulkan12Properties& s) {
	JsonObject object(out);
	TESSERA_PROPERTIES_Vulkan12Properties(TESSERA_WRITE_PROPERTY)
}
template <>
void WriteProperties(std::string& out, const VkPhysicalDeviceVulkan13Properties& s) {
	JsonObject object(out);
	TESSERA_PROPERTIES_Vulkan13Properties(TESSERA_WRITE_PROPERTY)
}

int Run() {
	VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.pApplicationName = "tessera-device-capabilities";
	app.apiVersion = VK_MAKE_API_VERSION(0, 1, 4, 0);
	VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	instance_info.pApplicationInfo = &app;
	VkInstance instance = VK_NULL_HANDLE;
	if (vkCreateInstance(&instance_info, nullptr, &instance) != VK_SUCCESS) {
		std::fprintf(stderr, "vkCreateInstance failed\n");
		return 1;
	}
	uint32_t count = 1;
	VkPhysicalDevice gpu = VK_NULL_HANDLE;
	VkResult result = vkEnumeratePhysicalDevices(instance, &count, &gpu);
	if ((result != VK_SUCCESS && result != VK_INCOMPLETE) || count == 0) {
		std::fprintf(stderr, "no Vulkan device\n");
		vkDestroyInstance(instance, nullptr);
		return 1;
	}

	// Features: the core structures and those of the extensions the
	// Khronos roadmap profiles name.
	VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
	VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	VkPhysicalDeviceGlobalPriorityQueryFeaturesKHR priority{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GLOBAL_PRIORITY_QUERY_FEATURES_KHR};
	VkPhysicalDeviceShaderQuadControlFeaturesKHR quad{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_QUAD_CONTROL_FEATURES_KHR};
	VkPhysicalDeviceShaderMaximalReconvergenceFeaturesKHR reconvergence{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_MAXIMAL_RECONVERGENCE_FEATURES_KHR};
	VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR uniform_flow{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR};
	VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR rotate{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_ROTATE_FEATURES_KHR};
	VkPhysicalDeviceShaderFloatControls2FeaturesKHR float_controls2{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT_CONTROLS_2_FEATURES_KHR};
	VkPhysicalDeviceShaderExpectAssumeFeaturesKHR expect_assume{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_EXPECT_ASSUME_FEATURES_KHR};
	VkPhysicalDeviceVertexAttributeDivisorFeaturesKHR divisor{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_KHR};
	VkPhysicalDeviceIndexTypeUint8FeaturesKHR uint8{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_KHR};
	VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR local_read{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR};
	VkPhysicalDeviceMaintenance5FeaturesKHR maintenance5{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_FEATURES_KHR};
	VkPhysicalDeviceLineRasterizationFeaturesKHR lines{
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_KHR};
	auto base = [](auto& s) { return reinterpret_cast<VkBaseOutStructure*>(&s); };
	const FeatureStruct feature_structs[] = {
	    {"VkPhysicalDeviceVulkan11Features", base(v11),
	     TESSERA_FEATURE_WRITER(Vulkan11Features, TESSERA_FEATURES_Vulkan11Features)},
	    {"VkPhysicalDeviceVulkan12Features", base(v12),
	     TESSERA_FEATURE_WRITER(Vulkan12Features, TESSERA_FEATURES_Vulkan12Features)},
	    {"VkPhysicalDeviceVulkan13Features", base(v13),
	     TESSERA_FEATURE_WRITER(Vulkan13Features, TESSERA_FEATURES_Vulkan13Features)},
	    {"VkPhysicalDeviceGlobalPriorityQueryFeaturesKHR", base(priority),
	     TESSERA_FEATURE_WRITER(GlobalPriorityQueryFeaturesKHR, TESSERA_FEATURES_GlobalPriorityQueryFeaturesKHR)},
	    {"VkPhysicalDeviceShaderQuadControlFeaturesKHR", base(quad),
	     TESSERA_FEATURE_WRITER(ShaderQuadControlFeaturesKHR, TESSERA_FEATURES_ShaderQuadControlFeaturesKHR)},
	    {"VkPhysicalDeviceShaderMaximalReconvergenceFeaturesKHR", base(reconvergence),
	     TESSERA_FEATURE_WRITER(ShaderMaximalReconvergenceFeaturesKHR,
	                            TESSERA_FEATURES_ShaderMaximalReconvergenceFeaturesKHR)},
	    {"VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR", base(uniform_flow),
	     TESSERA_FEATURE_WRITER(ShaderSubgroupUniformControlFlowFeaturesKHR,
	                            TESSERA_FEATURES_ShaderSubgroupUniformControlFlowFeaturesKHR)},
	    {"VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR", base(rotate),
	     TESSERA_FEATURE_WRITER(ShaderSubgroupRotateFeaturesKHR, TESSERA_FEATURES_ShaderSubgroupRotateFeaturesKHR)},
	    {"VkPhysicalDeviceShaderFloatControls2FeaturesKHR", base(float_controls2),
	     TESSERA_FEATURE_WRITER(ShaderFloatControls2FeaturesKHR, TESSERA_FEATURES_ShaderFloatControls2FeaturesKHR)},
	    {"VkPhysicalDeviceShaderExpectAssumeFeaturesKHR", base(expect_assume),
	     TESSERA_FEATURE_WRITER(ShaderExpectAssumeFeaturesKHR, TESSERA_FEATURES_ShaderExpectAssumeFeaturesKHR)},
	    {"VkPhysicalDeviceVertexAttributeDivisorFeaturesKHR", base(divisor),
	     TESSERA_FEATURE_WRITER(VertexAttributeDivisorFeaturesKHR, TESSERA_FEATURES_VertexAttributeDivisorFeaturesKHR)},
	    {"VkPhysicalDeviceIndexTypeUint8FeaturesKHR", base(uint8),
	     TESSERA_FEATURE_WRITER(IndexTypeUint8FeaturesKHR, TESSERA_FEATURES_IndexTypeUint8FeaturesKHR)},
	    {"VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR", base(local_read),
	     TESSERA_FEATURE_WRITER(DynamicRenderingLocalReadFeaturesKHR,
	                            TESSERA_FEATURES_DynamicRenderingLocalReadFeaturesKHR)},
	    {"VkPhysicalDeviceMaintenance5FeaturesKHR", base(maintenance5),
	     TESSERA_FEATURE_WRITER(Maintenance5FeaturesKHR, TESSERA_FEATURES_Maintenance5FeaturesKHR)},
	    {"VkPhysicalDeviceLineRasterizationFeaturesKHR", base(lines),
	     TESSERA_FEATURE_WRITER(LineRasterizationFeaturesKHR, TESSERA_FEATURES_LineRasterizationFeaturesKHR)},
	};
	VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
	VkBaseOutStructure* tail = reinterpret_cast<VkBaseOutStructure*>(&features);
	for (const FeatureStruct& s : feature_structs) tail = tail->pNext = s.chain;
	vkGetPhysicalDeviceFeatures2(gpu, &features);

	VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
	VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES, &p11};
	VkPhysicalDeviceVulkan13Properties p13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES, &p12};
	VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p13};
	vkGetPhysicalDeviceProperties2(gpu, &properties);

	uint32_t extension_count = 0;
	vkEnumerateDeviceExtensionProperties(gpu, nullptr, &extension_count, nullptr);
	std::vector<VkExtensionProperties> extensions(extension_count);
	vkEnumerateDeviceExtensionProperties(gpu, nullptr, &extension_count, extensions.data());
	extensions.resize(extension_count);

	std::string out;
	{
		JsonObject root(out);
		JsonObject capabilities(root.Key("capabilities"));
		JsonObject device(capabilities.Key("device"));
		{
			JsonObject list(device.Key("extensions"));
			for (const VkExtensionProperties& e : extensions) Write(list.Key(e.extensionName), e.specVersion);
		}
		{
			JsonObject list(device.Key("features"));
			{
				const VkPhysicalDeviceFeatures& s = features.features;
				JsonObject object(list.Key("VkPhysicalDeviceFeatures"));
				TESSERA_FEATURES_Features(TESSERA_WRITE_FEATURE)
			}
			for (const FeatureStruct& s : feature_structs) s.write(list.Key(s.name), s.chain);
		}
		{
			JsonObject list(device.Key("properties"));
			{
				JsonObject core(list.Key("VkPhysicalDeviceProperties"));
				Write(core.Key("apiVersion"), properties.properties.apiVersion);
				WriteProperties(core.Key("limits"), properties.properties.limits);
			}
			WriteProperties(list.Key("VkPhysicalDeviceVulkan11Properties"), p11);
			WriteProperties(list.Key("VkPhysicalDeviceVulkan12Properties"), p12);
			WriteProperties(list.Key("VkPhysicalDeviceVulkan13Properties"), p13);
		}
	}
	std::printf("%s\n", out.c_str());
	vkDestroyInstance(instance, nullptr);
	return 0;
}

}  // namespace

int main() { return Run(); }
