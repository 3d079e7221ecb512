// cse: an op identical to one met earlier in scope (same op code, the same operand values, equal
// attributes and result types) is replaced by the earlier one's results. "In scope" means
// earlier in the same block or in a block enclosing it (whose values dominate nested regions).
// Only pure, deterministic ops without regions are merged; constants with equal literals are
// such ops too. Ops with regions are never merged, but the ops inside their regions are, each
// region being a scope nested in the enclosing one.
#include <memory>
#include <unordered_map>

#include "ir/walk.h"
#include "passes/op_properties.h"
#include "passes/passes.h"

namespace vkhlo::passes {
namespace {

size_t Mix(size_t seed, size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

size_t HashAttribute(const ir::Attribute& attribute) {
  // Dense elements hash their bytes (a large constant's text would be slow to build).
  if (const ir::Literal* literal = attribute.AsDenseElements()) {
    std::string_view bytes(reinterpret_cast<const char*>(literal->raw().data()), literal->raw().size());
    return Mix(std::hash<std::string_view>()(bytes), std::hash<std::string>()(literal->type().ToString()));
  }
  return std::hash<std::string>()(attribute.ToString());
}

size_t HashOp(const ir::Operation& op) {
  size_t hash = static_cast<size_t>(op.code());
  for (const ir::Value* operand : op.operands()) hash = Mix(hash, std::hash<const void*>()(operand));
  for (size_t i = 0; i < op.num_results(); ++i) {
    hash = Mix(hash, std::hash<std::string>()(op.result(i)->type().ToString()));
  }
  // Attributes hash in any order (they compare as a set).
  size_t attributes = 0;
  for (const auto& [name, value] : op.attributes()) {
    attributes += Mix(std::hash<std::string>()(name), HashAttribute(value));
  }
  return Mix(hash, attributes);
}

bool SameAttributes(const ir::Operation& a, const ir::Operation& b) {
  if (a.attributes().size() != b.attributes().size()) return false;
  for (const auto& [name, value] : a.attributes()) {
    const ir::Attribute* other = b.attribute(name);
    if (other == nullptr || *other != value) return false;
  }
  return true;
}

bool Equivalent(const ir::Operation& a, const ir::Operation& b) {
  if (a.code() != b.code() || a.operands() != b.operands() || a.num_results() != b.num_results()) {
    return false;
  }
  for (size_t i = 0; i < a.num_results(); ++i) {
    if (a.result(i)->type() != b.result(i)->type()) return false;
  }
  return SameAttributes(a, b);
}

class Eliminator {
 public:
  bool Run(ir::Region& region) {
    bool changed = false;
    for (const auto& block : region.blocks()) changed |= Run(*block);
    return changed;
  }

 private:
  bool Run(ir::Block& block) {
    bool changed = false;
    std::vector<std::pair<size_t, ir::Operation*>> added;  // undone when the scope ends
    std::vector<std::unique_ptr<ir::Operation>> ops = block.TakeOperations();
    for (auto& op : ops) {
      for (size_t i = 0; i < op->num_operands(); ++i) op->set_operand(i, Resolve(op->operand(i)));
      for (size_t r = 0; r < op->num_regions(); ++r) changed |= Run(op->region(r));
      if (op->num_regions() == 0 && op->num_results() > 0 && IsPureAndDeterministic(*op)) {
        const size_t hash = HashOp(*op);
        if (ir::Operation* earlier = Find(hash, *op)) {
          for (size_t i = 0; i < op->num_results(); ++i) replaced_[op->result(i)] = earlier->result(i);
          dropped_.push_back(std::move(op));
          changed = true;
          continue;
        }
        table_[hash].push_back(op.get());
        added.emplace_back(hash, op.get());
      }
      block.Append(std::move(op));
    }
    for (const auto& [hash, op] : added) {
      auto& bucket = table_[hash];
      bucket.erase(std::find(bucket.begin(), bucket.end(), op));
    }
    return changed;
  }

  ir::Operation* Find(size_t hash, const ir::Operation& op) const {
    auto it = table_.find(hash);
    if (it == table_.end()) return nullptr;
    for (ir::Operation* candidate : it->second) {
      if (Equivalent(*candidate, op)) return candidate;
    }
    return nullptr;
  }

  ir::Value* Resolve(ir::Value* value) const {
    for (auto it = replaced_.find(value); it != replaced_.end(); it = replaced_.find(value)) {
      value = it->second;
    }
    return value;
  }

  std::unordered_map<size_t, std::vector<ir::Operation*>> table_;
  ir::ValueMap replaced_;
  // Merged ops stay allocated until the pass ends: their values are keys of `replaced_`.
  std::vector<std::unique_ptr<ir::Operation>> dropped_;
};

class CommonSubexpressionElimination : public Pass {
 public:
  std::string_view name() const override { return "cse"; }

  StatusOr<bool> Run(ir::Module& module) override {
    bool changed = false;
    for (const auto& function : module.functions()) {
      // A fresh table per function: values of one function never appear in another.
      changed |= Eliminator().Run(function->body());
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateCsePass() { return std::make_unique<CommonSubexpressionElimination>(); }

}  // namespace vkhlo::passes
