#include "runtime/fft_kernels.h"

#include <algorithm>

#include "device/fft/fft_staged.h"
#include "device/fft/vkfft_app.h"
#include "runtime/fft_record.h"

namespace vkhlo::runtime {

Status AddFftKernels(ClientState& client, plan::Plan& plan) {
  const device::fft::VkfftTarget target = device::fft::GenericTargetOf(*client.device);
  for (const plan::StepList& list : plan.lists) {
    for (const plan::Segment& segment : list.segments) {
      for (const plan::Step& step : segment.steps) {
        const auto* fft = std::get_if<plan::FftStep>(&step.op);
        if (fft == nullptr) continue;
        const device::fft::FftDescriptor d = FftDescriptorOf(*fft);
        if (d.empty() || !d.Validate().ok() || device::fft::WithoutUnitAxes(d).lengths.empty()) continue;
        const bool known = std::any_of(plan.fft_kernels.begin(), plan.fft_kernels.end(), [&](const plan::FftKernels& k) {
          return k.type == fft->type && k.double_precision == fft->double_precision && k.lengths == fft->lengths &&
                 k.batch == fft->batch;
        });
        if (known) continue;
        VKHLO_RETURN_IF_ERROR(client.device->CheckAlive());
        VKHLO_ASSIGN_OR_RETURN(device::fft::FftPlanCache * plans, FftPlansOf(client));
        StatusOr<std::vector<uint32_t>> words = plans->StagedKernels(d, target);
        if (!words.ok()) continue;  // no staged form: the runtime-only library says so when it meets the step
        plan::FftKernels k;
        k.type = fft->type;
        k.double_precision = fft->double_precision;
        k.lengths = fft->lengths;
        k.batch = fft->batch;
        k.vkfft_version = device::fft::VkfftVersion();
        k.vendor_id = target.vendor_id;
        k.max_workgroup_invocations = target.max_workgroup_invocations;
        k.max_shared_memory_bytes = target.max_shared_memory_bytes;
        k.max_workgroup_size.assign(std::begin(target.max_workgroup_size), std::end(target.max_workgroup_size));
        k.max_workgroup_count.assign(std::begin(target.max_workgroup_count), std::end(target.max_workgroup_count));
        k.words = std::move(*words);
        plan.fft_kernels.push_back(std::move(k));
      }
    }
  }
  return OkStatus();
}

}  // namespace vkhlo::runtime
