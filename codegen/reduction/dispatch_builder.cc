#include "codegen/reduction/dispatch_builder.h"

#include <fmt/format.h>

#include "codegen/elemental/types.h"

namespace vkhlo::codegen::reduction {

std::string U(int64_t value) { return UintLiteral(static_cast<uint64_t>(value)); }

DispatchBuilder::DispatchBuilder(const TargetInfo& target, const KernelOptions& options)
    : em_(target, prelude_, [this](const ir::Value* v) -> std::optional<InputBinding> {
        auto it = inputs_.find(v);
        if (it == inputs_.end()) return std::nullopt;
        return it->second;
      }) {
  em_.set_source_name(options.source_name);
}

void DispatchBuilder::BindInputs(const std::vector<const ir::Value*>& inputs) {
  for (const ir::Value* v : inputs) {
    const int binding = static_cast<int>(bindings_.size());
    inputs_[v] = InputBinding{binding, v->type().element_type()};
    bindings_.push_back(KernelBuffer::Read(v));
  }
}

std::string DispatchBuilder::Bind(KernelBuffer buffer) {
  bindings_.push_back(buffer);
  return fmt::format("in{}", bindings_.size() - 1);
}

int DispatchBuilder::BindingOf(const ir::Value* v) const {
  auto it = inputs_.find(v);
  return it == inputs_.end() ? -1 : it->second.binding;
}

std::string DispatchBuilder::VectorView(int b) {
  if (vector_views_.size() <= static_cast<size_t>(b)) vector_views_.resize(static_cast<size_t>(b) + 1, false);
  vector_views_[static_cast<size_t>(b)] = true;
  return fmt::format("in{}v", b);
}

std::string DispatchBuilder::TexelView(const ir::Value* v) {
  const size_t b = bindings_.size();
  bindings_.push_back(KernelBuffer::Read(v));
  texel_views_.resize(b + 1, false);
  texel_views_[b] = true;
  return fmt::format("in{}t", b);
}

KernelDispatch DispatchBuilder::Finish(std::string name, std::string summary, uint32_t workgroup_size, uint64_t groups,
                                       const std::string& comment) {
  KernelDispatch d;
  d.name = std::move(name);
  d.summary = std::move(summary);
  d.bindings = bindings_;
  d.grid = {static_cast<uint32_t>(std::min<uint64_t>(groups, UINT32_MAX)), 1, 1};
  std::string glsl = "#version 450\n";
  for (const std::string& ext : prelude_.extensions()) glsl += fmt::format("#extension {} : require\n", ext);
  glsl += "// " + comment + "\n";
  for (const std::string& file : prelude_.includes()) glsl += fmt::format("#include \"{}\"\n", file);
  glsl += fmt::format("layout(local_size_x = {}) in;\n", workgroup_size);
  auto texel = [&](size_t b) { return b < texel_views_.size() && texel_views_[b]; };
  for (size_t b = 0; b < bindings_.size(); ++b) {
    if (texel(b)) {
      glsl += fmt::format("layout(set = 0, binding = {0}, rgba32ui) readonly uniform uimageBuffer in{0}t;\n", b);
      continue;
    }
    // A binding also read as uvec4 is declared twice (aliased views of one buffer); `restrict`
    // would promise the compiler the two never meet.
    const bool vector = b < vector_views_.size() && vector_views_[b];
    const std::string access = bindings_[b].written ? "" : "readonly";
    const std::string qualifiers = vector ? access : (access.empty() ? "restrict" : access + " restrict");
    glsl += fmt::format("layout(set = 0, binding = {0}) {1} buffer Buffer{0} {{ uint in{0}[]; }};\n", b, qualifiers);
    if (vector) {
      glsl += fmt::format("layout(set = 0, binding = {0}) {1} buffer Buffer{0}v {{ uvec4 in{0}v[]; }};\n", b, access);
    }
  }
  glsl += "layout(push_constant) uniform Push { uvec4 vkhlo_workgroup_base; } pc;\n";
  for (const std::string& helper : prelude_.helpers()) glsl += helper + "\n";
  for (const std::string& global : prelude_.globals()) glsl += global + "\n";
  for (const std::string& s : shared_) glsl += s + "\n";
  glsl += "\nvoid main() {\n";
  // The device binds every declared binding, so none may be optimized away (an input only a
  // fused producer of another pass reads): a condition that reads each, never true (the base's
  // w is always 0 and the compiler cannot know it).
  if (!bindings_.empty()) {
    std::string reads;
    for (size_t b = 0; b < bindings_.size(); ++b) {
      const std::string read = texel(b) ? fmt::format("imageLoad(in{}t, 0).x", b) : fmt::format("in{}[0]", b);
      reads += (b ? " ^ " : "") + read;
    }
    glsl += fmt::format("  if (pc.vkhlo_workgroup_base.w == 0xffffffffu && ({}) == 0x12345678u) return;\n", reads);
  }
  glsl += em_.body() + "}\n";
  d.glsl = std::move(glsl);
  return d;
}

}  // namespace vkhlo::codegen::reduction
