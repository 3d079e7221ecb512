#include "codegen/texel_reads.h"

namespace vkhlo::codegen {

bool PrefersTexelReads(const TargetInfo& target, uint64_t elements) {
  if (target.device_type != TargetInfo::DeviceType::kCpu || !target.storage_texel_buffer_rgba32ui) return false;
  return (elements + 3) / 4 + 16 <= target.max_texel_buffer_elements;
}

}  // namespace vkhlo::codegen
