// Validate(): a plan an executor can index without checking. ReadPlan runs it on every file,
// so a well-formed file with a bad index is an error at load time, not a crash at run time.
#include <algorithm>
#include <string>

#include "plan/format.h"
#include "plan/plan.h"

namespace vkhlo::plan {

bool IsHostStep(const Step& step) {
  if (const auto* w = std::get_if<WhileStep>(&step.op)) return w->trip_count < 0;
  return std::holds_alternative<BranchStep>(step.op) || std::holds_alternative<CollectiveStep>(step.op) ||
         std::holds_alternative<ProcessStep>(step.op) ||
         (std::holds_alternative<CustomCallStep>(step.op) && std::get<CustomCallStep>(step.op).host_callback);
}

namespace {

class Validator {
 public:
  explicit Validator(const Plan& plan) : plan_(plan) {}

  Status Run() {
    for (const auto* types : {&plan_.header.parameters, &plan_.header.results}) {
      for (const EntryType& t : *types) VKHLO_RETURN_IF_ERROR(CheckDepth(t, 0));
    }
    if (plan_.entry >= plan_.lists.size()) return Error("entry list " + std::to_string(plan_.entry) + " of " + Count(plan_.lists.size()));
    for (size_t v = 0; v < plan_.values.size(); ++v) {
      const Value& value = plan_.values[v];
      if (value.placement == Value::Placement::kConstant &&
          (value.index >= plan_.constants.size() || value.bytes > plan_.constants[value.index].bytes.size())) {
        return Error("value " + std::to_string(v) + " names constant " + std::to_string(value.index) + " of " +
                     Count(plan_.constants.size()) + ", or more bytes than it holds");
      }
    }
    for (size_t k = 0; k < plan_.kernels.size(); ++k) {
      const Kernel& kernel = plan_.kernels[k];
      for (uint32_t b : kernel.address_bindings) {
        if (b >= kernel.bindings.size()) return Error("kernel '" + kernel.name + "' address binding " + std::to_string(b) + " out of range");
      }
    }
    for (size_t l = 0; l < plan_.lists.size(); ++l) {
      list_ = l;
      const StepList& list = plan_.lists[l];
      where_ = "list " + std::to_string(l) + " '" + list.name + "'";
      for (uint32_t v : list.arguments) VKHLO_RETURN_IF_ERROR(CheckValue(v));
      for (uint32_t v : list.results) VKHLO_RETURN_IF_ERROR(CheckValue(v));
      size_t steps = 0;
      for (const Segment& segment : list.segments) steps += segment.steps.size();
      for (size_t i = 0; i < list.slots.size(); ++i) {
        const Slot& slot = list.slots[i];
        if (slot.first_step > slot.last_step || slot.last_step >= std::max<size_t>(steps, 1)) {
          return Error(where_ + ": slot " + std::to_string(i) + " lives over steps " + std::to_string(slot.first_step) +
                       ".." + std::to_string(slot.last_step) + " of " + std::to_string(steps));
        }
        if (slot.alignment == 0 || (slot.alignment & (slot.alignment - 1)) != 0) {
          return Error(where_ + ": slot " + std::to_string(i) + " alignment " + std::to_string(slot.alignment) +
                       " is not a power of two");
        }
      }
      for (size_t s = 0; s < list.segments.size(); ++s) {
        const Segment& segment = list.segments[s];
        for (size_t i = 0; i < segment.steps.size(); ++i) {
          where_ = "list " + std::to_string(l) + " '" + list.name + "', segment " + std::to_string(s) + ", step " +
                   std::to_string(i);
          const Step& step = segment.steps[i];
          if (IsHostStep(step) && segment.steps.size() != 1) return Error(where_ + ": a host step shares its segment");
          if ((step.barrier & ~(kAfterComputeWrites | kAfterTransferWrites)) != 0) return Error(where_ + ": unknown barrier bits");
          VKHLO_RETURN_IF_ERROR(std::visit([&](const auto& op) { return Check(op); }, step.op));
        }
      }
    }
    VKHLO_RETURN_IF_ERROR(CheckTestChecks());
    for (size_t i = 0; i < plan_.fft_kernels.size(); ++i) {
      const FftKernels& k = plan_.fft_kernels[i];
      const std::string what = "FFT kernels " + std::to_string(i);
      if (k.lengths.empty() || k.lengths.size() > 3) return Error(what + ": a transform of " + std::to_string(k.lengths.size()) + " dimensions");
      if (k.max_workgroup_size.size() != 3 || k.max_workgroup_count.size() != 3) {
        return Error(what + ": workgroup size and count limits need 3 entries each");
      }
    }
    return CheckAcyclic();
  }

