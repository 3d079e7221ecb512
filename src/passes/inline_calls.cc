// Inlining: every func.call is replaced by a copy of its callee's body, recursively (calls in
// the copied body, and calls nested in regions of if/while/case/reduce..., are inlined too), so
// that later passes and codegen see one flat function per entry point. A stablehlo.composite is
// a call of its `decomposition` (the spec's semantics), so it is inlined the same way. Private functions that
// no call reaches any more are then removed; public functions stay (they are entry points).
//
// Recursion cannot be inlined: a function that calls itself, directly or through others, is an
// error naming the cycle, found before anything is changed.
//
// Inlining is bounded: a function calling the next one twice, 64 levels deep, is a small
// program whose full expansion has 2^64 copies of the last body. A call is inlined only when
// its whole expansion (the callee's ops, its calls' expansions counted in, computed once per
// function) fits in what is left of the budget: kInlineBudgetFactor times the module's size,
// at least kMinInlineBudget ops. A func.call that does not fit stays a call where the runtime
// can run one (in a function body, or in regions of if/case/while only: each function then
// compiles once); anywhere else (a reduce body, a composite) it is a RESOURCE_EXHAUSTED error.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/walk.h"
#include "passes/op_properties.h"
#include "passes/passes.h"
#include "passes/symbols.h"

namespace vkhlo::passes {
namespace {

using ir::OpCode;

bool IsCall(const ir::Operation& op) { return op.code() == OpCode::kCall || op.code() == OpCode::kComposite; }

std::string CalleeOf(const ir::Operation& call) {
  const ir::Attribute* callee = call.attribute(call.code() == OpCode::kComposite ? "decomposition" : "callee");
  const ir::SymbolRef* symbol = callee != nullptr ? callee->as<ir::SymbolRef>() : nullptr;
  return symbol != nullptr ? symbol->name : "";
}

std::string Where(const ir::Module& module, ir::Location location) {
  std::string where = module.source_name();
  if (location.known()) {
    where += (where.empty() ? "" : ":") + std::to_string(location.line) + ":" +
             std::to_string(location.column);
  }
  return where.empty() ? "" : where + ": ";
}

// The call graph's cycles, found by depth-first search; the first one is reported as
// "@a -> @b -> @a".
class CycleFinder {
 public:
  explicit CycleFinder(const ir::Module& module) : module_(module) {}

  Status Check() {
    for (const auto& function : module_.functions()) {
      VKHLO_RETURN_IF_ERROR(Visit(*function));
    }
    return OkStatus();
  }

 private:
  enum class State { kUnvisited, kOnStack, kDone };

  Status Visit(const ir::Function& function) {
    State& state = state_[&function];
    if (state == State::kDone) return OkStatus();
    if (state == State::kOnStack) {
      std::string cycle;
      bool in_cycle = false;
      for (const ir::Function* f : stack_) {
        in_cycle |= f == &function;
        if (in_cycle) cycle += "@" + f->name() + " -> ";
      }
      cycle += "@" + function.name();
      return Status(StatusCode::kInvalidArgument,
                    Where(module_, function.location()) + "error: function @" + function.name() +
                        " is recursive (" + cycle + "); recursive calls cannot be inlined");
    }
    state = State::kOnStack;
    stack_.push_back(&function);
    Status status = OkStatus();
    ir::WalkOps(function.body(), [&](ir::Operation& op) {
      if (!status.ok() || !IsCall(op)) return;
      if (const ir::Function* callee = module_.FindFunction(CalleeOf(op))) status = Visit(*callee);
    });
    stack_.pop_back();
    state_[&function] = State::kDone;
    return status;
  }

  const ir::Module& module_;
  std::unordered_map<const ir::Function*, State> state_;
  std::vector<const ir::Function*> stack_;
};

inline constexpr uint64_t kMinInlineBudget = 4096;
inline constexpr uint64_t kInlineBudgetFactor = 4;
inline constexpr uint64_t kSizeCap = uint64_t{1} << 62;  // sizes saturate here

uint64_t SaturatingAdd(uint64_t a, uint64_t b) { return std::min(kSizeCap, a + std::min(b, kSizeCap)); }

// Ops in a function body once every call in it is inlined, memoized per function (the call
// graph is acyclic when this is used).
class ExpandedSizes {
 public:
  explicit ExpandedSizes(const ir::Module& module) : module_(module) {}

  uint64_t Of(const ir::Function& function) {
    auto known = sizes_.find(&function);
    if (known != sizes_.end()) return known->second;
    uint64_t size = 0;
    ir::WalkOps(function.body(), [&](ir::Operation& op) {
      const ir::Function* callee = IsCall(op) ? module_.FindFunction(CalleeOf(op)) : nullptr;
      size = SaturatingAdd(size, callee != nullptr ? Of(*callee) : 1);
    });
    sizes_[&function] = size;
    return size;
  }

 private:
  const ir::Module& module_;
  std::unordered_map<const ir::Function*, uint64_t> sizes_;
};

uint64_t ModuleSize(const ir::Module& module) {
  uint64_t size = 0;
  ir::WalkOps(module, [&](ir::Operation&) { ++size; });
  return size;
}

// Whether the runtime runs the ops of `op`'s regions itself (host control flow), so that a
// func.call there may stay a call.
bool RunsRegionsOnHost(const ir::Operation& op) {
  return op.code() == OpCode::kIf || op.code() == OpCode::kCase || op.code() == OpCode::kWhile;
}

class Inliner {
 public:
  explicit Inliner(const ir::Module& module)
      : module_(module), sizes_(module), budget_(std::max(kMinInlineBudget, kInlineBudgetFactor * ModuleSize(module))) {}

