// The indexing family of device kernels (scatter, select_and_scatter); gather and
// dynamic_update_slice are elemental (codegen/elemental) and fuse instead.
#include "codegen/device_kernel.h"

namespace vkhlo::codegen {

void RegisterScatterKernels(DeviceKernelTable& table);
void RegisterSelectAndScatterKernels(DeviceKernelTable& table);

void RegisterIndexingKernels(DeviceKernelTable& table) {
  RegisterScatterKernels(table);
  RegisterSelectAndScatterKernels(table);
}

}  // namespace vkhlo::codegen
