// Library ops (the hand-written kernels): dot, dot_general, convolution, dynamic_conv, fft,
// triangular_solve, cholesky and the batch norms.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "ir/requantize.h"
#include "verify/op_rules.h"
#include "verify/shape_inference.h"

namespace vkhlo::verify {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Type;

constexpr uint32_t kAny = kAnyElement;

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// (C1)-style element check of lhs and rhs; quantized operands (hybrid and quantized dots and
// convolutions) follow rules of their own, which the verifier does not narrow down. Neither
// does it for the form quantized-decompose leaves them in: storage tensors described by
// `vkhlo.quantized_types` (src/ir/requantize.h; the interpreter and codegen check them).
Status CheckOperandElements(const OpContext& ctx, std::string_view label) {
  const Type& lhs = ctx.operand(0);
  const Type& rhs = ctx.operand(1);
  if (lhs.is_quantized() || rhs.is_quantized()) return OkStatus();
  if (ctx.Attr(ir::kQuantizedTypesAttribute) != nullptr) return OkStatus();
  if (lhs.element_type() != rhs.element_type()) {
    return ctx.Error(fmt::format("lhs and rhs must have the same element type ({})", label), ElementName(lhs),
                     ElementName(rhs));
  }
  return OkStatus();
}

// ---- dot_general / dot ----

StatusOr<TypeList> InferDotGeneral(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "lhs (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kAny, "rhs (I2)"));
  const Type& lhs = ctx.operand(0);
  const Type& rhs = ctx.operand(1);
  VKHLO_RETURN_IF_ERROR(CheckOperandElements(ctx, "C1"));
  VKHLO_ASSIGN_OR_RETURN(const ir::DotDimensionNumbers* d,
                         ctx.Struct<ir::DotDimensionNumbers>("dot_dimension_numbers", "#stablehlo.dot<...>", true));
  if (d->lhs_batching_dimensions.size() != d->rhs_batching_dimensions.size()) {
    return ctx.Error("lhs_batching_dimensions and rhs_batching_dimensions must have the same size (C2)",
                     fmt::format("{} values", d->lhs_batching_dimensions.size()),
                     IntListToString(d->rhs_batching_dimensions));
  }
  if (d->lhs_contracting_dimensions.size() != d->rhs_contracting_dimensions.size()) {
    return ctx.Error("lhs_contracting_dimensions and rhs_contracting_dimensions must have the same size (C3)",
                     fmt::format("{} values", d->lhs_contracting_dimensions.size()),
                     IntListToString(d->rhs_contracting_dimensions));
  }
  auto concat = [](const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    std::vector<int64_t> out = a;
    out.insert(out.end(), b.begin(), b.end());
    return out;
  };
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(concat(d->lhs_batching_dimensions, d->lhs_contracting_dimensions),
                                        "lhs_batching_dimensions and lhs_contracting_dimensions", "C4"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(concat(d->rhs_batching_dimensions, d->rhs_contracting_dimensions),
                                        "rhs_batching_dimensions and rhs_contracting_dimensions", "C5"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(d->lhs_batching_dimensions, 0, lhs.rank(), "lhs_batching_dimensions", "C6"));
  VKHLO_RETURN_IF_ERROR(
      ctx.CheckInRange(d->lhs_contracting_dimensions, 0, lhs.rank(), "lhs_contracting_dimensions", "C7"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(d->rhs_batching_dimensions, 0, rhs.rank(), "rhs_batching_dimensions", "C8"));
  VKHLO_RETURN_IF_ERROR(
      ctx.CheckInRange(d->rhs_contracting_dimensions, 0, rhs.rank(), "rhs_contracting_dimensions", "C9"));
  for (size_t i = 0; i < d->lhs_batching_dimensions.size(); ++i) {
    const int64_t l = lhs.dim(d->lhs_batching_dimensions[i]), r = rhs.dim(d->rhs_batching_dimensions[i]);
    if (!CompatibleDim(l, r)) {
      return ctx.Error(fmt::format("batching dimension {} of lhs and rhs must have the same size (C10)", i),
                       fmt::format("{}", l), fmt::format("{}", r));
    }
  }
  for (size_t i = 0; i < d->lhs_contracting_dimensions.size(); ++i) {
    const int64_t l = lhs.dim(d->lhs_contracting_dimensions[i]), r = rhs.dim(d->rhs_contracting_dimensions[i]);
    if (!CompatibleDim(l, r)) {
      return ctx.Error(fmt::format("contracting dimension {} of lhs and rhs must have the same size (C11)", i),
                       fmt::format("{}", l), fmt::format("{}", r));
    }
  }
  VKHLO_RETURN_IF_ERROR(ctx.CheckPrecisionConfig("C12"));
  // An algorithm the IR keeps as opaque text (precision types such as tf32 that are no element
  // type) is checked as far as it can be: precision_config must then be DEFAULT.
  const ir::Attribute* algorithm_attr = ctx.Attr("algorithm");
  const ir::DotAlgorithm* algorithm = nullptr;
  if (algorithm_attr != nullptr && !algorithm_attr->is<ir::OpaqueValue>()) {
    VKHLO_ASSIGN_OR_RETURN(algorithm,
                           ctx.Struct<ir::DotAlgorithm>("algorithm", "#stablehlo.dot_algorithm<...>", false));
  }
  if (algorithm_attr != nullptr) {
    if (const ir::Attribute* precision = ctx.Attr("precision_config")) {
      for (const ir::Attribute& p : *precision->as<ir::Attribute::Array>()) {
        const ir::EnumValue* e = p.as<ir::EnumValue>();
        if (e != nullptr && e->value != "DEFAULT") {
          return ctx.Error("precision_config must be DEFAULT when an algorithm is given", "DEFAULT", e->value);
        }
      }
    }
    for (int64_t count : {algorithm ? algorithm->lhs_component_count : 1,
                          algorithm ? algorithm->rhs_component_count : 1,
                          algorithm ? algorithm->num_primitive_operations : 1}) {
      if (count <= 0) {
        return ctx.Error("algorithm component counts and num_primitive_operations must be positive", "values > 0",
                         fmt::format("{}", count));
      }
    }
  }
  std::vector<int64_t> dims;
  for (size_t i = 0; i < d->lhs_batching_dimensions.size(); ++i) {
    dims.push_back(MergeDim(lhs.dim(d->lhs_batching_dimensions[i]), rhs.dim(d->rhs_batching_dimensions[i])));
  }
  for (int64_t i = 0; i < lhs.rank(); ++i) {
    if (!Contains(d->lhs_batching_dimensions, i) && !Contains(d->lhs_contracting_dimensions, i)) {
      dims.push_back(lhs.dim(i));
    }
  }
  for (int64_t i = 0; i < rhs.rank(); ++i) {
    if (!Contains(d->rhs_batching_dimensions, i) && !Contains(d->rhs_contracting_dimensions, i)) {
      dims.push_back(rhs.dim(i));
    }
  }
  Type result = Type::Tensor(lhs.element_type(), dims);
  if (result.is_static() && result.num_elements() < 0) {
    return ctx.Error("result has too many elements", "at most 9223372036854775807 elements", result.ToString());
  }
  return TypeList{result};
}

Status VerifyResultTensor(const OpContext& ctx) { return ctx.RequireResultTensor(0, kAny, "result"); }

StatusOr<TypeList> InferDot(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "lhs"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kAny, "rhs"));
  const Type& lhs = ctx.operand(0);
  const Type& rhs = ctx.operand(1);
  VKHLO_RETURN_IF_ERROR(CheckOperandElements(ctx, "dot"));
  for (const Type* t : {&lhs, &rhs}) {
    if (t->rank() != 1 && t->rank() != 2) {
      return ctx.Error("operands must have rank 1 or 2", "rank 1 or 2", t->ToString());
    }
  }
  const int64_t contract_rhs = 0;
  if (!CompatibleDim(lhs.dim(lhs.rank() - 1), rhs.dim(contract_rhs))) {
    return ctx.Error("the last dimension of lhs must match the first dimension of rhs",
                     fmt::format("{}", lhs.dim(lhs.rank() - 1)), fmt::format("{}", rhs.dim(contract_rhs)));
  }
  VKHLO_RETURN_IF_ERROR(ctx.CheckPrecisionConfig(""));
  std::vector<int64_t> dims;
  if (lhs.rank() == 2) dims.push_back(lhs.dim(0));
  if (rhs.rank() == 2) dims.push_back(rhs.dim(1));
  return TypeList{Type::Tensor(lhs.element_type(), dims)};
}

// ---- convolution / dynamic_conv ----

// The result shape of a convolution; `padding` is nullopt when it is not known statically.
StatusOr<TypeList> ConvolutionShape(const OpContext& ctx,
                                    const std::optional<std::vector<std::pair<int64_t, int64_t>>>& padding) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "lhs (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kAny, "rhs (I2)"));
  const Type& lhs = ctx.operand(0);
  const Type& rhs = ctx.operand(1);
  const int64_t n = lhs.rank();
  if (rhs.rank() != n || n < 2) {
    return ctx.Error("rank(lhs) and rank(rhs) must be equal and at least 2 (C1)",
                     fmt::format("rank {}", std::max<int64_t>(n, 2)), rhs.ToString());
  }
  VKHLO_RETURN_IF_ERROR(CheckOperandElements(ctx, "C2"));
  const int64_t spatial = n - 2;
  VKHLO_ASSIGN_OR_RETURN(auto strides, WindowAttribute(ctx, "window_strides", spatial, 1, true, "C3", "C4"));
  VKHLO_ASSIGN_OR_RETURN(auto lhs_dilation, WindowAttribute(ctx, "lhs_dilation", spatial, 1, true, "C6", "C7"));
  VKHLO_ASSIGN_OR_RETURN(auto rhs_dilation, WindowAttribute(ctx, "rhs_dilation", spatial, 1, true, "C8", "C9"));
  VKHLO_ASSIGN_OR_RETURN(auto reversal, ctx.OptionalBools("window_reversal"));
  if (reversal && static_cast<int64_t>(reversal->size()) != spatial) {
    return ctx.Error("window_reversal has the wrong size (C10)", fmt::format("{} values", spatial),
                     fmt::format("{} values", reversal->size()));
  }
  VKHLO_ASSIGN_OR_RETURN(const ir::ConvDimensionNumbers* d,
                         ctx.Struct<ir::ConvDimensionNumbers>("dimension_numbers", "#stablehlo.conv<...>", true));
  VKHLO_ASSIGN_OR_RETURN(int64_t feature_groups, ctx.Int("feature_group_count", 1));
  VKHLO_ASSIGN_OR_RETURN(int64_t batch_groups, ctx.Int("batch_group_count", 1));
  VKHLO_RETURN_IF_ERROR(ctx.CheckPrecisionConfig("C25"));

