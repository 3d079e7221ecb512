// One dispatch of a reduction kernel under construction: its bindings (named in0, in1, ... in
// binding order, as loop kernels name theirs, so the elemental emitter loads fusion inputs
// directly), an elemental emitter over them, and the assembly of the finished compute shader.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/device_kernel.h"
#include "codegen/elemental/emitter.h"

namespace vkhlo::codegen::reduction {

class DispatchBuilder {
 public:
  DispatchBuilder(const TargetInfo& target, const KernelOptions& options);
  DispatchBuilder(const DispatchBuilder&) = delete;
  DispatchBuilder& operator=(const DispatchBuilder&) = delete;

  // Binds every fusion input (readable by the emitter); returns nothing.
  void BindInputs(const std::vector<const ir::Value*>& inputs);
  // Binds a buffer and returns its array name ("in3").
  std::string Bind(KernelBuffer buffer);

  // The binding of fusion input `v` (from BindInputs), or -1.
  int BindingOf(const ir::Value* v) const;
  // Declares a second, aliased `uvec4[]` view of binding `b` and returns its name ("in3v").
  std::string VectorView(int b);
  // Binds fusion input `v` once more, as an rgba32ui storage texel buffer (the runtime makes a
  // view of the same buffer), and returns the texel buffer's name ("in5t").
  std::string TexelView(const ir::Value* v);

  ElementalEmitter& em() { return em_; }
  // The shader's writer: header lines (config, fused ops) may be added before Finish.
  ShaderWriter& writer() { return writer_; }
  // Shared-memory declarations (`shared float sh0[256];`), placed before main().
  void Shared(const std::string& declaration) { writer_.Shared(declaration); }

  // The finished dispatch, through the shader writer: `kernel` heads the shader's header
  // ("reduction fusion_3.rows: ...").
  KernelDispatch Finish(std::string name, std::string summary, uint32_t workgroup_size, uint64_t groups,
                        const std::string& kernel);

 private:
  ShaderWriter writer_;  // declared before em_, which writes into its prelude
  std::unordered_map<const ir::Value*, InputBinding> inputs_;
  std::vector<KernelBuffer> bindings_;
  std::vector<bool> vector_views_;  // per binding
  std::vector<bool> texel_views_;   // per binding: declared as a texel buffer only
  ElementalEmitter em_;
};

// GLSL text of a uint constant expression ("5u").
std::string U(int64_t value);

}  // namespace vkhlo::codegen::reduction
