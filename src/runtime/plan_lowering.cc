#include "runtime/plan_lowering.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <variant>

#include "ir/printer.h"
#include "runtime/compiled_module.h"
#include "runtime/custom_call.h"
#include "runtime/ir_tensor_desc.h"
#include "runtime/plan_lowering_kernels.h"
#include "runtime/plan_lowering_ops.h"
#include "runtime/plan_lowering_steps.h"
#include "runtime/profiler.h"
#include "support/sha256.h"

#ifndef VKHLO_VERSION_STRING
#define VKHLO_VERSION_STRING "unknown"
#endif

namespace vkhlo::runtime {
namespace {

using ir::OpCode;
using Placement = plan::Value::Placement;

plan::EntryType EntryTypeOf(const ir::Type& type) {
  plan::EntryType out;
  if (type.is_tuple()) {
    out.kind = plan::EntryType::Kind::kTuple;
    for (const ir::Type& element : type.tuple_elements()) out.elements.push_back(EntryTypeOf(element));
  } else if (type.is_token()) {
    out.kind = plan::EntryType::Kind::kToken;
  } else {
    out.tensor = ToTensorType(type);
  }
  return out;
}

plan::TestCheck TestCheckOf(const CompiledCheck& check) {
  plan::TestCheck out;
  switch (check.comparison.kind) {
    case CheckComparison::Kind::kExact: out.comparison = plan::TestCheck::Comparison::kExact; break;
    case CheckComparison::Kind::kAlmost: out.comparison = plan::TestCheck::Comparison::kAlmost; break;
    case CheckComparison::Kind::kClose: out.comparison = plan::TestCheck::Comparison::kClose; break;
  }
  out.tolerance = check.comparison.tolerance;
  out.max_ulp_difference = check.comparison.max_ulp_difference;
  out.min_ulp_difference = check.comparison.min_ulp_difference;
  if (check.expected) {
    out.has_expected = true;
    out.expected_type = check.expected->type;
    out.expected_bytes = check.expected->bytes;
  }
  out.location = check.location;
  out.actual_result = check.actual_result;
  out.expected_result = check.expected_result;
  return out;
}

// CompileOptions::checks' comparisons (vkhlo/checks.h), as the plan keeps them.
plan::TestChecks TestChecksOf(const CompiledChecks& checks) {
  plan::TestChecks out;
  out.function = checks.function;
  out.program_results = checks.program_results;
  for (const CompiledCheck& c : checks.results) out.results.push_back(TestCheckOf(c));
  for (const CompiledCheck& c : checks.nested) out.nested.push_back(TestCheckOf(c));
  out.probe_ids = checks.probe_ids;
  for (const SerializedCheck& c : checks.serialized) out.serialized.push_back({c.probe_key, c.result, c.location});
  return out;
}

// The strategy a profile names for a device kernel's dispatch: its config, else the suffix of
// its name ("fusion_3.reduce_rows" -> "reduce_rows"), as execute.cc reports it.
std::string DispatchConfig(const codegen::KernelDispatch& dispatch) {
  if (!dispatch.config.empty()) return dispatch.config;
  const size_t dot = dispatch.name.find('.');
  return dot == std::string::npos ? std::string() : dispatch.name.substr(dot + 1);
}

// A step list being built: its steps in order (segmented at the end) and the steps that touch
// each slot.
struct ListBuilder {
  const BlockProgram* program = nullptr;
  plan::StepList list;
  std::vector<plan::Step> steps;
  std::vector<uint32_t> slot_first, slot_last;

  uint32_t next_step() const { return static_cast<uint32_t>(steps.size()); }
  uint32_t AddSlot(uint64_t bytes, uint32_t alignment) {
    list.slots.push_back(plan::Slot{bytes, alignment, 0, 0});
    slot_first.push_back(UINT32_MAX);
    slot_last.push_back(0);
    return static_cast<uint32_t>(list.slots.size() - 1);
  }
  void Touch(uint32_t slot, uint32_t step) {
    slot_first[slot] = std::min(slot_first[slot], step);
    slot_last[slot] = std::max(slot_last[slot], step);
  }
};

class Lowerer {
 public:
  Lowerer(const ExecutableState& exe, const CompiledModule& compiled, PlanLoweringExtras* extras)
      : exe_(exe), mod_(compiled), extras_(extras), kernels_(plan_) {}

