// Compute pipelines: created from SPIR-V plus specialization constants, checked against the
// device's limits, and cached in memory (by content) and on disk (VkPipelineCache).
//
// Binding model: a shader's storage buffers live in descriptor set 0 at bindings 0..N-1; its
// push constants are one block starting at offset 0. A binding may instead be a storage texel
// buffer (reflected from the SPIR-V, with its format): it is bound from the same BufferView and
// the descriptor cache makes the VkBufferView. A shader that may be dispatched over more
// workgroups than maxComputeWorkGroupCount reserves a uvec3 in its push constants for the
// workgroup base (see shaders/include/vkhlo_dispatch.glsl) and names its offset in
// `workgroup_base_offset`; the command list then splits big grids and fills it in.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "device/spirv_reflect.h"
#include "support/lru_cache.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

class DescriptorCache;
class Device;

// Specialization constant helpers: a value for `constant_id = id` in GLSL.
SpecializationValue SpecUint(uint32_t id, uint32_t value);
SpecializationValue SpecInt(uint32_t id, int32_t value);
SpecializationValue SpecFloat(uint32_t id, float value);
SpecializationValue SpecBool(uint32_t id, bool value);

// A binding the shader reaches through several descriptors of the caller's one view
// (codegen/big_bindings.h BindThroughWindows): window k covers bytes [k*S, min((k+1)*S, size))
// of the view and is bound at window_bindings[k] (window_bindings[0] == binding; the others are
// numbered after the caller's bindings and are not passed by the caller).
struct WindowedBinding {
  uint32_t binding = 0;
  uint64_t window_bytes = 0;
  std::vector<uint32_t> window_bindings;
};

struct ComputePipelineDesc {
  std::string name;                       // for messages and profiling (e.g. "util/fill_u32")
  std::span<const uint32_t> spirv;        // must stay valid during creation only
  std::vector<SpecializationValue> specialization;
  std::optional<uint32_t> workgroup_base_offset;  // push-constant byte offset of the uvec3 base
  uint32_t required_subgroup_size = 0;    // 0: the driver's choice
  // Bindings through which the shader reaches the caller's view by its device address
  // (codegen/big_bindings.h; ShaderBinding::device_address). Needs bufferDeviceAddress.
  std::vector<uint32_t> address_bindings;
  std::vector<WindowedBinding> window_bindings;
};

class Pipeline {
 public:
  const std::string& name() const { return name_; }
  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  VkDescriptorSetLayout set_layout() const { return set_layout_; }
  // The bindings the caller passes (the shader's, less the extra windows of windowed bindings).
  uint32_t binding_count() const { return binding_count_; }
  // Windowed bindings (ComputePipelineDesc::window_bindings), sorted by binding.
  std::span<const WindowedBinding> windowed() const { return windowed_; }
  // Binding i's kind and, for texel buffers, format (as reflected; bindings()[i].binding == i).
  std::span<const ShaderBinding> bindings() const { return bindings_; }
  uint32_t push_constant_bytes() const { return push_constant_bytes_; }
  const std::array<uint32_t, 3>& workgroup_size() const { return workgroup_size_; }
  uint64_t shared_memory_bytes() const { return shared_memory_bytes_; }
  std::optional<uint32_t> workgroup_base_offset() const { return workgroup_base_offset_; }
  // The driver said it found this pipeline in the VkPipelineCache (creation feedback).
  bool driver_cache_hit() const { return driver_cache_hit_; }

  ~Pipeline();  // forgets its descriptor sets, then destroys its Vulkan objects
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

 private:
  friend class PipelineCache;
  Pipeline() = default;
  VkDevice device_ = VK_NULL_HANDLE;
  DescriptorCache* descriptors_ = nullptr;  // the device's: sets cached for this layout
  std::string name_;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  uint32_t binding_count_ = 0;
  std::vector<ShaderBinding> bindings_;  // all the shader's, extra windows included
  std::vector<WindowedBinding> windowed_;
  uint32_t push_constant_bytes_ = 0;
  std::array<uint32_t, 3> workgroup_size_ = {1, 1, 1};
  uint64_t shared_memory_bytes_ = 0;
  std::optional<uint32_t> workgroup_base_offset_;
  bool driver_cache_hit_ = false;
};

struct PipelineCacheStats {
  uint64_t hits = 0;                // GetOrCreate answered from memory
  uint64_t misses = 0;              // a VkPipeline was created
  uint64_t driver_cache_hits = 0;   // ... and the driver reported a VkPipelineCache hit
  uint64_t disk_bytes_loaded = 0;   // size of the cache file read when the device opened
  double create_ms = 0;             // time spent creating pipelines
  uint64_t entries = 0;             // pipelines the cache holds now
  uint64_t evictions = 0;           // dropped to stay within DeviceOptions::pipeline_cache_entries
};

class PipelineCache {
 public:
  // Loads the on-disk cache for this device from `directory` (empty: no disk cache).
  static StatusOr<std::unique_ptr<PipelineCache>> Create(Device& device, std::string directory);
  ~PipelineCache();  // saves to disk

  // The pipeline for `desc`, created on first use. Fails with a message naming the limit when
  // the shader exceeds one (workgroup size, invocations, shared memory, push constants,
  // bindings, subgroup size). The cache holds at most DeviceOptions::pipeline_cache_entries
  // pipelines, least recently used out first; an evicted pipeline lives on while an
  // executable holds it, and is created again if asked for after it died.
  StatusOr<std::shared_ptr<const Pipeline>> GetOrCreate(const ComputePipelineDesc& desc);

  PipelineCacheStats stats() const;
  // Where the cache file lives ("" when disk caching is off).
  const std::string& disk_path() const { return disk_path_; }
  // Writes the VkPipelineCache to disk now (atomically: temporary file, then rename).
  Status Save();

 private:
  explicit PipelineCache(Device& device, uint64_t capacity) : device_(device), pipelines_(capacity) {}
  Status CheckLimits(const std::string& name, const ShaderInterface& shader,
                     const ComputePipelineDesc& desc) const;
  StatusOr<std::shared_ptr<const Pipeline>> CreatePipeline(const ComputePipelineDesc& desc);

  Device& device_;
  VkPipelineCache cache_ = VK_NULL_HANDLE;
  std::string disk_path_;
  mutable std::mutex mutex_;
  LruCache<std::string, std::shared_ptr<const Pipeline>> pipelines_;  // by content key
  PipelineCacheStats stats_;
};

}  // namespace vkhlo::device