 private:
  Status CheckDepth(const EntryType& t, int depth) const {
    if (depth > format::kMostTupleDepth) {
      return Error("the entry's signature nests tuples deeper than " + std::to_string(format::kMostTupleDepth));
    }
    for (const EntryType& e : t.elements) VKHLO_RETURN_IF_ERROR(CheckDepth(e, depth + 1));
    return OkStatus();
  }
  static std::string Count(size_t n) { return std::to_string(n); }
  Status Error(const std::string& what) const { return InvalidArgumentError("invalid plan: " + what); }

  Status CheckValue(uint32_t v) const {
    if (v >= plan_.values.size()) return Error(where_ + ": value " + std::to_string(v) + " of " + Count(plan_.values.size()));
    return OkStatus();
  }
  Status CheckValues(const std::vector<uint32_t>& values) const {
    for (uint32_t v : values) VKHLO_RETURN_IF_ERROR(CheckValue(v));
    return OkStatus();
  }
  // Values a step of this list makes: one placed in a slot lies within a slot of this list.
  Status CheckMade(const std::vector<uint32_t>& values) const {
    for (uint32_t v : values) {
      VKHLO_RETURN_IF_ERROR(CheckValue(v));
      const Value& value = plan_.values[v];
      if (value.placement != Value::Placement::kSlot) continue;
      const auto& slots = plan_.lists[list_].slots;
      if (value.index >= slots.size() || value.offset > slots[value.index].bytes ||
          value.bytes > slots[value.index].bytes - value.offset) {
        return Error(where_ + ": value " + std::to_string(v) + " lies outside slot " + std::to_string(value.index) +
                     " of its list");
      }
    }
    return OkStatus();
  }
  Status CheckList(uint32_t l) {
    if (l >= plan_.lists.size()) return Error(where_ + ": step list " + std::to_string(l) + " of " + Count(plan_.lists.size()));
    edges_.push_back({list_, l});
    return OkStatus();
  }
  // The size of what `ref` names, after checking the index.
  StatusOr<uint64_t> Extent(const BufferRef& ref) const {
    switch (ref.kind) {
      case BufferRef::Kind::kValue:
        VKHLO_RETURN_IF_ERROR(CheckValue(ref.index));
        return plan_.values[ref.index].bytes;
      case BufferRef::Kind::kSlot: {
        const auto& slots = plan_.lists[list_].slots;
        if (ref.index >= slots.size()) return Error(where_ + ": slot " + std::to_string(ref.index) + " of " + Count(slots.size()));
        return slots[ref.index].bytes;
      }
      case BufferRef::Kind::kConstant:
        if (ref.index >= plan_.constants.size()) {
          return Error(where_ + ": constant " + std::to_string(ref.index) + " of " + Count(plan_.constants.size()));
        }
        return plan_.constants[ref.index].bytes.size();
    }
    return Error(where_ + ": unknown buffer kind");
  }
  Status CheckRange(const BufferRef& ref) const {
    VKHLO_ASSIGN_OR_RETURN(uint64_t extent, Extent(ref));
    if (ref.offset > extent || ref.bytes > extent - ref.offset) {
      return Error(where_ + ": range [" + std::to_string(ref.offset) + ", +" + std::to_string(ref.bytes) +
                   ") beyond a buffer of " + std::to_string(extent) + " bytes");
    }
    return OkStatus();
  }
  Status CheckDispatch(const Dispatch& d) const {
    if (d.kernel >= plan_.kernels.size()) return Error(where_ + ": kernel " + std::to_string(d.kernel) + " of " + Count(plan_.kernels.size()));
    const Kernel& kernel = plan_.kernels[d.kernel];
    if (d.bindings.size() != kernel.bindings.size() || d.written.size() != d.bindings.size()) {
      return Error(where_ + ": " + std::to_string(d.bindings.size()) + " bindings for kernel '" + kernel.name + "', which has " +
                   std::to_string(kernel.bindings.size()));
    }
    // Push words follow the 16-byte workgroup base, or start at 0 in a kernel without one.
    const uint64_t base = kernel.workgroup_base_offset == Kernel::kNoWorkgroupBase ? 0 : 16;
    if (base + 4 * static_cast<uint64_t>(d.push_words.size()) > std::max<uint64_t>(base, kernel.push_constant_bytes)) {
      return Error(where_ + ": " + std::to_string(d.push_words.size()) + " push words beyond kernel '" + kernel.name + "''s " +
                   std::to_string(kernel.push_constant_bytes) + " bytes");
    }
    for (const BufferRef& ref : d.bindings) VKHLO_RETURN_IF_ERROR(CheckRange(ref));
    return OkStatus();
  }

