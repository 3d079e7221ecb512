// The dispatch shape shared by the indexing kernels (scatter, select_and_scatter): one
// invocation per result element, or per few elements where narrow results pack several to a
// 32-bit word, so that every output word is written by exactly one invocation (no atomics, no
// races; codegen/kernel.cc's loop kernels do the same). The element's values come from a
// callback that emits GLSL through the elemental emitter (which loads fusion inputs by binding).
//
// Bindings: the fusion's inputs (readonly, in order), its outputs (written), then any extra
// bindings (scratch buffers), named in0, in1, ... as the elemental emitter expects.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "codegen/device_kernel.h"
#include "codegen/elemental/emitter.h"

namespace vkhlo::codegen {

// The values (one per fusion output, any form) of the outputs' element at `index`.
using ElementValuesFn = std::function<StatusOr<std::vector<Expr>>(ElementalEmitter& em, const Index& index)>;

StatusOr<KernelDispatch> EmitElementDispatch(const Fusion& fusion, const TargetInfo& target,
                                             const KernelOptions& options, const std::string& what,
                                             const ElementValuesFn& values,
                                             const std::vector<KernelBuffer>& extra_bindings = {});

// A complete shader through the shader writer (shader_writer.h): `body` (statements of main)
// with the prelude, bindings in0.. (`uint[]`, or word_types[b] when given, e.g. "int" for signed
// atomics; written ones read-write), and `kernel` heading the header ("scatter fusion_3 ...").
std::string AssembleShader(const ShaderPrelude& prelude, const std::vector<KernelBuffer>& bindings,
                           uint32_t workgroup_size, const std::string& kernel, const std::string& body,
                           const std::vector<std::string>& word_types = {});

// Whether every op of `region` can be emitted elementally (region arguments bound to scalars).
bool RegionIsElemental(const ir::Region& region);

// Evaluates the single-block `region` with its arguments bound to `arguments` and returns its
// results (raw copies in fresh variables, so assigning them to variables bound as arguments is
// safe).
StatusOr<std::vector<Expr>> EvaluateRegion(ElementalEmitter& em, const ir::Operation& op, const ir::Region& region,
                                           const std::vector<Expr>& arguments);

}  // namespace vkhlo::codegen
