// stablehlo.fft in the runtime: a step of its own (not a GLSL device kernel), because VkFFT
// records its own pipelines and descriptor sets into the command list (CommandList::RecordExternal
// through device/fft's FftPlanCache). The client owns the plan cache (created on first use,
// destroyed before its device); plans are cached per descriptor.
//
//   compile:  VKHLO_RETURN_IF_ERROR(CheckFft(op, target, where));
//   execute:  VKHLO_RETURN_IF_ERROR(RecordFft(client, list, step, operand, result));  // plan::FftStep
#pragma once

#include <string>

#include "codegen/target.h"
#include "device/buffer.h"
#include "device/command_list.h"
#include "device/fft/fft.h"
#include "ir/module.h"
#include "plan/step.h"
#include "runtime/state.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// Whether the fft can run on this target (its attributes per the spec, complex<f64> needing
// shaderFloat64): the compile-time error names `where` ("file:line:col").
Status CheckFft(const ir::Operation& op, const codegen::TargetInfo& target, const std::string& where);

// The transform `step` describes, for VkFFT (device/fft/fft.h). Defined with RecordFft
// (fft_record.cc); the compile checks the same descriptor (CheckFft).
device::fft::FftDescriptor FftDescriptorOf(const plan::FftStep& step);

// Records the transform `step` of `operand` into `result` (a new tensor of the step's result
// type). Adds to `split_launches` (if given) the launches of a transform split beyond
// maxStorageBufferRange.
Status RecordFft(ClientState& client, device::CommandList& list, const plan::FftStep& step,
                 const device::Buffer& operand, const device::Buffer& result, uint64_t* split_launches = nullptr);

}  // namespace vkhlo::runtime