  StatusOr<plan::Plan> Run() {
    if (mod_.program == nullptr || mod_.entry == nullptr || mod_.module == nullptr) {
      return InvalidArgumentError("LowerToPlan: the executable holds no compiled program");
    }
    VKHLO_ASSIGN_OR_RETURN(plan_.entry, LowerList(*mod_.program, plan::StepList::Role::kEntry, mod_.entry->name()));
    VKHLO_RETURN_IF_ERROR(FillHeader());
    if (exe_.checks) plan_.checks = TestChecksOf(*exe_.checks);
    return std::move(plan_);
  }

 private:
  std::string Where(const ir::Operation& op) const {
    return ir::FormatLocation(mod_.module->source_name(), op.location());
  }

  // --- values ---

  StatusOr<uint32_t> Define(const ir::Value* v, Placement placement, uint32_t index = 0) {
    if (value_ids_.count(v)) return InternalError(fmt::format("plan lowering: value %{} made twice", v->name_hint()));
    plan::Value value;
    const ir::Type& type = v->type();
    if (type.is_tuple()) {
      value.kind = plan::Value::Kind::kTuple;
    } else if (type.is_token()) {
      value.kind = plan::Value::Kind::kToken;
    } else if (type.is_tensor()) {
      value.type = ToTensorType(type);
      value.bytes = BufferBytes(type);
    } else {
      return UnimplementedError(fmt::format("plan lowering: value %{} of type {} is neither a tensor, a tuple nor a token",
                                            v->name_hint(), type.ToString()));
    }
    value.placement = value.kind == plan::Value::Kind::kTensor ? placement : Placement::kFresh;
    value.index = index;
    value.name = v->name_hint().empty() ? std::string() : "%" + v->name_hint();
    const auto id = static_cast<uint32_t>(plan_.values.size());
    plan_.values.push_back(std::move(value));
    value_ids_.emplace(v, id);
    return id;
  }

  // A value a step reads: made before (by a step of this list or of a list around it, or an
  // argument), or a constant of the executable (uploaded once; its bytes from the IR literal).
  StatusOr<uint32_t> Read(const ir::Value* v) {
    auto known = value_ids_.find(v);
    if (known != value_ids_.end()) return known->second;
    if (mod_.constants.count(v) == 0) {
      return InternalError(fmt::format("plan lowering: value %{} is read before it is made", v->name_hint()));
    }
    VKHLO_ASSIGN_OR_RETURN(uint32_t constant, ConstantOf(v));
    return Define(v, Placement::kConstant, constant);
  }

  StatusOr<std::vector<uint32_t>> ReadAll(std::span<const ir::Value* const> values) {
    std::vector<uint32_t> ids;
    for (const ir::Value* v : values) {
      VKHLO_ASSIGN_OR_RETURN(uint32_t id, Read(v));
      ids.push_back(id);
    }
    return ids;
  }
  StatusOr<std::vector<uint32_t>> ReadOperands(const ir::Operation& op) {
    std::vector<const ir::Value*> operands(op.operands().begin(), op.operands().end());
    return ReadAll(operands);
  }
  StatusOr<std::vector<uint32_t>> DefineResults(const ir::Operation& op) {
    std::vector<uint32_t> ids;
    for (size_t i = 0; i < op.num_results(); ++i) {
      VKHLO_ASSIGN_OR_RETURN(uint32_t id, Define(op.result(i), Placement::kFresh));
      ids.push_back(id);
    }
    return ids;
  }

