#include "codegen/glsl/glsl_library.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace vkhlo::codegen {
namespace glsl_internal {
// Defined in the generated glsl_library_sources.cc, sorted by name.
extern const std::pair<std::string_view, std::string_view> kGlslLibraryFiles[];
extern const size_t kGlslLibraryFileCount;
}  // namespace glsl_internal

namespace {
std::span<const std::pair<std::string_view, std::string_view>> Files() {
  return {glsl_internal::kGlslLibraryFiles, glsl_internal::kGlslLibraryFileCount};
}
}  // namespace

std::optional<std::string_view> FindGlslLibraryFile(std::string_view name) {
  auto files = Files();
  auto it = std::lower_bound(files.begin(), files.end(), name,
                             [](const auto& entry, std::string_view n) { return entry.first < n; });
  if (it == files.end() || it->first != name) return std::nullopt;
  return it->second;
}

std::span<const std::string_view> GlslLibraryFileNames() {
  static const std::vector<std::string_view>* names = [] {
    auto* v = new std::vector<std::string_view>();
    for (const auto& [name, text] : Files()) v->push_back(name);
    return v;
  }();
  return *names;
}

}  // namespace vkhlo::codegen
