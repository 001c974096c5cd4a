// The instance from the first call: version, extensions and layers it
// refuses, and VK_EXT_debug_utils (messengers, the ones chained into
// VkInstanceCreateInfo, vkSubmitDebugUtilsMessageEXT, labels, names).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "direct_driver.h"
#include "icd/vulkan_newer.h"
#include "vk_context.h"

using namespace tessera::test;

namespace {

struct Recorder {
	std::vector<std::string> messages;
	std::vector<const VkDebugUtilsMessengerCallbackDataEXT*> data;
	std::vector<VkDebugUtilsMessageSeverityFlagBitsEXT> severities;

	static VKAPI_ATTR VkBool32 VKAPI_CALL Callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
	                                               VkDebugUtilsMessageTypeFlagsEXT,
	                                               const VkDebugUtilsMessengerCallbackDataEXT* d, void* user) {
		auto* self = static_cast<Recorder*>(user);
		self->messages.emplace_back(d->pMessage ? d->pMessage : "");
		self->data.push_back(d);
		self->severities.push_back(severity);
		return VK_FALSE;
	}
	size_t Count(const char* text) const {
		size_t n = 0;
		for (auto& m : messages)
			if (m.find(text) != std::string::npos) ++n;
		return n;
	}
	VkDebugUtilsMessengerCreateInfoEXT Info() {
		VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
		info.messageSeverity =
		    VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT |
		    VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
		info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
		                   VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
		                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
		info.pfnUserCallback = &Recorder::Callback;
		info.pUserData = this;
		return info;
	}
};

VkResult CreateInstance(const DirectDriver& driver, std::vector<const char*> extensions,
                        std::vector<const char*> layers, VkInstance* instance, const void* next = nullptr) {
	VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, next};
	info.enabledExtensionCount = uint32_t(extensions.size());
	info.ppEnabledExtensionNames = extensions.data();
	info.enabledLayerCount = uint32_t(layers.size());
	info.ppEnabledLayerNames = layers.data();
	*instance = VK_NULL_HANDLE;
	return driver.Global<PFN_vkCreateInstance>("vkCreateInstance")(&info, nullptr, instance);
}

void DestroyInstance(const DirectDriver& driver, VkInstance instance) {
	driver.Instance<PFN_vkDestroyInstance>(instance, "vkDestroyInstance")(instance, nullptr);
}

}  // namespace

TEST_CASE("Instance: version 1.4 and the advertised extensions", "[instance]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	uint32_t version = 0;
	CHECK(driver.Global<PFN_vkEnumerateInstanceVersion>("vkEnumerateInstanceVersion")(&version) == VK_SUCCESS);
	CHECK(version == VK_API_VERSION_1_4);

	auto enumerate =
	    driver.Global<PFN_vkEnumerateInstanceExtensionProperties>("vkEnumerateInstanceExtensionProperties");
	uint32_t count = 0;
	REQUIRE(enumerate(nullptr, &count, nullptr) == VK_SUCCESS);
	REQUIRE(count >= 2);
	std::vector<VkExtensionProperties> extensions(count);
	uint32_t short_count = count - 1;
	CHECK(enumerate(nullptr, &short_count, extensions.data()) == VK_INCOMPLETE);
	CHECK(short_count == count - 1);
	CHECK(enumerate(nullptr, &count, extensions.data()) == VK_SUCCESS);
	// Every advertised extension can be enabled.
	std::vector<const char*> names;
	for (auto& e : extensions) names.push_back(e.extensionName);
	VkInstance instance;
	CHECK(CreateInstance(driver, names, {}, &instance) == VK_SUCCESS);
	DestroyInstance(driver, instance);
	// Tessera has no layers of its own.
	CHECK(enumerate("VK_LAYER_KHRONOS_validation", &count, nullptr) == VK_ERROR_LAYER_NOT_PRESENT);
	count = 5;
	CHECK(driver.Global<PFN_vkEnumerateInstanceLayerProperties>("vkEnumerateInstanceLayerProperties")(
	          &count, nullptr) == VK_SUCCESS);
	CHECK(count == 0);
}