  // The bytes of a buffer constant, read from its op's literal as the compile uploaded them
  // (compile.cc UploadConstant), padded to whole words.
  StatusOr<uint32_t> ConstantOf(const ir::Value* v) {
    if (extras_ != nullptr) {  // uploaded by the compile: the plan needs no bytes
      plan::Constant constant;
      constant.type = ToTensorType(v->type());
      plan_.constants.push_back(std::move(constant));
      extras_->constant_buffers.push_back(mod_.constants.at(v).storage);
      return static_cast<uint32_t>(plan_.constants.size() - 1);
    }
    const ir::Operation* op = v->defining_op();
    const ir::Attribute* attribute = op != nullptr ? op->attribute("value") : nullptr;
    const ir::Literal* literal = attribute != nullptr ? attribute->AsDenseElements() : nullptr;
    if (literal == nullptr) {
      return InternalError(fmt::format("plan lowering: constant %{} has no literal to read", v->name_hint()));
    }
    ir::Literal expanded = *literal;
    VKHLO_RETURN_IF_ERROR(expanded.Expand());
    plan::Constant constant;
    constant.type = ToTensorType(v->type());
    constant.bytes.assign(expanded.raw().begin(), expanded.raw().end());
    constant.bytes.resize(std::max<uint64_t>(constant.bytes.size(), BufferBytes(v->type())), 0);
    plan_.constants.push_back(std::move(constant));
    if (extras_ != nullptr) extras_->constant_buffers.push_back(nullptr);
    return static_cast<uint32_t>(plan_.constants.size() - 1);
  }

  // --- lists ---

  StatusOr<uint32_t> LowerList(const BlockProgram& program, plan::StepList::Role role, std::string name) {
    const auto index = static_cast<uint32_t>(plan_.lists.size());
    plan_.lists.emplace_back();  // its place; nested lists come after it
    ListBuilder b;
    b.program = &program;
    b.list.role = role;
    b.list.name = std::move(name);
    const ir::Block& block = *program.block;
    for (size_t i = 0; i < block.num_arguments(); ++i) {
      VKHLO_ASSIGN_OR_RETURN(uint32_t id, Define(block.argument(i), Placement::kArgument));
      b.list.arguments.push_back(id);
    }
    for (uint64_t bytes : program.slot_bytes) b.AddSlot(bytes, 4);
    bool returned = false;
    for (const codegen::BlockStep& step : program.plan.steps) {
      if (step.fusion >= 0) {
        VKHLO_RETURN_IF_ERROR(LowerKernel(b, static_cast<size_t>(step.fusion)));
        continue;
      }
      const ir::Operation& op = *step.op;
      if (op.code() == OpCode::kReturn || op.code() == OpCode::kFuncReturn) {
        VKHLO_ASSIGN_OR_RETURN(b.list.results, ReadOperands(op));
        returned = true;
        break;
      }
      VKHLO_RETURN_IF_ERROR(LowerOp(b, op));
    }
    if (!returned) return InternalError(fmt::format("plan lowering: block of '{}' has no terminator", b.list.name));
    for (size_t s = 0; s < b.list.slots.size(); ++s) {
      // A slot no step touches (none today) lives over the first step.
      b.list.slots[s].first_step = b.slot_first[s] == UINT32_MAX ? 0 : b.slot_first[s];
      b.list.slots[s].last_step = b.slot_first[s] == UINT32_MAX ? 0 : b.slot_last[s];
    }
    b.list.segments = SegmentSteps(plan_.values, std::move(b.steps));
    plan_.lists[index] = std::move(b.list);
    return index;
  }

  // --- kernels ---

  plan::BufferRef ValueRef(uint32_t id, bool whole) const {
    return plan::BufferRef{plan::BufferRef::Kind::kValue, id, 0, whole ? 0 : plan_.values[id].bytes};
  }

  void TouchSlots(ListBuilder& b, const std::vector<uint32_t>& ids) const {
    for (uint32_t id : ids) {
      const plan::Value& value = plan_.values[id];
      // Only this list's slots: a value of an outer list lives in the outer list's slot.
      if (value.placement == Placement::kSlot && owner_.count(id) && owner_.at(id) == b.program) {
        b.Touch(value.index, b.next_step());
      }
    }
  }

