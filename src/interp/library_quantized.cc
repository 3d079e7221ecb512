// Quantized dot_general / dot / convolution: see library_quantized.h.
#include "interp/library_quantized.h"

#include <fmt/format.h>

#include <algorithm>

#include "interp/elementwise_kernels.h"
#include "interp/library_common.h"

namespace vkhlo::interp::lib {
namespace {

bool PerAxis(const ir::Type& type) {
  return type.is_quantized() && type.quantization()->quantized_dimension.has_value();
}

std::string TypeName(ir::ElementType t) { return std::string(ir::ElementTypeName(t)); }

}  // namespace

bool UsesQuantizedTensors(const ir::Operation& op, const InterpValues& operands) {
  for (size_t i = 0; i < 2 && i < operands.size(); ++i) {
    if (operands[i].is_tensor() && operands[i].literal().type().is_quantized()) return true;
  }
  return op.num_results() > 0 && op.result(0)->type().is_tensor() && op.result(0)->type().is_quantized();
}

StatusOr<InterpValues> EvalQuantizedLibraryOp(EvalContext& context, const ir::Operation& op,
                                              const InterpValues& operands, const QuantizedAxes& axes,
                                              const FloatLibraryOp& float_op) {
  if (operands.size() < 2 || !operands[0].is_tensor() || !operands[1].is_tensor()) {
    return context.OpError(op, "operands 0 and 1 must be tensors");
  }
  if (op.num_results() < 1 || !op.result(0)->type().is_tensor()) return context.OpError(op, "result 0 is not a tensor");
  const ir::Literal& lhs = operands[0].literal();
  const ir::Literal& rhs = operands[1].literal();
  const ir::Type& result = op.result(0)->type();
  const bool ql = lhs.type().is_quantized(), qr = rhs.type().is_quantized(), qo = result.is_quantized();
  if (!qr) {
    return context.OpError(op, "on quantized tensors needs a quantized rhs (a quantized lhs or result with a float "
                               "rhs is not defined by the spec)");
  }
  if (ql != qo) {
    return context.OpError(op, ql ? "with quantized operands needs a quantized result"
                                  : "with a float lhs (hybrid) needs a float result");
  }
  if (PerAxis(lhs.type())) return context.OpError(op, "needs a per-tensor quantized lhs");
  const ir::QuantizedElement& rq = *rhs.type().quantization();
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
  const ir::ElementType lhs_e = ql ? lhs.type().quantization()->expressed : lhs.element_type();
  const ir::ElementType out_e = qo ? result.quantization()->expressed : result.element_type();
  if (lhs_e != expressed || out_e != expressed) {
    return context.OpError(op, fmt::format("needs one expressed type: lhs {}, rhs {}, result {}", TypeName(lhs_e),
                                           TypeName(expressed), TypeName(out_e)));
  }
  if (!ir::IsFloat(expressed)) return context.OpError(op, "needs a float expressed type");

  auto lhs_f = elementwise::Dequantize(lhs);
  if (!lhs_f.ok()) return context.OpError(op, lhs_f.status().message());
  auto rhs_f = elementwise::Dequantize(rhs);
  if (!rhs_f.ok()) return context.OpError(op, rhs_f.status().message());
  // The float op reports its own errors (shapes, attributes) naming the op.
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, float_op(*lhs_f, *rhs_f, elementwise::ExpressedType(result)));
  if (!qo) return One(std::move(out));
  auto quantized = elementwise::Quantize(out, result);
  if (!quantized.ok()) return context.OpError(op, quantized.status().message());
  return One(std::move(quantized).value());
}

}  // namespace vkhlo::interp::lib
