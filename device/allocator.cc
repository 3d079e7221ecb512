#include "device/allocator.h"

#include <fmt/format.h>

#include <algorithm>

#include "device/device.h"
#include "device/split_layout.h"
#include "device/vk_status.h"

namespace vkhlo::device {

struct Allocator::Block {
  uint32_t id = 0;
  uint32_t memory_type = 0;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  uint64_t size = 0;
  std::byte* mapped = nullptr;
  bool host_coherent = true;
  bool dedicated = false;
  bool pooled = false;     // a free dedicated block kept for reuse
  uint64_t pooled_at = 0;  // pool_clock_ when pooled: the oldest go first
  uint64_t used = 0;
  std::map<uint64_t, uint64_t> free_ranges;  // offset -> size, coalesced
};

namespace {

// Texel usage lets any buffer be viewed as a storage texel buffer (the usage bit needs no
// device feature; the descriptor cache makes views of the ranges kernels declare as texels).
constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                      VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// With bufferDeviceAddress (enabled when the masked capabilities have it), every block can be
// reached through its address: kernels bind views beyond maxStorageBufferRange that way
// (address_table.h), which needs the usage bit on the buffer and the flag on its memory.
VkBufferUsageFlags UsageFor(const Device& device) {
  const VkBufferUsageFlags address = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  return kUsage | (device.capabilities().features.buffer_device_address ? address : VkBufferUsageFlags{0});
}

uint64_t RoundUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// Best memory type of `allowed` for `kind`, or -1.
int ChooseMemoryType(const std::vector<MemoryType>& types, uint32_t allowed, MemoryKind kind) {
  int best = -1, best_score = -1;
  for (uint32_t i = 0; i < types.size(); ++i) {
    if (!(allowed & (1u << i))) continue;
    const MemoryType& t = types[i];
    if (t.is_protected || t.lazily_allocated) continue;
    int score = 0;
    if (kind == MemoryKind::kDevice) {
      // Plain VRAM first; host-visible device memory (ReBAR, UMA) after.
      score = (t.device_local ? 100 : 0) + (t.host_visible ? 0 : 10);
    } else {
      if (!t.host_visible) continue;
      // Coherent avoids flushes; cached makes read-back fast; staging should not use VRAM.
      score = (t.host_coherent ? 20 : 0) + (t.host_cached ? 10 : 0) + (t.device_local ? 0 : 5);
    }
    if (score > best_score) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  return best;
}

std::string Bytes(uint64_t n) {
  if (n >= (1ull << 30)) return fmt::format("{} bytes ({:.2f} GiB)", n, n / double(1ull << 30));
  if (n >= (1ull << 20)) return fmt::format("{} bytes ({:.1f} MiB)", n, n / double(1ull << 20));
  return fmt::format("{} bytes", n);
}

}  // namespace

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    Reset();
    allocator_ = other.allocator_;
    block_id_ = other.block_id_;
    buffer_ = other.buffer_;
    memory_ = other.memory_;
    offset_ = other.offset_;
    size_ = other.size_;
    bound_size_ = other.bound_size_;
    mapped_ = other.mapped_;
    host_coherent_ = other.host_coherent_;
    kind_ = other.kind_;
    pieces_ = std::move(other.pieces_);
    parts_ = std::move(other.parts_);
    other.allocator_ = nullptr;
    other.buffer_ = VK_NULL_HANDLE;
    other.mapped_ = nullptr;
    other.size_ = other.bound_size_ = 0;
  }
  return *this;
}

void Buffer::Reset() {
  if (allocator_ != nullptr) allocator_->Free(*this);
  allocator_ = nullptr;
  buffer_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
  size_ = bound_size_ = 0;
}

