#include "codegen/device_kernel.h"
#include "codegen/reduction/reduction_kernels.h"

namespace vkhlo::codegen {

void RegisterReductionKernels(DeviceKernelTable& table) {
  reduction::RegisterReduceKernel(table);
  reduction::RegisterReduceWindowKernel(table);
}

}  // namespace vkhlo::codegen
