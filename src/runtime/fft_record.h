// stablehlo.fft as the runtime runs it (plan::FftStep), recorded by VkFFT into the execution's
// command list: in the full library VkFFT makes its kernels as it plans (fft_record.cc); the
// runtime-only library, which links no GLSL compiler, runs the staged form with the kernels the
// plan carries (fft_record_staged.cc, device/fft/fft_staged.h). What the compile checks is
// fft_step.h's; the kernels a serialized plan carries, fft_kernels.h's.
#pragma once

#include <cstdint>

#include "device/buffer.h"
#include "device/command_list.h"
#include "device/fft/fft.h"
#include "device/fft/fft_plan.h"
#include "plan/step.h"
#include "runtime/state.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// The transform `step` describes, for VkFFT (device/fft/fft.h). Defined with RecordFft
// (fft_record.cc); the compile checks the same descriptor (CheckFft).
device::fft::FftDescriptor FftDescriptorOf(const plan::FftStep& step);

// The client's VkFFT plans, made on first use.
StatusOr<device::fft::FftPlanCache*> FftPlansOf(ClientState& client);

struct LoadedPlan;  // loaded_plan.h

// Records the transform `step` (of `loaded`'s plan) of `operand` into `result` (a new tensor of
// the step's result type). Adds to `split_launches` (if given) the launches of a transform split
// beyond maxStorageBufferRange.
Status RecordFft(ClientState& client, device::CommandList& list, const LoadedPlan& loaded, const plan::FftStep& step,
                 const device::Buffer& operand, const device::Buffer& result, uint64_t* split_launches = nullptr);

}  // namespace vkhlo::runtime
