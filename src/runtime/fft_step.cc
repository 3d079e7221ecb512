#include "runtime/fft_step.h"

#include <fmt/format.h>

#include <algorithm>

#include "runtime/plan_lowering_ops.h"
#include "device/fft/fft_split.h"
#include "device/fft/fft_staged.h"

namespace vkhlo::runtime {
namespace {

using device::fft::FftDescriptor;
using device::fft::FftKind;
using device::fft::FftPrecision;

}  // namespace

Status CheckFft(const ir::Operation& op, const codegen::TargetInfo& target, const std::string& where) {
  VKHLO_ASSIGN_OR_RETURN(const plan::FftStep step, FftStepOf(op));  // what the plan will say
  if (step.double_precision && !target.shader_float64) {
    const ir::Value* complex = ir::IsComplex(op.operand(0)->type().element_type()) ? op.operand(0) : op.result(0);
    return UnimplementedError(fmt::format("{}: error: '{}' on {} needs shaderFloat64, which {} lacks (profile {})",
                                          where, op.name(), complex->type().ToString(), target.device_name,
                                          target.profile));
  }
  const FftDescriptor d = FftDescriptorOf(step);
  VKHLO_RETURN_IF_ERROR(d.Validate());
  // Beyond maxStorageBufferRange the plan splits the batch between launches (device/fft/
  // fft_split.h): one transform must fit in the range (less the slack windows are aligned by),
  // and a real innermost length of 1 (a conversion kernel binding whole tensors) must not go
  // beyond it.
  const uint64_t range = target.max_storage_buffer_range;
  const bool beyond = d.input_bytes() > range || d.output_bytes() > range;
  if (beyond && d.real() && !d.lengths.empty() && d.lengths.back() == 1) {
    return UnimplementedError(fmt::format(
        "{}: error: '{}' with a real innermost fft_length of 1 on {} / {} bytes is not supported beyond the device's "
        "maxStorageBufferRange = {}", where, op.name(), d.input_bytes(), d.output_bytes(), range));
  }
  // Beyond a piece of a split allocation the staged form runs it (device/fft/fft_staged.h): runs
  // of whole transforms of at most kStagedRunBytes a side, no real innermost length of 1.
  const uint64_t piece = target.split_piece_bytes;
  if (piece != 0 && !d.empty() && std::max(d.input_bytes(), d.output_bytes()) > piece) {
    const uint64_t per_transform = std::max(d.input_bytes(), d.output_bytes()) / d.batch;
    const uint64_t complex_per_transform = d.kind == FftKind::kIrfft ? d.complex_elements() / d.batch * d.complex_bytes() : 0;
    if (d.real() && !d.lengths.empty() && d.lengths.back() == 1) {
      return UnimplementedError(fmt::format(
          "{}: error: '{}' with a real innermost fft_length of 1 on {} / {} bytes is not supported on tensors split "
          "across allocations (beyond {} bytes, the device's maxMemoryAllocationSize)", where, op.name(),
          d.input_bytes(), d.output_bytes(), piece));
    }
    if (std::max(per_transform, complex_per_transform) > device::fft::kStagedRunBytes) {
      return UnimplementedError(fmt::format(
          "{}: error: '{}': one transform takes {} bytes, more than the {} bytes a run binds on tensors split across "
          "allocations (beyond {} bytes, the device's maxMemoryAllocationSize)", where, op.name(),
          std::max(per_transform, complex_per_transform), device::fft::kStagedRunBytes, piece));
    }
  }
  if (beyond && !d.empty()) {
    const uint64_t complex_per_transform = d.complex_elements() / d.batch * d.complex_bytes();
    const device::fft::SplitSide sides[] = {{d.input_bytes() / d.batch, d.input_bytes() > range},
                                            {d.output_bytes() / d.batch, d.output_bytes() > range},
                                            {complex_per_transform, d.kind == FftKind::kIrfft && d.input_bytes() > range}};
    const uint64_t slack = device::fft::kMaxWindowAlignment;
    auto split = device::fft::PlanBatchSplit(d, sides, device::fft::WindowBytes(range, slack), slack);
    if (!split.ok()) {
      return UnimplementedError(fmt::format("{}: error: '{}': {}", where, op.name(), split.status().message()));
    }
  }
  return OkStatus();
}

passes::FftSplitLimits FftSplitLimitsOf(const codegen::TargetInfo& target) {
  const uint64_t slack = device::fft::kMaxWindowAlignment;
  const uint64_t window = device::fft::WindowBytes(target.max_storage_buffer_range, slack);
  passes::FftSplitLimits limits{window > slack ? window - slack : 0, target.max_storage_buffer_range};
  if (target.split_piece_bytes != 0) {
    limits.transform_bytes = std::min(limits.transform_bytes, device::fft::kStagedRunBytes);
    limits.binding_bytes = std::min(limits.binding_bytes, target.split_piece_bytes);
  }
  return limits;
}

}  // namespace vkhlo::runtime
