#include "shader_sources.h"

#include <algorithm>

namespace vkhlo::shaders {

std::optional<std::string_view> FindShaderSource(std::string_view name) {
  const std::span<const ShaderSourceFile> files = AllShaderSources();
  auto it = std::lower_bound(files.begin(), files.end(), name,
                             [](const ShaderSourceFile& f, std::string_view n) { return f.name < n; });
  if (it == files.end() || it->name != name) return std::nullopt;
  return it->text;
}

}  // namespace vkhlo::shaders