  int32_t ProfileOf(const CompiledKernel& kernel) {
    if (!kernel.profile) return -1;
    const KernelProfile& p = *kernel.profile;
    plan_.profiles.push_back(plan::KernelProfile{p.kernel, p.kernel_class, p.source_op, p.fused_ops, p.detail});
    return static_cast<int32_t>(plan_.profiles.size() - 1);
  }

  Status LowerKernel(ListBuilder& b, size_t fusion) {
    const BlockProgram& program = *b.program;
    const CompiledKernel& kernel = program.kernels[fusion];
    const codegen::KernelSource& source = kernel.source;
    plan::DispatchStep step;
    VKHLO_ASSIGN_OR_RETURN(step.inputs, ReadAll(source.inputs));
    for (const ir::Value* out : source.outputs) {
      auto slot = program.slot_of.find(out);
      const bool in_slot = slot != program.slot_of.end();
      VKHLO_ASSIGN_OR_RETURN(uint32_t id, Define(out, in_slot ? Placement::kSlot : Placement::kFresh,
                                                 in_slot ? static_cast<uint32_t>(slot->second) : 0));
      if (in_slot) owner_[id] = &program;
      step.outputs.push_back(id);
    }
    TouchSlots(b, step.inputs);
    TouchSlots(b, step.outputs);
    step.profile = ProfileOf(kernel);
    if (!kernel.device) {
      if (kernel.pipeline != nullptr) {  // null: an empty index space, nothing dispatched
        if (!kernel.spirv) return InternalError(fmt::format("kernel '{}' kept no SPIR-V", source.name));
        VKHLO_ASSIGN_OR_RETURN(uint32_t k, kernels_.Add(*kernel.pipeline, *kernel.spirv, "main", 0));
        plan::Dispatch d;
        d.kernel = k;
        for (uint32_t id : step.inputs) {
          d.bindings.push_back(ValueRef(id, false));
          d.written.push_back(false);
        }
        for (uint32_t id : step.outputs) {
          d.bindings.push_back(ValueRef(id, false));
          d.written.push_back(true);
        }
        d.grid = {static_cast<uint32_t>(std::min<uint64_t>(source.workgroups, UINT32_MAX)), 1, 1};
        d.config = kernel.profile ? kernel.profile->config : "";
        step.dispatches.push_back(std::move(d));
      }
      b.steps.push_back(plan::Step{0, std::move(step)});
      return OkStatus();
    }
    const codegen::DeviceKernel& dk = *kernel.device;
    // Kernels that read in units wider than a word bind whole buffers (execute.cc RunKernel).
    const bool whole = dk.binding_alignment > 4;
    step.binding_alignment = std::max<uint32_t>(4, dk.binding_alignment);
    for (const codegen::InPlaceOutput& p : dk.in_place) {
      if (p.input < 0 || p.output < 0) continue;
      step.in_place.push_back({static_cast<uint32_t>(p.output), static_cast<uint32_t>(p.input), p.bytes_written});
    }
    // Scratch buffers live for this step alone; constant tables are constants of the plan.
    std::vector<uint32_t> scratch;
    for (uint64_t bytes : dk.scratch_bytes) {
      const uint32_t slot = b.AddSlot(bytes, step.binding_alignment);
      b.Touch(slot, b.next_step());
      scratch.push_back(slot);
    }
    std::vector<uint32_t> tables;
    for (size_t t = 0; t < dk.constant_words.size(); ++t) {
      const std::vector<uint32_t>& words = dk.constant_words[t];
      plan::Constant table;
      table.type = TensorType{"ui32", {static_cast<int64_t>(words.size())}};
      const bool uploaded = extras_ != nullptr && t < kernel.constants.size() && kernel.constants[t] != nullptr;
      if (!uploaded) {
        table.bytes.resize(words.size() * sizeof(uint32_t));
        for (size_t w = 0; w < words.size(); ++w) {
          for (size_t k = 0; k < 4; ++k) table.bytes[4 * w + k] = static_cast<uint8_t>(words[w] >> (8 * k));
        }
      }
      plan_.constants.push_back(std::move(table));
      if (extras_ != nullptr) extras_->constant_buffers.push_back(uploaded ? kernel.constants[t] : nullptr);
      tables.push_back(static_cast<uint32_t>(plan_.constants.size() - 1));
    }
    if (kernel.device_pipelines.size() != dk.dispatches.size() || kernel.device_spirv.size() != dk.dispatches.size()) {
      return InternalError(fmt::format("kernel '{}': {} dispatches, {} pipelines, {} SPIR-V modules", source.name,
                                       dk.dispatches.size(), kernel.device_pipelines.size(), kernel.device_spirv.size()));
    }
    for (size_t i = 0; i < dk.dispatches.size(); ++i) {
      const codegen::KernelDispatch& dispatch = dk.dispatches[i];
      if (kernel.device_pipelines[i] == nullptr) continue;  // an empty grid
      if (!kernel.device_spirv[i]) return InternalError(fmt::format("kernel '{}' kept no SPIR-V", dispatch.name));
      plan::Dispatch d;
      VKHLO_ASSIGN_OR_RETURN(d.kernel, kernels_.Add(*kernel.device_pipelines[i], *kernel.device_spirv[i], "main",
                                                    dispatch.required_subgroup_size));
      for (const codegen::KernelBuffer& buffer : dispatch.bindings) {
        plan::BufferRef ref;
        const auto index = static_cast<size_t>(std::max(buffer.scratch, 0));
        switch (buffer.kind) {
          case codegen::KernelBuffer::Kind::kValue: {
            VKHLO_ASSIGN_OR_RETURN(uint32_t id, Read(buffer.value));
            ref = ValueRef(id, whole);
            break;
          }
          case codegen::KernelBuffer::Kind::kScratch:
            if (buffer.scratch < 0 || index >= scratch.size()) {
              return InternalError(fmt::format("kernel '{}': scratch buffer {} out of range", dispatch.name, buffer.scratch));
            }
            ref = {plan::BufferRef::Kind::kSlot, scratch[index], 0, whole ? 0 : dk.scratch_bytes[index]};
            break;
          case codegen::KernelBuffer::Kind::kConstant:
            if (buffer.scratch < 0 || index >= tables.size()) {
              return InternalError(fmt::format("kernel '{}': constant table {} out of range", dispatch.name, buffer.scratch));
            }
            ref = {plan::BufferRef::Kind::kConstant, tables[index], 0, 0};
            break;
        }
        d.bindings.push_back(ref);
        d.written.push_back(buffer.written);
      }
      d.grid = dispatch.grid;
      d.push_words = dispatch.push_words;
      d.skip_in_place = dispatch.skip_in_place;
      d.config = DispatchConfig(dispatch);
      d.flops = dispatch.flops;
      step.dispatches.push_back(std::move(d));
    }
    for (size_t i = 0; i < step.dispatches.size(); ++i) step.dispatches[i].loop_invariant = LoopInvariant(step, i);
    b.steps.push_back(plan::Step{0, std::move(step)});
    return OkStatus();
  }

