// Buffer: a range of device memory owned by the allocator, returned to it on destruction.
//
// Buffers are sub-allocated from large blocks; each block has one VkBuffer covering all of it, so
// a Buffer is (that VkBuffer, an offset, a size). A Buffer must be destroyed before its Device
// and must not be destroyed while submitted work still uses it (the runtime keeps buffers alive
// until the submissions that use them complete).
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>

namespace vkhlo::device {

class Allocator;

// Where a buffer lives. kDevice: tensors (device-local, fastest for kernels). kStaging: host-
// visible memory for transfers (cached where available so reading back is fast).
enum class MemoryKind { kDevice, kStaging };

// A range of a VkBuffer, as bound to a shader or used by a copy. `size` is in bytes.
struct BufferView {
  VkBuffer buffer = VK_NULL_HANDLE;
  uint64_t offset = 0;
  uint64_t size = 0;
};

class Buffer {
 public:
  Buffer() = default;
  ~Buffer() { Reset(); }
  Buffer(Buffer&& other) noexcept { *this = std::move(other); }
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  explicit operator bool() const { return allocator_ != nullptr; }

  uint64_t size() const { return size_; }  // bytes the caller asked for (may be 0)
  MemoryKind kind() const { return kind_; }
  VkBuffer vk_buffer() const { return buffer_; }
  uint64_t offset() const { return offset_; }  // within vk_buffer()
  // Host pointer to the first byte when the memory is host-visible, else nullptr.
  std::byte* mapped() const { return mapped_; }
  bool host_coherent() const { return host_coherent_; }
  // The memory behind vk_buffer() (bound at offset 0, so offset() is also the memory offset).
  VkDeviceMemory memory() const { return memory_; }

  // The whole buffer. A zero-size buffer still has a non-empty range (one alignment unit) so
  // that it can be bound; view().size is then that unit.
  BufferView view() const { return BufferView{buffer_, offset_, bound_size_}; }
  BufferView view(uint64_t offset, uint64_t size) const {
    return BufferView{buffer_, offset_ + offset, size};
  }

  // Returns the memory to the allocator now.
  void Reset();

 private:
  friend class Allocator;
  Allocator* allocator_ = nullptr;
  uint32_t block_id_ = 0;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint64_t offset_ = 0;
  uint64_t size_ = 0;
  uint64_t bound_size_ = 0;  // size rounded up to the allocation granularity
  std::byte* mapped_ = nullptr;
  bool host_coherent_ = true;
  MemoryKind kind_ = MemoryKind::kDevice;
};

}  // namespace vkhlo::device
