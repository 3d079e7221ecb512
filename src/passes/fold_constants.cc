// fold-constants: an op whose operands are all constants is evaluated at compile time by the
// reference interpreter (interp::EvaluateOp, the oracle) and replaced by constants, when
//   - it has operands (an iota is cheaper to compute than to store), it is pure and
//     deterministic (no rng, collectives, custom calls, feeds, test ops), it is not control flow
//     (a while may not end; barriers must stay), and its regions, if any, use only values
//     defined inside them;
//   - its results have at most `max_result_elements` elements in all and its non-splat operands
//     at most `max_operand_elements` each (folding must stay cheap and constants small); or
//   - it is element-wise (or only rearranges elements) and every operand is a splat: then one
//     element is evaluated and the result is a splat of any size.
// An op the interpreter cannot evaluate is simply left alone (chlo ops: chlo-decompose first).
#include <algorithm>
#include <unordered_set>

#include "interp/interpreter.h"
#include "ir/walk.h"
#include "passes/constant_values.h"
#include "passes/op_properties.h"
#include "passes/passes.h"
#include "passes/rewrite_driver.h"

namespace vkhlo::passes {
namespace {

using ir::OpCode;
using ir::OpKind;

RewriteResult Keep() { return std::optional<std::vector<ir::Value*>>(); }
RewriteResult ReplaceWith(ir::Value* value) {
  return std::optional<std::vector<ir::Value*>>(std::vector<ir::Value*>{value});
}

bool IsFoldableKind(const ir::Operation& op) {
  switch (op.info().kind) {
    case OpKind::kElementwise:
    case OpKind::kReduction:
    case OpKind::kDataMovement:
    case OpKind::kLibrary:
      return true;
    case OpKind::kOther:
      return op.code() == OpCode::kRngBitGenerator;  // a pure function of its state
    default:
      return false;
  }
}

// Whether every value the op's regions use is defined inside them (EvaluateOp evaluates the
// op alone: it has no frame holding values of the enclosing function).
bool RegionsAreClosed(const ir::Operation& op) {
  std::unordered_set<const ir::Value*> defined;
  bool closed = true;
  for (size_t r = 0; r < op.num_regions(); ++r) {
    for (const auto& block : op.region(r).blocks()) {
      for (const auto& argument : block->arguments()) defined.insert(argument.get());
    }
    ir::WalkOps(op.region(r), [&](ir::Operation& inner) {
      for (ir::Value* operand : inner.operands()) {
        if (!defined.contains(operand)) closed = false;
      }
      for (size_t i = 0; i < inner.num_results(); ++i) defined.insert(inner.result(i));
      for (size_t k = 0; k < inner.num_regions(); ++k) {
        for (const auto& block : inner.region(k).blocks()) {
          for (const auto& argument : block->arguments()) defined.insert(argument.get());
        }
      }
    });
  }
  return closed;
}

bool IsPlainTensor(const ir::Type& type) { return type.is_tensor() && !type.is_quantized(); }

bool RearrangesElements(OpCode code) {
  switch (code) {
    case OpCode::kBroadcastInDim:
    case OpCode::kBroadcast:
    case OpCode::kReshape:
    case OpCode::kTranspose:
    case OpCode::kReverse:
    case OpCode::kSlice:
      return true;
    default:
      return false;
  }
}

class FoldConstants : public Pass {
 public:
  explicit FoldConstants(FoldConstantsOptions options) : options_(options) {}
  std::string_view name() const override { return "fold-constants"; }

  StatusOr<bool> Run(ir::Module& module) override {
    VKHLO_ASSIGN_OR_RETURN(bool changed, RewriteToFixpoint(module, [this](ir::Operation& op, OpBuilder& b) {
      return Fold(op, b);
    }));
    if (changed) {
      for (const auto& function : module.functions()) RemoveUnusedPureOps(function->body());
    }
    return changed;
  }

