#include "device/pipeline.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "device/descriptor_cache.h"
#include "device/device.h"
#include "device/vk_status.h"

namespace vkhlo::device {

SpecializationValue SpecUint(uint32_t id, uint32_t value) { return {id, value}; }
SpecializationValue SpecInt(uint32_t id, int32_t value) {
  return {id, static_cast<uint32_t>(value)};
}
SpecializationValue SpecFloat(uint32_t id, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return {id, bits};
}
SpecializationValue SpecBool(uint32_t id, bool value) { return {id, value ? 1u : 0u}; }

Pipeline::~Pipeline() {
  if (descriptors_ != nullptr && set_layout_ != VK_NULL_HANDLE) descriptors_->ForgetLayout(set_layout_);
  if (pipeline_ != VK_NULL_HANDLE) vkDestroyPipeline(device_, pipeline_, nullptr);
  if (layout_ != VK_NULL_HANDLE) vkDestroyPipelineLayout(device_, layout_, nullptr);
  if (set_layout_ != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
}

namespace {

uint64_t Fnv1a(const void* data, size_t bytes, uint64_t hash = 1469598103934665603ull) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string ContentKey(const ComputePipelineDesc& desc) {
  std::string key = fmt::format("{:016x}:{}", Fnv1a(desc.spirv.data(), desc.spirv.size_bytes()),
                                desc.spirv.size());
  for (const SpecializationValue& v : desc.specialization) key += fmt::format(":{}={}", v.id, v.bits);
  if (desc.workgroup_base_offset) key += fmt::format(":base@{}", *desc.workgroup_base_offset);
  if (desc.required_subgroup_size) key += fmt::format(":sg{}", desc.required_subgroup_size);
  for (uint32_t b : desc.address_bindings) key += fmt::format(":addr{}", b);
  for (const WindowedBinding& w : desc.window_bindings) {
    key += fmt::format(":win{}/{}", w.binding, w.window_bytes);
    for (uint32_t b : w.window_bindings) key += fmt::format(",{}", b);
  }
  return key;
}

// The header every VkPipelineCache blob starts with (VkPipelineCacheHeaderVersionOne).
struct CacheHeader {
  uint32_t header_size;
  uint32_t header_version;
  uint32_t vendor_id;
  uint32_t device_id;
  uint8_t uuid[VK_UUID_SIZE];
};

std::vector<char> ReadCompatibleCacheFile(const std::string& path, const DeviceCapabilities& caps) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CacheHeader header{};
  if (data.size() < sizeof(header)) return {};
  std::memcpy(&header, data.data(), sizeof(header));
  bool compatible = header.header_version == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
                    header.vendor_id == caps.vendor_id && header.device_id == caps.device_id &&
                    std::memcmp(header.uuid, caps.pipeline_cache_uuid.data(), VK_UUID_SIZE) == 0;
  if (!compatible) return {};  // another driver version wrote it: start afresh
  return data;
}

}  // namespace

StatusOr<std::unique_ptr<PipelineCache>> PipelineCache::Create(Device& device,
                                                               std::string directory) {
  std::unique_ptr<PipelineCache> cache(new PipelineCache(device, device.options().pipeline_cache_entries));
  const DeviceCapabilities& caps = device.capabilities();
  std::vector<char> initial;
  if (!directory.empty()) {
    std::string uuid;
    for (uint8_t b : caps.pipeline_cache_uuid) uuid += fmt::format("{:02x}", b);
    cache->disk_path_ = fmt::format("{}/pipelines-{:04x}-{:04x}-{}-{}.bin", directory,
                                    caps.vendor_id, caps.device_id, uuid, caps.profile);
    initial = ReadCompatibleCacheFile(cache->disk_path_, caps);
  }
  VkPipelineCacheCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  info.initialDataSize = initial.size();
  info.pInitialData = initial.empty() ? nullptr : initial.data();
  VkResult result = vkCreatePipelineCache(device.handle(), &info, nullptr, &cache->cache_);
  if (result != VK_SUCCESS && !initial.empty()) {
    // A damaged file must not stop the device from opening: start with an empty cache.
    initial.clear();
    info.initialDataSize = 0;
    info.pInitialData = nullptr;
    result = vkCreatePipelineCache(device.handle(), &info, nullptr, &cache->cache_);
  }
  VKHLO_RETURN_IF_ERROR(device.Check(result, "vkCreatePipelineCache"));
  cache->stats_.disk_bytes_loaded = initial.size();
  return cache;
}

PipelineCache::~PipelineCache() {
  if (!device_.lost()) Save().IgnoreError();  // a cache that cannot be written is only slower
  pipelines_.Clear();
  if (cache_ != VK_NULL_HANDLE) vkDestroyPipelineCache(device_.handle(), cache_, nullptr);
}

Status PipelineCache::Save() {
  if (disk_path_.empty()) return OkStatus();
  std::lock_guard<std::mutex> lock(mutex_);
  size_t size = 0;
  VKHLO_RETURN_IF_ERROR(device_.Check(vkGetPipelineCacheData(device_.handle(), cache_, &size, nullptr),
                                      "vkGetPipelineCacheData"));
  std::vector<char> data(size);
  VKHLO_RETURN_IF_ERROR(device_.Check(
      vkGetPipelineCacheData(device_.handle(), cache_, &size, data.data()), "vkGetPipelineCacheData"));
  data.resize(size);

  std::filesystem::path path(disk_path_);
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    return InternalError(fmt::format("cannot create pipeline cache directory {}: {}",
                                     path.parent_path().string(), ec.message()));
  }
  std::string temporary = fmt::format("{}.tmp{}", disk_path_, getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) return InternalError("cannot write pipeline cache file " + temporary);
  }
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    return InternalError("cannot replace pipeline cache file " + disk_path_);
  }
  return OkStatus();
}

