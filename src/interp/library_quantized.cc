// Quantized dot_general / dot / convolution: see library_quantized.h.
#include "interp/library_quantized.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "interp/elementwise_kernels.h"
#include "interp/library_common.h"
#include "ir/requantize.h"

namespace vkhlo::interp::lib {
namespace {

bool PerAxis(const ir::Type& type) {
  return type.is_quantized() && type.quantization()->quantized_dimension.has_value();
}

std::string TypeName(ir::ElementType t) { return std::string(ir::ElementTypeName(t)); }

// The types lhs, rhs and result stand for: the operands' and result's own, or those
// `vkhlo.quantized_types` names when quantized-decompose left the op on storage tensors.
struct Signature {
  ir::Type lhs, rhs, result;
  bool from_attribute = false;
};

StatusOr<Signature> SignatureOf(EvalContext& context, const ir::Operation& op, const ir::Literal& lhs,
                                const ir::Literal& rhs) {
  const ir::Type& result = op.result(0)->type();
  const ir::Attribute* a = op.attribute(ir::kQuantizedTypesAttribute);
  if (a == nullptr) return Signature{lhs.type(), rhs.type(), result, false};
  const auto* types = a->as<ir::Attribute::Array>();
  if (types == nullptr || types->size() != 3) {
    return context.OpError(op, fmt::format("`{}` must be an array of three types", ir::kQuantizedTypesAttribute));
  }
  const ir::Type* held[3] = {&lhs.type(), &rhs.type(), &result};
  Signature s;
  ir::Type* meant[3] = {&s.lhs, &s.rhs, &s.result};
  for (int i = 0; i < 3; ++i) {
    const ir::Type* t = (*types)[i].as<ir::Type>();
    if (t == nullptr || !t->is_tensor() || t->dims() != held[i]->dims() ||
        t->element_type() != held[i]->element_type() || held[i]->is_quantized()) {
      return context.OpError(op, fmt::format("`{}` entry {} does not describe {}", ir::kQuantizedTypesAttribute, i,
                                             held[i]->ToString()));
    }
    *meant[i] = *t;
  }
  s.from_attribute = true;
  return s;
}

StatusOr<ir::Literal> Retype(const ir::Literal& x, const ir::Type& type) {
  if (x.is_splat()) return ir::Literal::CreateSplat(type, x.raw());
  return ir::Literal::FromBytes(type, {x.raw().begin(), x.raw().end()});
}

// Which channel (scale and zero point) element `index` of a tensor of `dims` uses when its
// parameters follow dimension `d` (nullopt: one channel).
struct Channel {
  int64_t stride = 1, size = 1;
  bool per_axis = false;
  Channel(const std::vector<int64_t>& dims, std::optional<int64_t> d) {
    if (!d || *d < 0 || *d >= static_cast<int64_t>(dims.size())) return;
    per_axis = true;
    size = dims[static_cast<size_t>(*d)];
    for (size_t k = static_cast<size_t>(*d) + 1; k < dims.size(); ++k) stride *= dims[k];
  }
  size_t operator()(int64_t index) const {
    return per_axis ? static_cast<size_t>((index / stride) % size) : 0;
  }
};

std::optional<int64_t> QuantizedDim(const ir::Type& type) {
  if (!type.is_quantized() || !type.quantization()->quantized_dimension) return std::nullopt;
  return *type.quantization()->quantized_dimension;
}

// One scale and zero point per tensor, or one per slice of the quantized dimension.
Status CheckParameters(const ir::Type& type) {
  const ir::QuantizedElement& q = *type.quantization();
  size_t expected = 1;
  if (q.quantized_dimension) {
    if (*q.quantized_dimension < 0 || *q.quantized_dimension >= type.rank()) {
      return InvalidArgumentError("quantized dimension out of range in " + type.ToString());
    }
    expected = static_cast<size_t>(type.dim(*q.quantized_dimension));
  }
  if (q.scales.size() != expected || q.zero_points.size() != expected) {
    return InvalidArgumentError(fmt::format("{} needs {} scales and zero points", type.ToString(), expected));
  }
  return OkStatus();
}

// The stored values of quantized `x` minus their zero points, as i32.
StatusOr<ir::Literal> ZeroPointCorrected(const ir::Literal& x) {
  const ir::QuantizedElement& q = *x.type().quantization();
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kS32, x.type().dims())));
  const Channel channel(x.type().dims(), QuantizedDim(x.type()));
  for (int64_t i = 0; i < x.num_elements(); ++i) out.SetInt(i, x.GetInt(i) - q.zero_points[channel(i)]);
  return out;
}

