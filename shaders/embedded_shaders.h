// The SPIR-V of every shader in shaders/, compiled by glslangValidator at build time and linked
// into the library (see cmake/Shaders.cmake). Names are paths below shaders/ without the
// extension: "util/fill_u32", "test/count_writes".
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

}  // namespace vkhlo::shaders
