// Which parameters decide shapes: a backward data-flow slice from every value whose contents
// the refinement needs at compile time (the shape operands of dynamic-shape ops with dynamic
// results, the operands of JAX's @shape_assertion), through ops, calls (a call result is its
// callee's returned value; a callee's parameter is every call site's operand) and regions (a
// region's values depend on the op's operands). get_dimension_size ends a path: it reads only
// its operand's shape, which the argument types give. Scalar integer parameters of the entry
// that the slice reaches are the shape arguments.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ir/walk.h"
#include "passes/shapes/refine.h"
#include "verify/shape_assertion.h"
#include "verify/static_forms.h"

namespace vkhlo::passes::shapes {
namespace {

using ir::OpCode;

bool HasDynamicResult(const ir::Operation& op) {
  for (size_t i = 0; i < op.num_results(); ++i) {
    if (!op.result(i)->type().is_static()) return true;
  }
  return false;
}

const std::string* Callee(const ir::Operation& op) {
  const ir::Attribute* callee = op.attribute("callee");
  const ir::SymbolRef* symbol = callee ? callee->as<ir::SymbolRef>() : nullptr;
  return symbol ? &symbol->name : nullptr;
}

class Slice {
 public:
  explicit Slice(const ir::Module& module) : module_(module) {
    for (const auto& function : module.functions()) {
      ir::WalkOps(function->body(), [&](ir::Operation& op) {
        if (op.code() == OpCode::kCall) {
          if (const std::string* name = Callee(op)) calls_[*name].push_back(&op);
        }
      });
    }
  }

  // Seeds every value refinement must know, then follows the slice to the parameters.
  std::set<std::pair<const ir::Function*, int64_t>> Parameters() {
    for (const auto& function : module_.functions()) {
      ir::WalkOps(function->body(), [&](ir::Operation& op) {
        if (verify::IsDynamicShapeOp(op.code()) && HasDynamicResult(op)) {
          for (size_t i : verify::ShapeOperandIndices(op.code())) {
            if (i < op.num_operands()) Push(op.operand(i));
          }
        } else if (verify::IsShapeAssertion(op)) {
          for (ir::Value* v : op.operands()) Push(v);
        }
      });
    }
    while (!work_.empty()) {
      const ir::Value* v = work_.back();
      work_.pop_back();
      Visit(v);
    }
    return parameters_;
  }

 private:
  void Push(const ir::Value* v) {
    if (v != nullptr && seen_.insert(v).second) work_.push_back(v);
  }

  // Every value the op's regions return (what flows out of them).
  void PushRegionResults(const ir::Operation& op) {
    for (size_t r = 0; r < op.num_regions(); ++r) {
      ir::WalkOps(op.region(r), [&](ir::Operation& inner) {
        if (inner.code() == OpCode::kReturn || inner.code() == OpCode::kFuncReturn) {
          for (ir::Value* v : inner.operands()) Push(v);
        }
      });
    }
  }

  void Visit(const ir::Value* v) {
    if (const ir::Operation* op = v->defining_op()) {
      if (op->code() == OpCode::kGetDimensionSize) return;  // a shape, known from the types
      if (op->code() == OpCode::kCall) {
        const std::string* name = Callee(*op);
        const ir::Function* callee = name ? module_.FindFunction(*name) : nullptr;
        if (callee != nullptr && !callee->body().empty()) {
          const ir::Operation* ret = callee->body().front().back();
          if (ret != nullptr && static_cast<size_t>(v->index()) < ret->num_operands()) Push(ret->operand(v->index()));
        }
        return;
      }
      for (ir::Value* operand : op->operands()) Push(operand);
      PushRegionResults(*op);
      return;
    }
    const ir::Block* block = v->owner_block();
    if (block == nullptr || block->parent_region() == nullptr) return;
    if (const ir::Function* function = block->parent_region()->parent_function()) {
      parameters_.insert({function, v->index()});
      auto it = calls_.find(function->name());
      if (it == calls_.end()) return;
      for (const ir::Operation* call : it->second) {
        if (static_cast<size_t>(v->index()) < call->num_operands()) Push(call->operand(v->index()));
      }
      return;
    }
    if (const ir::Operation* parent = block->parent_op()) {
      for (ir::Value* operand : parent->operands()) Push(operand);
    }
  }

  const ir::Module& module_;
  std::unordered_map<std::string, std::vector<const ir::Operation*>> calls_;
  std::unordered_set<const ir::Value*> seen_;
  std::vector<const ir::Value*> work_;
  std::set<std::pair<const ir::Function*, int64_t>> parameters_;
};

}  // namespace

bool IsPolymorphic(const ir::Module& module) {
  for (const auto& function : module.functions()) {
    for (const auto* types : {&function->type().inputs, &function->type().results}) {
      for (const ir::Type& t : *types) {
        if (!t.is_static()) return true;
      }
    }
    bool dynamic = false;
    ir::WalkOps(function->body(), [&](ir::Operation& op) {
      for (size_t i = 0; i < op.num_results() && !dynamic; ++i) dynamic = !op.result(i)->type().is_static();
      for (size_t r = 0; r < op.num_regions() && !dynamic; ++r) {
        for (const auto& block : op.region(r).blocks()) {
          for (const auto& argument : block->arguments()) dynamic |= !argument->type().is_static();
        }
      }
    });
    if (dynamic) return true;
  }
  return false;
}

bool NeedsRefinement(const ir::Module& module) {
  if (IsPolymorphic(module)) return true;
  bool assertion = false;
  ir::WalkOps(module, [&](ir::Operation& op) { assertion |= verify::IsShapeAssertion(op); });
  return assertion;
}

StatusOr<std::vector<int64_t>> ShapeArguments(const ir::Module& module, std::string_view entry) {
  const ir::Function* function = module.FindFunction(entry);
  if (function == nullptr) return NotFoundError(fmt::format("{}: no function @{}", module.source_name(), entry));
  std::vector<int64_t> indices;
  for (const auto& [f, index] : Slice(module).Parameters()) {
    if (f != function || static_cast<size_t>(index) >= function->type().inputs.size()) continue;
    const ir::Type& type = function->type().inputs[static_cast<size_t>(index)];
    if (type.is_tensor() && type.rank() == 0 && !type.is_quantized() && ir::IsInteger(type.element_type())) {
      indices.push_back(index);
    }
  }
  std::sort(indices.begin(), indices.end());
  return indices;
}

}  // namespace vkhlo::passes::shapes
