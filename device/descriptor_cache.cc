#include "device/descriptor_cache.h"

#include <fmt/format.h>

#include <algorithm>

#include "device/device.h"
#include "device/pipeline.h"
#include "device/queue.h"
#include "device/vk_status.h"

namespace vkhlo::device {
namespace {
constexpr uint32_t kSetsPerPool = 256;
constexpr uint32_t kBuffersPerPool = kSetsPerPool * 8;
constexpr uint32_t kTexelBuffersPerPool = kSetsPerPool * 4;
}  // namespace

StatusOr<uint64_t> TexelViewRange(const DeviceLimits& limits, std::string_view pipeline,
                                  uint32_t binding, const ShaderBinding& kind, const BufferView& view) {
  const uint64_t alignment = std::max<uint64_t>(limits.min_texel_buffer_offset_alignment, 1);
  if (view.offset % alignment != 0) {
    return InvalidArgumentError(fmt::format(
        "dispatch of '{}', texel buffer binding {}: offset {} is not a multiple of "
        "minTexelBufferOffsetAlignment = {}", pipeline, binding, view.offset, alignment));
  }
  const uint64_t texels = view.size / kind.texel_bytes;
  if (texels == 0) {
    return InvalidArgumentError(fmt::format(
        "dispatch of '{}', texel buffer binding {}: {} bytes hold no whole texel of {} bytes",
        pipeline, binding, view.size, kind.texel_bytes));
  }
  if (texels > limits.max_texel_buffer_elements) {
    return ResourceExhaustedError(fmt::format(
        "dispatch of '{}', texel buffer binding {}: {} texels of {} bytes exceed "
        "maxTexelBufferElements = {}", pipeline, binding, texels, kind.texel_bytes,
        limits.max_texel_buffer_elements));
  }
  return texels * kind.texel_bytes;
}

bool DescriptorCache::Key::operator==(const Key& other) const {
  if (layout != other.layout || views.size() != other.views.size()) return false;
  for (size_t i = 0; i < views.size(); ++i) {
    if (views[i].buffer != other.views[i].buffer || views[i].offset != other.views[i].offset ||
        views[i].size != other.views[i].size) {
      return false;
    }
  }
  return true;
}

size_t DescriptorCache::KeyHash::operator()(const Key& key) const {
  size_t h = std::hash<const void*>()(key.layout);
  auto mix = [&h](uint64_t v) { h ^= std::hash<uint64_t>()(v) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  for (const BufferView& v : key.views) {
    mix(reinterpret_cast<uint64_t>(v.buffer));
    mix(v.offset);
    mix(v.size);
  }
  return h;
}

DescriptorCache::DescriptorCache(Device& device, size_t capacity)
    : device_(device), capacity_(capacity) {}

DescriptorCache::~DescriptorCache() {
  // Destroying a pool frees its sets; nothing is in flight any more, so their views can go too.
  for (VkDescriptorPool pool : pools_) vkDestroyDescriptorPool(device_.handle(), pool, nullptr);
  for (auto& [key, entry] : entries_) DestroyViews(entry.texel_views);
}

void DescriptorCache::DestroyViews(std::vector<VkBufferView>& views) {
  for (VkBufferView view : views) vkDestroyBufferView(device_.handle(), view, nullptr);
  stats_.live_texel_views -= views.size();
  views.clear();
}

StatusOr<std::pair<VkDescriptorSet, VkDescriptorPool>> DescriptorCache::AllocateLocked(
    VkDescriptorSetLayout layout) {
  VkDescriptorSetAllocateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  info.descriptorSetCount = 1;
  info.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  // Newest pool first: older ones are usually full.
  for (auto it = pools_.rbegin(); it != pools_.rend(); ++it) {
    info.descriptorPool = *it;
    VkResult result = VKHLO_DEVICE_CALL(device_, vkAllocateDescriptorSets(device_.handle(), &info, &set));
    if (result == VK_SUCCESS) return std::pair(set, *it);
    if (result != VK_ERROR_OUT_OF_POOL_MEMORY && result != VK_ERROR_FRAGMENTED_POOL) {
      return device_.Check(result, "vkAllocateDescriptorSets");
    }
  }
  const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kBuffersPerPool},
                                        {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, kTexelBuffersPerPool}};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool_info.maxSets = kSetsPerPool;
  pool_info.poolSizeCount = 2;
  pool_info.pPoolSizes = sizes;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkCreateDescriptorPool(device_.handle(), &pool_info, nullptr, &pool));
  pools_.push_back(pool);
  stats_.pools++;
  info.descriptorPool = pool;
  VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkAllocateDescriptorSets(device_.handle(), &info, &set));
  return std::pair(set, pool);
}

void DescriptorCache::EvictLocked(const Key& key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return;
  vkFreeDescriptorSets(device_.handle(), it->second.pool, 1, &it->second.set);
  DestroyViews(it->second.texel_views);  // only the freed set referenced them
  by_set_.erase(it->second.set);
  lru_.erase(it->second.lru);
  entries_.erase(it);
  stats_.live_sets--;
}

