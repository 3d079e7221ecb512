// stablehlo.fft as the runtime runs it (plan::FftStep): recorded by VkFFT into the execution's
// command list (fft_record.cc), or a clear error in the runtime-only library, which links no
// GLSL compiler for VkFFT to make its kernels with (fft_record_unavailable.cc). What the
// compile checks is fft_step.h's.
#pragma once

#include <cstdint>

#include "device/buffer.h"
#include "device/command_list.h"
#include "device/fft/fft.h"
#include "plan/step.h"
#include "runtime/state.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// The transform `step` describes, for VkFFT (device/fft/fft.h). Defined with RecordFft
// (fft_record.cc); the compile checks the same descriptor (CheckFft).
device::fft::FftDescriptor FftDescriptorOf(const plan::FftStep& step);

// Records the transform `step` of `operand` into `result` (a new tensor of the step's result
// type). Adds to `split_launches` (if given) the launches of a transform split beyond
// maxStorageBufferRange.
Status RecordFft(ClientState& client, device::CommandList& list, const plan::FftStep& step,
                 const device::Buffer& operand, const device::Buffer& result, uint64_t* split_launches = nullptr);

}  // namespace vkhlo::runtime
