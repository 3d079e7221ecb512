// The device kernel families (device_kernel.h). Each family registers its ops here.
#include "codegen/device_kernel.h"

namespace vkhlo::codegen {

void RegisterAllDeviceKernels(DeviceKernelTable& table) {
  RegisterLibraryKernels(table);
  RegisterReductionKernels(table);
  RegisterIndexingKernels(table);
  RegisterSortKernels(table);
  RegisterLinalgKernels(table);
  RegisterRandomKernels(table);
}

}  // namespace vkhlo::codegen