// All three quantized: the i32 sum of corrected values, requantized per result element.
StatusOr<ir::Literal> IntegerForm(EvalContext& context, const ir::Operation& op, const Signature& s,
                                  const ir::Literal& lhs, const ir::Literal& rhs, const QuantizedAxes& axes,
                                  const PlainLibraryOp& plain_op) {
  for (const ir::Type* t : {&s.lhs, &s.rhs, &s.result}) {
    if (Status ok = CheckParameters(*t); !ok.ok()) return context.OpError(op, ok.message());
  }
  auto lhs_c = ZeroPointCorrected(lhs);
  if (!lhs_c.ok()) return context.OpError(op, lhs_c.status().message());
  auto rhs_c = ZeroPointCorrected(rhs);
  if (!rhs_c.ok()) return context.OpError(op, rhs_c.status().message());
  VKHLO_ASSIGN_OR_RETURN(ir::Literal acc,
                         plain_op(*lhs_c, *rhs_c, ir::Type::Tensor(ir::ElementType::kS32, s.result.dims())));
  const ir::QuantizedElement& ql = *s.lhs.quantization();
  const ir::QuantizedElement& qr = *s.rhs.quantization();
  const ir::QuantizedElement& qo = *s.result.quantization();
  std::optional<int64_t> rhs_in_result;
  if (qr.quantized_dimension) {
    const auto d = static_cast<size_t>(*qr.quantized_dimension);
    if (d >= axes.rhs_to_result.size() || axes.rhs_to_result[d] < 0) {
      return context.OpError(op, fmt::format("rhs is quantized per axis along dimension {}, which the result lacks", d));
    }
    rhs_in_result = axes.rhs_to_result[d];
  }
  const Channel rhs_channel(s.result.dims(), rhs_in_result);
  const Channel out_channel(s.result.dims(), QuantizedDim(s.result));
  const auto [lo, hi] = ir::QuantizedStorageRange(qo);
  std::unordered_map<size_t, ir::RequantizeMultiplier> multipliers;
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, ir::Literal::Create(s.result));
  for (int64_t i = 0; i < acc.num_elements(); ++i) {
    const size_t cb = rhs_channel(i), co = out_channel(i);
    const size_t key = cb * static_cast<size_t>(out_channel.size) + co;
    auto it = multipliers.find(key);
    if (it == multipliers.end()) {
      auto m = ir::RequantizeMultiplierFor(qo.expressed, ql.scales[0], qr.scales[cb], qo.scales[co]);
      if (!m.ok()) return context.OpError(op, m.status().message());
      it = multipliers.emplace(key, *m).first;
    }
    out.SetInt(i, ir::Requantize(static_cast<int32_t>(acc.GetInt(i)), it->second, qo.zero_points[co], lo, hi));
  }
  return out;
}

}  // namespace

bool UsesQuantizedTensors(const ir::Operation& op, const InterpValues& operands) {
  if (op.attribute(ir::kQuantizedTypesAttribute) != nullptr) return true;
  for (size_t i = 0; i < 2 && i < operands.size(); ++i) {
    if (operands[i].is_tensor() && operands[i].literal().type().is_quantized()) return true;
  }
  return op.num_results() > 0 && op.result(0)->type().is_tensor() && op.result(0)->type().is_quantized();
}