PipelineCacheStats PipelineCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  PipelineCacheStats stats = stats_;
  stats.entries = pipelines_.size();
  stats.evictions = pipelines_.evictions();
  return stats;
}

Status PipelineCache::CheckLimits(const std::string& name, const ShaderInterface& shader,
                                  const ComputePipelineDesc& desc) const {
  const DeviceCapabilities& caps = device_.capabilities();
  const DeviceLimits& l = caps.limits;
  auto too_big = [&](std::string_view what, uint64_t value, std::string_view limit, uint64_t max) {
    return ResourceExhaustedError(fmt::format(
        "pipeline '{}': {} {} exceeds the device limit {} = {} (device '{}', profile {})", name,
        what, value, limit, max, caps.name, caps.profile));
  };
  static constexpr const char* kAxis[] = {"x", "y", "z"};
  uint64_t invocations = 1;
  for (int i = 0; i < 3; ++i) {
    if (shader.workgroup_size[i] == 0) {
      return InvalidArgumentError(fmt::format("pipeline '{}': workgroup size {} is 0", name, kAxis[i]));
    }
    if (shader.workgroup_size[i] > l.max_workgroup_size[i]) {
      return too_big(fmt::format("workgroup size {}", kAxis[i]), shader.workgroup_size[i],
                     fmt::format("maxComputeWorkGroupSize[{}]", i), l.max_workgroup_size[i]);
    }
    invocations *= shader.workgroup_size[i];
  }
  if (invocations > l.max_workgroup_invocations) {
    return too_big("workgroup invocations", invocations, "maxComputeWorkGroupInvocations",
                   l.max_workgroup_invocations);
  }
  if (shader.shared_memory_bytes > l.max_shared_memory_bytes) {
    return too_big("shared memory bytes", shader.shared_memory_bytes, "maxComputeSharedMemorySize",
                   l.max_shared_memory_bytes);
  }
  if (shader.push_constant_bytes > l.max_push_constants_bytes) {
    return too_big("push constant bytes", shader.push_constant_bytes, "maxPushConstantsSize",
                   l.max_push_constants_bytes);
  }
  const size_t texel_buffers = std::count_if(shader.bindings.begin(), shader.bindings.end(), [](const auto& b) {
    return b.kind == BindingKind::kStorageTexelBuffer;
  });
  if (shader.bindings.size() - texel_buffers > l.max_per_stage_storage_buffers) {
    return too_big("storage buffer bindings", shader.bindings.size() - texel_buffers,
                   "maxPerStageDescriptorStorageBuffers", l.max_per_stage_storage_buffers);
  }
  if (texel_buffers > l.max_per_stage_storage_images) {
    return too_big("storage texel buffer bindings", texel_buffers,
                   "maxPerStageDescriptorStorageImages", l.max_per_stage_storage_images);
  }
  if (desc.workgroup_base_offset &&
      *desc.workgroup_base_offset + 12 > shader.push_constant_bytes) {
    return InvalidArgumentError(fmt::format(
        "pipeline '{}': workgroup_base_offset {} leaves no room for a uvec3 in its {} bytes of "
        "push constants", name, *desc.workgroup_base_offset, shader.push_constant_bytes));
  }
  // SPIR-V capabilities that need an optional feature (SPIR-V 1.6 enumerants). What the
  // VkDevice enables is exactly the masked features, so using one the mask removed is invalid
  // usage that drivers may answer with a crash.
  struct FeatureCapability {
    uint32_t capability;
    const char* capability_name;
    const char* feature_name;
    bool enabled;
  };
  const FeatureCapability kFeatureCapabilities[] = {
      {9, "Float16", "shaderFloat16", caps.features.shader_float16},
      {10, "Float64", "shaderFloat64", caps.features.shader_float64},
      {11, "Int64", "shaderInt64", caps.features.shader_int64},
      {12, "Int64Atomics", "shaderBufferInt64Atomics", caps.features.shader_buffer_int64_atomics},
      {22, "Int16", "shaderInt16", caps.features.shader_int16},
      {39, "Int8", "shaderInt8", caps.features.shader_int8},
      {6018, "DotProductInput4x8BitPacked", "shaderIntegerDotProduct", caps.features.shader_integer_dot_product},
      {6019, "DotProduct", "shaderIntegerDotProduct", caps.features.shader_integer_dot_product},
  };
  for (const FeatureCapability& f : kFeatureCapabilities) {
    if (!f.enabled && std::binary_search(shader.capabilities.begin(), shader.capabilities.end(), f.capability)) {
      return FailedPreconditionError(fmt::format(
          "pipeline '{}' uses the SPIR-V capability {}, which needs {}; device '{}' (profile {}) "
          "does not offer it", name, f.capability_name, f.feature_name, caps.name, caps.profile));
    }
  }
  if (uint32_t sg = desc.required_subgroup_size) {
    if (!caps.features.subgroup_size_control || !caps.subgroup.required_size_in_compute) {
      return FailedPreconditionError(fmt::format(
          "pipeline '{}' requires subgroup size {}, but the device (profile {}) has no subgroup "
          "size control for compute", name, sg, caps.profile));
    }
    if (sg < caps.subgroup.min_size || sg > caps.subgroup.max_size || (sg & (sg - 1)) != 0) {
      return InvalidArgumentError(fmt::format(
          "pipeline '{}': required subgroup size {} is outside the device's [{}, {}]", name, sg,
          caps.subgroup.min_size, caps.subgroup.max_size));
    }
  }
  for (size_t i = 0; i < shader.bindings.size(); ++i) {
    const ShaderBinding& b = shader.bindings[i];
    if (b.set != 0 || b.binding != i || b.kind == BindingKind::kUniformBuffer) {
      return InvalidArgumentError(fmt::format(
          "pipeline '{}': vkhlo shaders bind storage (texel) buffers at set 0, bindings 0..N-1; "
          "found {} at set {} binding {}", name, BindingKindName(b.kind), b.set, b.binding));
    }
    if (b.kind == BindingKind::kStorageTexelBuffer && !caps.HasStorageTexelBufferFormat(b.format)) {
      return FailedPreconditionError(fmt::format(
          "pipeline '{}': binding {} is a storage texel buffer of VkFormat {}, which device '{}' "
          "(profile {}) does not support as STORAGE_TEXEL_BUFFER", name, i,
          static_cast<int>(b.format), caps.name, caps.profile));
    }
  }
  return OkStatus();
}

