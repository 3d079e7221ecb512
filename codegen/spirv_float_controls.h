// Declares VK_KHR_shader_float_controls execution modes in a compiled SPIR-V module.
//
// GLSL cannot say "preserve signed zeros, infinities and NaNs" or "round to nearest even", and
// glslang 12 has no pragma for it, so GlslCompiler adds them to the binary after glslang:
//   OpCapability SignedZeroInfNanPreserve / RoundingModeRTE
//   OpExtension "SPV_KHR_float_controls"         (SPIR-V before 1.4)
//   OpExecutionMode %main SignedZeroInfNanPreserve <width>, RoundingModeRTE <width>
// for every width the module computes in (16 with Float16, 64 with Float64, always 32) and the
// device offers (TargetInfo::float_controls). What the kernels rely on and what they do not is
// in docs/exactness.md.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "codegen/target.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen {

// `words` with the modes added (unchanged when `controls` offers none the module can use). An
// error for a module that is not SPIR-V or has no GLCompute entry point.
StatusOr<std::vector<uint32_t>> AddFloatControls(std::span<const uint32_t> words, const FloatControls& controls);

// The float-control execution modes a module declares, as the widths per mode (for tests and
// `--dump-kernels` readers): the widths of SignedZeroInfNanPreserve, RoundingModeRTE and DenormPreserve.
struct DeclaredFloatControls {
  std::vector<uint32_t> signed_zero_inf_nan_preserve;
  std::vector<uint32_t> rounding_mode_rte;
  std::vector<uint32_t> denorm_preserve;
};
DeclaredFloatControls ReadFloatControls(std::span<const uint32_t> words);

}  // namespace vkhlo::codegen
