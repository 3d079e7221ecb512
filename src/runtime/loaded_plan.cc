#include "runtime/loaded_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <variant>

#include "device/fft/fft_staged.h"
#include "device/transfer.h"
#include "runtime/custom_call_signature.h"
#include "runtime/kernel_check.h"

namespace vkhlo::runtime {
namespace {

// Values a step makes (its results), in order.
std::vector<uint32_t> MadeBy(const plan::Step& step) {
  return std::visit(
      [](const auto& s) -> std::vector<uint32_t> {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, plan::DispatchStep>) {
          return s.outputs;
        } else if constexpr (std::is_same_v<T, plan::FftStep>) {
          return {s.result};
        } else if constexpr (std::is_same_v<T, plan::CopyStep> || std::is_same_v<T, plan::FillStep>) {
          return {};
        } else {
          return s.results;
        }
      },
      step.op);
}

// Values a step reads itself (not through the lists it runs).
std::vector<uint32_t> ReadBy(const plan::Step& step) {
  return std::visit(
      [](const auto& s) -> std::vector<uint32_t> {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, plan::DispatchStep>) {
          return s.inputs;
        } else if constexpr (std::is_same_v<T, plan::FftStep>) {
          return {s.operand};
        } else if constexpr (std::is_same_v<T, plan::CopyStep>) {
          std::vector<uint32_t> read;
          for (const plan::BufferRef* r : {&s.from, &s.to}) {
            if (r->kind == plan::BufferRef::Kind::kValue) read.push_back(r->index);
          }
          return read;
        } else if constexpr (std::is_same_v<T, plan::FillStep>) {
          if (s.to.kind == plan::BufferRef::Kind::kValue) return {s.to.index};
          return {};
        } else if constexpr (std::is_same_v<T, plan::BranchStep>) {
          return {s.selector.value};
        } else {
          return s.operands;
        }
      },
      step.op);
}

// The step lists a step runs.
std::vector<uint32_t> ListsRunBy(const plan::Step& step) {
  if (const auto* s = std::get_if<plan::WhileStep>(&step.op)) return {s->cond, s->body};
  if (const auto* s = std::get_if<plan::BranchStep>(&step.op)) return s->branches;
  if (const auto* s = std::get_if<plan::CallStep>(&step.op)) return {s->function};
  if (const auto* s = std::get_if<plan::CollectiveStep>(&step.op)) {
    if (s->reducer >= 0) return {static_cast<uint32_t>(s->reducer)};
  }
  return {};
}

// Every value the steps of list `l` read, through the lists they run too (a region reads the
// values of the list around it by id). `reads` memoizes; a list met again while its own reads
// are being gathered (a malformed plan's cycle) adds nothing.
const std::vector<uint32_t>& ListReads(const plan::Plan& p, uint32_t l, std::vector<std::vector<uint32_t>>& reads,
                                       std::vector<uint8_t>& state) {
  if (l >= p.lists.size() || state[l] != 0) return reads[l < p.lists.size() ? l : 0];
  state[l] = 1;
  std::vector<uint32_t> all;
  for (const plan::Segment& segment : p.lists[l].segments) {
    for (const plan::Step& step : segment.steps) {
      for (uint32_t v : ReadBy(step)) all.push_back(v);
      for (uint32_t nested : ListsRunBy(step)) {
        const std::vector<uint32_t>& inner = ListReads(p, nested, reads, state);
        all.insert(all.end(), inner.begin(), inner.end());
      }
    }
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  reads[l] = std::move(all);
  state[l] = 2;
  return reads[l];
}

device::ComputePipelineDesc PipelineDescOf(const plan::Kernel& kernel) {
  device::ComputePipelineDesc desc;
  desc.name = kernel.name;
  desc.spirv = kernel.spirv;
  for (const plan::SpecializationConstant& c : kernel.specialization) desc.specialization.push_back({c.id, c.bits});
  if (kernel.workgroup_base_offset != plan::Kernel::kNoWorkgroupBase) {
    desc.workgroup_base_offset = kernel.workgroup_base_offset;
  }
  desc.required_subgroup_size = kernel.required_subgroup_size;
  desc.address_bindings = kernel.address_bindings;
  for (const plan::WindowedBinding& w : kernel.windowed_bindings) {
    desc.window_bindings.push_back({w.binding, w.window_bytes, w.window_bindings});
  }
  return desc;
}

}  // namespace

