// Pieces shared by the reduction op group (reduce, reduce_window, select_and_scatter).
#pragma once

#include <span>

#include "interp/op_registry.h"
#include "interp/shape_util.h"

namespace vkhlo::interp {

// acc[k] = body(acc[0..n), value[0..n))[k] for a region on rank-0 tensors of `types`' element
// types: reads the accumulators' and values' storage bytes, writes the results back into the
// accumulators. `args` is scratch space reused between calls.
Status FoldScalars(EvalContext& context, const ir::Operation& op, const ir::Region& body,
                   std::span<const ir::Type> types, std::span<const ir::ElementType> element_types,
                   std::span<uint8_t* const> accumulators, std::span<const uint8_t* const> values, InterpValues& args);

// Window attributes (window_dimensions, window_strides, base_dilations, window_dilations,
// padding), one entry per dimension, validated; absent ones default to 1 (padding to 0).
// Without `dilations`, both dilations are 1 whatever the op says.
struct WindowParams {
  Dims dimensions, strides, base_dilations, window_dilations, padding_low, padding_high;
};
StatusOr<WindowParams> ReadWindow(EvalContext& context, const ir::Operation& op, int64_t rank, bool dilations);

// Number of windows per dimension over an input of `dims` (reduce_window's C15).
StatusOr<Dims> WindowCounts(EvalContext& context, const ir::Operation& op, const Dims& dims, const WindowParams& w);

void RegisterSelectAndScatterOps(OpRegistry& registry);

}  // namespace vkhlo::interp
