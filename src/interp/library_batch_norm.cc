// batch_norm_inference, batch_norm_training and batch_norm_grad: the spec's decompositions
// (batch_norm_grad: XLA's batchnorm_expander formulas, as the spec writes them), evaluated in
// double and rounded once to the result type.
#include <fmt/format.h>

#include <cmath>

#include "interp/library_common.h"
#include "interp/library_ops.h"

namespace vkhlo::interp {
namespace {

using ir::Operation;

struct Features {
  int64_t index = 0;     // feature_index
  int64_t count = 0;     // dim(operand, feature_index)
  int64_t stride = 1;    // row-major stride of that dimension
  int64_t per_feature = 0;  // elements per feature
  int64_t Of(int64_t i) const { return (i / stride) % count; }
};

StatusOr<Features> GetFeatures(EvalContext& context, const Operation& op, const ir::Type& operand) {
  auto index = lib::AttrInt(op, "feature_index");
  if (!index || *index < 0 || *index >= operand.rank()) return context.OpError(op, "has a feature_index out of range");
  Features f;
  f.index = *index;
  f.count = operand.dim(*index);
  f.stride = lib::RowMajorStrides(operand.dims())[*index];
  f.per_feature = f.count == 0 ? 0 : operand.num_elements() / f.count;
  return f;
}

double Epsilon(const Operation& op) {
  const ir::Attribute* a = op.attribute("epsilon");
  return a ? a->AsFloat().value_or(0.0) : 0.0;
}

// The per-feature operands (scale, offset, mean, variance) as doubles, checked for size.
StatusOr<std::vector<double>> PerFeature(EvalContext& context, const Operation& op, const InterpValues& operands,
                                         size_t i, const Features& f) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* l, lib::TensorOperand(context, op, operands, i));
  if (l->type().rank() != 1 || l->type().dim(0) != f.count) {
    return context.OpError(op, fmt::format("operand {} must be a vector of {} elements", i, f.count));
  }
  return lib::ToDoubles(*l);
}

std::vector<double> Normalize(const std::vector<double>& x, const Features& f, const std::vector<double>& scale,
                              const std::vector<double>& offset, const std::vector<double>& mean,
                              const std::vector<double>& variance, double epsilon) {
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t c = static_cast<size_t>(f.Of(static_cast<int64_t>(i)));
    y[i] = scale[c] * ((x[i] - mean[c]) / std::sqrt(variance[c] + epsilon)) + offset[c];
  }
  return y;
}

// Per-feature sums of `v`.
std::vector<double> SumPerFeature(const std::vector<double>& v, const Features& f) {
  std::vector<double> sum(static_cast<size_t>(f.count), 0.0);
  for (size_t i = 0; i < v.size(); ++i) sum[static_cast<size_t>(f.Of(static_cast<int64_t>(i)))] += v[i];
  return sum;
}

StatusOr<InterpValues> EvalBatchNormInference(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* operand, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(ir::Type result_type, lib::TensorResultType(context, op, 0));
  VKHLO_ASSIGN_OR_RETURN(Features f, GetFeatures(context, op, operand->type()));
  VKHLO_ASSIGN_OR_RETURN(auto scale, PerFeature(context, op, operands, 1, f));
  VKHLO_ASSIGN_OR_RETURN(auto offset, PerFeature(context, op, operands, 2, f));
  VKHLO_ASSIGN_OR_RETURN(auto mean, PerFeature(context, op, operands, 3, f));
  VKHLO_ASSIGN_OR_RETURN(auto variance, PerFeature(context, op, operands, 4, f));
  if (result_type.dims() != operand->type().dims()) return context.OpError(op, "result shape differs from the operand's");
  auto y = Normalize(lib::ToDoubles(*operand), f, scale, offset, mean, variance, Epsilon(op));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, lib::FromDoubles(result_type, y));
  return lib::One(std::move(out));
}

