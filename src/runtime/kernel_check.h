// What a loader checks of a plan kernel's SPIR-V before the driver sees it: a plan read from a
// file may hold any words (its CRCs catch accidents, not intent), and SPIR-V a driver is given
// must be valid (the Vulkan spec leaves invalid modules undefined). Defined once per library, as
// RecordFft is (src/runtime/CMakeLists.txt): the full library runs spirv-val
// (kernel_check_spirv_val.cc); the runtime-only one, which links no SPIRV-Tools, checks the
// module's header and the instruction stream's structure (kernel_check_structure.cc), and the
// device layer's reflection then reads only what it understands (device/spirv_reflect.h).
#pragma once

#include <cstdint>

#include "plan/kernel.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// INVALID_ARGUMENT naming the kernel when its SPIR-V must not reach the driver.
Status CheckLoadedKernel(const plan::Kernel& kernel, uint32_t vulkan_api_minor);

}  // namespace vkhlo::runtime