Status DescriptorCache::MakeRoomLocked() {
  if (entries_.size() < capacity_) return OkStatus();
  // Evict from the least recently used end, skipping sets that may still be in flight.
  std::vector<Key> victims;
  for (auto it = lru_.rbegin(); it != lru_.rend() && victims.size() < capacity_ / 4; ++it) {
    const Entry& entry = entries_.at(*it);
    if (entry.holds > 0) continue;
    VKHLO_ASSIGN_OR_RETURN(bool done, device_.queue().IsComplete(entry.last_use));
    if (!done) continue;
    victims.push_back(*it);
  }
  for (const Key& key : victims) EvictLocked(key);
  return OkStatus();
}

Status DescriptorCache::WriteLocked(const Pipeline& pipeline, VkDescriptorSet set,
                                    std::span<const BufferView> views,
                                    std::vector<VkBufferView>& texel_views) {
  std::span<const ShaderBinding> kinds = pipeline.bindings();
  const DeviceLimits& limits = device_.capabilities().limits;
  // Sized up front: the writes point into these vectors.
  std::vector<VkDescriptorBufferInfo> infos(views.size());
  std::vector<VkBufferView> texel_handles(views.size(), VK_NULL_HANDLE);
  std::vector<VkWriteDescriptorSet> writes(views.size());
  for (size_t i = 0; i < views.size(); ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = static_cast<uint32_t>(i);
    writes[i].descriptorCount = 1;
    if (kinds[i].kind != BindingKind::kStorageTexelBuffer) {
      infos[i] = {views[i].buffer, views[i].offset, views[i].size};
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
      continue;
    }
    VKHLO_ASSIGN_OR_RETURN(uint64_t range, TexelViewRange(limits, pipeline.name(), static_cast<uint32_t>(i),
                                                          kinds[i], views[i]));
    VkBufferViewCreateInfo view_info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    view_info.buffer = views[i].buffer;
    view_info.format = kinds[i].format;
    view_info.offset = views[i].offset;
    view_info.range = range;
    VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkCreateBufferView(device_.handle(), &view_info, nullptr,
                                                             &texel_handles[i]));
    texel_views.push_back(texel_handles[i]);
    stats_.live_texel_views++;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    writes[i].pTexelBufferView = &texel_handles[i];
  }
  vkUpdateDescriptorSets(device_.handle(), static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);
  return OkStatus();
}

StatusOr<VkDescriptorSet> DescriptorCache::Acquire(const Pipeline& pipeline,
                                                   std::span<const BufferView> views) {
  if (views.size() != pipeline.bindings().size()) {
    return InvalidArgumentError(fmt::format("dispatch of '{}': {} buffers bound, the shader has {}",
                                            pipeline.name(), views.size(), pipeline.bindings().size()));
  }
  Key key{pipeline.set_layout(), std::vector<BufferView>(views.begin(), views.end())};
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it != entries_.end()) {
    stats_.hits++;
    it->second.holds++;
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    return it->second.set;
  }
  VKHLO_RETURN_IF_ERROR(MakeRoomLocked());
  VKHLO_ASSIGN_OR_RETURN(auto allocated, AllocateLocked(pipeline.set_layout()));
  auto [set, pool] = allocated;
  std::vector<VkBufferView> texel_views;
  if (Status written = WriteLocked(pipeline, set, views, texel_views); !written.ok()) {
    // A view that cannot be made (bad offset, too many texels) leaves nothing behind.
    vkFreeDescriptorSets(device_.handle(), pool, 1, &set);
    DestroyViews(texel_views);
    return written;
  }

  lru_.push_front(key);
  auto entry = entries_.emplace(std::move(key), Entry{set, pool, 0, 1, lru_.begin(), std::move(texel_views)}).first;
  by_set_[set] = &entry->second;
  stats_.misses++;
  stats_.live_sets++;
  return set;
}

void DescriptorCache::Release(VkDescriptorSet set, uint64_t submission) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = by_set_.find(set);
  if (it == by_set_.end()) return;  // evicted meanwhile (its buffer was destroyed)
  Entry& entry = *it->second;
  if (entry.holds > 0) entry.holds--;
  entry.last_use = std::max(entry.last_use, submission);
}

void DescriptorCache::ForgetBuffer(VkBuffer buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Key> victims;
  for (const auto& [key, entry] : entries_) {
    for (const BufferView& v : key.views) {
      if (v.buffer == buffer) {
        victims.push_back(key);
        break;
      }
    }
  }
  for (const Key& key : victims) EvictLocked(key);
}

void DescriptorCache::ForgetLayout(VkDescriptorSetLayout layout) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Key> victims;
  for (const auto& [key, entry] : entries_) {
    if (key.layout == layout) victims.push_back(key);
  }
  for (const Key& key : victims) EvictLocked(key);
}

DescriptorCacheStats DescriptorCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

}  // namespace vkhlo::device
