// batch-norm-decompose: batch_norm_inference, batch_norm_training and batch_norm_grad become
// the element-wise ops, broadcast_in_dim and reduce (with an add body) of the spec's
// decompositions (stablehlo_spec.md, "batch_norm_*": mean and variance over every dimension
// but feature_index, epsilon added to the variance, batch_norm_grad with XLA's
// batchnorm_expander formulas), so that codegen needs no kernel of its own for them.
//
// Element types narrower than f32 (f16, bf16, f8...) are computed in f32 and converted back
// once at the end, as XLA does on GPUs: reductions of thousands of elements accumulated in f16
// would lose most of their digits, and the interpreter (the oracle) computes in double.
#include "passes/op_properties.h"
#include "passes/passes.h"
#include "passes/rewrite_driver.h"

namespace vkhlo::passes {
namespace {

using ir::OpCode;
using ir::Value;

class Decomposer {
 public:
  Decomposer(const ir::Operation& op, OpBuilder& builder) : op_(op), b_(builder) {
    const ir::Type& operand = op.operand(0)->type();
    const ir::Attribute* index = op.attribute("feature_index");
    feature_ = index ? index->AsInt().value_or(-1) : -1;
    const ir::Attribute* epsilon = op.attribute("epsilon");
    epsilon_ = epsilon ? epsilon->AsFloat().value_or(0.0) : 0.0;
    element_ = operand.element_type();
    compute_ = ir::BitWidth(element_) < 32 ? ir::ElementType::kF32 : element_;
    shape_ = operand.WithElementType(compute_);
    if (feature_ >= 0 && feature_ < operand.rank()) {
      const int64_t count = operand.dim(feature_);
      features_ = ir::Type::Tensor(compute_, {count});
      per_feature_ = count == 0 ? 0.0 : static_cast<double>(operand.num_elements() / count);
    }
  }

  // feature_index and the operand types, as the spec constrains them (the verifier has
  // checked; this guards the arithmetic below).
  Status Check() const {
    const ir::Type& operand = op_.operand(0)->type();
    if (!operand.is_tensor() || operand.is_quantized() || !ir::IsFloat(element_) || feature_ < 0 ||
        feature_ >= operand.rank()) {
      return OpError(op_, "cannot be decomposed: expected a float operand and a feature_index in "
                          "range, found " + operand.ToString() + " and " + std::to_string(feature_));
    }
    return OkStatus();
  }

  std::vector<Value*> Inference() {
    Value* x = In(op_.operand(0));
    Value* scale = In(op_.operand(1));
    Value* offset = In(op_.operand(2));
    Value* mean = In(op_.operand(3));
    Value* variance = In(op_.operand(4));
    return {Out(Normalize(x, scale, offset, mean, variance))};
  }

  std::vector<Value*> Training() {
    Value* x = In(op_.operand(0));
    Value* scale = In(op_.operand(1));
    Value* offset = In(op_.operand(2));
    Value* mean = Mean(x);
    Value* mean_bcast = Broadcast(mean);
    Value* centered = b_.Sub(x, mean_bcast);
    Value* variance = Mean(b_.Mul(centered, centered));
    Value* y = Normalize(x, scale, offset, mean, variance);
    Value* y_out = Out(y);
    Value* mean_out = Out(mean);
    return {y_out, mean_out, Out(variance)};
  }

  std::vector<Value*> Grad() {
    Value* x = In(op_.operand(0));
    Value* scale = Broadcast(In(op_.operand(1)));
    Value* mean = Broadcast(In(op_.operand(2)));
    Value* variance = Broadcast(In(op_.operand(3)));
    Value* grad_output = In(op_.operand(4));
    Value* epsilon = b_.Splat(shape_, epsilon_);

    Value* centered = b_.Sub(x, mean);
    Value* variance_plus_epsilon = b_.Add(variance, epsilon);
    Value* stddev = b_.Unary(OpCode::kSqrt, variance_plus_epsilon);
    Value* normalized = b_.Div(centered, stddev);

    // The names of XLA's batchnorm_expander.cc, as the spec keeps them.
    Value* elements_per_feature = b_.Splat(shape_, per_feature_);
    Value* i1 = b_.Mul(grad_output, elements_per_feature);
    Value* grad_offset = Sum(grad_output);
    Value* i2 = Broadcast(grad_offset);
    Value* i3 = Broadcast(Sum(b_.Mul(grad_output, centered)));
    Value* i4 = b_.Mul(i3, centered);
    Value* i5 = b_.Div(i4, variance_plus_epsilon);
    Value* factor = b_.Div(b_.Div(scale, stddev), elements_per_feature);
    Value* grad_operand = b_.Mul(factor, b_.Sub(b_.Sub(i1, i2), i5));
    Value* grad_scale = Sum(b_.Mul(grad_output, normalized));
    Value* grad_operand_out = Out(grad_operand);
    Value* grad_scale_out = Out(grad_scale);
    return {grad_operand_out, grad_scale_out, Out(grad_offset)};
  }

