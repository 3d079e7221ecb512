// The codegen view of a device: TargetInfo filled from the device's masked capabilities
// (after VKHLO_PROFILE). The one place device facts cross into codegen, used by the runtime and
// by tests that compile kernels for a real device.
#pragma once

#include "codegen/target.h"
#include "device/device.h"

namespace vkhlo::runtime {

codegen::TargetInfo TargetFromDevice(const device::Device& device);

}  // namespace vkhlo::runtime
