#include "codegen/reduction/dispatch_builder.h"

#include <fmt/format.h>

#include "codegen/elemental/types.h"

namespace vkhlo::codegen::reduction {

std::string U(int64_t value) { return UintLiteral(static_cast<uint64_t>(value)); }

DispatchBuilder::DispatchBuilder(const TargetInfo& target, const KernelOptions& options)
    : em_(target, writer_.prelude(), [this](const ir::Value* v) -> std::optional<InputBinding> {
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
                                       const std::string& kernel) {
  KernelDispatch d;
  d.name = std::move(name);
  d.summary = std::move(summary);
  d.bindings = bindings_;
  d.grid = {static_cast<uint32_t>(std::min<uint64_t>(groups, UINT32_MAX)), 1, 1};
  ShaderWriter w = writer_;
  w.set_kernel(kernel);
  w.Workgroup(workgroup_size);
  auto texel = [&](size_t b) { return b < texel_views_.size() && texel_views_[b]; };
  for (size_t b = 0; b < bindings_.size(); ++b) {
    const auto binding = static_cast<uint32_t>(b);
    if (texel(b)) {
      w.TexelBuffer(binding, fmt::format("in{}t", b), "rgba32ui", "uimageBuffer");
      continue;
    }
    // A binding also read as uvec4 is declared twice (aliased views of one buffer); `restrict`
    // would promise the compiler the two never meet.
    const bool vector = b < vector_views_.size() && vector_views_[b];
    const BufferAccess access = bindings_[b].written ? BufferAccess::kReadWrite : BufferAccess::kRead;
    w.StorageBuffer(binding, fmt::format("in{}", b), "uint", access, !vector);
    if (vector) w.StorageBuffer(binding, fmt::format("in{}v", b), "uvec4", access, false);
  }
  d.glsl = w.Finish(em_.body());
  return d;
}

}  // namespace vkhlo::codegen::reduction