std::string StepOpName(const plan::CollectiveStep& step) {
  using K = plan::CollectiveStep::Kind;
  switch (step.kind) {
    case K::kAllGather: return "stablehlo.all_gather";
    case K::kAllReduce: return "stablehlo.all_reduce";
    case K::kReduceScatter: return "stablehlo.reduce_scatter";
    case K::kCollectiveReduce: return "stablehlo.collective_reduce";
    case K::kAllToAll: return "stablehlo.all_to_all";
    case K::kCollectivePermute: return "stablehlo.collective_permute";
    case K::kCollectiveBroadcast: return "stablehlo.collective_broadcast";
  }
  return "collective";
}

std::string StepOpName(const plan::ProcessStep& step) {
  using K = plan::ProcessStep::Kind;
  switch (step.kind) {
    case K::kReplicaId: return "stablehlo.replica_id";
    case K::kPartitionId: return "stablehlo.partition_id";
    case K::kSend: return "stablehlo.send";
    case K::kRecv: return "stablehlo.recv";
    case K::kInfeed: return "stablehlo.infeed";
    case K::kOutfeed: return "stablehlo.outfeed";
  }
  return "process op";
}

std::string StepOpName(const plan::Step& step) {
  if (std::holds_alternative<plan::FftStep>(step.op)) return "stablehlo.fft";
  if (std::holds_alternative<plan::WhileStep>(step.op)) return "stablehlo.while";
  if (const auto* b = std::get_if<plan::BranchStep>(&step.op)) return b->is_case ? "stablehlo.case" : "stablehlo.if";
  if (std::holds_alternative<plan::CustomCallStep>(step.op)) return "stablehlo.custom_call";
  if (std::holds_alternative<plan::CallStep>(step.op)) return "func.call";
  if (const auto* c = std::get_if<plan::CollectiveStep>(&step.op)) return StepOpName(*c);
  if (const auto* p = std::get_if<plan::ProcessStep>(&step.op)) return StepOpName(*p);
  return "step";
}