  struct Layout {
    const char* name;
    const char* what;
    const char* size_label;
    const char* label;
    const std::vector<int64_t>& spatial;
    std::vector<int64_t> all;
  };
  const Layout layouts[] = {
      {"input_spatial_dimensions", "input_dimensions", "C13", "C14", d->input_spatial_dimensions,
       {d->input_batch_dimension, d->input_feature_dimension}},
      {"kernel_spatial_dimensions", "kernel_dimensions", "C18", "C19", d->kernel_spatial_dimensions,
       {d->kernel_input_feature_dimension, d->kernel_output_feature_dimension}},
      {"output_spatial_dimensions", "output_dimensions", "C20", "C21", d->output_spatial_dimensions,
       {d->output_batch_dimension, d->output_feature_dimension}},
  };
  for (const Layout& layout : layouts) {
    VKHLO_RETURN_IF_ERROR(ctx.CheckSize(layout.spatial, spatial, layout.name, layout.size_label));
    std::vector<int64_t> all = layout.all;
    all.insert(all.end(), layout.spatial.begin(), layout.spatial.end());
    VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(all, layout.what, layout.label));
    VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(all, 0, n, layout.what, layout.label));
  }
  if (feature_groups <= 0) {
    return ctx.Error("feature_group_count must be positive (C22)", "a value > 0", fmt::format("{}", feature_groups));
  }
  if (batch_groups <= 0) {
    return ctx.Error("batch_group_count must be positive (C23)", "a value > 0", fmt::format("{}", batch_groups));
  }
  if (feature_groups != 1 && batch_groups != 1) {
    return ctx.Error("feature_group_count or batch_group_count must be 1 (C24)", "one of them 1",
                     fmt::format("{} and {}", feature_groups, batch_groups));
  }
  const int64_t in_batch = lhs.dim(d->input_batch_dimension);
  const int64_t in_feature = lhs.dim(d->input_feature_dimension);
  const int64_t k_in = rhs.dim(d->kernel_input_feature_dimension);
  const int64_t k_out = rhs.dim(d->kernel_output_feature_dimension);
  // Dynamic sizes (`?`, negative) leave their constraints to refinement.
  const auto known = [](int64_t size) { return !ir::IsDynamicDim(size); };
  if (known(in_batch) && in_batch % batch_groups != 0) {
    return ctx.Error("dim(lhs, input_batch_dimension) must be divisible by batch_group_count (C11)",
                     fmt::format("a multiple of {}", batch_groups), fmt::format("{}", in_batch));
  }
  if (known(in_feature) && in_feature % feature_groups != 0) {
    return ctx.Error("dim(lhs, input_feature_dimension) must be divisible by feature_group_count (C12)",
                     fmt::format("a multiple of {}", feature_groups), fmt::format("{}", in_feature));
  }
  if (known(in_feature) && known(k_in) && k_in != in_feature / feature_groups) {
    return ctx.Error("dim(rhs, kernel_input_feature_dimension) must be "
                     "dim(lhs, input_feature_dimension) / feature_group_count (C15)",
                     fmt::format("{}", in_feature / feature_groups), fmt::format("{}", k_in));
  }
  if (known(k_out) && k_out % batch_groups != 0) {
    return ctx.Error("dim(rhs, kernel_output_feature_dimension) must be divisible by batch_group_count (C16)",
                     fmt::format("a multiple of {}", batch_groups), fmt::format("{}", k_out));
  }
  if (known(k_out) && k_out % feature_groups != 0) {
    return ctx.Error("dim(rhs, kernel_output_feature_dimension) must be divisible by feature_group_count (C17)",
                     fmt::format("a multiple of {}", feature_groups), fmt::format("{}", k_out));
  }
  if (!padding) return TypeList{};  // shape unknown (dynamic padding)
  if (static_cast<int64_t>(padding->size()) != spatial) {
    return ctx.Error(fmt::format("padding must have shape [{}, 2] (C5)", spatial), fmt::format("[{}, 2]", spatial),
                     fmt::format("{} rows", padding->size()));
  }
  std::vector<int64_t> dims(static_cast<size_t>(n), 0);
  dims[d->output_batch_dimension] = known(in_batch) ? in_batch / batch_groups : ir::kDynamic;
  dims[d->output_feature_dimension] = k_out;
  for (int64_t s = 0; s < spatial; ++s) {
    WindowDim w{lhs.dim(d->input_spatial_dimensions[s]), rhs.dim(d->kernel_spatial_dimensions[s]), strides[s],
                (*padding)[s].first, (*padding)[s].second, lhs_dilation[s], rhs_dilation[s]};
    if (!known(w.size) || !known(w.window)) {
      dims[d->output_spatial_dimensions[s]] = ir::kDynamic;
      continue;
    }
    VKHLO_ASSIGN_OR_RETURN(dims[d->output_spatial_dimensions[s]], NumWindows(ctx, w, "C26"));
  }
  return TypeList{Type::Tensor(lhs.element_type(), dims)};
}

