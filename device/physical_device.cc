#include "device/physical_device.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "device/feature_chain.h"
#include "device/vk_cooperative_matrix.h"
#include "device/vk_status.h"

namespace vkhlo::device {
namespace {

DeviceType ToDeviceType(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return DeviceType::kDiscreteGpu;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return DeviceType::kIntegratedGpu;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return DeviceType::kVirtualGpu;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return DeviceType::kCpu;
    default: return DeviceType::kOther;
  }
}

int TypeRank(DeviceType type) {
  switch (type) {
    case DeviceType::kDiscreteGpu: return 4;
    case DeviceType::kIntegratedGpu: return 3;
    case DeviceType::kVirtualGpu: return 2;
    case DeviceType::kCpu: return 1;
    case DeviceType::kOther: return 0;
  }
  return 0;
}

StatusOr<std::vector<std::string>> DeviceExtensions(VkPhysicalDevice pd) {
  uint32_t count = 0;
  VKHLO_VK_RETURN_IF_ERROR(vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, nullptr));
  std::vector<VkExtensionProperties> props(count);
  VKHLO_VK_RETURN_IF_ERROR(vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, props.data()));
  std::vector<std::string> names;
  names.reserve(count);
  for (uint32_t i = 0; i < count; ++i) names.emplace_back(props[i].extensionName);
  std::sort(names.begin(), names.end());
  return names;
}

// Prefers a compute-only family (async compute on discrete GPUs), then any with compute.
void ChooseComputeQueue(VkPhysicalDevice pd, DeviceCapabilities& caps) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, families.data());
  int best = -1;
  for (uint32_t i = 0; i < count; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || families[i].queueCount == 0) continue;
    bool compute_only = !(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT);
    // Keep a compute-only family only if it can time work like the general one can.
    if (best < 0 || (compute_only && families[i].timestampValidBits > 0 &&
                     (families[best].queueFlags & VK_QUEUE_GRAPHICS_BIT))) {
      best = static_cast<int>(i);
    }
  }
  caps.compute_queue_family = best;
  if (best >= 0) caps.limits.timestamp_valid_bits = families[best].timestampValidBits;
}

