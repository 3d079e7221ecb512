#include "codegen/fixed_kernel.h"

#include <fmt/format.h>

#include <set>

#include "shader_sources.h"

namespace vkhlo::codegen {
namespace {

// Appends `name`'s text to `out`, replacing each `#include "x"` line whose x is a shaders/ file
// by that file's text (once per kernel, as an include guard would).
Status Expand(std::string_view name, std::set<std::string, std::less<>>& seen, std::string& out) {
  if (!seen.insert(std::string(name)).second) return OkStatus();
  const std::optional<std::string_view> text = shaders::FindShaderSource(name);
  if (!text) return InternalError(fmt::format("no embedded shader source shaders/{} (shaders/CMakeLists.txt)", name));
  size_t pos = 0;
  while (pos < text->size()) {
    size_t end = text->find('\n', pos);
    end = end == std::string_view::npos ? text->size() : end + 1;
    const std::string_view line = text->substr(pos, end - pos);
    constexpr std::string_view kInclude = "#include \"";
    if (line.starts_with(kInclude)) {
      const size_t close = line.find('"', kInclude.size());
      const std::string_view included = line.substr(kInclude.size(), close - kInclude.size());
      if (close != std::string_view::npos && shaders::FindShaderSource(included)) {
        VKHLO_RETURN_IF_ERROR(Expand(included, seen, out));
        pos = end;
        continue;
      }
    }
    out += line;
    pos = end;
  }
  return OkStatus();
}

}  // namespace

FixedKernelSource& FixedKernelSource::NameBinding(std::string name, size_t binding) {
  binding_names.emplace_back(std::move(name), fmt::format("b{}", binding));
  return *this;
}

FixedKernelSource& FixedKernelSource::Define(std::string name, std::string value) {
  defines.emplace_back(std::move(name), std::move(value));
  return *this;
}

FixedKernelSource& FixedKernelSource::DefineUint(std::string name, uint64_t value) {
  return Define(std::move(name), fmt::format("{}u", value));
}

FixedKernelSource& FixedKernelSource::DefineInt(std::string name, int64_t value) {
  return Define(std::move(name), std::to_string(value));
}

FixedKernelSource& FixedKernelSource::DefineFlag(std::string name, bool value) {
  return Define(std::move(name), value ? "1" : "0");
}

FixedKernelSource& FixedKernelSource::Describe(std::string name, const ir::Operation& op, std::string source_name) {
  header.name = std::move(name);
  header.op = &op;
  header.source_name = std::move(source_name);
  return *this;
}

FixedKernelSource& FixedKernelSource::Config(std::string line) {
  header.config.push_back(std::move(line));
  return *this;
}

FixedKernelSource& FixedKernelSource::Why(std::string line) {
  header.why.push_back(std::move(line));
  return *this;
}

StatusOr<std::string> ExpandedShaderSource(std::string_view name) {
  std::set<std::string, std::less<>> seen;
  std::string out;
  VKHLO_RETURN_IF_ERROR(Expand(name, seen, out));
  return out;
}

std::string ShaderSourceText(std::string_view name) {
  StatusOr<std::string> text = ExpandedShaderSource(name);
  if (!text.ok()) return fmt::format("#error {}\n", text.status().message());
  return *std::move(text);
}

StatusOr<std::string> FixedKernelGlsl(const std::vector<KernelBuffer>& bindings, std::array<uint32_t, 3> workgroup_size,
                                      const std::string& push_fields, const std::vector<std::string>& extensions,
                                      const FixedKernelSource& source) {
  std::string glsl = DeviceKernelHeader(bindings, workgroup_size, push_fields, extensions, source.header);
  for (const auto& [name, value] : source.binding_names) glsl += fmt::format("#define {} {}\n", name, value);
  glsl += source.generated;
  glsl += fmt::format("// shaders/{}\n", source.file);
  for (const auto& [name, value] : source.defines) glsl += fmt::format("#define {} {}\n", name, value);
  glsl += fmt::format("#define VKHLO_KEEP_BINDINGS {}\n", KeepBindingsStatement(bindings.size()));
  VKHLO_ASSIGN_OR_RETURN(std::string text, ExpandedShaderSource(source.file));
  return glsl + text;
}

}  // namespace vkhlo::codegen
