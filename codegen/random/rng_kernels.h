// The random kernels' registration pieces (codegen/random/): rng_bit_generator.cc's
// RegisterRandomKernels registers every one.
#pragma once

#include "codegen/device_kernel.h"

namespace vkhlo::codegen {

// stablehlo.rng (rng.cc).
void RegisterRngKernel(DeviceKernelTable& table);

}  // namespace vkhlo::codegen
