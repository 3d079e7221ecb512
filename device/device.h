// A Vulkan device opened for compute: the logical device, its compute queue, and the services
// built on it (memory, transfers, pipelines, descriptors).
//
// Device::Create picks a physical device (VKHLO_DEVICE or the default ranking), applies the
// capability profile (VKHLO_PROFILE), and enables exactly the masked features. Everything above
// this layer reads capabilities() — the masked view — and nothing else.
//
// Device loss: once any call reports VK_ERROR_DEVICE_LOST the device is marked lost and every
// later operation returns UNAVAILABLE instead of touching Vulkan; the process keeps running.
//
// Threading: allocation, transfers, submission and waiting are thread-safe, and so is
// recording: each command list has a command pool of its own (queue.h), so several threads may
// record and submit their own lists at once. One list is used by one thread at a time.
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "device/capabilities.h"
#include "device/instance.h"
#include "device/profile.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

class AddressTable;
class Allocator;
class DescriptorCache;
class PipelineCache;
class Queue;
class TransferEngine;

struct DeviceOptions {
  InstanceOptions instance;
  std::optional<std::string> device_request;  // VKHLO_DEVICE: index or name substring
  Profile profile = Profile::kNative;          // VKHLO_PROFILE
  // Directory of the on-disk pipeline cache; empty disables it. Default: CacheDirectory().
  std::string cache_directory;
  // Size of the host-visible staging ring used for transfers.
  uint64_t staging_ring_bytes = 32ull << 20;
  // Default size of the VkDeviceMemory blocks the allocator carves buffers from.
  uint64_t memory_block_bytes = 64ull << 20;
  // Freed large (dedicated) blocks kept for reuse, in bytes (allocator.h AllocatorOptions).
  uint64_t free_block_pool_bytes = 1ull << 30;
  // Most device memory vkhlo reserves per heap; 0: the heap's size. VKHLO_DEVICE_MEMORY_LIMIT.
  uint64_t memory_budget_bytes = 0;
  // Most pipelines the in-memory pipeline cache keeps (least recently used out first).
  // VKHLO_PIPELINE_CACHE_ENTRIES.
  uint64_t pipeline_cache_entries = 1024;
  // On devices whose tensor memory is host-visible (integrated GPUs, lavapipe) transfers copy
  // straight into the mapping; false forces the staging ring everywhere (tests, benchmarks).
  bool direct_host_transfers = true;

  // Everything from the environment: VKHLO_VALIDATION, VKHLO_DEVICE, VKHLO_PROFILE,
  // VKHLO_DEVICE_MEMORY_LIMIT, VKHLO_PIPELINE_CACHE_ENTRIES, XDG_CACHE_HOME/HOME. Fails on an
  // unknown profile name or a malformed size.
  static StatusOr<DeviceOptions> FromEnvironment();
};

class Device {
 public:
  static StatusOr<std::unique_ptr<Device>> Create(DeviceOptions options);
  // Create(DeviceOptions::FromEnvironment()).
  static StatusOr<std::unique_ptr<Device>> CreateFromEnvironment();
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // The masked capabilities (see profile.h). The only view of the device vkhlo uses.
  const DeviceCapabilities& capabilities() const { return capabilities_; }
  const std::string& selection_reason() const { return selection_reason_; }
  const DeviceOptions& options() const { return options_; }

  Instance& instance() const { return *instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice handle() const { return device_; }

  Queue& queue() const { return *queue_; }
  Allocator& allocator() const { return *allocator_; }
  TransferEngine& transfers() const { return *transfers_; }
  PipelineCache& pipelines() const { return *pipelines_; }
  DescriptorCache& descriptors() const { return *descriptors_; }
  // Slots holding device addresses of views beyond maxStorageBufferRange (address_table.h).
  AddressTable& addresses() const { return *addresses_; }

  // OK while the device works; UNAVAILABLE once it has been lost.
  Status CheckAlive() const;
  bool lost() const { return lost_.load(); }
  // Converts a VkResult into a Status, marking the device lost on VK_ERROR_DEVICE_LOST.
  Status Check(VkResult result, std::string_view call);
  // Marks the device lost as if the driver had reported it (tests of the loss path).
  void SimulateDeviceLossForTesting() { lost_.store(true); }
  // Makes the next Vulkan call vkhlo checks on this device (VKHLO_DEVICE_CALL) report `result`
  // instead of being made, so a test reaches the driver-failure path itself: with
  // VK_ERROR_DEVICE_LOST the device is then marked lost as if the driver had said so.
  void FailNextCallForTesting(VkResult result) { injected_failure_.store(result); }
  // The injected result, once (VK_SUCCESS when none): VKHLO_DEVICE_CALL's first step.
  VkResult TakeInjectedFailure() {
    if (injected_failure_.load(std::memory_order_relaxed) == VK_SUCCESS) return VK_SUCCESS;
    return static_cast<VkResult>(injected_failure_.exchange(VK_SUCCESS));
  }

  // Blocks until all submitted work has finished.
  Status WaitIdle();
  // The same after a failure, lost device included (Queue::Drain): then buffers may be freed.
  void Drain();

 private:
  Device() = default;
  Status Open(DeviceOptions options);

  DeviceOptions options_;
  std::shared_ptr<Instance> instance_;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  DeviceCapabilities capabilities_;
  std::string selection_reason_;
  std::atomic<bool> lost_{false};
  std::atomic<int32_t> injected_failure_{VK_SUCCESS};  // a VkResult

  // Destroyed in reverse order of declaration, before device_.
  std::unique_ptr<Queue> queue_;
  std::unique_ptr<Allocator> allocator_;
  std::unique_ptr<DescriptorCache> descriptors_;
  std::unique_ptr<PipelineCache> pipelines_;
  std::unique_ptr<TransferEngine> transfers_;
  std::unique_ptr<AddressTable> addresses_;
};

}  // namespace vkhlo::device

// `call` (a Vulkan call returning VkResult) on `device`, or the failure a test injected instead
// of it (Device::FailNextCallForTesting).
#define VKHLO_DEVICE_CALL(device, call)                                          \
  ([&]() -> VkResult {                                                           \
    const VkResult vkhlo_injected_ = (device).TakeInjectedFailure();             \
    return vkhlo_injected_ != VK_SUCCESS ? vkhlo_injected_ : (call);             \
  }())

// Like VKHLO_VK_RETURN_IF_ERROR, for calls on a Device: marks the device lost when it is.
#define VKHLO_DEVICE_RETURN_IF_ERROR(device, call)                 \
  do {                                                             \
    VkResult vkhlo_vk_result_ = VKHLO_DEVICE_CALL(device, call);   \
    if (vkhlo_vk_result_ != VK_SUCCESS)                            \
      return (device).Check(vkhlo_vk_result_, #call);              \
  } while (0)
