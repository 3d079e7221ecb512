#include "codegen/texel_reads.h"

namespace vkhlo::codegen {

bool PrefersTexelReads(const TargetInfo& target, uint64_t elements) {
  if (target.device_type != TargetInfo::DeviceType::kCpu || !target.storage_texel_buffer_rgba32ui) return false;
  // A buffer split across allocations (target.h split_piece_bytes) has no single texel view.
  if (target.split_piece_bytes != 0 && elements * 4 + 256 > target.split_piece_bytes) return false;
  return (elements + 3) / 4 + 16 <= target.max_texel_buffer_elements;
}

}  // namespace vkhlo::codegen
