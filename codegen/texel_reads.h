// Whether a kernel should read a 32-bit input 4 words at a time through an rgba32ui storage
// texel buffer (a second binding of the same buffer) instead of a `uvec4[]` storage-buffer view.
//
// CPU devices (llvmpipe, Mesa 22.3) load a storage-buffer uvec4 whose address varies across the
// lanes one lane at a time, in a loop with a branch per lane; `imageLoad` of an rgba32ui texel
// buffer is straight-line vector code (16-byte loads and a transpose). GPUs read storage
// buffers at full speed, so they keep them (and their texel limits can be as low as 64Ki
// texels). Used by reductions (4096x4096 f32 row sums 2.7x faster); element-wise loop kernels
// keep their uvec4 storage-buffer views: with texel views the fused 8-op chain benchmark ran
// 0.8x as fast.
#pragma once

#include <cstdint>

#include "codegen/target.h"

namespace vkhlo::codegen {

// Texel views one kernel may declare: Vulkan guarantees 4 storage images (texel buffers among
// them) per shader stage.
inline constexpr int kMaxTexelViews = 4;

// True on CPU devices with rgba32ui storage texel buffers when a buffer of `elements` 32-bit
// words, bound whole (its size rounded up to the allocator's alignment, at most 256 bytes: 16
// texels more), fits maxTexelBufferElements and is not split across allocations.
bool PrefersTexelReads(const TargetInfo& target, uint64_t elements);

}  // namespace vkhlo::codegen
