// dot_general, dot and convolution on quantized tensors. The spec defines them as
// dequantize_op_quantize / hybrid_dequantize_then_op; vkhlo pins one exact form of the first
// (src/ir/requantize.h says why), which its integer kernels compute bit for bit:
//   - lhs, rhs and result quantized: the op on the zero-point-corrected stored values
//     (a - za, b - zb) in 32-bit integers wrapping mod 2^32, then ir::Requantize with the
//     multiplier sa * sb / so of the result element's channel (per-axis rhs and result: the
//     output channel). An i32 result with so = sa * sb (the accumulator form) is the sum itself.
//   - hybrid (float lhs, quantized rhs, float result: weight-only quantization):
//     hybrid_dequantize_then_op, i.e. the float op on lhs and dequantize(rhs).
// The same op after quantized-decompose (storage tensors with the `vkhlo.quantized_types`
// attribute naming the quantized types) evaluates the same way, so folding and differential
// tests agree with the device. What the spec excludes stays an error naming the constraint (a
// per-axis lhs, a per-axis rhs along a contracting dimension, a quantized lhs with a float rhs
// or result, different expressed types).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "interp/eval_context.h"
#include "ir/literal.h"
#include "ir/module.h"

namespace vkhlo::interp::lib {

// Where the spec allows per-axis quantization for an op, and where an rhs channel lands.
struct QuantizedAxes {
  std::vector<int64_t> rhs_not_allowed;    // dot_general: the rhs contracting dimensions
  std::optional<int64_t> rhs_required;     // convolution: kernel_output_feature_dimension
  std::optional<int64_t> result_required;  // convolution: output_feature_dimension
  // The result dimension of each rhs dimension (-1 where none: contracting, spatial, input
  // feature): the result coordinate that picks a per-axis rhs's scale and zero point.
  std::vector<int64_t> rhs_to_result;
};

// The op on unquantized operands and result type: float (hybrid) or integer (the i32 sum).
using PlainLibraryOp =
    std::function<StatusOr<ir::Literal>(const ir::Literal& lhs, const ir::Literal& rhs, const ir::Type& result)>;

// Whether operand 0 or 1 or result 0 of `op` is a quantized tensor, or `op` carries
// `vkhlo.quantized_types`.
bool UsesQuantizedTensors(const ir::Operation& op, const InterpValues& operands);

// Evaluates `op` (lhs = operand 0, rhs = operand 1) on quantized tensors as described above.
StatusOr<InterpValues> EvalQuantizedLibraryOp(EvalContext& context, const ir::Operation& op,
                                              const InterpValues& operands, const QuantizedAxes& axes,
                                              const PlainLibraryOp& plain_op);

}  // namespace vkhlo::interp::lib
