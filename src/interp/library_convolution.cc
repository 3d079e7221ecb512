// convolution (and dynamic_conv, whose padding is an operand), with every attribute of the spec:
// window_strides, padding (negative padding crops), lhs_dilation, rhs_dilation, window_reversal,
// dimension_numbers, feature_group_count and batch_group_count.
//
// Computed directly rather than by the spec's pad/slice/dot decomposition: for each spatial
// dimension a table maps (output position, window position) to the lhs index it reads, or -1
// where the window lands on padding or on a hole of the lhs dilation. Each result element sums
// its products in order (window positions row-major, input features innermost) in the result's
// arithmetic, as dot_general does (f32 for f32 and narrower floats, double for f64, integers
// with wraparound). Quantized operands: library_quantized.h.
#include <fmt/format.h>

#include <algorithm>

#include "interp/library_common.h"
#include "interp/library_ops.h"
#include "interp/library_quantized.h"

namespace vkhlo::interp {
namespace {

using ir::Operation;
using lib::Domain;

struct ConvPlan {
  ir::ConvDimensionNumbers dn;
  int64_t spatial = 0;
  std::vector<int64_t> lhs_dims, rhs_dims, out_dims;
  std::vector<int64_t> strides, lhs_dilation, rhs_dilation, pad_low, pad_high;
  std::vector<bool> reversal;
  int64_t feature_groups = 1, batch_groups = 1;
  // in_index[s][out_pos * window_size + window_pos]: lhs index along spatial dim s, or -1.
  std::vector<std::vector<int64_t>> in_index;
};

Status Plan(EvalContext& context, const Operation& op, const ir::Type& lhs, const ir::Type& rhs,
            const ir::Type& result, const std::vector<int64_t>& padding, ConvPlan& p) {
  const ir::Attribute* a = op.attribute("dimension_numbers");
  const ir::ConvDimensionNumbers* dn = a ? a->as<ir::ConvDimensionNumbers>() : nullptr;
  if (dn == nullptr) return context.OpError(op, "has no `dimension_numbers`");
  p.dn = *dn;
  const int64_t rank = lhs.rank();
  p.spatial = static_cast<int64_t>(dn->input_spatial_dimensions.size());
  const size_t s = static_cast<size_t>(p.spatial);
  if (rhs.rank() != rank || result.rank() != rank || p.spatial != rank - 2 ||
      dn->kernel_spatial_dimensions.size() != s || dn->output_spatial_dimensions.size() != s) {
    return context.OpError(op, "has operands, result and dimension numbers of inconsistent ranks");
  }
  auto in_range = [rank](int64_t d) { return d >= 0 && d < rank; };
  std::vector<int64_t> all = {dn->input_batch_dimension, dn->input_feature_dimension,
                              dn->kernel_input_feature_dimension, dn->kernel_output_feature_dimension,
                              dn->output_batch_dimension, dn->output_feature_dimension};
  for (size_t i = 0; i < s; ++i) {
    all.push_back(dn->input_spatial_dimensions[i]);
    all.push_back(dn->kernel_spatial_dimensions[i]);
    all.push_back(dn->output_spatial_dimensions[i]);
  }
  if (!std::all_of(all.begin(), all.end(), in_range)) return context.OpError(op, "has a dimension number out of range");
  p.lhs_dims = lhs.dims();
  p.rhs_dims = rhs.dims();
  p.out_dims = result.dims();
  auto ints = [&](const char* name, int64_t fallback) -> StatusOr<std::vector<int64_t>> {
    auto v = lib::AttrInts(op, name);
    if (!v) return std::vector<int64_t>(s, fallback);
    if (v->size() != s) return context.OpError(op, fmt::format("`{}` must have {} values", name, s));
    return *v;
  };
  VKHLO_ASSIGN_OR_RETURN(p.strides, ints("window_strides", 1));
  VKHLO_ASSIGN_OR_RETURN(p.lhs_dilation, ints("lhs_dilation", 1));
  VKHLO_ASSIGN_OR_RETURN(p.rhs_dilation, ints("rhs_dilation", 1));
  for (size_t i = 0; i < s; ++i) {
    if (p.strides[i] <= 0 || p.lhs_dilation[i] <= 0 || p.rhs_dilation[i] <= 0) {
      return context.OpError(op, "has a non-positive window stride or dilation");
    }
  }
  if (!padding.empty() && padding.size() != 2 * s) return context.OpError(op, fmt::format("padding must be {}x2", s));
  p.pad_low.assign(s, 0);
  p.pad_high.assign(s, 0);
  for (size_t i = 0; i < s && !padding.empty(); ++i) {
    p.pad_low[i] = padding[2 * i];
    p.pad_high[i] = padding[2 * i + 1];
  }
  p.reversal.assign(s, false);
  if (const ir::Attribute* r = op.attribute("window_reversal")) {
    auto v = r->AsBoolVector();
    if (!v || v->size() != s) return context.OpError(op, fmt::format("`window_reversal` must have {} values", s));
    p.reversal = *v;
  }
  p.feature_groups = lib::AttrInt(op, "feature_group_count").value_or(1);
  p.batch_groups = lib::AttrInt(op, "batch_group_count").value_or(1);
  if (p.feature_groups <= 0 || p.batch_groups <= 0 || (p.feature_groups > 1 && p.batch_groups > 1)) {
    return context.OpError(op, "has invalid feature_group_count / batch_group_count");
  }
  const int64_t in_batch = p.lhs_dims[dn->input_batch_dimension];
  const int64_t in_features = p.lhs_dims[dn->input_feature_dimension];
  const int64_t kernel_in = p.rhs_dims[dn->kernel_input_feature_dimension];
  const int64_t kernel_out = p.rhs_dims[dn->kernel_output_feature_dimension];
  if (in_batch % p.batch_groups != 0 || in_features % p.feature_groups != 0 ||
      kernel_in * p.feature_groups != in_features || kernel_out % p.batch_groups != 0 ||
      kernel_out % p.feature_groups != 0) {
    return context.OpError(op, "has feature/batch sizes inconsistent with its group counts");
  }
  // The result's shape must be the one the attributes give.
  std::vector<int64_t> expected(static_cast<size_t>(rank));
  expected[dn->output_batch_dimension] = in_batch / p.batch_groups;
  expected[dn->output_feature_dimension] = kernel_out;
  p.in_index.resize(s);
  for (size_t i = 0; i < s; ++i) {
    const int64_t in = p.lhs_dims[dn->input_spatial_dimensions[i]];
    const int64_t window = p.rhs_dims[dn->kernel_spatial_dimensions[i]];
    const int64_t dilated_in = in == 0 ? 0 : (in - 1) * p.lhs_dilation[i] + 1;
    const int64_t padded = p.pad_low[i] + dilated_in + p.pad_high[i];
    const int64_t dilated_window = window == 0 ? 0 : (window - 1) * p.rhs_dilation[i] + 1;
    const int64_t windows =
        (padded <= 0 || dilated_window > padded) ? 0 : (padded - dilated_window) / p.strides[i] + 1;
    expected[dn->output_spatial_dimensions[i]] = windows;
    auto& table = p.in_index[i];
    table.assign(static_cast<size_t>(windows * window), -1);
    for (int64_t o = 0; o < windows; ++o) {
      for (int64_t w = 0; w < window; ++w) {
        const int64_t pos = o * p.strides[i] + w * p.rhs_dilation[i] - p.pad_low[i];
        if (pos < 0 || pos >= dilated_in || pos % p.lhs_dilation[i] != 0) continue;
        table[static_cast<size_t>(o * window + w)] = pos / p.lhs_dilation[i];
      }
    }
  }
  if (expected != p.out_dims) {
    return context.OpError(op, fmt::format("result type {} does not have the shape the convolution produces",
                                           result.ToString()));
  }
  return OkStatus();
}

template <typename T>
std::vector<T> Convolve(const ConvPlan& p, const std::vector<T>& lhs, const std::vector<T>& rhs) {
  const auto& dn = p.dn;
  const size_t s = static_cast<size_t>(p.spatial);
  const auto ls = lib::RowMajorStrides(p.lhs_dims), rs = lib::RowMajorStrides(p.rhs_dims),
             os = lib::RowMajorStrides(p.out_dims);
  const int64_t n_out = p.out_dims[dn.output_batch_dimension];
  const int64_t features = p.out_dims[dn.output_feature_dimension];
  const int64_t channels = p.rhs_dims[dn.kernel_input_feature_dimension];  // per feature group
  const int64_t per_feature_group = features / p.feature_groups;
  const int64_t per_batch_group = features / p.batch_groups;
  const int64_t lhs_c = ls[dn.input_feature_dimension], rhs_c = rs[dn.kernel_input_feature_dimension];
  std::vector<int64_t> out_sp(s), win_sp(s);
  for (size_t i = 0; i < s; ++i) {
    out_sp[i] = p.out_dims[dn.output_spatial_dimensions[i]];
    win_sp[i] = p.rhs_dims[dn.kernel_spatial_dimensions[i]];
  }
  std::vector<T> out(static_cast<size_t>(lib::Product(p.out_dims)));
  if (out.empty()) return out;
  std::vector<T> acc(static_cast<size_t>(n_out * features));
  std::vector<int64_t> o_idx(s, 0);
  do {
    std::fill(acc.begin(), acc.end(), T{});
    if (lib::Product(win_sp) > 0 && channels > 0) {
      std::vector<int64_t> w_idx(s, 0);
      do {
        int64_t lhs_off = 0, rhs_off = 0;
        bool valid = true;
        for (size_t i = 0; i < s && valid; ++i) {
          const int64_t in = p.in_index[i][static_cast<size_t>(o_idx[i] * win_sp[i] + w_idx[i])];
          if (in < 0) {
            valid = false;
            break;
          }
          lhs_off += in * ls[dn.input_spatial_dimensions[i]];
          const int64_t k = p.reversal[i] ? win_sp[i] - 1 - w_idx[i] : w_idx[i];
          rhs_off += k * rs[dn.kernel_spatial_dimensions[i]];
        }
        if (!valid) continue;
        for (int64_t o = 0; o < features; ++o) {
          const int64_t fg = o / per_feature_group, bg = o / per_batch_group;
          const T* r = rhs.data() + rhs_off + o * rs[dn.kernel_output_feature_dimension];
          for (int64_t n = 0; n < n_out; ++n) {
            const T* l = lhs.data() + lhs_off + (bg * n_out + n) * ls[dn.input_batch_dimension] + fg * channels * lhs_c;
            T& sum = acc[static_cast<size_t>(n * features + o)];
            for (int64_t c = 0; c < channels; ++c) sum = lib::MulAdd(sum, l[c * lhs_c], r[c * rhs_c]);
          }
        }
      } while (lib::NextIndex(w_idx, win_sp));
    }
    int64_t out_off = 0;
    for (size_t i = 0; i < s; ++i) out_off += o_idx[i] * os[dn.output_spatial_dimensions[i]];
    for (int64_t n = 0; n < n_out; ++n) {
      for (int64_t o = 0; o < features; ++o) {
        out[static_cast<size_t>(out_off + n * os[dn.output_batch_dimension] + o * os[dn.output_feature_dimension])] =
            acc[static_cast<size_t>(n * features + o)];
      }
    }
  } while (lib::NextIndex(o_idx, out_sp));
  return out;
}

StatusOr<ir::Literal> ConvolveLiterals(EvalContext& context, const Operation& op, const ir::Literal* lhs,
                                       const ir::Literal* rhs, const ir::Type& result_type,
                                       const std::vector<int64_t>& padding) {
  ConvPlan plan;
  VKHLO_RETURN_IF_ERROR(Plan(context, op, lhs->type(), rhs->type(), result_type, padding, plan));
  Domain domain = lib::DomainOf(result_type.element_type());
  if (lib::DomainOf(lhs->element_type()) == Domain::kComplex || lib::DomainOf(rhs->element_type()) == Domain::kComplex) {
    domain = Domain::kComplex;
  }
  const bool f64 = lib::UsesF64({result_type.element_type(), lhs->element_type(), rhs->element_type()});
  StatusOr<ir::Literal> out = InternalError("unreachable");
  switch (domain) {
    case Domain::kFloat:
      out = f64 ? lib::FromDoubles(result_type, Convolve(plan, lib::ToDoubles(*lhs), lib::ToDoubles(*rhs)))
                : lib::FromFloats(result_type, Convolve(plan, lib::ToFloats(*lhs), lib::ToFloats(*rhs)));
      break;
    case Domain::kComplex:
      out = f64 ? lib::FromComplex(result_type, Convolve(plan, lib::ToComplex(*lhs), lib::ToComplex(*rhs)))
                : lib::FromComplexF(result_type, Convolve(plan, lib::ToComplexF(*lhs), lib::ToComplexF(*rhs)));
      break;
    case Domain::kInt:
    case Domain::kBool:
      // Booleans: the count of true AND true pairs, nonzero = true (OR of ANDs).
      out = lib::FromInts(result_type, Convolve(plan, lib::ToInts(*lhs), lib::ToInts(*rhs)));
      break;
  }
  return out;
}

// Only the kernel output feature dimension has a result dimension (the output features).
std::vector<int64_t> ConvRhsToResult(const InterpValues& operands, const ir::ConvDimensionNumbers& dn) {
  if (operands.size() < 2 || !operands[1].is_tensor()) return {};
  std::vector<int64_t> map(static_cast<size_t>(operands[1].literal().type().rank()), -1);
  const auto d = static_cast<size_t>(dn.kernel_output_feature_dimension);
  if (d < map.size()) map[d] = dn.output_feature_dimension;
  return map;
}

StatusOr<InterpValues> ConvolutionWith(EvalContext& context, const Operation& op, const InterpValues& operands,
                                       const std::vector<int64_t>& padding) {
  if (lib::UsesQuantizedTensors(op, operands)) {
    const ir::Attribute* a = op.attribute("dimension_numbers");
    const ir::ConvDimensionNumbers* dn = a ? a->as<ir::ConvDimensionNumbers>() : nullptr;
    if (dn == nullptr) return context.OpError(op, "has no `dimension_numbers`");
    return lib::EvalQuantizedLibraryOp(
        context, op, operands,
        lib::QuantizedAxes{.rhs_required = dn->kernel_output_feature_dimension,
                           .result_required = dn->output_feature_dimension,
                           .rhs_to_result = ConvRhsToResult(operands, *dn)},
        [&](const ir::Literal& lhs, const ir::Literal& rhs, const ir::Type& result) {
          return ConvolveLiterals(context, op, &lhs, &rhs, result, padding);
        });
  }
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* lhs, lib::TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* rhs, lib::TensorOperand(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(ir::Type result_type, lib::TensorResultType(context, op, 0));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ConvolveLiterals(context, op, lhs, rhs, result_type, padding));
  return lib::One(std::move(literal));
}

StatusOr<InterpValues> EvalConvolution(EvalContext& context, const Operation& op, const InterpValues& operands) {
  std::vector<int64_t> padding = lib::AttrInts(op, "padding").value_or(std::vector<int64_t>{});
  return ConvolutionWith(context, op, operands, padding);
}

StatusOr<InterpValues> EvalDynamicConv(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* padding, lib::TensorOperand(context, op, operands, 2));
  return ConvolutionWith(context, op, operands, lib::ToInts(*padding));
}

}  // namespace

void RegisterConvolutionOps(OpRegistry& registry) {
  registry.Register(ir::OpCode::kConvolution, EvalConvolution);
  registry.Register(ir::OpCode::kDynamicConv, EvalDynamicConv);
}

}  // namespace vkhlo::interp
