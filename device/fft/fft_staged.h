// FFTs with VkFFT kernels made ahead of time: how a compiled plan carries stablehlo.fft to the
// runtime-only library, which links no glslang for VkFFT to compile with (issue 22).
//
// VkFFT bakes the bound size of each buffer into its kernels (fft_plan.h), and the size of the
// VkBuffer a tensor lives in is the allocator's choice. Kernels made ahead of time need bindings
// whose sizes the transform alone decides, so the staged form binds buffers of its own — input,
// output and (IRFFT) scratch, each exactly as large as that side of the transform — and records
// a copy of the operand in and of the result out around VkFFT. Two copies the direct path does
// not make; in exchange the kernels depend only on the descriptor and on the target VkFFT plans
// for (vendor and compute limits, VkfftTarget), so a plan can carry them. Plans are made for
// the generic target (no vendor's tuning) with the device's masked limits.
//
//   compile (full library):  kernels = cache.StagedKernels(descriptor, target)
//   run (either library):    cache.RecordStaged(list, descriptor, target, kernels, input, output)
//
// Transforms over length-1 axes drop them (as the direct path does); all lengths 1 is a copy
// and needs no kernels. A real innermost length of 1 has no staged form (UNIMPLEMENTED).
//
// Batches whose sides exceed kStagedRunBytes (128 MiB, the least maxStorageBufferRange Vulkan
// allows, so the kernels are the same for every device) run in runs: kernels and buffers for P
// transforms (balanced over the runs), each run copied in, transformed and copied out, the last
// run moved back to end at the batch's end (it redoes a few transforms with identical results;
// the runtime's FFTs are out of place). One transform beyond 128 MiB has no staged form
// (FAILED_PRECONDITION); the compile splits such transforms first (passes/split_large_ffts.cc).
//
// Tensors split across allocations (buffer.h) are copied piece by piece (CommandList::CopyBuffer
// cuts the ranges), which is how the full library runs FFTs on them too: no VkFFT binding can
// span two pieces (FftPlanCache::RecordStagedCompiled).
//
// Kernels read from a file are checked before VkFFT sees them: each is a whole SPIR-V module
// within the words given, and VkFFT must read exactly those words (a VkFFT that asks for more
// reads inert modules appended after them, not past the end, and the kernels are refused).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "device/buffer.h"
#include "device/command_list.h"
#include "device/fft/fft.h"
#include "device/fft/vkfft_app.h"
#include "vkhlo/status.h"

namespace vkhlo::device {
class Device;
}

namespace vkhlo::device::fft {

// The most one side of a staged launch binds: Vulkan's minimum maxStorageBufferRange.
inline constexpr uint64_t kStagedRunBytes = uint64_t{1} << 27;

// The target plans are made for on `device`: no vendor's tuning, the masked compute limits.
VkfftTarget GenericTargetOf(const Device& device);

// The transform VkFFT computes for `d`: its length-1 axes dropped (but a real innermost one).
FftDescriptor WithoutUnitAxes(const FftDescriptor& d);

// `d` in VkFFT's terms (lengths innermost first).
VkfftLayout VkfftLayoutOf(const FftDescriptor& d, bool in_place);

// An id of `kernels` (a 64-bit hash of their words) that FftPlanCache::RecordStaged keys its
// staged transforms by: computed once where kernels are loaded, not on every record.
uint64_t KernelsId(std::span<const uint32_t> kernels);

// One staged transform on one device: its own buffers and the VkFFT application on them.
class StagedFft {
 public:
  // Compiles (binary null) or loads the kernels of `descriptor` for `target`.
  static StatusOr<std::unique_ptr<StagedFft>> Create(Device& device, const VkfftContext& context,
                                                     const FftDescriptor& descriptor,
                                                     std::span<const uint32_t> kernels, bool compile);
  ~StagedFft();
  StagedFft(const StagedFft&) = delete;
  StagedFft& operator=(const StagedFft&) = delete;

  // The kernels VkFFT compiled (empty when loaded, or when the transform needs none).
  const std::vector<uint32_t>& Kernels() const { return kernels_; }

  // Records input -> output (`input`/`output` hold the transform's input_bytes / output_bytes).
  // `launches`, when given, gains the number of runs beyond one.
  Status Record(CommandList& list, const BufferView& input, const BufferView& output, uint64_t* launches = nullptr);

 private:
  struct OwnBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint64_t bytes = 0;
  };
  StagedFft(Device& device, FftDescriptor descriptor) : device_(device), descriptor_(std::move(descriptor)) {}
  StatusOr<OwnBuffer> MakeBuffer(uint64_t bytes);

  Device& device_;
  FftDescriptor descriptor_;
  FftDescriptor vkfft_;  // descriptor_ without unit axes (batch: one run's); no lengths: a copy
  uint64_t runs_ = 1;    // launches of vkfft_.batch transforms covering descriptor_.batch
  OwnBuffer input_, output_, scratch_;
  std::unique_ptr<VkfftApp> app_;
  std::vector<BufferView> internal_writes_;
  std::vector<uint32_t> kernels_;
};

}  // namespace vkhlo::device::fft