StatusOr<std::unique_ptr<Allocator>> Allocator::Create(Device& device, const AllocatorOptions& options) {
  std::unique_ptr<Allocator> allocator(new Allocator(device));
  const DeviceCapabilities& caps = device.capabilities();

  // memoryTypeBits and alignment are the same for every buffer of the same usage and flags, so
  // one probe buffer tells them for all.
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 4096;
  info.usage = UsageFor(device);
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer probe = VK_NULL_HANDLE;
  VKHLO_DEVICE_RETURN_IF_ERROR(device, vkCreateBuffer(device.handle(), &info, nullptr, &probe));
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(device.handle(), probe, &req);
  vkDestroyBuffer(device.handle(), probe, nullptr);

  for (MemoryKind kind : {MemoryKind::kDevice, MemoryKind::kStaging}) {
    int type = ChooseMemoryType(caps.memory_types, req.memoryTypeBits, kind);
    if (type < 0) {
      return FailedPreconditionError(fmt::format(
          "device '{}' has no {} memory type usable for storage buffers", caps.name,
          kind == MemoryKind::kDevice ? "device" : "host-visible"));
    }
    allocator->memory_type_for_[static_cast<int>(kind)] = static_cast<uint32_t>(type);
  }
  // 32: library kernels (matmul, convolution) read their operands in 32-byte vector units.
  // Every buffer must also start where a texel view may (the alignments are powers of two, so
  // the largest is a multiple of the others).
  uint64_t alignment = std::max<uint64_t>({32, req.alignment, caps.limits.min_storage_buffer_offset_alignment,
                                           caps.limits.min_texel_buffer_offset_alignment});
  const MemoryType& staging = caps.memory_types[allocator->memory_type_for_[1]];
  if (!staging.host_coherent) alignment = std::max(alignment, caps.limits.non_coherent_atom_size);
  allocator->alignment_ = alignment;

  allocator->heap_limit_.resize(caps.memory_heaps.size());
  for (size_t h = 0; h < caps.memory_heaps.size(); ++h) {
    const uint64_t size = caps.memory_heaps[h].size;
    allocator->heap_limit_[h] = options.budget_bytes != 0 ? std::min(size, options.budget_bytes) : size;
  }
  // Blocks: the requested size, but no more than an eighth of the smallest heap used, nor than
  // the largest single allocation the driver allows. The pool: at most a quarter of it.
  uint64_t block = options.block_bytes;
  uint64_t pool = options.free_block_pool_bytes;
  for (uint32_t type : allocator->memory_type_for_) {
    const uint64_t heap = allocator->heap_limit_[caps.memory_types[type].heap_index];
    block = std::min(block, heap / 8);
    pool = std::min(pool, heap / 4);
  }
  allocator->pool_limit_ = pool;
  if (caps.limits.max_memory_allocation_size != 0) {
    block = std::min(block, caps.limits.max_memory_allocation_size);
  }
  allocator->block_bytes_ = std::max(RoundUp(block, alignment), alignment);
  allocator->split_ = ChooseSplitLayout(caps, alignment);
  allocator->heap_reserved_.assign(caps.memory_heaps.size(), 0);
  return allocator;
}

Allocator::Allocator(Device& device) : device_(device) {}

Allocator::~Allocator() {
  std::lock_guard<std::mutex> lock(mutex_);
  while (!blocks_.empty()) DestroyBlockLocked(blocks_.begin()->first);
}

bool Allocator::IsHostVisible(MemoryKind kind) const {
  return device_.capabilities()
      .memory_types[memory_type_for_[static_cast<int>(kind)]]
      .host_visible;
}

void Allocator::SetBlockDestroyedCallback(std::function<void(VkBuffer)> callback) {
  std::lock_guard<std::mutex> lock(mutex_);
  on_block_destroyed_ = std::move(callback);
}

uint64_t Allocator::AddBlockDestroyedListener(std::function<void(VkBuffer)> listener) {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t id = next_listener_id_++;
  block_destroyed_listeners_[id] = std::move(listener);
  return id;
}

void Allocator::RemoveBlockDestroyedListener(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  block_destroyed_listeners_.erase(id);
}

std::optional<uint64_t> Allocator::VkBufferBytes(VkBuffer buffer) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [id, block] : blocks_) {
    if (block->buffer == buffer && !block->pooled) return block->size;
  }
  return std::nullopt;
}

std::string Allocator::HeapDescription(uint32_t memory_type) const {
  const DeviceCapabilities& caps = device_.capabilities();
  uint32_t heap = caps.memory_types[memory_type].heap_index;
  std::string text = fmt::format("heap {} ({} of {} in use by vkhlo", heap, Bytes(heap_reserved_[heap]),
                                 Bytes(caps.memory_heaps[heap].size));
  if (heap_limit_[heap] < caps.memory_heaps[heap].size) text += fmt::format(", budget {}", Bytes(heap_limit_[heap]));
  return text + ")";
}

