// Descriptor sets for dispatches, cached by their contents.
//
// A dispatch binds storage buffers (VkBuffer, offset, range) to a pipeline's set layout; a
// binding the pipeline declares as a storage texel buffer gets a VkBufferView of that range,
// owned by the cached set and destroyed with it (the layout fixes which bindings are texel
// buffers and their formats, so the key needs no more than today's). The set
// for a given layout and bindings is written once and reused by every later dispatch with the
// same bindings, so steady-state execution (the same executable run again on the same buffers)
// allocates and updates no descriptors. Sets are evicted when a block's VkBuffer is destroyed
// (its handle value may be reused) and, least recently used first, when the cache is full —
// then only sets that no recording command list holds and whose last submission completed.
#pragma once

#include <vulkan/vulkan.h>

#include <list>
#include <mutex>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "device/buffer.h"
#include "device/capabilities.h"
#include "device/spirv_reflect.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

class Device;
class Pipeline;

// Whether `view` can be bound as texel buffer `binding` of `pipeline` (offset a multiple of
// minTexelBufferOffsetAlignment, at least one and at most maxTexelBufferElements texels).
// Returns the range of the VkBufferView: the size rounded down to whole texels.
StatusOr<uint64_t> TexelViewRange(const DeviceLimits& limits, std::string_view pipeline,
                                  uint32_t binding, const ShaderBinding& kind, const BufferView& view);

struct DescriptorCacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;     // sets allocated and written
  uint64_t pools = 0;      // VkDescriptorPools created
  uint64_t live_sets = 0;
  uint64_t live_texel_views = 0;  // VkBufferViews the cached sets own
};

class DescriptorCache {
 public:
  explicit DescriptorCache(Device& device, size_t capacity = 4096);
  ~DescriptorCache();
  DescriptorCache(const DescriptorCache&) = delete;
  DescriptorCache& operator=(const DescriptorCache&) = delete;

  // A set for `pipeline`'s layout with `views[i]` at binding i (a storage buffer or texel
  // buffer, as the pipeline declares), held by the caller until Release.
  StatusOr<VkDescriptorSet> Acquire(const Pipeline& pipeline, std::span<const BufferView> views);
  // Ends a hold: `submission` is the queue value of the submission that used the set (0 if the
  // recording was abandoned).
  void Release(VkDescriptorSet set, uint64_t submission);

  // Drops every set that references `buffer` (called by the allocator before destroying it).
  void ForgetBuffer(VkBuffer buffer);
  // Drops every set of `layout` (called by a pipeline before destroying its set layout, whose
  // handle value a later layout may get: evicted pipelines die with their last user).
  void ForgetLayout(VkDescriptorSetLayout layout);

  DescriptorCacheStats stats() const;

 private:
  struct Key {
    VkDescriptorSetLayout layout;
    std::vector<BufferView> views;
    bool operator==(const Key& other) const;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const;
  };
  struct Entry {
    VkDescriptorSet set;
    VkDescriptorPool pool;
    uint64_t last_use;  // submission value of the latest use
    uint32_t holds;     // command lists recording with it
    std::list<Key>::iterator lru;
    std::vector<VkBufferView> texel_views;  // destroyed when the set is freed
  };

  StatusOr<std::pair<VkDescriptorSet, VkDescriptorPool>> AllocateLocked(VkDescriptorSetLayout layout);
  void EvictLocked(const Key& key);
  void DestroyViews(std::vector<VkBufferView>& views);
  // Writes `views` into `set`, creating the texel views into `texel_views`.
  Status WriteLocked(const Pipeline& pipeline, VkDescriptorSet set, std::span<const BufferView> views,
                     std::vector<VkBufferView>& texel_views);
  Status MakeRoomLocked();

  Device& device_;
  size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_map<Key, Entry, KeyHash> entries_;
  std::list<Key> lru_;  // front: most recently used
  std::unordered_map<VkDescriptorSet, Entry*> by_set_;  // element pointers are stable
  std::vector<VkDescriptorPool> pools_;
  DescriptorCacheStats stats_;
};

}  // namespace vkhlo::device