  Status Check(const DispatchStep& s) const {
    VKHLO_RETURN_IF_ERROR(CheckValues(s.inputs));
    VKHLO_RETURN_IF_ERROR(CheckMade(s.outputs));
    for (const Dispatch& d : s.dispatches) VKHLO_RETURN_IF_ERROR(CheckDispatch(d));
    for (const InPlaceOutput& p : s.in_place) {
      if (p.input >= s.inputs.size() || p.output >= s.outputs.size()) return Error(where_ + ": in-place output out of range");
    }
    if (s.profile >= 0 && static_cast<size_t>(s.profile) >= plan_.profiles.size()) return Error(where_ + ": profile out of range");
    if (s.profile < -1) return Error(where_ + ": profile out of range");
    if (s.binding_alignment == 0 || (s.binding_alignment & (s.binding_alignment - 1)) != 0) {
      return Error(where_ + ": binding alignment " + std::to_string(s.binding_alignment) + " is not a power of two");
    }
    return OkStatus();
  }
  Status Check(const CopyStep& s) const {
    VKHLO_RETURN_IF_ERROR(CheckRange(s.from));
    VKHLO_RETURN_IF_ERROR(CheckRange(s.to));
    if (s.from.bytes != s.to.bytes) return Error(where_ + ": a copy between ranges of different sizes");
    return OkStatus();
  }
  Status Check(const FillStep& s) const {
    VKHLO_RETURN_IF_ERROR(CheckRange(s.to));
    if (s.to.bytes % 4 != 0 || s.to.offset % 4 != 0) return Error(where_ + ": a fill of part of a word");
    return OkStatus();
  }
  Status Check(const FftStep& s) const {
    VKHLO_RETURN_IF_ERROR(CheckValue(s.operand));
    VKHLO_RETURN_IF_ERROR(CheckMade({s.result}));
    if (s.lengths.empty() || s.lengths.size() > 3) return Error(where_ + ": an fft of " + std::to_string(s.lengths.size()) + " dimensions");
    return OkStatus();
  }
  Status Check(const CollectiveStep& s) {
    VKHLO_RETURN_IF_ERROR(CheckValues(s.operands));
    VKHLO_RETURN_IF_ERROR(CheckMade(s.results));
    if (s.reducer >= 0) VKHLO_RETURN_IF_ERROR(CheckList(static_cast<uint32_t>(s.reducer)));
    if (s.reducer < -1) return Error(where_ + ": reducer out of range");
    if (!s.exact.empty() && s.exact.size() != s.operands.size()) return Error(where_ + ": exact reductions not one per operand");
    return OkStatus();
  }
  Status Check(const ProcessStep& s) const {
    VKHLO_RETURN_IF_ERROR(CheckValues(s.operands));
    return CheckMade(s.results);
  }
  Status Check(const CustomCallStep& s) const {
    VKHLO_RETURN_IF_ERROR(CheckValues(s.operands));
    VKHLO_RETURN_IF_ERROR(CheckMade(s.results));
    if (!s.host_callback) VKHLO_RETURN_IF_ERROR(CheckDispatch(s.dispatch));
    return OkStatus();
  }
  Status CheckRead(const ScalarRead& r) const {
    VKHLO_RETURN_IF_ERROR(CheckValue(r.value));
    if (r.bytes != 1 && r.bytes != 2 && r.bytes != 4 && r.bytes != 8) {
      return Error(where_ + ": a predicate of " + std::to_string(r.bytes) + " bytes");
    }
    return OkStatus();
  }
  Status Check(const WhileStep& s) {
    VKHLO_RETURN_IF_ERROR(CheckList(s.cond));
    VKHLO_RETURN_IF_ERROR(CheckList(s.body));
    VKHLO_RETURN_IF_ERROR(CheckRead(s.predicate));
    VKHLO_RETURN_IF_ERROR(CheckValues(s.operands));
    VKHLO_RETURN_IF_ERROR(CheckMade(s.results));
    if (s.trip_count < -1) return Error(where_ + ": trip count " + std::to_string(s.trip_count));
    const size_t n = s.operands.size();
    if (s.results.size() != n || plan_.lists[s.body].arguments.size() != n || plan_.lists[s.body].results.size() != n ||
        plan_.lists[s.cond].arguments.size() != n || plan_.lists[s.cond].results.size() != 1) {
      return Error(where_ + ": while state of " + std::to_string(n) + " values does not match its lists");
    }
    return OkStatus();
  }
  Status Check(const BranchStep& s) {
    VKHLO_RETURN_IF_ERROR(CheckRead(s.selector));
    VKHLO_RETURN_IF_ERROR(CheckMade(s.results));
    if (s.branches.empty() || (!s.is_case && s.branches.size() != 2)) {
      return Error(where_ + ": " + std::to_string(s.branches.size()) + " branches");
    }
    for (uint32_t b : s.branches) {
      VKHLO_RETURN_IF_ERROR(CheckList(b));
      if (plan_.lists[b].results.size() != s.results.size()) return Error(where_ + ": a branch's results do not match");
    }
    return OkStatus();
  }
  Status Check(const CallStep& s) {
    VKHLO_RETURN_IF_ERROR(CheckList(s.function));
    VKHLO_RETURN_IF_ERROR(CheckValues(s.operands));
    VKHLO_RETURN_IF_ERROR(CheckMade(s.results));
    if (plan_.lists[s.function].arguments.size() != s.operands.size() ||
        plan_.lists[s.function].results.size() != s.results.size()) {
      return Error(where_ + ": a call's operands or results do not match its function");
    }
    return OkStatus();
  }
  Status Check(const ValueStep& s) const {
    VKHLO_RETURN_IF_ERROR(CheckValues(s.operands));
    return CheckMade(s.results);
  }