StatusOr<std::shared_ptr<const Pipeline>> PipelineCache::GetOrCreate(const ComputePipelineDesc& desc) {
  VKHLO_RETURN_IF_ERROR(device_.CheckAlive());
  std::string key = ContentKey(desc);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (std::shared_ptr<const Pipeline>* cached = pipelines_.Find(key)) {
      stats_.hits++;
      return *cached;
    }
  }
  auto start = std::chrono::steady_clock::now();
  VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<const Pipeline> pipeline, CreatePipeline(desc));
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.misses++;
  stats_.create_ms += ms;
  if (pipeline->driver_cache_hit()) stats_.driver_cache_hits++;
  // Another thread may have created it first; both are equivalent, the first stays cached.
  if (std::shared_ptr<const Pipeline>* first = pipelines_.Find(key)) return *first;
  pipelines_.Insert(key, pipeline);
  return pipeline;
}

StatusOr<std::shared_ptr<const Pipeline>> PipelineCache::CreatePipeline(const ComputePipelineDesc& desc) {
  const std::string name = desc.name.empty() ? "unnamed" : desc.name;
  auto shader = ReflectComputeShader(desc.spirv, desc.specialization);
  if (!shader.ok()) return shader.status().WithContext("pipeline '" + name + "'");
  VKHLO_RETURN_IF_ERROR(CheckLimits(name, *shader, desc));

  VkDevice dev = device_.handle();
  std::shared_ptr<Pipeline> p(new Pipeline());
  p->device_ = dev;
  p->descriptors_ = &device_.descriptors();
  p->name_ = name;
  p->binding_count_ = static_cast<uint32_t>(shader->bindings.size());
  p->bindings_ = shader->bindings;
  for (uint32_t b : desc.address_bindings) {
    if (b >= p->bindings_.size() || p->bindings_[b].kind != BindingKind::kStorageBuffer) {
      return InvalidArgumentError(fmt::format("pipeline '{}': binding {} is not a storage buffer and cannot hold a device address", name, b));
    }
    if (!device_.capabilities().features.buffer_device_address) {
      return FailedPreconditionError(fmt::format(
          "pipeline '{}': binding {} is reached through a device address, which device '{}' lacks (bufferDeviceAddress)",
          name, b, device_.capabilities().name));
    }
    p->bindings_[b].device_address = true;
  }
  // Extra windows are bound by the command list, not passed by the caller: they must be the
  // last bindings.
  uint32_t extra = 0;
  for (const WindowedBinding& w : desc.window_bindings) extra += static_cast<uint32_t>(w.window_bindings.size()) - 1;
  if (extra > p->binding_count_) {
    return InvalidArgumentError(fmt::format("pipeline '{}': more windows than bindings", name));
  }
  p->binding_count_ -= extra;
  for (const WindowedBinding& w : desc.window_bindings) {
    for (size_t k = 0; k < w.window_bindings.size(); ++k) {
      uint32_t b = w.window_bindings[k];
      if (b >= p->bindings_.size() || p->bindings_[b].kind != BindingKind::kStorageBuffer ||
          (k == 0 ? b >= p->binding_count_ : b < p->binding_count_) || w.window_bytes == 0) {
        return InvalidArgumentError(fmt::format(
            "pipeline '{}': window {} of binding {} (binding {}) is not a storage buffer the shader declares where expected",
            name, k, w.binding, b));
      }
    }
  }
  p->windowed_ = desc.window_bindings;
  std::sort(p->windowed_.begin(), p->windowed_.end(),
            [](const WindowedBinding& a, const WindowedBinding& b) { return a.binding < b.binding; });
  p->push_constant_bytes_ = (shader->push_constant_bytes + 3) / 4 * 4;
  p->workgroup_size_ = shader->workgroup_size;
  p->shared_memory_bytes_ = shader->shared_memory_bytes;
  p->workgroup_base_offset_ = desc.workgroup_base_offset;

  std::vector<VkDescriptorSetLayoutBinding> bindings(static_cast<uint32_t>(p->bindings_.size()));
  for (uint32_t i = 0; i < static_cast<uint32_t>(p->bindings_.size()); ++i) {
    VkDescriptorType type = p->bindings_[i].kind == BindingKind::kStorageTexelBuffer
                                ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                                : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i] = {i, type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = static_cast<uint32_t>(p->bindings_.size());
  set_info.pBindings = bindings.data();
  VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkCreateDescriptorSetLayout(dev, &set_info, nullptr, &p->set_layout_));

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, p->push_constant_bytes_};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &p->set_layout_;
  layout_info.pushConstantRangeCount = p->push_constant_bytes_ > 0 ? 1 : 0;
  layout_info.pPushConstantRanges = &range;
  VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkCreatePipelineLayout(dev, &layout_info, nullptr, &p->layout_));

  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = desc.spirv.size_bytes();
  module_info.pCode = desc.spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkCreateShaderModule(dev, &module_info, nullptr, &module));

  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint32_t> values;
  for (const SpecializationValue& v : desc.specialization) {
    entries.push_back({v.id, static_cast<uint32_t>(values.size() * 4), 4});
    values.push_back(v.bits);
  }
  VkSpecializationInfo spec{static_cast<uint32_t>(entries.size()), entries.data(),
                            values.size() * 4, values.data()};

  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = shader->entry_point.c_str();
  info.stage.pSpecializationInfo = entries.empty() ? nullptr : &spec;
  info.layout = p->layout_;

  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  if (desc.required_subgroup_size) {
    subgroup.requiredSubgroupSize = desc.required_subgroup_size;
    info.stage.pNext = &subgroup;
  }
  VkPipelineCreationFeedback feedback{};
  VkPipelineCreationFeedback stage_feedback{};
  VkPipelineCreationFeedbackCreateInfo feedback_info{
      VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
  if (device_.capabilities().features.pipeline_creation_feedback) {
    feedback_info.pPipelineCreationFeedback = &feedback;
    feedback_info.pipelineStageCreationFeedbackCount = 1;
    feedback_info.pPipelineStageCreationFeedbacks = &stage_feedback;
    info.pNext = &feedback_info;
  }
  VkResult result = VKHLO_DEVICE_CALL(device_, vkCreateComputePipelines(dev, cache_, 1, &info, nullptr, &p->pipeline_));
  vkDestroyShaderModule(dev, module, nullptr);
  if (result != VK_SUCCESS) {
    return device_.Check(result, "vkCreateComputePipelines").WithContext("pipeline '" + name + "'");
  }
  p->driver_cache_hit_ =
      (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
      (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
  return std::shared_ptr<const Pipeline>(std::move(p));
}

}  // namespace vkhlo::device