 private:
  RewriteResult Fold(ir::Operation& op, OpBuilder& builder) const {
    // Ops without operands (iota) are cheap to compute and would only become big literals.
    if (op.code() == OpCode::kConstant || op.num_operands() == 0 || op.num_results() == 0 ||
        !IsFoldableKind(op) || !IsPureAndDeterministic(op)) {
      return Keep();
    }
    std::vector<const ir::Literal*> operands;
    for (ir::Value* operand : op.operands()) {
      const ir::Literal* literal = ConstantLiteral(operand);
      if (literal == nullptr || literal->type().is_quantized()) return Keep();
      operands.push_back(literal);
    }
    int64_t result_elements = 0;
    for (size_t i = 0; i < op.num_results(); ++i) {
      if (!IsPlainTensor(op.result(i)->type())) return Keep();
      result_elements += op.result(i)->type().num_elements();
    }
    if (op.num_regions() > 0 && !RegionsAreClosed(op)) return Keep();

    bool small_operands = true;
    for (const ir::Literal* literal : operands) {
      if (!literal->is_splat() && literal->num_elements() > options_.max_operand_elements) {
        small_operands = false;
      }
    }
    if (small_operands && result_elements <= options_.max_result_elements) {
      return Evaluate(op, operands, builder);
    }
    return FoldSplats(op, builder);
  }

  static RewriteResult Evaluate(const ir::Operation& op, const std::vector<const ir::Literal*>& operands,
                                OpBuilder& builder) {
    interp::InterpValues values;
    for (const ir::Literal* literal : operands) values.push_back(interp::InterpValue::Tensor(*literal));
    StatusOr<interp::InterpValues> results = interp::EvaluateOp(op, values);
    if (!results.ok() || results->size() != op.num_results()) return Keep();
    for (size_t i = 0; i < results->size(); ++i) {
      const interp::InterpValue& value = (*results)[i];
      if (!value.is_tensor() || value.literal().type() != op.result(i)->type()) return Keep();
    }
    std::vector<ir::Value*> constants;
    for (const interp::InterpValue& value : *results) constants.push_back(builder.Constant(value.literal()));
    return std::optional<std::vector<ir::Value*>>(std::move(constants));
  }

  // Splat operands, element-wise op (or a pure rearrangement): a splat result of any size.
  static RewriteResult FoldSplats(const ir::Operation& op, OpBuilder& builder) {
    if (op.num_results() != 1 || op.num_regions() != 0) return Keep();
    const bool elementwise = op.info().kind == OpKind::kElementwise;
    if (!elementwise && !RearrangesElements(op.code())) return Keep();
    std::vector<const ir::Literal*> splats;
    for (ir::Value* operand : op.operands()) {
      const ir::Literal* splat = SplatConstant(operand);
      if (splat == nullptr) return Keep();
      splats.push_back(splat);
    }
    const ir::Type& type = op.result(0)->type();
    if (!elementwise) {
      auto literal = SplatOf(*splats[0], 0, type);
      if (!literal.ok()) return Keep();
      return ReplaceWith(builder.Constant(std::move(*literal)));
    }
    // Evaluate the op on one element of each operand: a detached scalar copy of the op.
    std::vector<std::unique_ptr<ir::Operation>> scalar_operands;
    std::vector<ir::Value*> operand_values;
    interp::InterpValues values;
    for (const ir::Literal* splat : splats) {
      const ir::Type scalar_type = splat->type().WithDims({});
      auto scalar = SplatOf(*splat, 0, scalar_type);
      if (!scalar.ok()) return Keep();
      scalar_operands.push_back(ir::Operation::Create(OpCode::kConstant, {}, {scalar_type}));
      operand_values.push_back(scalar_operands.back()->result(0));
      values.push_back(interp::InterpValue::Tensor(std::move(*scalar)));
    }
    auto scalar_op = ir::Operation::Create(op.code(), operand_values, {type.WithDims({})}, op.attributes(),
                                           /*num_regions=*/0, op.location());
    StatusOr<interp::InterpValues> result = interp::EvaluateOp(*scalar_op, values);
    if (!result.ok() || result->size() != 1 || !(*result)[0].is_tensor()) return Keep();
    auto literal = SplatOf((*result)[0].literal(), 0, type);
    if (!literal.ok() || (*result)[0].literal().element_type() != type.element_type()) return Keep();
    return ReplaceWith(builder.Constant(std::move(*literal)));
  }

  FoldConstantsOptions options_;
};

}  // namespace

std::unique_ptr<Pass> CreateFoldConstantsPass() { return CreateFoldConstantsPassWith({}); }

std::unique_ptr<Pass> CreateFoldConstantsPassWith(const FoldConstantsOptions& options) {
  return std::make_unique<FoldConstants>(options);
}

}  // namespace vkhlo::passes
