// The Vulkan instance: loader entry, validation layers and the debug messenger.
//
// Validation (VKHLO_VALIDATION=1) enables VK_LAYER_KHRONOS_validation and routes every warning
// and error it reports to a handler; the default handler prints to stderr. Tests install a
// handler that fails the running test, so any validation message fails the test that caused it.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "device/physical_device.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

enum class ValidationSeverity { kWarning, kError };

using ValidationHandler = std::function<void(ValidationSeverity, const std::string& message)>;

struct InstanceOptions {
  bool enable_validation = false;
  // Called for each validation warning or error (with validation on). Null: print to stderr.
  ValidationHandler validation_handler;
  std::string application_name = "vkhlo";

  // enable_validation from VKHLO_VALIDATION.
  static InstanceOptions FromEnvironment();
};

class Instance {
 public:
  static StatusOr<std::shared_ptr<Instance>> Create(InstanceOptions options);
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance handle() const { return instance_; }
  // The version the instance was created with (min of loader's and 1.3).
  uint32_t api_version() const { return api_version_; }
  bool validation_enabled() const { return messenger_ != VK_NULL_HANDLE; }

  // Warnings and errors the validation layer has reported so far.
  uint64_t validation_message_count() const { return validation_messages_.load(); }

  // Replaces the handler (e.g. a test fixture routing messages to its test).
  void SetValidationHandler(ValidationHandler handler);

  StatusOr<std::vector<PhysicalDevice>> EnumerateDevices() const;

 private:
  Instance() = default;
  static VKAPI_ATTR VkBool32 VKAPI_CALL OnDebugMessage(
      VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user_data);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  uint32_t api_version_ = VK_API_VERSION_1_1;
  std::atomic<uint64_t> validation_messages_{0};
  std::mutex handler_mutex_;
  ValidationHandler handler_;
};

}  // namespace vkhlo::device
