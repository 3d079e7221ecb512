#include "passes/rewrite_driver.h"

#include <memory>
#include <string>

#include "ir/walk.h"

namespace vkhlo::passes {
namespace {

class Driver {
 public:
  explicit Driver(const RewriteFunction& rewrite) : rewrite_(rewrite) {}

  StatusOr<bool> Sweep(ir::Region& region) {
    bool changed = false;
    for (const auto& block : region.blocks()) {
      VKHLO_ASSIGN_OR_RETURN(bool block_changed, Sweep(*block));
      changed |= block_changed;
    }
    return changed;
  }

 private:
  StatusOr<bool> Sweep(ir::Block& block) {
    bool changed = false;
    // The block is rebuilt in order: ops a rewrite creates are appended where the op was.
    std::vector<std::unique_ptr<ir::Operation>> ops = block.TakeOperations();
    for (auto& op : ops) {
      for (size_t i = 0; i < op->num_operands(); ++i) op->set_operand(i, Resolve(op->operand(i)));
      for (size_t r = 0; r < op->num_regions(); ++r) {
        VKHLO_ASSIGN_OR_RETURN(bool nested, Sweep(op->region(r)));
        changed |= nested;
      }
      OpBuilder builder = OpBuilder::AtEnd(block, op->location());
      RewriteResult result = rewrite_(*op, builder);
      if (!result.ok()) return result.status();
      if (!builder.ok()) return builder.status();
      if (!result->has_value()) {
        block.Append(std::move(op));
        continue;
      }
      const std::vector<ir::Value*>& values = **result;
      if (values.size() != op->num_results()) {
        return Status(StatusCode::kInternal,
                      "internal error: a rewrite of '" + std::string(op->name()) + "' gave " +
                          std::to_string(values.size()) + " values for " +
                          std::to_string(op->num_results()) + " results");
      }
      for (size_t i = 0; i < values.size(); ++i) {
        if (values[i]->type() != op->result(i)->type()) {
          return Status(StatusCode::kInternal,
                        "internal error: a rewrite of '" + std::string(op->name()) +
                            "' replaced a " + op->result(i)->type().ToString() + " with a " +
                            values[i]->type().ToString());
        }
        if (values[i] != op->result(i)) replaced_[op->result(i)] = values[i];
      }
      // Kept alive until the sweep ends: a freed value's address could be reused by a new
      // value and then be mistaken for a replaced one.
      dropped_.push_back(std::move(op));
      changed = true;
    }
    return changed;
  }

  ir::Value* Resolve(ir::Value* value) const {
    for (auto it = replaced_.find(value); it != replaced_.end(); it = replaced_.find(value)) {
      value = it->second;
    }
    return value;
  }

  const RewriteFunction& rewrite_;
  ir::ValueMap replaced_;
  std::vector<std::unique_ptr<ir::Operation>> dropped_;
};

}  // namespace

StatusOr<bool> RewriteOnce(ir::Module& module, const RewriteFunction& rewrite) {
  Driver driver(rewrite);
  bool changed = false;
  for (const auto& function : module.functions()) {
    VKHLO_ASSIGN_OR_RETURN(bool function_changed, driver.Sweep(function->body()));
    changed |= function_changed;
  }
  return changed;
}

StatusOr<bool> RewriteToFixpoint(ir::Module& module, const RewriteFunction& rewrite,
                                 int max_sweeps) {
  bool changed = false;
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    VKHLO_ASSIGN_OR_RETURN(bool swept, RewriteOnce(module, rewrite));
    if (!swept) break;
    changed = true;
  }
  return changed;
}

}  // namespace vkhlo::passes
