#include "codegen/glsl/glsl_library.h"

#include <string>
#include <vector>

#include "shader_sources.h"

namespace vkhlo::codegen {
namespace {

// The library's files among the embedded shaders/ sources.
constexpr std::string_view kLibraryDir = "library/";

}  // namespace

std::optional<std::string_view> FindGlslLibraryFile(std::string_view name) {
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  return shaders::FindShaderSource(std::string(kLibraryDir) + std::string(name));
}

std::span<const std::string_view> GlslLibraryFileNames() {
  // Sorted, as the embedded sources are.
  static const std::vector<std::string_view>* names = [] {
    auto* v = new std::vector<std::string_view>();
    for (const shaders::ShaderSourceFile& file : shaders::AllShaderSources()) {
      if (file.name.starts_with(kLibraryDir) && file.name.find('/', kLibraryDir.size()) == std::string_view::npos) {
        v->push_back(file.name.substr(kLibraryDir.size()));
      }
    }
    return v;
  }();
  return *names;
}

}  // namespace vkhlo::codegen