TEST_CASE("Instance: unknown extensions and layers are refused", "[instance]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	VkInstance instance;
	CHECK(CreateInstance(driver, {"VK_TESSERA_no_such_extension"}, {}, &instance) == VK_ERROR_EXTENSION_NOT_PRESENT);
	CHECK(instance == VK_NULL_HANDLE);
	// A device extension is not an instance extension.
	CHECK(CreateInstance(driver, {VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME}, {}, &instance) ==
	      VK_ERROR_EXTENSION_NOT_PRESENT);
	CHECK(CreateInstance(driver, {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, "VK_KHR_win32_surface"}, {}, &instance) ==
	      VK_ERROR_EXTENSION_NOT_PRESENT);
	CHECK(CreateInstance(driver, {}, {"VK_LAYER_TESSERA_no_such_layer"}, &instance) == VK_ERROR_LAYER_NOT_PRESENT);
	// The messenger chained to the create info hears why.
	Recorder chained;
	VkDebugUtilsMessengerCreateInfoEXT chained_info = chained.Info();
	CHECK(CreateInstance(driver, {VK_EXT_DEBUG_UTILS_EXTENSION_NAME, "VK_TESSERA_no_such_extension"}, {}, &instance,
	                     &chained_info) == VK_ERROR_EXTENSION_NOT_PRESENT);
	CHECK(chained.Count("VK_TESSERA_no_such_extension") == 1);

	// Through the loader the answer is the same.
	VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
	const char* bad_extension = "VK_TESSERA_no_such_extension";
	info.enabledExtensionCount = 1;
	info.ppEnabledExtensionNames = &bad_extension;
	CHECK(vkCreateInstance(&info, nullptr, &instance) == VK_ERROR_EXTENSION_NOT_PRESENT);
	const char* bad_layer = "VK_LAYER_TESSERA_no_such_layer";
	info.enabledExtensionCount = 0;
	info.enabledLayerCount = 1;
	info.ppEnabledLayerNames = &bad_layer;
	CHECK(vkCreateInstance(&info, nullptr, &instance) == VK_ERROR_LAYER_NOT_PRESENT);
}

TEST_CASE("Debug utils: messengers chained to VkInstanceCreateInfo hear only creation and destruction", "[instance]") {
	DirectDriver driver;
	REQUIRE(driver.ok());
	Recorder chained, created;
	VkDebugUtilsMessengerCreateInfoEXT chained_info = chained.Info();
	VkInstance instance;
	REQUIRE(CreateInstance(driver, {VK_EXT_DEBUG_UTILS_EXTENSION_NAME}, {}, &instance, &chained_info) == VK_SUCCESS);
	CHECK(chained.Count("vkCreateInstance") == 1);

	auto create = driver.Instance<PFN_vkCreateDebugUtilsMessengerEXT>(instance, "vkCreateDebugUtilsMessengerEXT");
	auto destroy = driver.Instance<PFN_vkDestroyDebugUtilsMessengerEXT>(instance, "vkDestroyDebugUtilsMessengerEXT");
	auto submit = driver.Instance<PFN_vkSubmitDebugUtilsMessageEXT>(instance, "vkSubmitDebugUtilsMessageEXT");
	REQUIRE(create);
	REQUIRE(destroy);
	REQUIRE(submit);
	VkDebugUtilsMessengerCreateInfoEXT created_info = created.Info();
	created_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
	VkDebugUtilsMessengerEXT messenger;
	REQUIRE(create(instance, &created_info, nullptr, &messenger) == VK_SUCCESS);

	// vkSubmitDebugUtilsMessageEXT hands the application's data through as is.
	VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, nullptr, "a label", {1, 0, 0, 1}};
	VkDebugUtilsObjectNameInfoEXT object{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT, nullptr,
	                                     VK_OBJECT_TYPE_INSTANCE, uint64_t(instance), "the instance"};
	VkDebugUtilsMessengerCallbackDataEXT data{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
	data.pMessageIdName = "app-message";
	data.messageIdNumber = 1234;
	data.pMessage = "hello from the application";
	data.queueLabelCount = 1;
	data.pQueueLabels = &label;
	data.objectCount = 1;
	data.pObjects = &object;
	submit(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
	       &data);
	REQUIRE(created.data.size() == 1);
	CHECK(created.data[0] == &data);
	CHECK(created.messages[0] == "hello from the application");
	CHECK(created.severities[0] == VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT);
	// A severity the messenger did not ask for does not reach it.
	submit(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, &data);
	CHECK(created.data.size() == 1);
	// The chained messenger is silent between creation and destruction.
	CHECK(chained.Count("hello from the application") == 0);

	destroy(instance, messenger, nullptr);
	submit(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
	       &data);
	CHECK(created.data.size() == 1);
	destroy(instance, VK_NULL_HANDLE, nullptr);  // allowed, does nothing

	DestroyInstance(driver, instance);
	CHECK(chained.Count("vkDestroyInstance") == 1);
	CHECK(chained.Count("hello") == 0);
}