StatusOr<InterpValues> EvalBatchNormTraining(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* operand, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(Features f, GetFeatures(context, op, operand->type()));
  VKHLO_ASSIGN_OR_RETURN(auto scale, PerFeature(context, op, operands, 1, f));
  VKHLO_ASSIGN_OR_RETURN(auto offset, PerFeature(context, op, operands, 2, f));
  std::vector<ir::Type> types(3);
  for (size_t i = 0; i < 3; ++i) {
    VKHLO_ASSIGN_OR_RETURN(types[i], lib::TensorResultType(context, op, i));
  }
  if (types[0].dims() != operand->type().dims() || types[1].num_elements() != f.count ||
      types[2].num_elements() != f.count) {
    return context.OpError(op, "has result shapes that do not match the operand");
  }
  const std::vector<double> x = lib::ToDoubles(*operand);
  const double n = static_cast<double>(f.per_feature);
  std::vector<double> mean = SumPerFeature(x, f);
  for (double& m : mean) m /= n;
  std::vector<double> sq(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double d = x[i] - mean[static_cast<size_t>(f.Of(static_cast<int64_t>(i)))];
    sq[i] = d * d;
  }
  std::vector<double> variance = SumPerFeature(sq, f);
  for (double& v : variance) v /= n;
  auto y = Normalize(x, f, scale, offset, mean, variance, Epsilon(op));
  InterpValues results;
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, lib::FromDoubles(types[0], y));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out_mean, lib::FromDoubles(types[1], mean));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out_var, lib::FromDoubles(types[2], variance));
  results.push_back(InterpValue::Tensor(std::move(out)));
  results.push_back(InterpValue::Tensor(std::move(out_mean)));
  results.push_back(InterpValue::Tensor(std::move(out_var)));
  return results;
}

StatusOr<InterpValues> EvalBatchNormGrad(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* operand, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(Features f, GetFeatures(context, op, operand->type()));
  VKHLO_ASSIGN_OR_RETURN(auto scale, PerFeature(context, op, operands, 1, f));
  VKHLO_ASSIGN_OR_RETURN(auto mean, PerFeature(context, op, operands, 2, f));
  VKHLO_ASSIGN_OR_RETURN(auto variance, PerFeature(context, op, operands, 3, f));
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* grad_output, lib::TensorOperand(context, op, operands, 4));
  if (grad_output->type().dims() != operand->type().dims()) return context.OpError(op, "grad_output's shape differs from the operand's");
  std::vector<ir::Type> types(3);
  for (size_t i = 0; i < 3; ++i) {
    VKHLO_ASSIGN_OR_RETURN(types[i], lib::TensorResultType(context, op, i));
  }
  if (types[0].dims() != operand->type().dims() || types[1].num_elements() != f.count ||
      types[2].num_elements() != f.count) {
    return context.OpError(op, "has result shapes that do not match the operand");
  }
  const double epsilon = Epsilon(op);
  const std::vector<double> x = lib::ToDoubles(*operand);
  const std::vector<double> dy = lib::ToDoubles(*grad_output);
  const double n = static_cast<double>(f.per_feature);  // elements_per_feature
  std::vector<double> centered(x.size()), dy_centered(x.size()), dy_normalized(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t c = static_cast<size_t>(f.Of(static_cast<int64_t>(i)));
    centered[i] = x[i] - mean[c];
    dy_centered[i] = dy[i] * centered[i];
    dy_normalized[i] = dy[i] * (centered[i] / std::sqrt(variance[c] + epsilon));
  }
  const std::vector<double> sum_dy = SumPerFeature(dy, f);                    // i2, grad_offset
  const std::vector<double> sum_dy_centered = SumPerFeature(dy_centered, f);  // i3
  std::vector<double> grad_operand(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t c = static_cast<size_t>(f.Of(static_cast<int64_t>(i)));
    const double var_eps = variance[c] + epsilon;
    const double stddev = std::sqrt(var_eps);
    const double i1 = dy[i] * n;
    const double i5 = sum_dy_centered[c] * centered[i] / var_eps;
    grad_operand[i] = ((scale[c] / stddev) / n) * ((i1 - sum_dy[c]) - i5);
  }
  InterpValues results;
  VKHLO_ASSIGN_OR_RETURN(ir::Literal g0, lib::FromDoubles(types[0], grad_operand));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal g1, lib::FromDoubles(types[1], SumPerFeature(dy_normalized, f)));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal g2, lib::FromDoubles(types[2], sum_dy));
  results.push_back(InterpValue::Tensor(std::move(g0)));
  results.push_back(InterpValue::Tensor(std::move(g1)));
  results.push_back(InterpValue::Tensor(std::move(g2)));
  return results;
}

}  // namespace

void RegisterBatchNormOps(OpRegistry& registry) {
  registry.Register(ir::OpCode::kBatchNormInference, EvalBatchNormInference);
  registry.Register(ir::OpCode::kBatchNormTraining, EvalBatchNormTraining);
  registry.Register(ir::OpCode::kBatchNormGrad, EvalBatchNormGrad);
}

}  // namespace vkhlo::interp
