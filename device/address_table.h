// AddressTable: small descriptors holding the device addresses of views too large to bind.
//
// A storage-buffer descriptor covers at most maxStorageBufferRange bytes. A kernel rewritten by
// codegen/big_bindings.h reaches a larger view through GL_EXT_buffer_reference instead, and its
// descriptor at that binding is a 16-byte slot holding the view's 64-bit device address
// (vkGetBufferDeviceAddress + offset, as a uvec2). CommandList::Dispatch binds such slots for
// the bindings a pipeline declares as addressed (ShaderBinding::device_address).
//
// Slots are keyed by the address they hold and written once, through a host-coherent mapping,
// before any submission can read them: a slot's contents never change, so work in flight never
// sees a rewrite, a new input buffer at another address simply gets (or reuses) another slot,
// and descriptor sets made of slots stay cacheable (DescriptorCache). Slots live as long as the
// device; there are as many as distinct big views were ever bound (each costs 16 bytes, or the
// storage offset alignment).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "device/buffer.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

class Device;

class AddressTable {
 public:
  explicit AddressTable(Device& device);
  ~AddressTable();
  AddressTable(const AddressTable&) = delete;
  AddressTable& operator=(const AddressTable&) = delete;

  // The device address of `view`'s first byte. FAILED_PRECONDITION without bufferDeviceAddress.
  StatusOr<uint64_t> AddressOf(const BufferView& view);
  // A view of a slot holding AddressOf(view) (allocated on first use of that address).
  StatusOr<BufferView> Slot(const BufferView& view);
  size_t slots() const;

 private:
  Device& device_;
  PFN_vkGetBufferDeviceAddress get_address_ = nullptr;
  mutable std::mutex mu_;
  std::vector<Buffer> chunks_;  // host-visible, kSlotsPerChunk slots each
  uint64_t used_in_last_ = 0;   // slots used in chunks_.back()
  uint64_t stride_ = 16;
  std::unordered_map<uint64_t, BufferView> slots_;
};

}  // namespace vkhlo::device