  // --- runtime ops ---

  static StatusOr<plan::ScalarRead> ScalarReadOf(uint32_t value, const ir::Type& type, const std::string& what) {
    const int bytes = type.is_tensor() ? ir::StorageBytes(type.element_type()) : 0;
    if (!type.is_tensor() || type.num_elements() != 1 || (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)) {
      return InvalidArgumentError(fmt::format("{}: the value read back is {}, not a scalar of 1, 2, 4 or 8 bytes", what,
                                              type.ToString()));
    }
    return plan::ScalarRead{value, static_cast<uint8_t>(bytes), ir::IsSignedInteger(type.element_type())};
  }

  const std::vector<std::unique_ptr<BlockProgram>>& Regions(const ListBuilder& b, const ir::Operation& op) const {
    static const std::vector<std::unique_ptr<BlockProgram>> kNone;
    auto it = b.program->regions.find(&op);
    return it == b.program->regions.end() ? kNone : it->second;
  }

  std::string RegionName(const ListBuilder& b, const ir::Operation& op, std::string_view part) const {
    return fmt::format("{}/{}#{}.{}", b.list.name, op.name(), b.next_step(), part);
  }

  Status LowerOp(ListBuilder& b, const ir::Operation& op) {
    switch (op.code()) {
      case OpCode::kTuple:
      case OpCode::kGetTupleElement:
      case OpCode::kOptimizationBarrier:
      case OpCode::kAfterAll:
      case OpCode::kCreateToken: {
        plan::ValueStep step;
        step.kind = op.code() == OpCode::kTuple                ? plan::ValueStep::Kind::kTuple
                    : op.code() == OpCode::kGetTupleElement    ? plan::ValueStep::Kind::kGetTupleElement
                    : op.code() == OpCode::kOptimizationBarrier ? plan::ValueStep::Kind::kForward
                                                                : plan::ValueStep::Kind::kToken;
        if (op.code() == OpCode::kGetTupleElement) {
          const std::optional<int64_t> index = op.attribute("index") ? op.attribute("index")->AsInt() : std::nullopt;
          if (!index || *index < 0) return InvalidArgumentError(fmt::format("{}: error: get_tuple_element without an index", Where(op)));
          step.index = static_cast<uint32_t>(*index);
        }
        VKHLO_ASSIGN_OR_RETURN(step.operands, ReadOperands(op));
        VKHLO_ASSIGN_OR_RETURN(step.results, DefineResults(op));
        b.steps.push_back(plan::Step{0, std::move(step)});
        return OkStatus();
      }
      case OpCode::kFft: {
        VKHLO_ASSIGN_OR_RETURN(plan::FftStep step, FftStepOf(op));
        VKHLO_ASSIGN_OR_RETURN(step.operand, Read(op.operand(0)));
        VKHLO_ASSIGN_OR_RETURN(step.result, Define(op.result(0), Placement::kFresh));
        step.location = Where(op);
        b.steps.push_back(plan::Step{0, std::move(step)});
        return OkStatus();
      }
      case OpCode::kCustomCall:
        return LowerCustomCall(b, op);
      case OpCode::kCall: {
        const ir::Attribute* callee = op.attribute("callee");
        const ir::SymbolRef* symbol = callee ? callee->as<ir::SymbolRef>() : nullptr;
        auto function = symbol ? mod_.functions.find(symbol->name) : mod_.functions.end();
        if (function == mod_.functions.end() || function->second == nullptr) {
          return InternalError(fmt::format("{}: plan lowering: call of a function the compile did not compile", Where(op)));
        }
        plan::CallStep step;
        auto known = function_lists_.find(symbol->name);
        if (known != function_lists_.end()) {
          step.function = known->second;
        } else {
          VKHLO_ASSIGN_OR_RETURN(step.function,
                                 LowerList(*function->second, plan::StepList::Role::kFunction, "@" + symbol->name));
          function_lists_[symbol->name] = step.function;
        }
        VKHLO_ASSIGN_OR_RETURN(step.operands, ReadOperands(op));
        VKHLO_ASSIGN_OR_RETURN(step.results, DefineResults(op));
        b.steps.push_back(plan::Step{0, std::move(step)});
        return OkStatus();
      }
      case OpCode::kIf:
      case OpCode::kCase: {
        const auto& regions = Regions(b, op);
        if (regions.empty()) return InternalError(fmt::format("{}: plan lowering: {} without compiled regions", Where(op), op.name()));
        plan::BranchStep step;
        step.is_case = op.code() == OpCode::kCase;
        VKHLO_ASSIGN_OR_RETURN(uint32_t selector, Read(op.operand(0)));
        VKHLO_ASSIGN_OR_RETURN(step.selector, ScalarReadOf(selector, op.operand(0)->type(), Where(op)));
        const std::string prefix = RegionName(b, op, "branch");
        for (size_t r = 0; r < regions.size(); ++r) {
          VKHLO_ASSIGN_OR_RETURN(uint32_t list,
                                 LowerList(*regions[r], plan::StepList::Role::kRegion, fmt::format("{}{}", prefix, r)));
          step.branches.push_back(list);
        }
        VKHLO_ASSIGN_OR_RETURN(step.results, DefineResults(op));
        step.location = Where(op);
        b.steps.push_back(plan::Step{0, std::move(step)});
        return OkStatus();
      }
      case OpCode::kWhile:
        return LowerWhile(b, op);
      case OpCode::kAllGather:
      case OpCode::kAllReduce:
      case OpCode::kReduceScatter:
      case OpCode::kCollectiveReduce:
      case OpCode::kAllToAll:
      case OpCode::kCollectivePermute:
      case OpCode::kCollectiveBroadcast: {
        VKHLO_ASSIGN_OR_RETURN(plan::CollectiveStep step, CollectiveStepOf(op, Where(op)));
        auto reducer = mod_.reducers.find(&op);
        if (reducer != mod_.reducers.end()) {
          VKHLO_ASSIGN_OR_RETURN(uint32_t list, LowerList(*reducer->second, plan::StepList::Role::kReducer,
                                                          fmt::format("reducer of {} at {}", op.name(), Where(op))));
          step.reducer = static_cast<int32_t>(list);
        }
        VKHLO_ASSIGN_OR_RETURN(step.operands, ReadOperands(op));
        VKHLO_ASSIGN_OR_RETURN(step.results, DefineResults(op));
        b.steps.push_back(plan::Step{0, std::move(step)});
        return OkStatus();
      }
      case OpCode::kReplicaId:
      case OpCode::kPartitionId:
      case OpCode::kSend:
      case OpCode::kRecv:
      case OpCode::kInfeed:
      case OpCode::kOutfeed: {
        VKHLO_ASSIGN_OR_RETURN(plan::ProcessStep step, ProcessStepOf(op, Where(op)));
        VKHLO_ASSIGN_OR_RETURN(step.operands, ReadOperands(op));
        VKHLO_ASSIGN_OR_RETURN(step.results, DefineResults(op));
        b.steps.push_back(plan::Step{0, std::move(step)});
        return OkStatus();
      }
      default:
        return UnimplementedError(fmt::format("{}: plan lowering: {} is not a step a plan describes", Where(op), op.name()));
    }
  }

