#include "passes/op_properties.h"

#include <string>

#include "ir/walk.h"

namespace vkhlo::passes {

using ir::OpCode;
using ir::OpKind;

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
      // A custom_call without has_side_effect computes a function of its operands (XLA's
      // contract for targets), so it may be removed or merged; one with it never is.
      if (op.code() == OpCode::kCustomCall) {
        const ir::Attribute* effect = op.attribute("has_side_effect");
        if (effect != nullptr && effect->AsBool().value_or(true)) return false;
        break;
      }
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

bool IsPureAndDeterministic(const ir::Operation& op) {
  if (!IsPure(op)) return false;
  bool deterministic = op.code() != OpCode::kRng;
  for (size_t r = 0; r < op.num_regions(); ++r) {
    ir::WalkOps(op.region(r), [&](ir::Operation& inner) {
      if (inner.code() == OpCode::kRng) deterministic = false;
    });
  }
  return deterministic;
}

namespace {

bool RemoveDeadOpsOnce(ir::Region& region, const std::unordered_map<const ir::Value*, int>& uses) {
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
      for (size_t r = 0; r < op->num_regions(); ++r) changed |= RemoveDeadOpsOnce(op->region(r), uses);
      block->Append(std::move(op));
    }
  }
  return changed;
}

}  // namespace

bool RemoveUnusedPureOps(ir::Region& region) {
  bool changed = false;
  while (RemoveDeadOpsOnce(region, ir::CountUses(region))) changed = true;
  return changed;
}

Status OpError(const ir::Operation& op, std::string_view what, std::string_view source_name) {
  std::string where(source_name);
  const ir::Function* function = op.parent_function();
  if (where.empty() && function != nullptr && function->parent() != nullptr) {
    where = function->parent()->source_name();
  }
  if (op.location().known()) {
    where += (where.empty() ? "" : ":") + std::to_string(op.location().line) + ":" +
             std::to_string(op.location().column);
  }
  return Status(StatusCode::kInvalidArgument, (where.empty() ? "" : where + ": ") + "error: '" +
                                                  std::string(op.name()) + "' " + std::string(what));
}

}  // namespace vkhlo::passes
