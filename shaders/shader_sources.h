// The GLSL text of the kernels that codegen specialises at run time (shaders/linalg/, sort/,
// random/), embedded at build time by vkhlo_add_shader_sources (cmake/Shaders.cmake). Their
// sizes and element functions are known only when a program is compiled, so they are compiled
// then, through codegen's GlslCompiler (codegen/fixed_kernel.h puts the pieces together). Names
// are paths below shaders/ with the extension: "linalg/cholesky.comp", "random/philox.glsl".
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace vkhlo::shaders {

struct ShaderSourceFile {
  std::string_view name;
  std::string_view text;
};

// Every embedded file, sorted by name.
std::span<const ShaderSourceFile> AllShaderSources();

// The text of the file called `name`, or nullopt.
std::optional<std::string_view> FindShaderSource(std::string_view name);

}  // namespace vkhlo::shaders