  Status LowerWhile(ListBuilder& b, const ir::Operation& op) {
    const auto& regions = Regions(b, op);
    if (regions.size() != 2) return InternalError(fmt::format("{}: plan lowering: while without its two regions", Where(op)));
    plan::WhileStep step;
    VKHLO_ASSIGN_OR_RETURN(step.operands, ReadOperands(op));
    VKHLO_ASSIGN_OR_RETURN(step.cond, LowerList(*regions[0], plan::StepList::Role::kRegion, RegionName(b, op, "cond")));
    VKHLO_ASSIGN_OR_RETURN(step.body, LowerList(*regions[1], plan::StepList::Role::kRegion, RegionName(b, op, "body")));
    const plan::StepList& cond = plan_.lists[step.cond];
    const ir::Operation* terminator = regions[0]->block->back();
    if (cond.results.size() != 1 || terminator == nullptr || terminator->num_operands() != 1) {
      return InvalidArgumentError(fmt::format("{}: error: while condition must return one value", Where(op)));
    }
    VKHLO_ASSIGN_OR_RETURN(step.predicate, ScalarReadOf(cond.results[0], terminator->operand(0)->type(), Where(op)));
    auto counted = b.program->trip_counts.find(&op);
    step.trip_count = counted != b.program->trip_counts.end() ? counted->second : -1;
    step.batched = b.program->batched.count(&op) != 0;
    VKHLO_ASSIGN_OR_RETURN(step.results, DefineResults(op));
    step.location = Where(op);
    b.steps.push_back(plan::Step{0, std::move(step)});
    return OkStatus();
  }