StatusOr<TypeList> InferConvolution(const OpContext& ctx) {
  const int64_t spatial = std::max<int64_t>(ctx.operand(0).rank() - 2, 0);
  VKHLO_ASSIGN_OR_RETURN(auto padding, PaddingAttribute(ctx, "padding", spatial, "C5"));
  return ConvolutionShape(ctx, padding);
}

// (C27) asks element_type(result) = element_type(lhs) for non-quantized convolutions. Programs
// from XLA and JAX use a preferred result type (i8 x i8 -> i32, bf16 -> f32, i8 x i8 -> f32),
// as dot_general may: the result's kind of element (boolean < integer < float < complex) must
// only be at least the lhs's, the operands being converted to it.
Status VerifyConvolutionElement(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  const Type& lhs = ctx.operand(0);
  const Type& result = ctx.result(0);
  if (lhs.is_quantized() || result.is_quantized()) return OkStatus();
  auto kind = [](ir::ElementType t) {
    return ir::IsComplex(t) ? 3 : ir::IsFloat(t) ? 2 : ir::IsBoolean(t) ? 0 : 1;
  };
  if (kind(result.element_type()) < kind(lhs.element_type())) {
    return ctx.Error("result must have an element type of the same kind as lhs or a wider one (C27)", ElementName(lhs),
                     ElementName(result));
  }
  return OkStatus();
}

