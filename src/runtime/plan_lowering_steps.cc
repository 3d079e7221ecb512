#include "runtime/plan_lowering_steps.h"

#include <set>
#include <variant>

namespace vkhlo::runtime {
namespace {

// The buffer a binding occupies, for hazards: a value placed in a slot is its slot.
uint64_t BufferKey(std::span<const plan::Value> values, const plan::BufferRef& ref) {
  if (ref.kind == plan::BufferRef::Kind::kValue && values[ref.index].placement == plan::Value::Placement::kSlot) {
    return (static_cast<uint64_t>(plan::BufferRef::Kind::kSlot) << 32) | values[ref.index].index;
  }
  return (static_cast<uint64_t>(ref.kind) << 32) | ref.index;
}
uint64_t ValueKey(std::span<const plan::Value> values, uint32_t id) {
  return BufferKey(values, {plan::BufferRef::Kind::kValue, id, 0, 0});
}

}  // namespace

bool LoopInvariant(const plan::DispatchStep& step, size_t d) {
  using Kind = plan::BufferRef::Kind;
  const plan::Dispatch& dispatch = step.dispatches[d];
  bool writes = false;
  for (size_t i = 0; i < dispatch.bindings.size(); ++i) {
    const plan::BufferRef& ref = dispatch.bindings[i];
    if (ref.kind == Kind::kValue && dispatch.written[i]) return false;
    if (ref.kind != Kind::kSlot) continue;
    if (!dispatch.written[i]) return false;  // it reads what another dispatch wrote
    writes = true;
    for (size_t e = 0; e < step.dispatches.size(); ++e) {
      if (e == d) continue;
      const plan::Dispatch& other = step.dispatches[e];
      for (size_t o = 0; o < other.bindings.size(); ++o) {
        if (other.bindings[o].kind == Kind::kSlot && other.bindings[o].index == ref.index && (e < d || other.written[o])) {
          return false;
        }
      }
    }
  }
  return writes;
}

std::vector<plan::Segment> SegmentSteps(std::span<const plan::Value> values, std::vector<plan::Step> steps) {
  std::vector<plan::Segment> segments;
  plan::Segment current;
  std::set<uint64_t> written, read;
  bool opaque = false;
  auto close = [&] {
    if (!current.steps.empty()) segments.push_back(std::move(current));
    current = plan::Segment{};
    written.clear();
    read.clear();
    opaque = false;
  };
  for (plan::Step& step : steps) {
    if (plan::IsHostStep(step)) {
      close();
      current.steps.push_back(std::move(step));
      close();
      continue;
    }
    std::vector<uint64_t> reads, writes;
    bool nested = false;
    if (const auto* s = std::get_if<plan::DispatchStep>(&step.op)) {
      for (const plan::Dispatch& d : s->dispatches) {
        for (size_t i = 0; i < d.bindings.size(); ++i) {
          (d.written[i] ? writes : reads).push_back(BufferKey(values, d.bindings[i]));
        }
      }
      // An output updated in place is written into its input's buffer.
      for (const plan::InPlaceOutput& p : s->in_place) writes.push_back(ValueKey(values, s->inputs[p.input]));
    } else if (const auto* f = std::get_if<plan::FftStep>(&step.op)) {
      reads.push_back(ValueKey(values, f->operand));
      writes.push_back(ValueKey(values, f->result));
    } else if (const auto* c = std::get_if<plan::CustomCallStep>(&step.op)) {
      for (uint32_t v : c->operands) reads.push_back(ValueKey(values, v));
      for (uint32_t v : c->results) writes.push_back(ValueKey(values, v));
    } else if (std::holds_alternative<plan::WhileStep>(step.op) || std::holds_alternative<plan::CallStep>(step.op)) {
      nested = true;
    }
    bool wait = opaque || (nested && !written.empty());
    for (uint64_t k : reads) wait = wait || written.count(k) != 0;
    for (uint64_t k : writes) wait = wait || written.count(k) != 0 || read.count(k) != 0;
    step.barrier = wait ? plan::kAfterComputeWrites : 0;
    read.insert(reads.begin(), reads.end());
    written.insert(writes.begin(), writes.end());
    if (nested) {
      opaque = true;
    } else if (!reads.empty() || !writes.empty()) {
      opaque = false;
    }
    current.steps.push_back(std::move(step));
  }
  close();
  return segments;
}

}  // namespace vkhlo::runtime
