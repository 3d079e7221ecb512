#include "device/device.h"

#include <fmt/format.h>

#include <algorithm>

#include "device/address_table.h"
#include "device/allocator.h"
#include "device/descriptor_cache.h"
#include "device/feature_chain.h"
#include "device/pipeline.h"
#include "device/queue.h"
#include "device/transfer.h"
#include "device/vk_status.h"
#include "support/env.h"

namespace vkhlo::device {

StatusOr<DeviceOptions> DeviceOptions::FromEnvironment() {
  DeviceOptions options;
  options.instance = InstanceOptions::FromEnvironment();
  options.device_request = GetEnv("VKHLO_DEVICE");
  VKHLO_ASSIGN_OR_RETURN(options.profile, ProfileFromEnvironment());
  VKHLO_ASSIGN_OR_RETURN(std::optional<uint64_t> memory_limit, GetEnvSize("VKHLO_DEVICE_MEMORY_LIMIT"));
  if (memory_limit) options.memory_budget_bytes = *memory_limit;
  VKHLO_ASSIGN_OR_RETURN(std::optional<uint64_t> pipelines, GetEnvSize("VKHLO_PIPELINE_CACHE_ENTRIES"));
  if (pipelines) options.pipeline_cache_entries = *pipelines;
  options.cache_directory = CacheDirectory();
  return options;
}

StatusOr<std::unique_ptr<Device>> Device::Create(DeviceOptions options) {
  std::unique_ptr<Device> device(new Device());
  VKHLO_RETURN_IF_ERROR(device->Open(std::move(options)));
  return device;
}

StatusOr<std::unique_ptr<Device>> Device::CreateFromEnvironment() {
  VKHLO_ASSIGN_OR_RETURN(DeviceOptions options, DeviceOptions::FromEnvironment());
  return Create(std::move(options));
}

Status Device::Open(DeviceOptions options) {
  options_ = std::move(options);
  VKHLO_ASSIGN_OR_RETURN(instance_, Instance::Create(options_.instance));
  VKHLO_ASSIGN_OR_RETURN(std::vector<PhysicalDevice> devices, instance_->EnumerateDevices());
  VKHLO_ASSIGN_OR_RETURN(DeviceChoice choice, ChooseDevice(devices, options_.device_request));
  const PhysicalDevice& chosen = devices[choice.index];
  physical_device_ = chosen.handle;
  selection_reason_ = choice.reason;
  capabilities_ = ApplyProfile(chosen.capabilities, options_.profile);
  const DeviceCapabilities& caps = capabilities_;

  // Enable exactly the (masked) features, plus the extensions that carry them.
  FeatureChain chain(caps.api_version, caps.extensions);
  chain.EnableOnly(caps.features);
  std::vector<const char*> extensions = chain.required_extensions();
  auto enable_if_offered = [&](const char* name) {
    if (caps.HasExtension(name) &&
        std::find_if(extensions.begin(), extensions.end(),
                     [&](const char* e) { return std::string_view(e) == name; }) == extensions.end()) {
      extensions.push_back(name);
    }
  };
  if (caps.features.push_descriptor) enable_if_offered(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (caps.features.memory_budget) enable_if_offered(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
  if (caps.api_version < VK_API_VERSION_1_3) {
    enable_if_offered(VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME);
  }
  // Shaders declare the float-control execution modes the device offers (core in 1.2).
  if (caps.api_version < VK_API_VERSION_1_2 && caps.float_controls.any()) {
    enable_if_offered(VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME);
  }
  // Portability implementations (MoltenVK) require their subset extension to be enabled.
  enable_if_offered("VK_KHR_portability_subset");

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = static_cast<uint32_t>(caps.compute_queue_family);
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = chain.head();
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VkResult result = vkCreateDevice(physical_device_, &info, nullptr, &device_);
  if (result != VK_SUCCESS) {
    return VkResultToStatus(result, "vkCreateDevice").WithContext("opening '" + caps.name + "'");
  }

  VKHLO_ASSIGN_OR_RETURN(queue_, Queue::Create(*this, queue_info.queueFamilyIndex));
  AllocatorOptions allocator_options;
  allocator_options.block_bytes = options_.memory_block_bytes;
  allocator_options.free_block_pool_bytes = options_.free_block_pool_bytes;
  allocator_options.budget_bytes = options_.memory_budget_bytes;
  VKHLO_ASSIGN_OR_RETURN(allocator_, Allocator::Create(*this, allocator_options));
  descriptors_ = std::make_unique<DescriptorCache>(*this);
  allocator_->SetBlockDestroyedCallback(
      [descriptors = descriptors_.get()](VkBuffer buffer) { descriptors->ForgetBuffer(buffer); });
  VKHLO_ASSIGN_OR_RETURN(pipelines_, PipelineCache::Create(*this, options_.cache_directory));

  uint64_t ring = std::max<uint64_t>(options_.staging_ring_bytes, 64 * 1024);
  // The ring is one mapped allocation: no larger than the largest the device allows (transfers
  // through it go in ring-sized chunks).
  if (const uint64_t limit = allocator_->split_layout().limit; limit != 0) ring = std::min(ring, limit);
  VKHLO_ASSIGN_OR_RETURN(Buffer ring_buffer, allocator_->Allocate(ring, MemoryKind::kStaging));
  transfers_ = std::make_unique<TransferEngine>(*this, std::move(ring_buffer),
                                                options_.direct_host_transfers);
  addresses_ = std::make_unique<AddressTable>(*this);
  return OkStatus();
}

Device::~Device() {
  if (device_ == VK_NULL_HANDLE) return;
  vkDeviceWaitIdle(device_);  // also when lost: work submitted before the loss may still run
  // Order matters: users of the queue and allocator go first.
  addresses_.reset();
  transfers_.reset();
  pipelines_.reset();
  if (allocator_) allocator_->SetBlockDestroyedCallback(nullptr);
  descriptors_.reset();
  allocator_.reset();
  queue_.reset();
  vkDestroyDevice(device_, nullptr);
}

Status Device::CheckAlive() const {
  if (!lost()) return OkStatus();
  return UnavailableError(fmt::format(
      "the Vulkan device '{}' was lost (driver reset, hang or removal); open a new device", capabilities_.name));
}

Status Device::Check(VkResult result, std::string_view call) {
  if (result == VK_ERROR_DEVICE_LOST) lost_.store(true);
  return VkResultToStatus(result, call);
}

Status Device::WaitIdle() { return queue_->WaitIdle(); }

void Device::Drain() { queue_->Drain(); }

}  // namespace vkhlo::device