TEST_CASE("Debug utils: labels and object names through the loader and the validation layer", "[instance]") {
	ContextOptions options;
	auto ctx = Context::Create(Driver::Tessera, options);
	REQUIRE(ctx);
	auto begin = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
	    vkGetInstanceProcAddr(ctx->instance(), "vkCmdBeginDebugUtilsLabelEXT"));
	auto end = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
	    vkGetInstanceProcAddr(ctx->instance(), "vkCmdEndDebugUtilsLabelEXT"));
	auto insert = reinterpret_cast<PFN_vkCmdInsertDebugUtilsLabelEXT>(
	    vkGetInstanceProcAddr(ctx->instance(), "vkCmdInsertDebugUtilsLabelEXT"));
	auto queue_begin = reinterpret_cast<PFN_vkQueueBeginDebugUtilsLabelEXT>(
	    vkGetInstanceProcAddr(ctx->instance(), "vkQueueBeginDebugUtilsLabelEXT"));
	auto queue_end = reinterpret_cast<PFN_vkQueueEndDebugUtilsLabelEXT>(
	    vkGetInstanceProcAddr(ctx->instance(), "vkQueueEndDebugUtilsLabelEXT"));
	auto queue_insert = reinterpret_cast<PFN_vkQueueInsertDebugUtilsLabelEXT>(
	    vkGetInstanceProcAddr(ctx->instance(), "vkQueueInsertDebugUtilsLabelEXT"));
	auto set_name = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
	    vkGetInstanceProcAddr(ctx->instance(), "vkSetDebugUtilsObjectNameEXT"));
	REQUIRE(begin);
	REQUIRE(end);
	REQUIRE(insert);
	REQUIRE(queue_begin);
	REQUIRE(queue_end);
	REQUIRE(queue_insert);
	REQUIRE(set_name);

	TestBuffer buffer = ctx->CreateBuffer(256);
	VkDebugUtilsObjectNameInfoEXT name{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT, nullptr,
	                                   VK_OBJECT_TYPE_BUFFER, uint64_t(buffer.buffer), "the test buffer"};
	CHECK(set_name(ctx->device(), &name) == VK_SUCCESS);
	name.pObjectName = nullptr;  // removes the name
	CHECK(set_name(ctx->device(), &name) == VK_SUCCESS);

	VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, nullptr, "fill", {0, 1, 0, 1}};
	queue_begin(ctx->queue(), &label);
	ctx->Submit([&](VkCommandBuffer cb) {
		begin(cb, &label);
		vkCmdFillBuffer(cb, buffer.buffer, 0, VK_WHOLE_SIZE, 0x01020304u);
		insert(cb, &label);
		end(cb);
	});
	queue_insert(ctx->queue(), &label);
	queue_end(ctx->queue());
	// The labels recorded nothing that changes the work.
	uint32_t word;
	std::memcpy(&word, buffer.data + 252, 4);
	CHECK(word == 0x01020304u);
	ctx->Destroy(buffer);
	CHECK(ctx->validation_errors() == 0);
}

TEST_CASE("Debug utils: through the loader, a chained messenger hears Tessera during vkCreateInstance", "[instance]") {
	Recorder chained;
	VkDebugUtilsMessengerCreateInfoEXT chained_info = chained.Info();
	const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
	VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
	app.apiVersion = VK_API_VERSION_1_3;
	VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &chained_info};
	info.pApplicationInfo = &app;
	info.enabledExtensionCount = 1;
	info.ppEnabledExtensionNames = &extension;
	VkInstance instance;
	REQUIRE(vkCreateInstance(&info, nullptr, &instance) == VK_SUCCESS);
	CHECK(chained.Count("vkCreateInstance: Tessera instance created") == 1);
	vkDestroyInstance(instance, nullptr);
	CHECK(chained.Count("vkDestroyInstance: Tessera instance destroyed") == 1);
}
