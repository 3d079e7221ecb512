// CheckLoadedKernel (kernel_check.h) in the full library: spirv-val for the plan's Vulkan version.
#include <fmt/format.h>

#include "codegen/glsl_compiler.h"
#include "runtime/kernel_check.h"

namespace vkhlo::runtime {

Status CheckLoadedKernel(const plan::Kernel& kernel, uint32_t vulkan_api_minor) {
  Status valid = codegen::ValidateSpirv(kernel.spirv, vulkan_api_minor);
  if (valid.ok()) return valid;
  return InvalidArgumentError(fmt::format("plan kernel '{}': its SPIR-V is not a valid module: {}", kernel.name,
                                          valid.message()));
}

}  // namespace vkhlo::runtime