  // Inlines every call in `region` (and in regions nested in it). `calls_can_stay`: the region
  // is a function body or nested in one through if/case/while only, where the runtime can run
  // a func.call (codegen inlines nothing itself).
  StatusOr<bool> InlineIn(ir::Region& region, bool calls_can_stay = true) {
    bool changed = false;
    for (const auto& block : region.blocks()) {
      VKHLO_ASSIGN_OR_RETURN(bool block_changed, InlineIn(*block, calls_can_stay));
      changed |= block_changed;
    }
    return changed;
  }

 private:
  StatusOr<bool> InlineIn(ir::Block& block, bool calls_can_stay) {
    bool changed = false;
    // Rebuild the block: calls are expanded in place; the expansion is processed again, so calls
    // in the callee's body are inlined too (the call graph is acyclic, so this ends).
    std::vector<std::unique_ptr<ir::Operation>> pending = block.TakeOperations();
    std::reverse(pending.begin(), pending.end());  // a stack: back() is the next op
    ir::ValueMap replaced;  // call results -> the inlined values
    while (!pending.empty()) {
      std::unique_ptr<ir::Operation> op = std::move(pending.back());
      pending.pop_back();
      for (size_t i = 0; i < op->num_operands(); ++i) {
        op->set_operand(i, Resolve(op->operand(i), replaced));
      }
      if (!IsCall(*op)) {
        for (size_t r = 0; r < op->num_regions(); ++r) {
          // Uses of earlier call results inside nested regions.
          ir::ReplaceUses(op->region(r), replaced);
          VKHLO_ASSIGN_OR_RETURN(bool nested, InlineIn(op->region(r), calls_can_stay && RunsRegionsOnHost(*op)));
          changed |= nested;
        }
        block.Append(std::move(op));
        continue;
      }
      const ir::Function* callee = module_.FindFunction(CalleeOf(*op));
      if (callee == nullptr || callee->body().empty() || callee->body().blocks().size() != 1) {
        return OpError(*op, "to @" + CalleeOf(*op) + ": the callee has no single-block body to inline",
                       module_.source_name());
      }
      const uint64_t expansion = sizes_.Of(*callee);
      if (expansion > budget_) {
        ir::Operation* kept = block.Append(std::move(op));
        if (calls_can_stay && kept->code() == OpCode::kCall) continue;
        return Status(StatusCode::kResourceExhausted,
                      OpError(*kept, fmt::format("to @{} would inline {} ops, more than the {} left of the inlining "
                                                 "budget (calls nested this way can run only from a function body "
                                                 "or if/case/while)",
                                                 callee->name(), expansion, budget_),
                              module_.source_name())
                          .message());
      }
      // The ops copied now; copied calls take their share when they are inlined in turn.
      uint64_t copied = 0;
      ir::WalkOps(callee->body(), [&](ir::Operation& inner) { copied += IsCall(inner) ? 0 : 1; });
      budget_ -= std::min(budget_, copied);
      const ir::Block& body = callee->body().front();
      if (body.num_arguments() != op->num_operands() || body.back() == nullptr ||
          body.back()->code() != OpCode::kFuncReturn ||
          body.back()->num_operands() != op->num_results()) {
        return OpError(*op, "to @" + callee->name() + " does not match the callee's signature",
                       module_.source_name());
      }
      ir::ValueMap mapping;
      for (size_t i = 0; i < body.num_arguments(); ++i) mapping[body.argument(i)] = op->operand(i);
      std::vector<std::unique_ptr<ir::Operation>> copies;
      for (size_t i = 0; i + 1 < body.operations().size(); ++i) {
        copies.push_back(ir::CloneOp(*body.operations()[i], mapping));
      }
      const ir::Operation& ret = *body.back();
      for (size_t i = 0; i < op->num_results(); ++i) {
        ir::Value* value = ret.operand(i);
        auto it = mapping.find(value);
        replaced[op->result(i)] = it == mapping.end() ? value : it->second;
      }
      // The copies go next on the stack, in order. The call is dropped but kept allocated while
      // `replaced` holds its results as keys (a freed address could be reused by a new value).
      dropped_.push_back(std::move(op));
      for (auto it = copies.rbegin(); it != copies.rend(); ++it) pending.push_back(std::move(*it));
      changed = true;
    }
    return changed;
  }

  static ir::Value* Resolve(ir::Value* value, const ir::ValueMap& replaced) {
    // Chains: a call returning another call's result that was itself inlined.
    for (auto it = replaced.find(value); it != replaced.end(); it = replaced.find(value)) {
      value = it->second;
    }
    return value;
  }

  const ir::Module& module_;
  ExpandedSizes sizes_;
  uint64_t budget_;  // ops that may still be copied
  std::vector<std::unique_ptr<ir::Operation>> dropped_;
};

class InlineCalls : public Pass {
 public:
  std::string_view name() const override { return "inline"; }

  StatusOr<bool> Run(ir::Module& module) override {
    VKHLO_RETURN_IF_ERROR(CycleFinder(module).Check());
    Inliner inliner(module);
    bool changed = false;
    for (const auto& function : module.functions()) {
      VKHLO_ASSIGN_OR_RETURN(bool inlined, inliner.InlineIn(function->body()));
      changed |= inlined;
    }
    // Inlined callees are unreferenced now unless a call too large to inline, or some other
    // symbol attribute (a composite's decomposition), still names them.
    changed |= RemoveUnreferencedPrivateFunctions(module);
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateInlinePass() { return std::make_unique<InlineCalls>(); }

}  // namespace vkhlo::passes