StatusOr<std::shared_ptr<const LoadedPlan>> LoadPlan(const std::shared_ptr<ClientState>& client, plan::Plan plan,
                                                     LoadOptions options) {
  if (options.uploaded_constants.empty()) VKHLO_RETURN_IF_ERROR(plan::Validate(plan));
  auto loaded = std::make_shared<LoadedPlan>();
  LoadedPlan& out = *loaded;
  out.plan = std::move(plan);
  out.constant_bytes = options.uploaded_constants.empty();
  const plan::Plan& p = out.plan;  // steps are found by address below: the plan stays here

  // Values: types, and the list that makes each.
  out.value_types.resize(p.values.size());
  out.value_list.assign(p.values.size(), -1);
  for (size_t v = 0; v < p.values.size(); ++v) {
    const plan::Value& value = p.values[v];
    if (value.kind != plan::Value::Kind::kTensor) continue;
    StatusOr<TensorDesc> type = DescOf(value.type);
    if (!type.ok()) return type.status().WithContext(fmt::format("plan value {} ({})", v, value.name));
    out.value_types[v] = std::move(*type);
  }
  out.list_values.resize(p.lists.size());
  out.slots_by_end.resize(p.lists.size());
  for (size_t l = 0; l < p.lists.size(); ++l) {
    const plan::StepList& list = p.lists[l];
    auto make = [&](uint32_t v) {
      out.value_list[v] = static_cast<int32_t>(l);
      out.list_values[l].push_back(v);
    };
    for (uint32_t v : list.arguments) make(v);
    std::vector<uint32_t>& ending = out.slots_by_end[l];
    for (uint32_t k = 0; k < list.slots.size(); ++k) ending.push_back(k);
    std::stable_sort(ending.begin(), ending.end(),
                     [&](uint32_t a, uint32_t b) { return list.slots[a].last_step < list.slots[b].last_step; });
    for (const plan::Segment& segment : list.segments) {
      for (const plan::Step& step : segment.steps) {
        for (uint32_t v : MadeBy(step)) make(v);
      }
    }
  }
  // When each list's values are read for the last time (values_dead_after).
  {
    std::vector<std::vector<uint32_t>> reads(p.lists.size());
    std::vector<uint8_t> state(p.lists.size(), 0);
    out.values_dead_after.resize(p.lists.size());
    for (size_t l = 0; l < p.lists.size(); ++l) {
      const plan::StepList& list = p.lists[l];
      std::unordered_map<uint32_t, uint32_t> last_read;  // value -> step
      uint32_t index = 0;
      for (const plan::Segment& segment : list.segments) {
        for (const plan::Step& step : segment.steps) {
          for (uint32_t v : ReadBy(step)) last_read[v] = index;
          for (uint32_t nested : ListsRunBy(step)) {
            for (uint32_t v : ListReads(p, nested, reads, state)) last_read[v] = index;
          }
          ++index;
        }
      }
      for (uint32_t v : list.results) last_read.erase(v);
      std::vector<std::vector<uint32_t>>& dead = out.values_dead_after[l];
      dead.resize(index);
      for (uint32_t v : out.list_values[l]) {
        auto it = last_read.find(v);
        if (it != last_read.end()) dead[it->second].push_back(v);
      }
    }
  }

  // The entry's signature.
  for (size_t i = 0; i < p.header.parameters.size(); ++i) {
    const plan::EntryType& parameter = p.header.parameters[i];
    out.parameter_kinds.push_back(parameter.kind);
    out.parameter_types.emplace_back();
    if (parameter.kind != plan::EntryType::Kind::kTensor) continue;
    StatusOr<TensorDesc> type = DescOf(parameter.tensor);
    if (!type.ok()) return type.status().WithContext(fmt::format("plan parameter {}", i));
    out.parameter_types.back() = std::move(*type);
  }

  // Pipelines (shared by content through the device's cache: a compile's own are found there).
  device::PipelineCache& cache = client->device->pipelines();
  for (const plan::Kernel& kernel : p.kernels) {
    if (options.check_kernels) VKHLO_RETURN_IF_ERROR(CheckLoadedKernel(kernel, p.header.requirements.vulkan_api_minor));
    StatusOr<std::shared_ptr<const device::Pipeline>> pipeline = cache.GetOrCreate(PipelineDescOf(kernel));
    if (!pipeline.ok()) return pipeline.status().WithContext(fmt::format("plan kernel '{}'", kernel.name));
    out.pipelines.push_back(std::move(*pipeline));
  }

  // Constants.
  for (size_t c = 0; c < p.constants.size(); ++c) {
    if (c < options.uploaded_constants.size() && options.uploaded_constants[c] != nullptr) {
      out.constants.push_back(std::move(options.uploaded_constants[c]));
      continue;
    }
    const plan::Constant& constant = p.constants[c];
    StatusOr<TensorDesc> type_or = DescOf(constant.type);
    if (!type_or.ok()) return type_or.status().WithContext(fmt::format("plan constant {}", c));
    const TensorDesc& type = *type_or;
    if (constant.bytes.size() != BufferBytes(type)) {
      return InvalidArgumentError(fmt::format("plan constant {} ({}) holds {} bytes; its type takes {}", c,
                                              constant.type.ToString(), constant.bytes.size(), BufferBytes(type)));
    }
    StatusOr<std::shared_ptr<BufferState>> storage = AllocateTensor(client, type);
    if (!storage.ok()) return storage.status().WithContext(fmt::format("plan constant {} ({})", c, constant.type.ToString()));
    if (!constant.bytes.empty()) {
      VKHLO_RETURN_IF_ERROR(client->device->transfers().Upload((*storage)->buffer, 0, std::as_bytes(std::span(constant.bytes))));
    }
    out.constants.push_back(std::move(*storage));
  }

  for (const plan::FftKernels& k : p.fft_kernels) out.fft_kernel_ids.push_back(device::fft::KernelsId(k.words));

  for (const plan::KernelProfile& k : p.profiles) {
    out.profiles.push_back(KernelProfile{k.kernel, k.kernel_class, "", k.source_op, k.fused_ops, k.detail});
  }

  // Host callbacks, by name, with their signatures checked against the plan's types.
  for (const plan::StepList& list : p.lists) {
    for (const plan::Segment& segment : list.segments) {
      for (const plan::Step& step : segment.steps) {
        const auto* call = std::get_if<plan::CustomCallStep>(&step.op);
        if (call == nullptr || !call->host_callback) continue;
        std::shared_ptr<const CustomCallTarget> target = client->custom_calls.Find(call->target);
        if (target == nullptr || !std::holds_alternative<CustomCallHostCallback>(target->implementation)) {
          return NotFoundError(fmt::format(
              "{}: error: the plan calls host callback @{}, which is not registered with this client as a host "
              "callback (register it before loading)", call->location, call->target));
        }
        const auto& host = std::get<CustomCallHostCallback>(target->implementation);
        if (host.signature) {
          std::vector<TensorType> operands, results;
          for (uint32_t v : call->operands) operands.push_back(p.values[v].type);
          for (uint32_t v : call->results) results.push_back(p.values[v].type);
          VKHLO_RETURN_IF_ERROR(CheckCustomCallSignature(*host.signature, operands, results, call->location, call->target));
        }
        out.host_callbacks[call] = std::move(target);
      }
    }
  }
  return std::shared_ptr<const LoadedPlan>(std::move(loaded));
}

}  // namespace vkhlo::runtime