// A dedicated block's size: `rounded` up to a sixteenth of its power of two (at most 6.25% more),
// so requests of nearby sizes reuse each other's pooled blocks. Blocks too large to pool, or
// whose bucket the driver would refuse, keep their exact size.
uint64_t Allocator::BucketBytes(uint64_t rounded) const {
  if (rounded > pool_limit_ / 2) return rounded;
  uint64_t power = 1;
  while (power <= rounded / 2) power *= 2;
  const uint64_t step = std::max(power / 16, alignment_);
  const uint64_t bucket = RoundUp(rounded, step);
  const DeviceLimits& limits = device_.capabilities().limits;
  if ((limits.max_buffer_size != 0 && bucket > limits.max_buffer_size) ||
      (limits.max_memory_allocation_size != 0 && bucket > limits.max_memory_allocation_size)) {
    return rounded;
  }
  return bucket;
}

StatusOr<Allocator::Block*> Allocator::DedicatedBlockLocked(uint32_t memory_type, uint64_t rounded) {
  const uint64_t bucket = BucketBytes(rounded);
  auto it = pool_.find({bucket, memory_type});
  if (it != pool_.end() && !it->second.empty()) {
    // The most recently pooled: its pages are the likeliest still resident and cached.
    const uint32_t id = it->second.back();
    it->second.pop_back();
    if (it->second.empty()) pool_.erase(it);
    Block& block = *blocks_.at(id);
    block.pooled = false;
    stats_.pooled_bytes -= block.size;
    stats_.pooled_blocks--;
    stats_.pool_hits++;
    return &block;
  }
  return CreateBlockLocked(memory_type, bucket, /*dedicated=*/true);
}

// A freed dedicated block: kept for reuse if it fits the pool, the oldest pooled blocks
// released to make room. Listeners learn now that the block's buffer is gone.
void Allocator::PoolBlockLocked(Block& block) {
  if (block.size > pool_limit_ / 2) {  // one block never fills the pool
    DestroyBlockLocked(block.id);
    return;
  }
  for (const auto& [id, listener] : block_destroyed_listeners_) listener(block.buffer);
  block.free_ranges.clear();
  block.free_ranges[0] = block.size;
  block.pooled = true;
  block.pooled_at = ++pool_clock_;
  pool_[{block.size, block.memory_type}].push_back(block.id);
  stats_.pooled_bytes += block.size;
  stats_.pooled_blocks++;
  while (stats_.pooled_bytes > pool_limit_) {
    uint32_t oldest = 0;
    uint64_t oldest_at = UINT64_MAX;
    for (const auto& [key, ids] : pool_) {
      for (uint32_t id : ids) {
        if (blocks_.at(id)->pooled_at < oldest_at) {
          oldest_at = blocks_.at(id)->pooled_at;
          oldest = id;
        }
      }
    }
    DestroyBlockLocked(oldest);
  }
}

void Allocator::TrimLocked() {
  if (pool_.empty()) return;
  std::vector<uint32_t> ids;
  for (const auto& [key, list] : pool_) ids.insert(ids.end(), list.begin(), list.end());
  for (uint32_t id : ids) DestroyBlockLocked(id);
  stats_.pool_trims++;
}

void Allocator::Trim() {
  std::lock_guard<std::mutex> lock(mutex_);
  TrimLocked();
}

// A new block; when there is no room for it, the pool is emptied and it is tried once more.
StatusOr<Allocator::Block*> Allocator::CreateBlockLocked(uint32_t memory_type, uint64_t size,
                                                         bool dedicated) {
  auto block = CreateBlockOnceLocked(memory_type, size, dedicated);
  if (block.ok() || pool_.empty() || !device_.CheckAlive().ok()) return block;
  TrimLocked();
  return CreateBlockOnceLocked(memory_type, size, dedicated);
}

