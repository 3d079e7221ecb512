// RecordFft (fft_record.h) through VkFFT, which generates and compiles its kernels when it makes
// a plan (with glslang): part of the full library. A runtime-only build links
// fft_record_unavailable.cc instead.
#include <fmt/format.h>

#include <mutex>

#include "device/fft/fft_plan.h"
#include "device/fft/fft_split.h"
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

Status RecordFft(ClientState& client, device::CommandList& list, const plan::FftStep& step,
                 const device::Buffer& operand, const device::Buffer& result, uint64_t* split_launches) {
  const FftDescriptor d = FftDescriptorOf(step);
  if (d.empty()) return OkStatus();
  VKHLO_RETURN_IF_ERROR(d.Validate());  // a plan read from a file may say anything
  device::fft::FftPlanCache* plans = nullptr;
  {
    std::lock_guard<std::mutex> lock(client.fft_plans_mutex);
    if (!client.fft_plans) {
      VKHLO_ASSIGN_OR_RETURN(client.fft_plans, device::fft::FftPlanCache::Create(*client.device));
    }
    plans = client.fft_plans.get();
  }
  return plans->Record(list, d, device::fft::TensorOf(operand, d.input_bytes()),
                       device::fft::TensorOf(result, d.output_bytes()), split_launches);
}

}  // namespace vkhlo::runtime