StatusOr<InterpValues> EvalQuantizedLibraryOp(EvalContext& context, const ir::Operation& op,
                                              const InterpValues& operands, const QuantizedAxes& axes,
                                              const PlainLibraryOp& plain_op) {
  if (operands.size() < 2 || !operands[0].is_tensor() || !operands[1].is_tensor()) {
    return context.OpError(op, "operands 0 and 1 must be tensors");
  }
  if (op.num_results() < 1 || !op.result(0)->type().is_tensor()) return context.OpError(op, "result 0 is not a tensor");
  VKHLO_ASSIGN_OR_RETURN(const Signature s,
                         SignatureOf(context, op, operands[0].literal(), operands[1].literal()));
  auto lhs = Retype(operands[0].literal(), s.lhs);
  if (!lhs.ok()) return context.OpError(op, lhs.status().message());
  auto rhs = Retype(operands[1].literal(), s.rhs);
  if (!rhs.ok()) return context.OpError(op, rhs.status().message());
  const ir::Type& result = s.result;
  const bool ql = s.lhs.is_quantized(), qr = s.rhs.is_quantized(), qo = result.is_quantized();
  if (!qr) {
    return context.OpError(op, "on quantized tensors needs a quantized rhs (a quantized lhs or result with a float "
                               "rhs is not defined by the spec)");
  }
  if (ql != qo) {
    return context.OpError(op, ql ? "with quantized operands needs a quantized result"
                                  : "with a float lhs (hybrid) needs a float result");
  }
  if (PerAxis(s.lhs)) return context.OpError(op, "needs a per-tensor quantized lhs");
  const ir::QuantizedElement& rq = *s.rhs.quantization();
  if (rq.quantized_dimension) {
    const int64_t d = *rq.quantized_dimension;
    if (std::find(axes.rhs_not_allowed.begin(), axes.rhs_not_allowed.end(), d) != axes.rhs_not_allowed.end()) {
      return context.OpError(op, fmt::format("rhs is quantized per axis along contracting dimension {}", d));
    }
    if (axes.rhs_required && d != *axes.rhs_required) {
      return context.OpError(op, fmt::format("rhs is quantized per axis along dimension {}, not the kernel output "
                                             "feature dimension {}", d, *axes.rhs_required));
    }
  }
  if (PerAxis(result)) {
    const int64_t d = *result.quantization()->quantized_dimension;
    if (!rq.quantized_dimension) return context.OpError(op, "has a per-axis result but a per-tensor rhs");
    if (axes.result_required && d != *axes.result_required) {
      return context.OpError(op, fmt::format("result is quantized per axis along dimension {}, not the output "
                                             "feature dimension {}", d, *axes.result_required));
    }
  }
  const ir::ElementType expressed = rq.expressed;
  const ir::ElementType lhs_e = ql ? s.lhs.quantization()->expressed : s.lhs.element_type();
  const ir::ElementType out_e = qo ? result.quantization()->expressed : result.element_type();
  if (lhs_e != expressed || out_e != expressed) {
    return context.OpError(op, fmt::format("needs one expressed type: lhs {}, rhs {}, result {}", TypeName(lhs_e),
                                           TypeName(expressed), TypeName(out_e)));
  }
  if (!ir::IsFloat(expressed)) return context.OpError(op, "needs a float expressed type");

  ir::Literal out;
  if (qo) {
    VKHLO_ASSIGN_OR_RETURN(out, IntegerForm(context, op, s, *lhs, *rhs, axes, plain_op));
  } else {
    auto weights = elementwise::Dequantize(*rhs);
    if (!weights.ok()) return context.OpError(op, weights.status().message());
    // The float op reports its own errors (shapes, attributes) naming the op.
    VKHLO_ASSIGN_OR_RETURN(out, plain_op(*lhs, *weights, result));
  }
  if (!s.from_attribute) return One(std::move(out));
  auto stored = Retype(out, op.result(0)->type());
  if (!stored.ok()) return context.OpError(op, stored.status().message());
  return One(std::move(stored).value());
}

}  // namespace vkhlo::interp::lib