  Status LowerCustomCall(ListBuilder& b, const ir::Operation& op) {
    auto compiled = mod_.custom_calls.find(&op);
    if (compiled == mod_.custom_calls.end() || compiled->second == nullptr) {
      return InternalError(fmt::format("{}: plan lowering: custom_call the compile did not resolve", Where(op)));
    }
    const CompiledCustomCall& call = *compiled->second;
    plan::CustomCallStep step = CustomCallStepOf(call);
    VKHLO_ASSIGN_OR_RETURN(step.operands, ReadOperands(op));
    VKHLO_ASSIGN_OR_RETURN(step.results, DefineResults(op));
    if (const CustomCallKernel* kernel = call.kernel()) {
      if (call.pipeline == nullptr) return InternalError(fmt::format("{}: custom_call kernel without a pipeline", Where(op)));
      // Its push constants start at offset 0: the kernel has no workgroup base (custom_call.h).
      VKHLO_ASSIGN_OR_RETURN(step.dispatch.kernel, kernels_.Add(*call.pipeline, kernel->spirv, kernel->entry_point, 0));
      for (uint32_t id : step.operands) {
        step.dispatch.bindings.push_back(ValueRef(id, false));
        step.dispatch.written.push_back(false);
      }
      for (uint32_t id : step.results) {
        step.dispatch.bindings.push_back(ValueRef(id, false));
        step.dispatch.written.push_back(true);
      }
      step.dispatch.grid = call.launch.workgroups;
      step.dispatch.push_words = call.launch.push_constants;
    }
    b.steps.push_back(plan::Step{0, std::move(step)});
    return OkStatus();
  }

