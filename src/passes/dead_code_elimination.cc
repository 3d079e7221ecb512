// DCE: ops whose results nobody uses and whose evaluation has no effect other than producing
// them are removed; so are private functions no call reaches. Repeats until nothing changes
// (removing one op can make its producers dead).
#include <string>
#include <unordered_set>

#include "ir/walk.h"
#include "passes/passes.h"

namespace vkhlo::passes {
namespace {

using ir::OpCode;
using ir::OpKind;

// Whether an op only computes its results: no I/O, no communication, no test assertions.
bool IsPure(const ir::Operation& op) {
  switch (op.info().kind) {
    case OpKind::kElementwise:
    case OpKind::kReduction:
    case OpKind::kDataMovement:
    case OpKind::kLibrary:
    case OpKind::kConstant:
    case OpKind::kChlo:
      break;
    case OpKind::kOther:
      // rng_bit_generator is a pure function of its state; rng of nothing but its operands.
      if (op.code() != OpCode::kRngBitGenerator && op.code() != OpCode::kRng) return false;
      break;
    case OpKind::kControlFlow:
      // if/case/while/barriers are pure when what their regions run is.
      if (op.code() == OpCode::kComposite) return false;  // refers to a function: keep it
      break;
    default:
      return false;
  }
  for (size_t r = 0; r < op.num_regions(); ++r) {
    bool pure = true;
    ir::WalkOps(op.region(r), [&](ir::Operation& inner) {
      if (inner.code() == OpCode::kReturn) return;
      if (!IsPure(inner)) pure = false;
    });
    if (!pure) return false;
  }
  return true;
}

bool RemoveDeadOps(ir::Region& region, const std::unordered_map<const ir::Value*, int>& uses) {
  bool changed = false;
  for (const auto& block : region.blocks()) {
    auto ops = block->TakeOperations();
    for (auto& op : ops) {
      bool dead = op->num_results() > 0 && IsPure(*op);
      for (size_t i = 0; dead && i < op->num_results(); ++i) {
        auto it = uses.find(op->result(i));
        if (it != uses.end() && it->second > 0) dead = false;
      }
      if (dead) {
        changed = true;
        continue;
      }
      for (size_t r = 0; r < op->num_regions(); ++r) changed |= RemoveDeadOps(op->region(r), uses);
      block->Append(std::move(op));
    }
  }
  return changed;
}

class DeadCodeElimination : public Pass {
 public:
  std::string_view name() const override { return "dce"; }

  StatusOr<bool> Run(ir::Module& module) override {
    bool changed = false;
    for (const auto& function : module.functions()) {
      while (RemoveDeadOps(function->body(), ir::CountUses(function->body()))) changed = true;
    }
    changed |= RemoveUnreachablePrivateFunctions(module);
    return changed;
  }

 private:
  static bool RemoveUnreachablePrivateFunctions(ir::Module& module) {
    std::unordered_set<std::string> referenced;
    ir::WalkOps(module, [&](ir::Operation& op) {
      for (const auto& [name, attribute] : op.attributes()) {
        CollectSymbols(attribute, referenced);
      }
    });
    std::vector<std::string> dead;
    for (const auto& function : module.functions()) {
      if (!function->is_public() && !referenced.contains(function->name())) {
        dead.push_back(function->name());
      }
    }
    for (const std::string& name : dead) module.RemoveFunction(name);
    // Removing a function can orphan the ones only it called.
    if (!dead.empty()) RemoveUnreachablePrivateFunctions(module);
    return !dead.empty();
  }

  static void CollectSymbols(const ir::Attribute& attribute, std::unordered_set<std::string>& out) {
    if (const auto* symbol = attribute.as<ir::SymbolRef>()) out.insert(symbol->name);
    if (const auto* array = attribute.as<ir::Attribute::Array>()) {
      for (const auto& element : *array) CollectSymbols(element, out);
    }
    if (const auto* dictionary = attribute.as<ir::Attribute::Dictionary>()) {
      for (const auto& [name, element] : *dictionary) CollectSymbols(element, out);
    }
  }
};

}  // namespace

std::unique_ptr<Pass> CreateDeadCodeEliminationPass() { return std::make_unique<DeadCodeElimination>(); }

}  // namespace vkhlo::passes
