// stablehlo.fft in the runtime: a step of its own (not a GLSL device kernel), because VkFFT
// records its own pipelines and descriptor sets into the command list (CommandList::RecordExternal
// through device/fft's FftPlanCache). The client owns the plan cache (created on first use,
// destroyed before its device); plans are cached per descriptor.
//
//   compile:  VKHLO_RETURN_IF_ERROR(CheckFft(op, target, where));
//   execute:  VKHLO_RETURN_IF_ERROR(RecordFft(client, list, step, operand, result));  // fft_record.h
#pragma once

#include <string>

#include "codegen/target.h"
#include "ir/module.h"
#include "passes/passes.h"
#include "runtime/fft_record.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// Whether the fft can run on this target (its attributes per the spec, complex<f64> needing
// shaderFloat64): the compile-time error names `where` ("file:line:col").
Status CheckFft(const ir::Operation& op, const codegen::TargetInfo& target, const std::string& where);

// What one FFT side may bind on this target, for the split-large-ffts pass (which splits larger
// transforms before CheckFft sees them; it refuses what is left):
//   - a tensor within maxStorageBufferRange is bound whole; a larger one is split along the
//     batch between launches over windows, one transform within the range less the windows'
//     alignment slack (device/fft/fft_split.h);
//   - where the device splits allocations (split_piece_bytes), a tensor beyond a piece runs in
//     the staged form (device/fft/fft_staged.h), one transform within kStagedRunBytes.
passes::FftSplitLimits FftSplitLimitsOf(const codegen::TargetInfo& target);

}  // namespace vkhlo::runtime
