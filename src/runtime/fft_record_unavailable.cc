// RecordFft (fft_record.h) in the runtime-only library (vkhlo::runtime): VkFFT makes its kernels
// with glslang when it plans a transform, and this build has no GLSL compiler, so a plan with
// an FFT step is a clear error here. (The full library, vkhlo::vkhlo, runs them.)
#include <fmt/format.h>

#include "runtime/fft_record.h"

namespace vkhlo::runtime {

Status RecordFft(ClientState&, device::CommandList&, const plan::FftStep& step, const device::Buffer&,
                 const device::Buffer&, uint64_t*) {
  return UnimplementedError(fmt::format(
      "{}: error: 'stablehlo.fft' cannot run in the runtime-only library: VkFFT compiles its kernels with glslang "
      "when it plans a transform, which this build does not link (link vkhlo::vkhlo to run FFTs)",
      step.location));
}

}  // namespace vkhlo::runtime
