// The SPIR-V of the shaders of shaders/ whose variants are a finite set, compiled by
// glslangValidator at build time and linked into the library (see cmake/Shaders.cmake). Names
// are paths below shaders/ without the extension: "util/fill_u32", "fft/real_complex". (The
// kernels codegen specialises at run time are text: shader_sources.h.)
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace vkhlo::shaders {

struct EmbeddedShader {
  std::string_view name;
  std::span<const uint32_t> spirv;
};

std::span<const EmbeddedShader> AllShaders();

// The shader called `name`, or nullptr.
const EmbeddedShader* FindShader(std::string_view name);

// The shader called `name` among `shaders` (another registry's, such as the test probes'), or nullptr.
const EmbeddedShader* FindShaderIn(std::span<const EmbeddedShader> shaders, std::string_view name);

}  // namespace vkhlo::shaders
