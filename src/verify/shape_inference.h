// Shape functions shared by several groups of ops: element-wise results, windows
// (convolution, reduce_window, select_and_scatter), and dimension bookkeeping. Pure functions of
// types and attributes; errors come back in the verifier's format through the OpContext.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ir/type.h"
#include "verify/op_context.h"
#include "vkhlo/status.h"

namespace vkhlo::verify {

using TypeList = std::vector<ir::Type>;

enum class UnaryResult : uint8_t {
  kSame,      // the operand's type
  kRealPart,  // complex<fN> becomes fN (abs, real, imag)
  kBoolean,   // i1 of the operand's shape (is_finite, chlo.is_inf)
};

ir::Type UnaryResultType(const ir::Type& operand, UnaryResult kind);

// One operand of `classes` (I1); the result follows `kind`.
template <uint32_t kClasses, UnaryResult kKind = UnaryResult::kSame>
StatusOr<TypeList> InferUnary(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kClasses, "operand (I1)"));
  return TypeList{UnaryResultType(ctx.operand(0), kKind)};
}

// `a` with the static sizes of `b` where `a` has dynamic ones (a and b compatible).
ir::Type MergeShapes(const ir::Type& a, const ir::Type& b);

// Two operands of `classes` and the same type (C1); the result has that type.
Status CheckSameOperandTypes(const OpContext& ctx, std::string_view label);
template <uint32_t kClasses>
StatusOr<TypeList> InferBinary(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kClasses, "lhs (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kClasses, "rhs (I2)"));
  VKHLO_RETURN_IF_ERROR(CheckSameOperandTypes(ctx, "C1"));
  return TypeList{MergeShapes(ctx.operand(0), ctx.operand(1))};
}

// One spatial dimension of a window: the number of windows, or an error when the arithmetic
// overflows (`what` names the dimension for the message).
//   dilated_input  = size == 0 ? 0 : (size - 1) * base_dilation + 1
//   padded_input   = pad_low + dilated_input + pad_high
//   dilated_window = window == 0 ? 0 : (window - 1) * window_dilation + 1
//   num_windows    = padded_input == 0 || dilated_window > padded_input ? 0
//                    : (padded_input - dilated_window) / stride + 1
struct WindowDim {
  int64_t size = 0;
  int64_t window = 1;
  int64_t stride = 1;
  int64_t pad_low = 0, pad_high = 0;
  int64_t base_dilation = 1, window_dilation = 1;
};
StatusOr<int64_t> NumWindows(const OpContext& ctx, const WindowDim& dim, std::string_view label);

// The type of `like` with other dims (quantization kept unless the element type changes).
ir::Type WithDims(const ir::Type& like, std::vector<int64_t> dims);

// Reads the window attributes shared by reduce_window and select_and_scatter and convolution:
// a list attribute of `rank` values (default `fill` when absent), each > 0 when `positive`.
StatusOr<std::vector<int64_t>> WindowAttribute(const OpContext& ctx, std::string_view name, int64_t rank,
                                               int64_t fill, bool positive, std::string_view size_label,
                                               std::string_view value_label);
// `padding` as rank x 2 (zeros when absent).
StatusOr<std::vector<std::pair<int64_t, int64_t>>> PaddingAttribute(const OpContext& ctx, std::string_view name,
                                                                    int64_t rank, std::string_view label);

// The integer values of operand `i` when it comes straight from a stablehlo.constant (and the op
// is being verified in place); nullopt otherwise. Lets the dynamic ops check static shapes.
std::optional<std::vector<int64_t>> ConstantOperandInts(const OpContext& ctx, size_t i);

// A 1-dimensional integer tensor of `size` elements (shape operands of the dynamic ops).
Status RequireShapeOperand(const OpContext& ctx, size_t i, int64_t size, std::string_view label);

}  // namespace vkhlo::verify
