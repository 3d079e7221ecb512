// Inlining: every func.call is replaced by a copy of its callee's body, recursively (calls in
// the copied body, and calls nested in regions of if/while/case/reduce..., are inlined too), so
// that later passes and codegen see one flat function per entry point. A stablehlo.composite is
// a call of its `decomposition` (the spec's semantics), so it is inlined the same way. Private functions that
// no call reaches any more are then removed; public functions stay (they are entry points).
//
// Recursion cannot be inlined: a function that calls itself, directly or through others, is an
// error naming the cycle, found before anything is changed.
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

class Inliner {
 public:
  explicit Inliner(const ir::Module& module) : module_(module) {}

  // Inlines every call in `region` (and in regions nested in it).
  StatusOr<bool> InlineIn(ir::Region& region) {
    bool changed = false;
    for (const auto& block : region.blocks()) {
      VKHLO_ASSIGN_OR_RETURN(bool block_changed, InlineIn(*block));
      changed |= block_changed;
    }
    return changed;
  }

 private:
  StatusOr<bool> InlineIn(ir::Block& block) {
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
          VKHLO_ASSIGN_OR_RETURN(bool nested, InlineIn(op->region(r)));
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
    // Every call is gone, so private functions are unreferenced unless some other symbol
    // attribute (a composite's decomposition) names them.
    changed |= RemoveUnreferencedPrivateFunctions(module);
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateInlinePass() { return std::make_unique<InlineCalls>(); }

}  // namespace vkhlo::passes
