// How buffers beyond the device's largest allocation are split, and how views of them are cut.
//
// Vulkan caps one VkDeviceMemory at maxMemoryAllocationSize (desktop drivers 2-4 GiB, phones
// 1-2 GiB) and, with maintenance4, one VkBuffer at maxBufferSize, although the heap holds far
// more. The allocator gives a larger request several pieces (buffer.h); kernels reach such a
// tensor through several descriptors ("windows", codegen/big_bindings.h), one address could not
// span two pieces. Pieces are a whole number of windows, so no window straddles two pieces:
//
//   S = the window size for tensors beyond maxStorageBufferRange (compile.cc WindowBytes)
//   limit >= S:  windows of S, pieces of the largest multiple of S within the limit;
//   limit <  S:  windows = pieces = the largest multiple of the alignments within the limit.
//
// Used by the allocator (how to split), the compiler (which bindings to window, and how wide),
// the command list and the transfer engine (cutting split views into per-piece ranges).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "device/buffer.h"
#include "device/capabilities.h"
#include "vkhlo/status.h"

namespace vkhlo::device {

struct SplitLayout {
  uint64_t limit = 0;         // buffers of more bytes are split (0: the device sets no limit)
  uint64_t piece_bytes = 0;   // every piece but the last; a multiple of window_bytes
  uint64_t window_bytes = 0;  // descriptors binding a split tensor cover this many bytes each
};

// `alignment`: the allocator's (every piece starts a block, so it is aligned to it).
SplitLayout ChooseSplitLayout(const DeviceCapabilities& caps, uint64_t alignment);

// The VkBuffer ranges `view` covers, in order: the view itself when it is not split.
std::vector<BufferView> PieceRanges(const BufferView& view);

// `view` as one VkBuffer range; an error naming `what` when it spans two pieces of a split
// buffer (descriptors, addresses and external recordings need one range).
StatusOr<BufferView> WithinOnePiece(const BufferView& view, std::string_view what);

}  // namespace vkhlo::device