 private:
  // Each builder call is its own statement: the order of the ops must not depend on the
  // compiler's order of evaluating arguments.
  Value* Normalize(Value* x, Value* scale, Value* offset, Value* mean, Value* variance) {
    Value* mean_bcast = Broadcast(mean);
    Value* centered = b_.Sub(x, mean_bcast);
    Value* variance_bcast = Broadcast(variance);
    Value* epsilon = b_.Splat(shape_, epsilon_);
    Value* stddev = b_.Unary(OpCode::kSqrt, b_.Add(variance_bcast, epsilon));
    Value* normalized = b_.Div(centered, stddev);
    Value* scale_bcast = Broadcast(scale);
    Value* scaled = b_.Mul(scale_bcast, normalized);
    Value* offset_bcast = Broadcast(offset);
    return b_.Add(scaled, offset_bcast);
  }

  // A per-feature vector broadcast along feature_index to the operand's shape.
  Value* Broadcast(Value* features) { return b_.BroadcastInDim(features, shape_, {feature_}); }

  // reduce(x, 0, dimensions = all but feature_index, body = add).
  Value* Sum(Value* x) {
    std::vector<int64_t> dimensions;
    for (int64_t d = 0; d < shape_.rank(); ++d) {
      if (d != feature_) dimensions.push_back(d);
    }
    const ir::Type scalar = ir::Type::Scalar(compute_);
    Value* zero = b_.Splat(scalar, 0.0);
    ir::Operation* reduce = b_.CreateWithTypes(OpCode::kReduce, {x, zero}, {features_},
                                               {{"dimensions", ir::Attribute::I64Array(dimensions)}},
                                               /*num_regions=*/1);
    if (!b_.ok()) return reduce->result(0);
    ir::Block& body = reduce->region(0).AddBlock();
    Value* lhs = body.AddArgument(scalar, "lhs");
    Value* rhs = body.AddArgument(scalar, "rhs");
    OpBuilder inner = OpBuilder::AtEnd(body, op_.location());
    Value* sum = inner.Add(lhs, rhs);
    inner.CreateWithTypes(OpCode::kReturn, {sum}, {});
    if (!inner.ok()) b_.Fail(inner.status());
    return reduce->result(0);
  }

  Value* Mean(Value* x) {
    Value* sum = Sum(x);
    Value* divisor = b_.Splat(features_, per_feature_);
    return b_.Div(sum, divisor);
  }

  // Operands in the compute type, results back in the element type.
  Value* In(Value* v) { return compute_ == element_ ? v : b_.Convert(v, compute_); }
  Value* Out(Value* v) { return compute_ == element_ ? v : b_.Convert(v, element_); }

  const ir::Operation& op_;
  OpBuilder& b_;
  int64_t feature_ = -1;
  double epsilon_ = 0.0;
  double per_feature_ = 0.0;
  ir::ElementType element_, compute_;
  ir::Type shape_, features_;
};

RewriteResult Decompose(ir::Operation& op, OpBuilder& builder) {
  if (op.code() != OpCode::kBatchNormInference && op.code() != OpCode::kBatchNormTraining &&
      op.code() != OpCode::kBatchNormGrad) {
    return std::optional<std::vector<Value*>>();
  }
  Decomposer decomposer(op, builder);
  VKHLO_RETURN_IF_ERROR(decomposer.Check());
  switch (op.code()) {
    case OpCode::kBatchNormInference: return std::optional(decomposer.Inference());
    case OpCode::kBatchNormTraining: return std::optional(decomposer.Training());
    default: return std::optional(decomposer.Grad());
  }
}

class BatchNormDecompose : public Pass {
 public:
  std::string_view name() const override { return "batch-norm-decompose"; }
  StatusOr<bool> Run(ir::Module& module) override { return RewriteOnce(module, Decompose); }
};

}  // namespace

std::unique_ptr<Pass> CreateBatchNormDecomposePass() { return std::make_unique<BatchNormDecompose>(); }

}  // namespace vkhlo::passes