StatusOr<Allocator::Block*> Allocator::CreateBlockOnceLocked(uint32_t memory_type, uint64_t size,
                                                             bool dedicated) {
  const DeviceCapabilities& caps = device_.capabilities();
  const MemoryType& type = caps.memory_types[memory_type];
  const uint64_t heap_size = heap_limit_[type.heap_index];
  if (heap_reserved_[type.heap_index] + size > heap_size) {
    return ResourceExhaustedError(fmt::format(
        "out of device memory: a block of {} does not fit in {}", Bytes(size),
        HeapDescription(memory_type)));
  }

  auto block = std::make_unique<Block>();
  block->memory_type = memory_type;
  block->size = size;
  block->dedicated = dedicated;
  block->host_coherent = type.host_coherent;
  VkDevice dev = device_.handle();

  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = UsageFor(device_);
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkCreateBuffer(dev, &info, nullptr, &block->buffer));
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(dev, block->buffer, &req);

  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = memory_type;
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  if (device_.capabilities().features.buffer_device_address) {
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    alloc.pNext = &flags;
  }
  VkResult result = VKHLO_DEVICE_CALL(device_, vkAllocateMemory(dev, &alloc, nullptr, &block->memory));
  if (result != VK_SUCCESS) {
    vkDestroyBuffer(dev, block->buffer, nullptr);
    Status status = device_.Check(result, "vkAllocateMemory");
    return status.WithContext(fmt::format("allocating a block of {} in {}", Bytes(req.size),
                                          HeapDescription(memory_type)));
  }
  result = vkBindBufferMemory(dev, block->buffer, block->memory, 0);
  if (result == VK_SUCCESS && type.host_visible) {
    void* ptr = nullptr;
    result = vkMapMemory(dev, block->memory, 0, VK_WHOLE_SIZE, 0, &ptr);
    block->mapped = static_cast<std::byte*>(ptr);
  }
  if (result != VK_SUCCESS) {
    vkDestroyBuffer(dev, block->buffer, nullptr);
    vkFreeMemory(dev, block->memory, nullptr);
    return device_.Check(result, "vkBindBufferMemory/vkMapMemory");
  }

  block->free_ranges[0] = size;
  block->id = next_block_id_++;
  heap_reserved_[type.heap_index] += size;
  stats_.bytes_reserved += size;
  stats_.peak_bytes_reserved = std::max(stats_.peak_bytes_reserved, stats_.bytes_reserved);
  stats_.blocks++;
  Block* raw = block.get();
  blocks_[raw->id] = std::move(block);
  return raw;
}

void Allocator::DestroyBlockLocked(uint32_t block_id) {
  auto it = blocks_.find(block_id);
  if (it == blocks_.end()) return;
  Block& block = *it->second;
  if (block.pooled) {
    // Listeners heard of it when it was pooled.
    auto list = pool_.find({block.size, block.memory_type});
    if (list != pool_.end()) {
      std::erase(list->second, block.id);
      if (list->second.empty()) pool_.erase(list);
    }
    stats_.pooled_bytes -= block.size;
    stats_.pooled_blocks--;
  } else {
    for (const auto& [id, listener] : block_destroyed_listeners_) listener(block.buffer);
  }
  if (on_block_destroyed_) on_block_destroyed_(block.buffer);
  VkDevice dev = device_.handle();
  if (block.mapped != nullptr) vkUnmapMemory(dev, block.memory);
  vkDestroyBuffer(dev, block.buffer, nullptr);
  vkFreeMemory(dev, block.memory, nullptr);
  heap_reserved_[device_.capabilities().memory_types[block.memory_type].heap_index] -= block.size;
  stats_.bytes_reserved -= block.size;
  stats_.blocks--;
  blocks_.erase(it);
}

StatusOr<Buffer> Allocator::Allocate(uint64_t size, MemoryKind kind) {
  VKHLO_RETURN_IF_ERROR(device_.CheckAlive());
  const uint32_t memory_type = memory_type_for_[static_cast<int>(kind)];
  if (size > MemoryLimit(kind)) {  // also keeps the rounding below from overflowing
    return ResourceExhaustedError(fmt::format(
        "out of device memory: cannot allocate {}, more than the {} vkhlo may use of heap {}", Bytes(size),
        Bytes(MemoryLimit(kind)), device_.capabilities().memory_types[memory_type].heap_index));
  }
  if (split_.limit != 0 && size > split_.limit) {
    // Staging memory is written and read through one host mapping, which a split buffer lacks.
    if (kind == MemoryKind::kStaging) {
      return ResourceExhaustedError(fmt::format(
          "cannot allocate {} of staging memory: larger than the largest allocation ({}), and staging buffers "
          "are not split", Bytes(size), Bytes(split_.limit)));
    }
    return AllocateSplit(size, kind);
  }
  const uint64_t rounded = RoundUp(std::max<uint64_t>(size, 1), alignment_);

  std::lock_guard<std::mutex> lock(mutex_);
  Block* chosen = nullptr;
  uint64_t offset = 0;
  if (rounded > block_bytes_ / 2) {
    auto block = DedicatedBlockLocked(memory_type, rounded);
    if (!block.ok()) return block.status().WithContext(fmt::format("allocating {}", Bytes(size)));
    chosen = *block;
  } else {
    uint64_t best_size = UINT64_MAX;
    for (auto& [id, block] : blocks_) {
      if (block->dedicated || block->memory_type != memory_type) continue;
      for (auto [range_offset, range_size] : block->free_ranges) {
        if (range_size >= rounded && range_size < best_size) {
          chosen = block.get();
          offset = range_offset;
          best_size = range_size;
        }
      }
    }
    if (chosen == nullptr) {
      auto block = CreateBlockLocked(memory_type, block_bytes_, /*dedicated=*/false);
      if (!block.ok()) return block.status().WithContext(fmt::format("allocating {}", Bytes(size)));
      chosen = *block;
      offset = 0;
    }
  }

  // Carve [offset, offset + rounded) out of its free range.
  auto range = chosen->free_ranges.find(offset);
  uint64_t range_size = range->second;
  chosen->free_ranges.erase(range);
  if (range_size > rounded) chosen->free_ranges[offset + rounded] = range_size - rounded;
  chosen->used += rounded;

  stats_.bytes_in_use += rounded;
  stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
  stats_.live_buffers++;
  stats_.total_allocations++;

  Buffer buffer;
  buffer.allocator_ = this;
  buffer.block_id_ = chosen->id;
  buffer.buffer_ = chosen->buffer;
  buffer.memory_ = chosen->memory;
  buffer.offset_ = offset;
  buffer.size_ = size;
  buffer.bound_size_ = rounded;
  buffer.mapped_ = chosen->mapped != nullptr ? chosen->mapped + offset : nullptr;
  buffer.host_coherent_ = chosen->host_coherent;
  buffer.kind_ = kind;
  return buffer;
}

