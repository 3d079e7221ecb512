// Loop kernels: the GLSL compute shader of one Fusion, and how to dispatch it.
//
// The kernel walks the fusion's index space (its outputs' shape, row-major). Each invocation
// handles `elements_per_invocation` consecutive elements, so that every output word is written
// by exactly one invocation (four 8-bit or two 16-bit elements share a word): no atomics, no
// races. Bindings are the inputs (0..I-1, readonly) then the outputs (I..I+O-1, writeonly), all
// `uint[]`. Where the layout allows, an invocation handles 4 consecutive elements with `uvec4`
// loads and stores (ContiguousInputs below; a second, aliased `uvec4[]` declaration of the same
// binding), with a scalar tail when the element count is not a multiple of 4. The push constants hold only the workgroup base the device layer fills in when it
// splits a grid beyond maxComputeWorkGroupCount (shaders/include/vkhlo_dispatch.glsl's
// convention, offset 0). Shapes and strides are constants in the code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/fusion.h"
#include "codegen/target.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen {

// The loop kernel's tuning, chosen in one place from the device (DESIGN.md: named configs).
struct LoopConfig {
  uint32_t workgroup_size = 256;         // invocations per workgroup (x)
  uint32_t elements_per_invocation = 1;  // at least what packing of narrow outputs needs
};

// Elements per invocation of a vectorized loop kernel (one uvec4 of 32-bit words).
inline constexpr uint32_t kVectorWidth = 4;

// The config for `target`: 256 invocations (llvmpipe and desktop GPUs run big groups well),
// capped by maxComputeWorkGroupInvocations / maxComputeWorkGroupSize[0] and kept a multiple of
// the subgroup size; kVectorWidth elements per invocation when the kernel can use vector loads or
// stores (every device reads 16 bytes at once faster than 4 x 4 bytes: on lavapipe a load whose
// address differs between invocations is a loop over the SIMD lanes, so vec4 quarters the
// loops), else one element per invocation unless narrow outputs need more.
LoopConfig ChooseLoopConfig(const TargetInfo& target, uint32_t min_elements_per_invocation, bool vectorizable = false);

// For each input of a loop fusion: whether every read of it is at the output's linear index
// (it reaches the outputs only through element-wise ops on operands of the result's shape and
// reshapes) and it is stored in 32-bit words, so that 4 consecutive elements are one uvec4.
// Inputs that are broadcast, transposed, sliced, ... (or read inside a region) are read per
// element.
std::vector<bool> ContiguousInputs(const Fusion& fusion, const TargetInfo& target);

struct KernelSource {
  std::string name;
  std::string glsl;
  std::string summary;  // the fused ops, one per line ("stablehlo.add at file:3:8")
  LoopConfig config;
  int64_t num_elements = 0;  // of the index space
  uint64_t workgroups = 0;   // grid size in x (0 when there is nothing to compute)
  std::vector<const ir::Value*> inputs, outputs;  // binding order
  int vector_inputs = 0, vector_outputs = 0;       // read / written as uvec4
};

struct KernelOptions {
  std::string source_name;  // for locations in comments and errors
  std::string function;     // the function it comes from (comment)
  uint32_t elements_per_invocation = 0;  // 0: ChooseLoopConfig's choice
};
// A kernel vectorizes when it handles exactly kVectorWidth elements per invocation and has a
// contiguous input or a 32-bit output; KernelSource::vector_inputs/vector_outputs say which.

StatusOr<KernelSource> EmitLoopKernel(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options);

}  // namespace vkhlo::codegen
