#include "passes/op_properties.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/walk.h"

namespace vkhlo::passes {

using ir::OpCode;
using ir::OpKind;

namespace {

// Whether `op` itself (not what its regions run) only computes its results.
bool IsPureItself(const ir::Operation& op) {
  switch (op.info().kind) {
    case OpKind::kElementwise:
    case OpKind::kReduction:
    case OpKind::kDataMovement:
    case OpKind::kLibrary:
    case OpKind::kConstant:
    case OpKind::kChlo:
      return true;
    case OpKind::kOther:
      // rng_bit_generator is a pure function of its state; rng of nothing but its operands.
      // A custom_call without has_side_effect computes a function of its operands (XLA's
      // contract for targets), so it may be removed or merged; one with it never is.
      if (op.code() == OpCode::kCustomCall) {
        const ir::Attribute* effect = op.attribute("has_side_effect");
        return effect == nullptr || !effect->AsBool().value_or(true);
      }
      return op.code() == OpCode::kRngBitGenerator || op.code() == OpCode::kRng;
    case OpKind::kControlFlow:
      // if/case/while/barriers are pure when what their regions run is.
      return op.code() != OpCode::kComposite;  // a composite refers to a function: keep it
    default:
      // Region terminators only hand values back.
      return op.code() == OpCode::kReturn;
  }
}

// Whether every op in `op`'s regions (at any depth) is pure itself. One walk: each nested op is
// visited once (asking IsPure of each visited op instead would walk its regions again, which
// took time exponential in the nesting depth).
bool RegionsArePure(const ir::Operation& op) {
  bool pure = true;
  for (size_t r = 0; r < op.num_regions() && pure; ++r) {
    ir::WalkOps(op.region(r), [&](ir::Operation& inner) { pure = pure && IsPureItself(inner); });
  }
  return pure;
}

}  // namespace

bool IsPure(const ir::Operation& op) {
  if (op.code() == OpCode::kReturn) return false;  // as before: only inside a region is it harmless
  return IsPureItself(op) && RegionsArePure(op);
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

// Dead-code removal in one backward sweep. Every use of a value comes after its definition in
// program order (nested regions included), so visiting ops last to first (an op's regions
// before the op) decides each op after all of its users: an op is dead when it is pure and its
// results have no remaining uses; removing it releases the uses its operands (and its nested
// ops' operands) had. Purity is computed bottom-up once per op, so the sweep is linear in the
// size of the region whatever the nesting depth.
class DeadOpRemover {
 public:
  explicit DeadOpRemover(ir::Region& region) : uses_(ir::CountUses(region)) {}

  // Sweeps `region`'s blocks, last first; returns whether every op left in them is pure.
  bool Sweep(ir::Region& region, bool& changed) {
    bool pure = true;
    for (auto block = region.blocks().rbegin(); block != region.blocks().rend(); ++block) {
      pure = SweepBlock(**block, changed) && pure;
    }
    return pure;
  }

 private:
  bool SweepBlock(ir::Block& block, bool& changed) {
    std::vector<std::unique_ptr<ir::Operation>> ops = block.TakeOperations();
    std::vector<std::unique_ptr<ir::Operation>> kept;
    bool pure_block = true;
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      std::unique_ptr<ir::Operation>& op = *it;
      bool pure = IsPureItself(*op);  // the op and everything its regions run
      for (size_t r = 0; r < op->num_regions(); ++r) pure = Sweep(op->region(r), changed) && pure;
      bool dead = pure && op->num_results() > 0;
      for (size_t i = 0; dead && i < op->num_results(); ++i) {
        auto use = uses_.find(op->result(i));
        dead = use == uses_.end() || use->second <= 0;
      }
      if (dead) {
        ReleaseUses(*op);
        changed = true;
        continue;
      }
      pure_block = pure_block && pure;
      kept.push_back(std::move(op));
    }
    for (auto it = kept.rbegin(); it != kept.rend(); ++it) block.Append(std::move(*it));
    return pure_block;
  }

  void ReleaseUses(const ir::Operation& op) {
    for (const ir::Value* v : op.operands()) --uses_[v];
    for (size_t r = 0; r < op.num_regions(); ++r) {
      ir::WalkOps(op.region(r), [&](ir::Operation& inner) {
        for (const ir::Value* v : inner.operands()) --uses_[v];
      });
    }
  }

  std::unordered_map<const ir::Value*, int> uses_;
};

}  // namespace

bool RemoveUnusedPureOps(ir::Region& region) {
  bool changed = false;
  DeadOpRemover(region).Sweep(region, changed);
  return changed;
}

Status OpError(const ir::Operation& op, std::string_view what, std::string_view source_name) {
  std::string where(source_name);
  const ir::Function* function = op.parent_function();
  if (where.empty() && function != nullptr && function->parent() != nullptr) {
    where = function->parent()->source_name();
  }
  where = ir::FormatLocation(where, op.location());
  return Status(StatusCode::kInvalidArgument, (where.empty() ? "" : where + ": ") + "error: '" +
                                                  std::string(op.name()) + "' " + std::string(what));
}

}  // namespace vkhlo::passes
