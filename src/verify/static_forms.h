// The static op a dynamic-shape op stands for once the values of its shape operands are known:
//
//   dynamic_broadcast_in_dim(x, output_dimensions)       -> broadcast_in_dim(x)
//   dynamic_reshape(x, output_shape)                      -> reshape(x)
//   dynamic_iota(output_shape)                            -> iota()
//   dynamic_pad(x, v, low, high, interior)                -> pad(x, v)
//   real_dynamic_slice(x, start, limit, strides)          -> slice(x)
//   dynamic_gather(x, indices, slice_sizes)               -> gather(x, indices)
//   dynamic_conv(lhs, rhs, padding)                       -> convolution(lhs, rhs)
//
// with the values as the static op's attributes and its result type computed (and checked) the
// way the verifier checks the static op. Shape refinement (passes/shapes) rewrites the dynamic
// ops into these forms; the interpreter computes the result types of dynamic ops from them when
// it runs a program with dynamic shapes. One place, so that both agree with the verifier.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::verify {

// The operands of a dynamic-shape op whose values decide its result shape (empty for any other
// op): dynamic_broadcast_in_dim {1}, dynamic_reshape {1}, dynamic_iota {0}, dynamic_pad {2, 3, 4},
// real_dynamic_slice {1, 2, 3}, dynamic_gather {2}, dynamic_conv {2}.
std::span<const size_t> ShapeOperandIndices(ir::OpCode code);
inline bool IsDynamicShapeOp(ir::OpCode code) { return !ShapeOperandIndices(code).empty(); }

struct StaticForm {
  ir::OpCode code = ir::OpCode::kConstant;
  std::vector<size_t> operands;  // the dynamic op's operands the static op takes, in order
  std::vector<ir::NamedAttribute> attributes;
  ir::Type result;  // static
};

// The static form of a dynamic-shape op. `shape_values[k]` holds the values of its k-th shape
// operand (ShapeOperandIndices order; dynamic_conv's padding row-major). Errors name the
// dynamic op, the values and the broken constraint of the static op, in the verifier's format:
//   "<prefix>error: 'stablehlo.dynamic_broadcast_in_dim' with output_dimensions [5, 4]:
//    operand dimension 0 must be 1 or match result dimension 0 (C5): expected 1 or 5, found 3"
StatusOr<StaticForm> StaticFormOf(ir::OpCode code, const std::vector<ir::NamedAttribute>& attributes,
                                  std::span<const ir::Type> operand_types,
                                  std::span<const std::vector<int64_t>> shape_values,
                                  const ir::Type& declared_result, std::string_view prefix);

}  // namespace vkhlo::verify
