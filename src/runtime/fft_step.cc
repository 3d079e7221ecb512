#include "runtime/fft_step.h"

#include <fmt/format.h>

#include <mutex>

#include "codegen/library/fft_lowering.h"
#include "device/fft/fft_plan.h"

namespace vkhlo::runtime {
namespace {

using device::fft::FftDescriptor;
using device::fft::FftKind;
using device::fft::FftPrecision;

// fft_lowering.h's fields, one by one (same names).
FftDescriptor DescriptorOf(const codegen::FftLowering& l) {
  FftDescriptor d;
  switch (l.type) {
    case codegen::FftType::kFft: d.kind = FftKind::kFft; break;
    case codegen::FftType::kIfft: d.kind = FftKind::kIfft; break;
    case codegen::FftType::kRfft: d.kind = FftKind::kRfft; break;
    case codegen::FftType::kIrfft: d.kind = FftKind::kIrfft; break;
  }
  d.precision = l.double_precision ? FftPrecision::kF64 : FftPrecision::kF32;
  d.lengths = l.lengths;
  d.batch = l.batch;
  return d;
}

}  // namespace

Status CheckFft(const ir::Operation& op, const codegen::TargetInfo& target, const std::string& where) {
  auto lowering = codegen::LowerFft(op);
  if (!lowering.ok()) return lowering.status();
  if (lowering->double_precision && !target.shader_float64) {
    const ir::Value* complex = ir::IsComplex(op.operand(0)->type().element_type()) ? op.operand(0) : op.result(0);
    return UnimplementedError(fmt::format("{}: error: '{}' on {} needs shaderFloat64, which {} lacks (profile {})",
                                          where, op.name(), complex->type().ToString(), target.device_name,
                                          target.profile));
  }
  const FftDescriptor d = DescriptorOf(*lowering);
  VKHLO_RETURN_IF_ERROR(d.Validate());
  // VkFFT binds its buffers through descriptors (from the start of the allocator's block), so a
  // tensor beyond maxStorageBufferRange cannot be bound; vkhlo does not split FFTs across
  // buffers yet (VkFFT's bufferNum/bufferSize), and device addresses do not reach VkFFT's kernels.
  for (auto [what, bytes] : {std::pair<const char*, uint64_t>{"operand", d.input_bytes()}, {"result", d.output_bytes()}}) {
    if (bytes > target.max_storage_buffer_range) {
      return UnimplementedError(fmt::format(
          "{}: error: '{}' {} is {} bytes, more than the device's maxStorageBufferRange = {}: FFTs of tensors that "
          "large are not supported (VkFFT binds each buffer through one descriptor)",
          where, op.name(), what, bytes, target.max_storage_buffer_range));
    }
  }
  return OkStatus();
}

Status RecordFft(ClientState& client, device::CommandList& list, const ir::Operation& op, const device::Buffer& operand,
                 const device::Buffer& result) {
  VKHLO_ASSIGN_OR_RETURN(codegen::FftLowering lowering, codegen::LowerFft(op));
  const FftDescriptor d = DescriptorOf(lowering);
  if (d.empty()) return OkStatus();
  device::fft::FftPlanCache* plans = nullptr;
  {
    std::lock_guard<std::mutex> lock(client.fft_plans_mutex);
    if (!client.fft_plans) {
      VKHLO_ASSIGN_OR_RETURN(client.fft_plans, device::fft::FftPlanCache::Create(*client.device));
    }
    plans = client.fft_plans.get();
  }
  return plans->Record(list, d, operand.view(0, d.input_bytes()), result.view(0, d.output_bytes()));
}

}  // namespace vkhlo::runtime