Status VerifyDynamicConv(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  const Type& padding_type = ctx.operand(2);
  const int64_t spatial = std::max<int64_t>(ctx.operand(0).rank() - 2, 0);
  if (!IsTensorOf(padding_type, kInt) || padding_type.rank() != 2 || padding_type.dim(0) != spatial ||
      padding_type.dim(1) != 2) {
    return ctx.Error("padding has an invalid type", fmt::format("integer tensor of shape [{}, 2]", spatial),
                     padding_type.ToString());
  }
  std::optional<std::vector<std::pair<int64_t, int64_t>>> padding;
  // A constant padding operand makes the shape static.
  if (ctx.op() != nullptr && ctx.op()->operand(2) != nullptr) {
    const ir::Operation* producer = ctx.op()->operand(2)->defining_op();
    if (producer != nullptr && producer->code() == OpCode::kConstant && producer->attribute("value") != nullptr) {
      auto values = producer->attribute("value")->AsI64Vector();
      if (values && static_cast<int64_t>(values->size()) == 2 * spatial) {
        padding.emplace();
        for (int64_t s = 0; s < spatial; ++s) padding->push_back({(*values)[2 * s], (*values)[2 * s + 1]});
      }
    }
  }
  VKHLO_ASSIGN_OR_RETURN(TypeList shape, ConvolutionShape(ctx, padding));
  if (!shape.empty() && !CompatibleDims(shape[0].dims(), ctx.result(0).dims())) {
    return ctx.Error("result shape must be the convolution's (C26)", IntListToString(shape[0].dims()),
                     ctx.result(0).ToString());
  }
  if (shape.empty() && ctx.result(0).rank() != ctx.operand(0).rank()) {
    return ctx.Error("result must have the rank of lhs (C28)", fmt::format("rank {}", ctx.operand(0).rank()),
                     ctx.result(0).ToString());
  }
  return VerifyConvolutionElement(ctx);
}

