// The reduction family of device kernels (device_kernel.h): stablehlo.reduce (reduce_kernel.cc,
// strategies in reduce_plan.h) and stablehlo.reduce_window (reduce_window_kernel.cc).
#pragma once

#include "codegen/device_kernel.h"

namespace vkhlo::codegen::reduction {

void RegisterReduceKernel(DeviceKernelTable& table);
void RegisterReduceWindowKernel(DeviceKernelTable& table);

}  // namespace vkhlo::codegen::reduction
