// RecordFft (fft_record.h) in the runtime-only library (vkhlo::runtime), which links no GLSL
// compiler for VkFFT to make kernels with: the staged form (device/fft/fft_staged.h) with the
// kernels the plan carries for the step's transform (plan::FftKernels, made when the plan was
// serialized by the full library). A plan without them is a clear error here.
#include <fmt/format.h>

#include <algorithm>

#include "device/fft/fft_staged.h"
#include "device/fft/vkfft_app.h"
#include "runtime/fft_record.h"
#include "runtime/loaded_plan.h"

namespace vkhlo::runtime {

using device::fft::FftDescriptor;

Status RecordFft(ClientState& client, device::CommandList& list, const LoadedPlan& loaded, const plan::FftStep& step,
                 const device::Buffer& operand, const device::Buffer& result, uint64_t* split_launches) {
  const FftDescriptor d = FftDescriptorOf(step);
  if (d.empty()) return OkStatus();
  VKHLO_RETURN_IF_ERROR(d.Validate());  // a plan read from a file may say anything
  const std::string where = fmt::format("{}: error: 'stablehlo.fft' {}", step.location, d.ToString());
  if (device::fft::WithoutUnitAxes(d).lengths.empty()) {  // every length 1: a copy, no kernels
    VKHLO_ASSIGN_OR_RETURN(device::fft::FftPlanCache * plans, FftPlansOf(client));
    return plans->RecordStaged(list, d, device::fft::GenericTargetOf(*client.device), {}, 0,
                               operand.view(0, d.input_bytes()), result.view(0, d.output_bytes()));
  }
  if (d.real() && d.lengths.back() == 1) {
    return UnimplementedError(where + ": a real transform whose innermost length is 1 has no form the runtime-only "
                                      "library can run with kernels made ahead of time (link vkhlo::vkhlo)");
  }
  const std::vector<plan::FftKernels>& all = loaded.plan.fft_kernels;
  auto kernels = std::find_if(all.begin(), all.end(), [&](const plan::FftKernels& k) {
    return k.type == step.type && k.double_precision == step.double_precision && k.lengths == step.lengths &&
           k.batch == step.batch;
  });
  if (kernels == all.end()) {
    return UnimplementedError(fmt::format(
        "{}: the plan carries no VkFFT kernels for this transform, and the runtime-only library cannot compile them "
        "(it links no glslang). Plans the full library serializes (vkhlo-compile) carry them for every transform "
        "of at most 128 MiB (one transform; batches run in runs of that); for others, link vkhlo::vkhlo", where));
  }
  if (kernels->vkfft_version != device::fft::VkfftVersion()) {
    return FailedPreconditionError(fmt::format("{}: the plan's VkFFT kernels were made by VkFFT {}; this library has "
                                               "VkFFT {}", where, kernels->vkfft_version, device::fft::VkfftVersion()));
  }
  device::fft::VkfftTarget target;
  target.vendor_id = kernels->vendor_id;
  target.max_workgroup_invocations = kernels->max_workgroup_invocations;
  target.max_shared_memory_bytes = kernels->max_shared_memory_bytes;
  for (int i = 0; i < 3; ++i) {
    target.max_workgroup_size[i] = kernels->max_workgroup_size[static_cast<size_t>(i)];
    target.max_workgroup_count[i] = kernels->max_workgroup_count[static_cast<size_t>(i)];
  }
  VKHLO_ASSIGN_OR_RETURN(device::fft::FftPlanCache * plans, FftPlansOf(client));
  Status recorded = plans->RecordStaged(list, d, target, kernels->words,
                                        loaded.fft_kernel_ids[static_cast<size_t>(kernels - all.begin())],
                                        operand.view(0, d.input_bytes()), result.view(0, d.output_bytes()),
                                        split_launches);
  return recorded.ok() ? recorded : recorded.WithContext(step.location);
}

}  // namespace vkhlo::runtime