// ---- fft ----

StatusOr<TypeList> InferFft(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kFloat | kComplex, "operand (I1)"));
  const Type& operand = ctx.operand(0);
  static constexpr std::array<std::string_view, 4> kTypes = {"FFT", "IFFT", "RFFT", "IRFFT"};
  VKHLO_ASSIGN_OR_RETURN(std::string type, ctx.Enum("fft_type", "fft_type", kTypes));
  VKHLO_ASSIGN_OR_RETURN(auto length, ctx.Ints("fft_length"));
  const int64_t l = static_cast<int64_t>(length.size());
  if (l < 1 || l > 3) {
    return ctx.Error("fft_length must have 1 to 3 values (C3)", "1 to 3 values", IntListToString(length));
  }
  if (operand.rank() < l) {
    return ctx.Error("rank(operand) must be at least size(fft_length) (C1)", fmt::format("rank >= {}", l),
                     operand.ToString());
  }
  const ElementType e = operand.element_type();
  const bool complex = ir::IsComplex(e);
  std::vector<int64_t> dims = operand.dims();
  const int64_t r = operand.rank();
  auto tail_matches = [&](const std::vector<int64_t>& real_dims, int64_t count) {
    for (int64_t i = 0; i < count; ++i) {
      if (!CompatibleDim(real_dims[r - l + i], length[i])) return false;
    }
    return true;
  };
  if (type == "FFT" || type == "IFFT") {
    if (!complex) {
      return ctx.Error(fmt::format("operand of a {} must be complex (C2)", type), "complex element type",
                       operand.ToString());
    }
    return TypeList{operand};
  }
  if (type == "RFFT") {
    if (complex || (e != ElementType::kF32 && e != ElementType::kF64)) {
      return ctx.Error("operand of an RFFT must be f32 or f64 (C2)", "tensor of f32 or f64", operand.ToString());
    }
    if (!tail_matches(dims, l)) {
      return ctx.Error("the operand's trailing dimensions must be fft_length (C4)", IntListToString(length),
                       operand.ToString());
    }
    dims.back() = length.back() == 0 ? 0 : length.back() / 2 + 1;
    return TypeList{Type::Tensor(e == ElementType::kF32 ? ElementType::kC64 : ElementType::kC128, dims)};
  }
  // IRFFT
  if (!complex) {
    return ctx.Error("operand of an IRFFT must be complex (C2)", "complex element type", operand.ToString());
  }
  const int64_t last = length.back();
  const int64_t expected_last = last == 0 ? 0 : last / 2 + 1;
  if (!tail_matches(dims, l - 1) || !CompatibleDim(dims.back(), expected_last)) {
    std::vector<int64_t> expected(length.begin(), length.end() - 1);
    expected.push_back(expected_last);
    return ctx.Error("the operand's trailing dimensions must follow fft_length (C4, C5)", IntListToString(expected),
                     operand.ToString());
  }
  dims.back() = last;
  return TypeList{Type::Tensor(ir::ComplexPartType(e), dims)};
}

