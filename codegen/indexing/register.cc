// The indexing family of device kernels (scatter, select_and_scatter, and dynamic_update_slice
// when it runs in place: codegen/in_place.h); gather and other dynamic_update_slices are
// elemental (codegen/elemental) and fuse instead.
#include "codegen/device_kernel.h"

namespace vkhlo::codegen {

void RegisterScatterKernels(DeviceKernelTable& table);
void RegisterSelectAndScatterKernels(DeviceKernelTable& table);
void RegisterDynamicUpdateSliceInPlaceKernels(DeviceKernelTable& table);

void RegisterIndexingKernels(DeviceKernelTable& table) {
  RegisterScatterKernels(table);
  RegisterSelectAndScatterKernels(table);
  RegisterDynamicUpdateSliceInPlaceKernels(table);
}

}  // namespace vkhlo::codegen
