// Buffer: a range of device memory owned by the allocator, returned to it on destruction.
//
// Buffers are sub-allocated from large blocks; each block has one VkBuffer covering all of it, so
// a Buffer is (that VkBuffer, an offset, a size). A buffer larger than the device's
// maxMemoryAllocationSize cannot live in one VkDeviceMemory (nor, unsparse, in one VkBuffer): it
// is "split" into pieces, each a Buffer of its own, of `PieceTable::piece_bytes` each but the
// last (split_layout.h). Its views carry the piece table; the command list and the transfer
// engine cut them into per-piece ranges, and anything that needs one VkBuffer range (a
// descriptor, an address) gets one only when the view lies inside one piece. A Buffer must be destroyed before its Device
// and must not be destroyed while submitted work still uses it (the runtime keeps buffers alive
// until the submissions that use them complete).
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace vkhlo::device {

class Allocator;

// Where a buffer lives. kDevice: tensors (device-local, fastest for kernels). kStaging: host-
// visible memory for transfers (cached where available so reading back is fast).
enum class MemoryKind { kDevice, kStaging };

struct PieceTable;

// A range of a VkBuffer, as bound to a shader or used by a copy. `size` is in bytes.
// With `pieces` (a split buffer), `offset` and `size` are within the whole split buffer, and
// `buffer` is its first piece's VkBuffer (only for messages; device/split_layout.h resolves the
// view into per-piece ranges).
struct BufferView {
  VkBuffer buffer = VK_NULL_HANDLE;
  uint64_t offset = 0;
  uint64_t size = 0;
  const PieceTable* pieces = nullptr;  // owned by the split Buffer; null for ordinary buffers
};

// The pieces of a split buffer: piece i covers bytes [i * piece_bytes, ...) of it and is the
// (unsplit) view `views[i]`.
struct PieceTable {
  uint64_t piece_bytes = 0;
  std::vector<BufferView> views;
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
  BufferView view() const { return BufferView{buffer_, offset_, bound_size_, pieces_.get()}; }
  BufferView view(uint64_t offset, uint64_t size) const {
    return BufferView{buffer_, offset_ + offset, size, pieces_.get()};
  }

  // Split buffers (beyond maxMemoryAllocationSize): their pieces, in order; empty otherwise.
  // A split buffer has no mapping (mapped() is null): its bytes move piece by piece.
  bool split() const { return pieces_ != nullptr; }
  const std::vector<Buffer>& pieces() const { return parts_; }

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
  // Split buffers only: the pieces' views (shared by every view of this buffer, so it lives on
  // the heap and moves with the buffer) and the pieces themselves.
  std::unique_ptr<PieceTable> pieces_;
  std::vector<Buffer> parts_;
};

}  // namespace vkhlo::device