// ---- linear algebra ----

StatusOr<TypeList> InferTriangularSolve(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kFloat | kComplex, "a (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kFloat | kComplex, "b (I2)"));
  const Type& a = ctx.operand(0);
  const Type& b = ctx.operand(1);
  if (a.element_type() != b.element_type()) {
    return ctx.Error("a and b must have the same element type (C1)", ElementName(a), ElementName(b));
  }
  if (a.rank() != b.rank() || a.rank() < 2) {
    return ctx.Error("rank(a) and rank(b) must be equal and at least 2 (C2)",
                     fmt::format("rank {}", std::max<int64_t>(a.rank(), 2)), b.ToString());
  }
  VKHLO_ASSIGN_OR_RETURN(bool left_side, ctx.Bool("left_side", false));
  VKHLO_RETURN_IF_ERROR(ctx.Bool("lower", false).status());
  VKHLO_RETURN_IF_ERROR(ctx.Bool("unit_diagonal", false).status());
  static constexpr std::array<std::string_view, 3> kTranspose = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};
  VKHLO_RETURN_IF_ERROR(ctx.Enum("transpose_a", "transpose", kTranspose, "NO_TRANSPOSE").status());
  const int64_t r = a.rank();
  for (int64_t i = 0; i + 2 < r; ++i) {
    if (!CompatibleDim(a.dim(i), b.dim(i))) {
      return ctx.Error("batch dimensions of a and b must match (C3)", a.ToString(), b.ToString());
    }
  }
  const int64_t solved = b.dim(left_side ? r - 2 : r - 1);
  if (!CompatibleDim(a.dim(r - 2), a.dim(r - 1)) || !CompatibleDim(a.dim(r - 1), solved) ||
      !CompatibleDim(a.dim(r - 2), solved)) {
    return ctx.Error(fmt::format("a must be square and match dimension {} of b (C3)", left_side ? r - 2 : r - 1),
                     fmt::format("{0}x{0} matrices", solved), a.ToString());
  }
  return TypeList{b};
}

StatusOr<TypeList> InferCholesky(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kFloat | kComplex, "a (I1)"));
  const Type& a = ctx.operand(0);
  if (a.rank() < 2) return ctx.Error("rank(a) must be at least 2 (C2)", "rank >= 2", a.ToString());
  if (!CompatibleDim(a.dim(a.rank() - 2), a.dim(a.rank() - 1))) {
    return ctx.Error("dim(a, -2) must equal dim(a, -1) (C3)", fmt::format("{}", a.dim(a.rank() - 1)),
                     fmt::format("{}", a.dim(a.rank() - 2)));
  }
  VKHLO_RETURN_IF_ERROR(ctx.Bool("lower", false).status());
  return TypeList{a};
}

// ---- batch norm ----