  // --- header ---

  Status FillHeader() {
    plan::PlanHeader& h = plan_.header;
    h.producer = std::string("vkhlo ") + VKHLO_VERSION_STRING;
    // The program as given to Client::Compile; else (a built computation, or a module compiled
    // directly) the module as printed after the passes.
    if (exe_.source_sha256) {
      h.source_sha256 = *exe_.source_sha256;
    } else if (extras_ == nullptr) {  // the compile's own plan is never written: no need to print the module
      h.source_sha256 = Sha256Of(ir::PrintModule(*mod_.module));
    }
    h.entry_name = mod_.entry->name();
    for (const ir::Type& t : mod_.entry->type().inputs) h.parameters.push_back(EntryTypeOf(t));
    for (const ir::Type& t : mod_.entry->type().results) h.results.push_back(EntryTypeOf(t));
    VKHLO_ASSIGN_OR_RETURN(h.requirements, PlanRequirements(plan_, exe_.client->target));
    // The device compiled on runs what it compiled: a plan needing more misreads its kernels.
    const Status runs_here = plan::CheckRequirements(h.requirements, DeviceOfferOf(exe_.client->device->capabilities()));
    if (!runs_here.ok()) {
      return InternalError("plan lowering: the requirements read from the kernels exceed the device they were "
                           "compiled for: " + runs_here.message());
    }
    return OkStatus();
  }

  const ExecutableState& exe_;
  const CompiledModule& mod_;  // exe_.compiled
  PlanLoweringExtras* extras_ = nullptr;
  plan::Plan plan_;
  PlanKernels kernels_;
  std::unordered_map<const ir::Value*, uint32_t> value_ids_;
  // The program whose slots hold a slot-placed value (a nested list must not count its
  // steps against an outer list's slot).
  std::unordered_map<uint32_t, const BlockProgram*> owner_;
  std::unordered_map<std::string, uint32_t> function_lists_;
};

}  // namespace

StatusOr<plan::Plan> LowerToPlan(const ExecutableState& exe, PlanLoweringExtras* extras) {
  if (exe.polymorphic) {
    return UnimplementedError(
        "a shape-polymorphic executable has no plan: a plan has static shapes (grids, push constants, slot sizes), "
        "and this executable specialises itself with the compiler for each argument shape when it runs");
  }
  if (exe.compiled == nullptr) return InvalidArgumentError("LowerToPlan: the executable holds no compiled program");
  return Lowerer(exe, *exe.compiled, extras).Run();
}

}  // namespace vkhlo::runtime
