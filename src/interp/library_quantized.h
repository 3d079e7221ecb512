// dot_general, dot and convolution on quantized tensors, as the StableHLO spec defines them:
//   - lhs, rhs and result quantized: dequantize_op_quantize(op, lhs, rhs, type(result)), i.e.
//     dequantize both operands to the expressed type E, run the float op (the interpreter's own
//     float dot / convolution: f32 arithmetic for f32 and narrower E, each product and sum
//     rounded, summed in order), quantize the result with uniform_quantize's rounding (round to
//     nearest even, add the zero point, clamp to the storage range). An i32 result storage type
//     (`!quant.uniform<i32:f32, s>`) is the accumulator form: the same formula.
//   - hybrid (float lhs, quantized rhs, float result: weight-only quantization):
//     hybrid_dequantize_then_op, i.e. op(lhs, dequantize(rhs)).
// Used by library_dot.cc and library_convolution.cc; what the spec excludes stays an error
// naming the constraint (a per-axis lhs, a per-axis rhs along a contracting dimension, a
// quantized lhs with a float rhs or result, different expressed types).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "interp/eval_context.h"
#include "ir/literal.h"
#include "ir/module.h"

namespace vkhlo::interp::lib {

// Where the spec allows per-axis quantization for an op.
struct QuantizedAxes {
  std::vector<int64_t> rhs_not_allowed;      // dot_general: the rhs contracting dimensions
  std::optional<int64_t> rhs_required;       // convolution: kernel_output_feature_dimension
  std::optional<int64_t> result_required;    // convolution: output_feature_dimension
};

// The float op on operands and a result type without quantization.
using FloatLibraryOp =
    std::function<StatusOr<ir::Literal>(const ir::Literal& lhs, const ir::Literal& rhs, const ir::Type& result)>;

// Whether operand 0 or 1 or result 0 of `op` is a quantized tensor.
bool UsesQuantizedTensors(const ir::Operation& op, const InterpValues& operands);

// Evaluates `op` (lhs = operand 0, rhs = operand 1) on quantized tensors as described above.
StatusOr<InterpValues> EvalQuantizedLibraryOp(EvalContext& context, const ir::Operation& op,
                                              const InterpValues& operands, const QuantizedAxes& axes,
                                              const FloatLibraryOp& float_op);

}  // namespace vkhlo::interp::lib
