#include "codegen/library/conv_params.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/library/matmul_problem.h"
#include "ir/requantize.h"

namespace vkhlo::codegen::library {

StatusOr<ConvParams> ReadConvParams(const ir::Operation& op) {
  const std::string what = DescribeOp(op);
  if (op.code() != ir::OpCode::kConvolution) return InvalidArgumentError(what + ": not a stablehlo.convolution");
  if (op.num_operands() != 2 || op.num_results() != 1) return InvalidArgumentError(what + ": expected two operands and one result");
  const ir::Type& lhs = op.operand(0)->type();
  const ir::Type& rhs = op.operand(1)->type();
  const ir::Type& out = op.result(0)->type();
  if (!lhs.is_tensor() || !rhs.is_tensor() || !out.is_tensor() || lhs.is_quantized() || rhs.is_quantized() ||
      out.is_quantized()) {
    return UnimplementedError(what + ": the library kernels take unquantized tensors");
  }
  ConvParams c;
  c.what = fmt::format("{} on {} x {} -> {}", what, lhs.ToString(), rhs.ToString(), out.ToString());
  const ir::Attribute* a = op.attribute("dimension_numbers");
  const ir::ConvDimensionNumbers* dn = a ? a->as<ir::ConvDimensionNumbers>() : nullptr;
  if (dn == nullptr) return InvalidArgumentError(c.what + ": has no dimension_numbers");
  c.dn = *dn;
  const int64_t rank = lhs.rank();
  const size_t s = dn->input_spatial_dimensions.size();
  if (rhs.rank() != rank || out.rank() != rank || static_cast<int64_t>(s) != rank - 2 ||
      dn->kernel_spatial_dimensions.size() != s || dn->output_spatial_dimensions.size() != s) {
    return InvalidArgumentError(c.what + ": operands, result and dimension numbers have inconsistent ranks");
  }
  c.lhs_dims = lhs.dims();
  c.rhs_dims = rhs.dims();
  c.out_dims = out.dims();
  c.lhs_type = lhs.element_type();
  c.rhs_type = rhs.element_type();
  c.out_type = out.element_type();
  auto ints = [&](const char* name, int64_t fallback) -> StatusOr<std::vector<int64_t>> {
    const ir::Attribute* attr = op.attribute(name);
    if (attr == nullptr) return std::vector<int64_t>(s, fallback);
    auto v = attr->AsI64Vector();
    if (!v || v->size() != s) return InvalidArgumentError(fmt::format("{}: `{}` must have {} values", c.what, name, s));
    return *v;
  };
  VKHLO_ASSIGN_OR_RETURN(c.strides, ints("window_strides", 1));
  VKHLO_ASSIGN_OR_RETURN(c.lhs_dilation, ints("lhs_dilation", 1));
  VKHLO_ASSIGN_OR_RETURN(c.rhs_dilation, ints("rhs_dilation", 1));
  for (size_t i = 0; i < s; ++i) {
    if (c.strides[i] <= 0 || c.lhs_dilation[i] <= 0 || c.rhs_dilation[i] <= 0) {
      return InvalidArgumentError(c.what + ": has a non-positive window stride or dilation");
    }
  }
  c.pad_low.assign(s, 0);
  c.pad_high.assign(s, 0);
  if (const ir::Attribute* pad = op.attribute("padding")) {
    auto v = pad->AsI64Vector();
    if (!v || v->size() != 2 * s) return InvalidArgumentError(fmt::format("{}: padding must be {}x2", c.what, s));
    for (size_t i = 0; i < s; ++i) {
      c.pad_low[i] = (*v)[2 * i];
      c.pad_high[i] = (*v)[2 * i + 1];
    }
  }
  c.reversal.assign(s, false);
  if (const ir::Attribute* r = op.attribute("window_reversal")) {
    auto v = r->AsBoolVector();
    if (!v || v->size() != s) return InvalidArgumentError(fmt::format("{}: window_reversal must have {} values", c.what, s));
    c.reversal = *v;
  }
  auto group = [&](const char* name) -> int64_t {
    const ir::Attribute* g = op.attribute(name);
    if (g == nullptr) return 1;
    if (auto v = g->AsInt()) return *v;
    if (auto v = g->AsI64Vector(); v && v->size() == 1) return (*v)[0];
    return 0;
  };
  c.feature_groups = group("feature_group_count");
  c.batch_groups = group("batch_group_count");
  if (c.feature_groups <= 0 || c.batch_groups <= 0 || (c.feature_groups > 1 && c.batch_groups > 1)) {
    return InvalidArgumentError(c.what + ": has invalid feature_group_count / batch_group_count");
  }
  const int64_t in_batch = c.lhs_dims[dn->input_batch_dimension];
  const int64_t in_features = c.lhs_dims[dn->input_feature_dimension];
  c.in_features_per_group = c.rhs_dims[dn->kernel_input_feature_dimension];
  c.out_features = c.rhs_dims[dn->kernel_output_feature_dimension];
  if (in_batch % c.batch_groups != 0 || c.in_features_per_group * c.feature_groups != in_features ||
      c.out_features % c.batch_groups != 0 || c.out_features % c.feature_groups != 0) {
    return InvalidArgumentError(c.what + ": has feature/batch sizes inconsistent with its group counts");
  }
  c.out_batch = in_batch / c.batch_groups;
  std::vector<int64_t> expected(static_cast<size_t>(rank));
  expected[dn->output_batch_dimension] = c.out_batch;
  expected[dn->output_feature_dimension] = c.out_features;
  for (size_t i = 0; i < s; ++i) {
    const int64_t in = c.lhs_dims[dn->input_spatial_dimensions[i]];
    const int64_t w = c.rhs_dims[dn->kernel_spatial_dimensions[i]];
    const int64_t dilated_in = in == 0 ? 0 : (in - 1) * c.lhs_dilation[i] + 1;
    const int64_t padded = c.pad_low[i] + dilated_in + c.pad_high[i];
    const int64_t dilated_w = w == 0 ? 0 : (w - 1) * c.rhs_dilation[i] + 1;
    expected[dn->output_spatial_dimensions[i]] =
        (padded <= 0 || dilated_w > padded) ? 0 : (padded - dilated_w) / c.strides[i] + 1;
  }
  if (expected != c.out_dims) {
    return InvalidArgumentError(fmt::format("{}: the result does not have the shape the convolution produces", c.what));
  }
  // Quantized: per-axis along the kernel output features (result: the output features), the
  // channel of normalized (b = group, n = feature in group) is b * per_group + n.
  QuantizedAxisRules rules;
  rules.rhs_required = dn->kernel_output_feature_dimension;
  rules.result_required = dn->output_feature_dimension;
  auto channel = [&](int64_t) -> StatusOr<ChannelMap> {
    const int64_t groups = c.feature_groups * c.batch_groups, per_group = c.out_features / groups;
    ChannelMap m;
    m.b_mod = groups;
    m.b_mul = per_group;
    m.n_mod = per_group;
    m.n_mul = 1;
    return m;
  };
  VKHLO_ASSIGN_OR_RETURN(c.quant, ReadQuantizedContraction(op, c.what, rules, channel));
  return c;
}

}  // namespace vkhlo::codegen::library
