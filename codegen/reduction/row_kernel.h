// The normalization ("row") kernel of a fusion the planner built from a RowGroup (row_group.h):
// `fusion.row_reductions` lists the reductions in program order, `fusion.device_op` is the
// first of them. One dispatch; see row_kernel.cc.
#pragma once

#include "codegen/device_kernel.h"

namespace vkhlo::codegen::reduction {

StatusOr<DeviceKernel> EmitRowKernel(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options);

}  // namespace vkhlo::codegen::reduction
