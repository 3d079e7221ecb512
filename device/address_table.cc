#include "device/address_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "device/allocator.h"
#include "device/device.h"

namespace vkhlo::device {
namespace {
constexpr uint64_t kSlotsPerChunk = 256;
}  // namespace

AddressTable::AddressTable(Device& device) : device_(device) {
  if (device.capabilities().features.buffer_device_address) {
    get_address_ = reinterpret_cast<PFN_vkGetBufferDeviceAddress>(
        vkGetDeviceProcAddr(device.handle(), "vkGetBufferDeviceAddress"));
    if (get_address_ == nullptr) {
      get_address_ = reinterpret_cast<PFN_vkGetBufferDeviceAddress>(
          vkGetDeviceProcAddr(device.handle(), "vkGetBufferDeviceAddressKHR"));
    }
  }
  stride_ = std::max<uint64_t>(16, device.capabilities().limits.min_storage_buffer_offset_alignment);
}

AddressTable::~AddressTable() = default;

StatusOr<uint64_t> AddressTable::AddressOf(const BufferView& view) {
  if (get_address_ == nullptr) {
    return FailedPreconditionError(fmt::format(
        "a view of {} bytes is bound through its device address, but device '{}' (profile {}) lacks bufferDeviceAddress",
        view.size, device_.capabilities().name, ProfileName(device_.options().profile)));
  }
  VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  info.buffer = view.buffer;
  return static_cast<uint64_t>(get_address_(device_.handle(), &info)) + view.offset;
}

StatusOr<BufferView> AddressTable::Slot(const BufferView& view) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t address, AddressOf(view));
  std::lock_guard<std::mutex> lock(mu_);
  auto it = slots_.find(address);
  if (it != slots_.end()) return it->second;
  if (chunks_.empty() || used_in_last_ == kSlotsPerChunk) {
    VKHLO_ASSIGN_OR_RETURN(Buffer chunk, device_.allocator().Allocate(stride_ * kSlotsPerChunk, MemoryKind::kStaging));
    if (chunk.mapped() == nullptr) return InternalError("the address table's host-visible memory is not mapped");
    chunks_.push_back(std::move(chunk));
    used_in_last_ = 0;
  }
  Buffer& chunk = chunks_.back();
  const uint64_t offset = used_in_last_++ * stride_;
  uint32_t words[4] = {static_cast<uint32_t>(address), static_cast<uint32_t>(address >> 32), 0, 0};
  std::memcpy(chunk.mapped() + offset, words, sizeof(words));
  if (!chunk.host_coherent()) {
    VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    range.memory = chunk.memory();
    const uint64_t atom = std::max<uint64_t>(1, device_.capabilities().limits.non_coherent_atom_size);
    range.offset = (chunk.offset() + offset) / atom * atom;
    range.size = std::min<uint64_t>(((chunk.offset() + offset + sizeof(words) - range.offset) + atom - 1) / atom * atom,
                                    VK_WHOLE_SIZE);
    VKHLO_DEVICE_RETURN_IF_ERROR(device_, vkFlushMappedMemoryRanges(device_.handle(), 1, &range));
  }
  BufferView slot = chunk.view(offset, sizeof(words));
  slots_.emplace(address, slot);
  return slot;
}

size_t AddressTable::slots() const {
  std::lock_guard<std::mutex> lock(mu_);
  return slots_.size();
}

}  // namespace vkhlo::device
