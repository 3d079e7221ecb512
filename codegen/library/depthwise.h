// The direct convolution kernel, for depthwise convolutions (one input feature per group) and
// other tiny contractions where an implicit GEMM would waste its tiles: each invocation computes
// its outputs' window sums directly. When features are innermost everywhere (NHWC input,
// ...IO kernel with one output feature per group, NHWC output) and 32-bit, an invocation
// handles 8 (4, 2) neighbouring groups with vector loads.
#pragma once

#include "codegen/library/conv_params.h"
#include "codegen/library/library_kernel.h"

namespace vkhlo::codegen::library {

// Whether PlanConvolution takes the direct kernel: depthwise (feature_group_count = input
// features), or a contraction of at most 16 products per output with at most 4 outputs per group.
bool UseDirectConvolution(const ConvParams& params, const TargetInfo& target);

StatusOr<LibraryPlan> PlanDirectConvolution(const ConvParams& params, const TargetInfo& target, const Epilogue& epilogue,
                                            const PlanOptions& options);

}  // namespace vkhlo::codegen::library
