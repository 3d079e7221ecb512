// The VkFFT kernels a serialized plan carries for its FFT steps (plan::FftKernels), so that the
// runtime-only library, which cannot compile them, runs them: the staged form's kernels
// (device/fft/fft_staged.h) for the generic target with the client's masked limits (so a plan
// compiled under VKHLO_PROFILE=mobile carries kernels made for mobile's limits).
#pragma once

#include "plan/plan.h"
#include "runtime/state.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// Adds to `plan` the kernels of each distinct transform its FFT steps make. A transform without
// a staged form (a real innermost length of 1, a side beyond maxStorageBufferRange) gets none:
// the runtime-only library refuses that step with a clear error; the full library runs it as
// always. Errors: only the client's (a lost device).
Status AddFftKernels(ClientState& client, plan::Plan& plan);

}  // namespace vkhlo::runtime