  static size_t CountTensors(const std::vector<EntryType>& types) {
    size_t n = 0;
    for (const EntryType& t : types) n += t.kind == EntryType::Kind::kTuple ? CountTensors(t.elements) : t.kind == EntryType::Kind::kTensor;
    return n;
  }

  // A test program's checks read results that exist: the entry's tensors, tuples flattened.
  Status CheckTestChecks() const {
    if (!plan_.checks) return OkStatus();
    const TestChecks& checks = *plan_.checks;
    const auto results = static_cast<int64_t>(CountTensors(plan_.header.results));
    auto result = [&](int64_t index, bool optional, const std::string& what) -> Status {
      if ((optional && index == -1) || (index >= 0 && index < results)) return OkStatus();
      return Error("checks: " + what + " reads result " + std::to_string(index) + " of " + std::to_string(results));
    };
    if (checks.program_results < 0 || checks.program_results > results) {
      return Error("checks: " + std::to_string(checks.program_results) + " program results of " + std::to_string(results));
    }
    for (size_t i = 0; i < checks.results.size(); ++i) {
      const TestCheck& k = checks.results[i];
      const std::string what = "result check " + std::to_string(i);
      VKHLO_RETURN_IF_ERROR(result(k.actual_result, false, what));
      VKHLO_RETURN_IF_ERROR(result(k.expected_result, k.has_expected, what));
      if (k.has_expected == (k.expected_result >= 0)) return Error("checks: " + what + " expects a constant and a result, or neither");
    }
    for (size_t i = 0; i < checks.serialized.size(); ++i) {
      VKHLO_RETURN_IF_ERROR(result(checks.serialized[i].result, false, "serialized check " + std::to_string(i)));
    }
    return OkStatus();
  }

  // Depth-first search for a cycle in the graph of lists naming lists.
  Status CheckAcyclic() const {
    std::vector<std::vector<uint32_t>> next(plan_.lists.size());
    for (const auto& [from, to] : edges_) next[from].push_back(to);
    enum : uint8_t { kUnseen, kOpen, kDone };
    std::vector<uint8_t> state(plan_.lists.size(), kUnseen);
    for (size_t root = 0; root < plan_.lists.size(); ++root) {
      if (state[root] != kUnseen) continue;
      std::vector<std::pair<size_t, size_t>> stack = {{root, 0}};  // list, next edge
      state[root] = kOpen;
      while (!stack.empty()) {
        auto& [list, edge] = stack.back();
        if (edge == next[list].size()) {
          state[list] = kDone;
          stack.pop_back();
          continue;
        }
        const uint32_t to = next[list][edge++];
        if (state[to] == kOpen) {
          return Error("list " + std::to_string(to) + " '" + plan_.lists[to].name + "' runs itself (through list " +
                       std::to_string(list) + ")");
        }
        if (state[to] == kUnseen) {
          state[to] = kOpen;
          stack.push_back({to, 0});
        }
      }
    }
    return OkStatus();
  }

  const Plan& plan_;
  size_t list_ = 0;
  std::string where_;
  std::vector<std::pair<size_t, uint32_t>> edges_;
};

}  // namespace

Status Validate(const Plan& plan) { return Validator(plan).Run(); }

}  // namespace vkhlo::plan