// Beyond the largest allocation: pieces of split_.piece_bytes (the last smaller), each an
// ordinary buffer (a dedicated block). A piece that does not fit frees the others (the vector's
// destructor) and the error says how far it got.
StatusOr<Buffer> Allocator::AllocateSplit(uint64_t size, MemoryKind kind) {
  const uint64_t p = split_.piece_bytes;
  const uint64_t count = (size + p - 1) / p;
  std::vector<Buffer> parts;
  parts.reserve(count);
  auto table = std::make_unique<PieceTable>();
  table->piece_bytes = p;
  uint64_t bound = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t bytes = std::min(p, size - i * p);
    auto part = Allocate(bytes, kind);
    if (!part.ok()) {
      return part.status().WithContext(fmt::format(
          "allocating {} as {} pieces of at most {} (beyond the device's largest allocation, {}): piece {}", Bytes(size),
          count, Bytes(p), Bytes(split_.limit), i));
    }
    table->views.push_back(part->view());
    bound = i * p + part->view().size;
    parts.push_back(std::move(*part));
  }
  Buffer buffer;
  buffer.allocator_ = this;
  buffer.buffer_ = parts[0].vk_buffer();
  buffer.offset_ = 0;
  buffer.size_ = size;
  buffer.bound_size_ = bound;
  buffer.host_coherent_ = parts[0].host_coherent();
  buffer.kind_ = kind;
  buffer.pieces_ = std::move(table);
  buffer.parts_ = std::move(parts);
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.split_buffers++;
  stats_.total_split_buffers++;
  return buffer;
}

uint64_t Allocator::MemoryLimit(MemoryKind kind) const {
  const uint32_t memory_type = memory_type_for_[static_cast<int>(kind)];
  return heap_limit_[device_.capabilities().memory_types[memory_type].heap_index];
}

void Allocator::Free(Buffer& buffer) {
  if (buffer.pieces_ != nullptr) {  // a split buffer: its pieces go back one by one
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stats_.split_buffers--;
    }
    buffer.parts_.clear();
    buffer.pieces_.reset();
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = blocks_.find(buffer.block_id_);
  if (it == blocks_.end()) return;
  Block& block = *it->second;
  const uint64_t size = buffer.bound_size_;
  stats_.bytes_in_use -= size;
  stats_.live_buffers--;
  block.used -= size;

  if (block.dedicated) {
    PoolBlockLocked(block);
    return;
  }
  // Insert and coalesce with the neighbours.
  uint64_t offset = buffer.offset_, length = size;
  auto next = block.free_ranges.lower_bound(offset);
  if (next != block.free_ranges.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      offset = prev->first;
      length += prev->second;
      block.free_ranges.erase(prev);
    }
  }
  if (next != block.free_ranges.end() && offset + length == next->first) {
    length += next->second;
    block.free_ranges.erase(next);
  }
  block.free_ranges[offset] = length;

  if (block.used == 0) {
    // Keep one empty block per memory type for the next allocation; release the others.
    for (auto& [id, other] : blocks_) {
      if (id != block.id && !other->dedicated && other->used == 0 &&
          other->memory_type == block.memory_type) {
        DestroyBlockLocked(block.id);
        return;
      }
    }
  }
}

AllocatorStats Allocator::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

}  // namespace vkhlo::device
