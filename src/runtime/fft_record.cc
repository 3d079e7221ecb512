// RecordFft (fft_record.h) through VkFFT, which generates and compiles its kernels when it makes
// a plan (with glslang): part of the full library, which ignores the kernels a plan may carry.
// A runtime-only build links fft_record_staged.cc instead. Tensors split across allocations run
// in the staged form with kernels compiled here (VkFFT binds each buffer as one range).
#include <fmt/format.h>

#include "device/fft/fft_plan.h"
#include "device/fft/fft_split.h"
#include "runtime/fft_record.h"

namespace vkhlo::runtime {

using device::fft::FftDescriptor;

Status RecordFft(ClientState& client, device::CommandList& list, const LoadedPlan&, const plan::FftStep& step,
                 const device::Buffer& operand, const device::Buffer& result, uint64_t* split_launches) {
  const FftDescriptor d = FftDescriptorOf(step);
  if (d.empty()) return OkStatus();
  VKHLO_RETURN_IF_ERROR(d.Validate());  // a plan read from a file may say anything
  VKHLO_ASSIGN_OR_RETURN(device::fft::FftPlanCache * plans, FftPlansOf(client));
  if (operand.split() || result.split()) {
    Status recorded = plans->RecordStagedCompiled(list, d, operand.view(0, d.input_bytes()),
                                                  result.view(0, d.output_bytes()), split_launches);
    return recorded.ok() ? recorded : recorded.WithContext(step.location);
  }
  return plans->Record(list, d, device::fft::TensorOf(operand, d.input_bytes()),
                       device::fft::TensorOf(result, d.output_bytes()), split_launches);
}

}  // namespace vkhlo::runtime