// operand at 0, then `count` 1-dimensional operands (scale, offset/mean/variance) from `first`.
StatusOr<int64_t> CheckBatchNorm(const OpContext& ctx, size_t first, size_t count, const char* const* names,
                                 const char* const* labels) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kFloat, "operand (I1)"));
  const Type& operand = ctx.operand(0);
  VKHLO_ASSIGN_OR_RETURN(int64_t feature_index, ctx.Int("feature_index"));
  VKHLO_RETURN_IF_ERROR(ctx.Float("epsilon").status());
  if (feature_index < 0 || feature_index >= operand.rank()) {
    return ctx.Error("feature_index must be in range (C1)", fmt::format("a value in [0, {})", operand.rank()),
                     fmt::format("{}", feature_index));
  }
  const int64_t features = operand.dim(feature_index);
  for (size_t i = first; i < first + count; ++i) {
    const Type& t = ctx.operand(i);
    const char* name = names[i - first];
    if (!IsTensorOf(t, kFloat) || t.rank() != 1) {
      return ctx.Error(fmt::format("{} has an invalid type", name), "1-dimensional tensor of floating-point type",
                       t.ToString());
    }
    if (t.element_type() != operand.element_type()) {
      return ctx.Error(fmt::format("{} must have the operand's element type (C2)", name), ElementName(operand),
                       ElementName(t));
    }
    if (!CompatibleDim(t.dim(0), features)) {
      return ctx.Error(fmt::format("size({}) must be dim(operand, feature_index) ({})", name, labels[i - first]),
                       fmt::format("{}", features),
                       fmt::format("{}", t.dim(0)));
    }
  }
  return features;
}

StatusOr<TypeList> InferBatchNormGrad(const OpContext& ctx) {
  static const char* const kNames[] = {"scale", "mean", "variance"};
  static const char* const kLabels[] = {"C5", "C4", "C4"};
  VKHLO_ASSIGN_OR_RETURN(int64_t features, CheckBatchNorm(ctx, 1, 3, kNames, kLabels));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(4, kFloat, "grad_output (I5)"));
  if (!CompatibleExact(ctx.operand(4), ctx.operand(0))) {
    return ctx.Error("operand and grad_output must have the same type (C2, C3)", ctx.operand(0).ToString(),
                     ctx.operand(4).ToString());
  }
  const Type vector = Type::Tensor(ctx.operand(0).element_type(), {features});
  return TypeList{ctx.operand(0), vector, vector};
}

StatusOr<TypeList> InferBatchNormInference(const OpContext& ctx) {
  static const char* const kNames[] = {"scale", "offset", "mean", "variance"};
  static const char* const kLabels[] = {"C3", "C4", "C5", "C6"};
  VKHLO_RETURN_IF_ERROR(CheckBatchNorm(ctx, 1, 4, kNames, kLabels).status());
  return TypeList{ctx.operand(0)};
}

StatusOr<TypeList> InferBatchNormTraining(const OpContext& ctx) {
  static const char* const kNames[] = {"scale", "offset"};
  static const char* const kLabels[] = {"C3", "C4"};
  VKHLO_ASSIGN_OR_RETURN(int64_t features, CheckBatchNorm(ctx, 1, 2, kNames, kLabels));
  const Type vector = Type::Tensor(ctx.operand(0).element_type(), {features});
  return TypeList{ctx.operand(0), vector, vector};
}

constexpr OpRule kRules[] = {
    {OpCode::kBatchNormGrad, InferBatchNormGrad, nullptr,
     "result types must be the operand's and the feature vectors' (C2-C4)"},
    {OpCode::kBatchNormInference, InferBatchNormInference, nullptr, "result type must match the operand's (C7)"},
    {OpCode::kBatchNormTraining, InferBatchNormTraining, nullptr,
     "result types must be the operand's and the feature vectors' (C5-C7)"},
    {OpCode::kCholesky, InferCholesky, nullptr, "result type must match the type of a (C1)"},
    {OpCode::kConvolution, InferConvolution, VerifyConvolutionElement,
     "result shape must be the convolution's (C26, C28)", ResultMatch::kShape},
    {OpCode::kDot, InferDot, VerifyResultTensor, "result shape must be the product's", ResultMatch::kShape},
    {OpCode::kDotGeneral, InferDotGeneral, VerifyResultTensor,
     "result shape must be the batch, lhs free and rhs free dimensions (C13)", ResultMatch::kShape},
    {OpCode::kDynamicConv, nullptr, VerifyDynamicConv},
    {OpCode::kFft, InferFft, nullptr, "result type must follow fft_type and fft_length (C2, C4, C5)"},
    {OpCode::kTriangularSolve, InferTriangularSolve, nullptr, "result type must match the type of b (C4)"},
};

}  // namespace

std::span<const OpRule> LibraryRules() { return kRules; }

}  // namespace vkhlo::verify
