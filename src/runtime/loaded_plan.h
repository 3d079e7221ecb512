// A plan made ready to run on one client (issue 22): the plan (plan/plan.h) with the device
// objects its steps use — a pipeline per kernel, a buffer per constant, the host callbacks it
// names resolved against the client's registry — and the facts about its values an executor
// looks up on every step (their types, the list that makes each, what each list makes).
//
//   compile:  plan = LowerToPlan(exe); exe.loaded = LoadPlan(client, plan, {exe's constants})
//   file:     plan = ReadPlan(bytes); CheckRequirements(...); LoadPlan(client, plan)
//
// Execution (execution.h) runs loaded plans only: it never sees the IR.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "device/pipeline.h"
#include "plan/plan.h"
#include "runtime/profiler.h"
#include "runtime/state.h"
#include "runtime/tensor_desc.h"
#include "vkhlo/custom_call.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

struct LoadedPlan {
  plan::Plan plan;
  // Whether plan.constants still hold their bytes (a compiled executable's are dropped once
  // uploaded; it serializes by lowering again).
  bool constant_bytes = true;
  std::vector<std::shared_ptr<const device::Pipeline>> pipelines;  // per plan kernel
  std::vector<std::shared_ptr<BufferState>> constants;             // per plan constant
  std::vector<TensorDesc> value_types;  // per value: tensors' types (tokens and tuples: empty)
  std::vector<int32_t> value_list;    // per value: the list whose argument or step makes it (-1: a constant)
  std::vector<std::vector<uint32_t>> list_values;  // per list: the values it makes (dropped when it ends)
  std::vector<std::vector<uint32_t>> slots_by_end;  // per list: its slots in the order their lives end
  // Per list, per step (counted across its segments): the values the list made that no later
  // step of it reads (nor the lists it runs), nor its results: dropped after that step, so that
  // buffers of their own (FFT results, uploads) die with their last reader, not with the list.
  std::vector<std::vector<std::vector<uint32_t>>> values_dead_after;
  std::vector<KernelProfile> profiles;             // per plan profile
  // The entry's parameters: tensors' types (tokens and tuples: empty), and their kinds.
  std::vector<TensorDesc> parameter_types;
  std::vector<plan::EntryType::Kind> parameter_kinds;
  // Per plan.fft_kernels: device::fft::KernelsId of its words (the staged FFT's cache key),
  // computed once here rather than at every FFT step.
  std::vector<uint64_t> fft_kernel_ids;
  // Host callbacks by step: the registration each runs.
  std::unordered_map<const plan::CustomCallStep*, std::shared_ptr<const CustomCallTarget>> host_callbacks;
  const TensorDesc& type(uint32_t value) const { return value_types[value]; }
};

struct LoadOptions {
  // Buffers already holding plan constant i (a compile's uploads, whose plan then keeps no
  // bytes for them), or null where none: LoadPlan uploads the others. A compile's own plan is
  // not validated again (plan_lowering_test validates what the lowering makes); any other is.
  std::vector<std::shared_ptr<BufferState>> uploaded_constants;
  // Checks every kernel's SPIR-V before the driver sees it (kernel_check.h): set for plans read
  // from outside (Client::LoadExecutable); a compile's own kernels were checked when made.
  bool check_kernels = false;
};

// Makes `plan` ready to run on `client`: validates it, creates its pipelines (through the
// device's pipeline cache), uploads its constants and resolves its host callbacks by name.
// Errors name the kernel, constant or target.
StatusOr<std::shared_ptr<const LoadedPlan>> LoadPlan(const std::shared_ptr<ClientState>& client, plan::Plan plan,
                                                     LoadOptions options = {});

// The op a step stands for, as profiles and messages name it ("stablehlo.while").
std::string StepOpName(const plan::Step& step);
std::string StepOpName(const plan::CollectiveStep& step);
std::string StepOpName(const plan::ProcessStep& step);

}  // namespace vkhlo::runtime
