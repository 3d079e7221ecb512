#include "device/instance.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "device/llvmpipe_width.h"
#include "device/vk_status.h"
#include "support/env.h"

namespace vkhlo::device {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool HasLayer(const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
  return std::any_of(layers.begin(), layers.end(),
                     [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

std::vector<std::string> InstanceExtensions() {
  uint32_t count = 0;
  std::vector<std::string> names;
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr) != VK_SUCCESS) return names;
  std::vector<VkExtensionProperties> props(count);
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, props.data()) != VK_SUCCESS) return names;
  for (const auto& p : props) names.emplace_back(p.extensionName);
  return names;
}

}  // namespace

InstanceOptions InstanceOptions::FromEnvironment() {
  InstanceOptions options;
  options.enable_validation = GetEnvFlag("VKHLO_VALIDATION");
  return options;
}

StatusOr<std::shared_ptr<Instance>> Instance::Create(InstanceOptions options) {
  // Before the loader can start llvmpipe (Mesa reads its width once, at its first device).
  PreferWideLlvmpipeVectors();
  std::shared_ptr<Instance> self(new Instance());
  self->handler_ = std::move(options.validation_handler);

  uint32_t loader_version = VK_API_VERSION_1_0;
  auto enumerate_version = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  if (enumerate_version != nullptr) enumerate_version(&loader_version);
  if (loader_version < VK_API_VERSION_1_1) {
    return FailedPreconditionError(fmt::format(
        "the Vulkan loader supports only Vulkan {}.{}; vkhlo needs 1.1 (install libvulkan1 >= 1.1)",
        VK_API_VERSION_MAJOR(loader_version), VK_API_VERSION_MINOR(loader_version)));
  }
  self->api_version_ = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  std::vector<std::string> available = InstanceExtensions();
  auto has_ext = [&](const char* name) {
    return std::find(available.begin(), available.end(), name) != available.end();
  };
  VkInstanceCreateFlags flags = 0;
  // Portability drivers (MoltenVK and friends) are listed only when asked for.
  if (has_ext(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }
  if (options.enable_validation) {
    if (!HasLayer(kValidationLayer)) {
      return FailedPreconditionError(
          "VKHLO_VALIDATION=1 asks for the Vulkan validation layer, but VK_LAYER_KHRONOS_validation "
          "is not installed (Debian: apt-get install vulkan-validationlayers)");
    }
    if (!has_ext(VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
      return FailedPreconditionError("VKHLO_VALIDATION=1 needs VK_EXT_debug_utils, which the loader lacks");
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = options.application_name.c_str();
  app.pEngineName = "vkhlo";
  app.apiVersion = self->api_version_;

  VkDebugUtilsMessengerCreateInfoEXT messenger_info{
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = &Instance::OnDebugMessage;
  messenger_info.pUserData = self.get();

  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.flags = flags;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  // Chaining the messenger info also reports problems in vkCreateInstance/vkDestroyInstance.
  if (options.enable_validation) info.pNext = &messenger_info;
  VKHLO_VK_RETURN_IF_ERROR(vkCreateInstance(&info, nullptr, &self->instance_));

  if (options.enable_validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(self->instance_, "vkCreateDebugUtilsMessengerEXT"));
    if (create == nullptr) return InternalError("vkCreateDebugUtilsMessengerEXT is missing");
    VKHLO_VK_RETURN_IF_ERROR(create(self->instance_, &messenger_info, nullptr, &self->messenger_));
  }
  return self;
}

Instance::~Instance() {
  if (messenger_ != VK_NULL_HANDLE) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy != nullptr) destroy(instance_, messenger_, nullptr);
  }
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

void Instance::SetValidationHandler(ValidationHandler handler) {
  std::lock_guard<std::mutex> lock(handler_mutex_);
  handler_ = std::move(handler);
}

StatusOr<std::vector<PhysicalDevice>> Instance::EnumerateDevices() const {
  return EnumeratePhysicalDevices(instance_, api_version_);
}

VKAPI_ATTR VkBool32 VKAPI_CALL Instance::OnDebugMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user_data) {
  auto* self = static_cast<Instance*>(user_data);
  ValidationSeverity level = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
                                 ? ValidationSeverity::kError
                                 : ValidationSeverity::kWarning;
  std::string message = data && data->pMessage ? data->pMessage : "(no message)";
  self->validation_messages_.fetch_add(1);
  ValidationHandler handler;
  {
    std::lock_guard<std::mutex> lock(self->handler_mutex_);
    handler = self->handler_;
  }
  if (handler) {
    handler(level, message);
  } else {
    std::fprintf(stderr, "vkhlo: Vulkan validation %s: %s\n",
                 level == ValidationSeverity::kError ? "error" : "warning", message.c_str());
  }
  return VK_FALSE;  // never abort the call that triggered it
}

}  // namespace vkhlo::device
