// What both ways of running stablehlo.fft share (fft_record.h): the step's descriptor and the
// client's VkFFT plans.
#include <mutex>

#include "device/fft/fft_plan.h"
#include "runtime/fft_record.h"

namespace vkhlo::runtime {

using device::fft::FftDescriptor;
using device::fft::FftKind;
using device::fft::FftPrecision;

FftDescriptor FftDescriptorOf(const plan::FftStep& step) {
  FftDescriptor d;
  switch (step.type) {
    case plan::FftStep::Type::kFft: d.kind = FftKind::kFft; break;
    case plan::FftStep::Type::kIfft: d.kind = FftKind::kIfft; break;
    case plan::FftStep::Type::kRfft: d.kind = FftKind::kRfft; break;
    case plan::FftStep::Type::kIrfft: d.kind = FftKind::kIrfft; break;
  }
  d.precision = step.double_precision ? FftPrecision::kF64 : FftPrecision::kF32;
  d.lengths = step.lengths;
  d.batch = step.batch;
  return d;
}

StatusOr<device::fft::FftPlanCache*> FftPlansOf(ClientState& client) {
  std::lock_guard<std::mutex> lock(client.fft_plans_mutex);
  if (!client.fft_plans) {
    VKHLO_ASSIGN_OR_RETURN(client.fft_plans, device::fft::FftPlanCache::Create(*client.device));
  }
  return client.fft_plans.get();
}

}  // namespace vkhlo::runtime