void ReadCooperativeMatrixShapes(VkInstance instance, VkPhysicalDevice pd,
                                 DeviceCapabilities& caps) {
  auto get = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR>(
      vkGetInstanceProcAddr(instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
  if (get == nullptr) return;
  uint32_t count = 0;
  if (get(pd, &count, nullptr) != VK_SUCCESS || count == 0) return;
  std::vector<VkCooperativeMatrixPropertiesKHR> props(count);
  for (auto& p : props) p = {VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR};
  if (get(pd, &count, props.data()) != VK_SUCCESS) return;
  for (uint32_t i = 0; i < count; ++i) {
    const auto& p = props[i];
    caps.cooperative_matrix_shapes.push_back(CooperativeMatrixShape{
        p.MSize, p.NSize, p.KSize, static_cast<MatrixComponent>(p.AType),
        static_cast<MatrixComponent>(p.BType), static_cast<MatrixComponent>(p.CType),
        static_cast<MatrixComponent>(p.ResultType), p.saturatingAccumulation != VK_FALSE,
        p.scope == VK_SCOPE_SUBGROUP_KHR});
  }
}

}  // namespace

StatusOr<DeviceCapabilities> QueryCapabilities(VkInstance instance, uint32_t instance_api_version,
                                               VkPhysicalDevice pd) {
  DeviceCapabilities caps;
  VKHLO_ASSIGN_OR_RETURN(caps.extensions, DeviceExtensions(pd));

  VkPhysicalDeviceProperties base{};
  vkGetPhysicalDeviceProperties(pd, &base);
  // The device's own version, unless the instance is older in major.minor (then features of
  // the newer version cannot be used, and the instance's version is the effective one).
  caps.api_version = base.apiVersion;
  if (VK_MAKE_API_VERSION(0, VK_API_VERSION_MAJOR(base.apiVersion), VK_API_VERSION_MINOR(base.apiVersion), 0) >
      instance_api_version) {
    caps.api_version = instance_api_version;
  }
  const uint32_t api = caps.api_version;
  auto available = [&](uint32_t core, const char* ext) {
    return (core != 0 && api >= core) || (ext != nullptr && caps.HasExtension(ext));
  };

  // Properties: base + the chained structures this device understands.
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  void** tail = &props2.pNext;
  auto link = [&tail](auto& s) {
    *tail = &s;
    tail = &s.pNext;
  };
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties maint3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceMaintenance4Properties maint4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceSubgroupSizeControlProperties size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  link(subgroup);
  link(maint3);
  bool has_maint4 = available(VK_API_VERSION_1_3, VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
  bool has_driver = available(VK_API_VERSION_1_2, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME);
  bool has_size_control = available(VK_API_VERSION_1_3, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  if (has_maint4) link(maint4);
  if (has_driver) link(driver);
  if (has_size_control) link(size_control);
  VkPhysicalDeviceFloatControlsProperties float_controls{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
  const bool has_float_controls = available(VK_API_VERSION_1_2, VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME);
  if (has_float_controls) link(float_controls);
  vkGetPhysicalDeviceProperties2(pd, &props2);
  if (has_float_controls) {
    FloatControlsProperties& fc = caps.float_controls;
    fc.signed_zero_inf_nan_preserve_16 = float_controls.shaderSignedZeroInfNanPreserveFloat16;
    fc.signed_zero_inf_nan_preserve_32 = float_controls.shaderSignedZeroInfNanPreserveFloat32;
    fc.signed_zero_inf_nan_preserve_64 = float_controls.shaderSignedZeroInfNanPreserveFloat64;
    fc.rounding_mode_rte_16 = float_controls.shaderRoundingModeRTEFloat16;
    fc.rounding_mode_rte_32 = float_controls.shaderRoundingModeRTEFloat32;
    fc.rounding_mode_rte_64 = float_controls.shaderRoundingModeRTEFloat64;
    fc.denorm_preserve_16 = float_controls.shaderDenormPreserveFloat16;
    fc.denorm_preserve_32 = float_controls.shaderDenormPreserveFloat32;
    fc.denorm_independence = static_cast<uint32_t>(float_controls.denormBehaviorIndependence);
    fc.denorm_preserve_64 = float_controls.shaderDenormPreserveFloat64;
  }

  const VkPhysicalDeviceLimits& l = base.limits;
  caps.name = base.deviceName;
  caps.type = ToDeviceType(base.deviceType);
  caps.vendor_id = base.vendorID;
  caps.device_id = base.deviceID;
  caps.driver_version = base.driverVersion;
  std::copy(std::begin(base.pipelineCacheUUID), std::end(base.pipelineCacheUUID),
            caps.pipeline_cache_uuid.begin());
  if (has_driver) {
    caps.driver_name = driver.driverName;
    caps.driver_info = driver.driverInfo;
  }
  caps.vendor = VendorFromId(base.vendorID, caps.driver_name + " " + caps.name);

  DeviceLimits& lim = caps.limits;
  for (int i = 0; i < 3; ++i) {
    lim.max_workgroup_size[i] = l.maxComputeWorkGroupSize[i];
    lim.max_workgroup_count[i] = l.maxComputeWorkGroupCount[i];
  }
  lim.max_workgroup_invocations = l.maxComputeWorkGroupInvocations;
  lim.max_shared_memory_bytes = l.maxComputeSharedMemorySize;
  lim.max_storage_buffer_range = l.maxStorageBufferRange;
  lim.max_push_constants_bytes = l.maxPushConstantsSize;
  lim.min_storage_buffer_offset_alignment = l.minStorageBufferOffsetAlignment;
  lim.max_per_stage_storage_buffers = l.maxPerStageDescriptorStorageBuffers;
  lim.max_per_stage_storage_images = l.maxPerStageDescriptorStorageImages;
  lim.max_texel_buffer_elements = l.maxTexelBufferElements;
  lim.min_texel_buffer_offset_alignment = l.minTexelBufferOffsetAlignment;
  lim.max_bound_descriptor_sets = l.maxBoundDescriptorSets;
  lim.max_memory_allocation_size = maint3.maxMemoryAllocationSize;
  lim.max_buffer_size = has_maint4 ? maint4.maxBufferSize : 0;
  lim.non_coherent_atom_size = l.nonCoherentAtomSize;
  lim.timestamp_period_ns = l.timestampPeriod;
  lim.timestamp_compute_and_graphics = l.timestampComputeAndGraphics;

  SubgroupProperties& sg = caps.subgroup;
  sg.size = sg.min_size = sg.max_size = subgroup.subgroupSize;
  sg.supported_in_compute = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  sg.supported_operations = sg.supported_in_compute ? subgroup.supportedOperations : 0;

  // Features.
  FeatureChain chain(api, caps.extensions);
  vkGetPhysicalDeviceFeatures2(pd, chain.head());
  chain.ReadInto(caps.features);
  if (has_size_control && caps.features.subgroup_size_control) {
    sg.min_size = size_control.minSubgroupSize;
    sg.max_size = size_control.maxSubgroupSize;
    sg.required_size_in_compute =
        (size_control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  }
  caps.features.push_descriptor = caps.HasExtension(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  caps.features.memory_budget = caps.HasExtension(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
  caps.features.pipeline_creation_feedback =
      available(VK_API_VERSION_1_3, VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME);
  if (caps.features.cooperative_matrix) ReadCooperativeMatrixShapes(instance, pd, caps);
  for (VkFormat format : {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32_SFLOAT,
                          VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32_UINT}) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(pd, format, &props);
    if (props.bufferFeatures & VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT) {
      caps.storage_texel_buffer_formats.push_back(static_cast<uint32_t>(format));
    }
  }

  // Memory.
  VkPhysicalDeviceMemoryProperties mem{};
  vkGetPhysicalDeviceMemoryProperties(pd, &mem);
  for (uint32_t i = 0; i < mem.memoryHeapCount; ++i) {
    caps.memory_heaps.push_back(MemoryHeap{
        mem.memoryHeaps[i].size, (mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0});
  }
  for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags f = mem.memoryTypes[i].propertyFlags;
    caps.memory_types.push_back(MemoryType{
        mem.memoryTypes[i].heapIndex, (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0,
        (f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0, (f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0,
        (f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) != 0, (f & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT) != 0,
        (f & VK_MEMORY_PROPERTY_PROTECTED_BIT) != 0});
  }

  ChooseComputeQueue(pd, caps);
  return caps;
}

StatusOr<std::vector<PhysicalDevice>> EnumeratePhysicalDevices(VkInstance instance,
                                                               uint32_t instance_api_version) {
  uint32_t count = 0;
  VKHLO_VK_RETURN_IF_ERROR(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  std::vector<VkPhysicalDevice> handles(count);
  VKHLO_VK_RETURN_IF_ERROR(vkEnumeratePhysicalDevices(instance, &count, handles.data()));
  std::vector<PhysicalDevice> devices;
  for (uint32_t i = 0; i < count; ++i) {
    auto caps = QueryCapabilities(instance, instance_api_version, handles[i]);
    if (!caps.ok()) return caps.status().WithContext(fmt::format("reading Vulkan device {}", i));
    devices.push_back(PhysicalDevice{handles[i], static_cast<int>(i), std::move(*caps)});
  }
  return devices;
}

std::string UnusableReason(const DeviceCapabilities& caps) {
  if (caps.api_version < VK_API_VERSION_1_1) {
    return fmt::format("Vulkan {} is older than the 1.1 vkhlo needs", caps.ApiVersionString());
  }
  if (caps.compute_queue_family < 0) return "it has no compute queue";
  return "";
}

namespace {
std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

StatusOr<DeviceChoice> ChooseDevice(const std::vector<PhysicalDevice>& devices,
                                    const std::optional<std::string>& request) {
  if (devices.empty()) {
    return NotFoundError(
        "no Vulkan device found (is a driver installed? on a machine without a GPU, install "
        "mesa-vulkan-drivers for lavapipe)");
  }
  if (request) {
    int index = -1;
    const std::string& r = *request;
    auto [ptr, ec] = std::from_chars(r.data(), r.data() + r.size(), index);
    bool numeric = ec == std::errc() && ptr == r.data() + r.size();
    std::string listing;
    for (const PhysicalDevice& d : devices) {
      listing += fmt::format("{}{}: {}", listing.empty() ? "" : ", ", d.index, d.capabilities.name);
    }
    if (numeric) {
      if (index < 0 || index >= static_cast<int>(devices.size())) {
        return NotFoundError(fmt::format("VKHLO_DEVICE={} is out of range; devices are [{}]", r,
                                         listing));
      }
    } else {
      std::string needle = Lower(r);
      for (const PhysicalDevice& d : devices) {
        if (Lower(d.capabilities.name).find(needle) != std::string::npos) {
          index = d.index;
          break;
        }
      }
      if (index < 0) {
        return NotFoundError(fmt::format(
            "VKHLO_DEVICE='{}' matches no device name; devices are [{}]", r, listing));
      }
    }
    std::string why = UnusableReason(devices[index].capabilities);
    if (!why.empty()) {
      return FailedPreconditionError(fmt::format("VKHLO_DEVICE={} names '{}', which vkhlo cannot use: {}",
                                                 r, devices[index].capabilities.name, why));
    }
    return DeviceChoice{index, fmt::format("VKHLO_DEVICE={} names it", r)};
  }

  int best = -1;
  std::string skipped;
  for (const PhysicalDevice& d : devices) {
    std::string why = UnusableReason(d.capabilities);
    if (!why.empty()) {
      skipped += fmt::format("; skipped {} ({})", d.capabilities.name, why);
      continue;
    }
    if (best < 0) {
      best = d.index;
      continue;
    }
    const DeviceCapabilities& b = devices[best].capabilities;
    const DeviceCapabilities& c = d.capabilities;
    if (TypeRank(c.type) > TypeRank(b.type) ||
        (TypeRank(c.type) == TypeRank(b.type) && c.DeviceLocalBytes() > b.DeviceLocalBytes())) {
      best = d.index;
    }
  }
  if (best < 0) return NotFoundError("no usable Vulkan device" + skipped);
  const DeviceCapabilities& chosen = devices[best].capabilities;
  std::string reason =
      devices.size() == 1
          ? "it is the only device"
          : fmt::format("highest-ranked type ({}; order: discrete > integrated > virtual > CPU)",
                        DeviceTypeName(chosen.type));
  return DeviceChoice{best, reason + skipped};
}

}  // namespace vkhlo::device
