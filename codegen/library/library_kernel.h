// Library kernels for dot_general and convolution: what the runtime dispatches.
//
//   auto plan = library::PlanDotGeneral(op, target, epilogue);      // GLSL, grid, bindings
//   VKHLO_RETURN_IF_ERROR(library::CompilePlan(*plan, compiler));   // SPIR-V (cached)
//   for (const auto& d : plan->dispatches) list.Dispatch(pipeline(d), Bind(d.bindings), base0, d.grid)
//
// Conventions (as codegen's loop kernels, codegen/kernel.h): every binding is a `uint[]` storage
// buffer at set 0; the push constants are one uvec4 workgroup base at offset 0 (zero from the
// runtime; the device layer fills it when it splits a grid beyond maxComputeWorkGroupCount), so
// pipelines are created with workgroup_base_offset = 0. A plan may need scratch buffers (split-K
// partial sums) and may consist of several dispatches, in order, each depending on the previous.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "codegen/glsl_compiler.h"
#include "codegen/library/epilogue.h"
#include "codegen/library/matmul_problem.h"
#include "codegen/library/tile_config.h"
#include "codegen/target.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen::library {

enum class BufferRole {
  kOperand,        // index 0 (lhs) or 1 (rhs) of the op
  kEpilogueInput,  // index into Epilogue::inputs
  kResult,         // the op's result (or the epilogue's converted result)
  kScratch,        // index into LibraryPlan::scratch_bytes
  kConstant,       // index into LibraryPlan::constants (read only, uploaded once)
};

struct BufferRef {
  BufferRole role = BufferRole::kOperand;
  int index = 0;
  bool written = false;  // the dispatch writes it (else only reads)
  bool operator==(const BufferRef&) const = default;
};

struct LibraryDispatch {
  std::string name;  // "dot_general.regtile" (pipeline name in messages and timings)
  std::string glsl;
  std::shared_ptr<const SpirvWords> spirv;  // set by CompilePlan
  std::array<uint32_t, 3> workgroup_size = {1, 1, 1};
  std::array<uint32_t, 3> grid = {1, 1, 1};  // workgroups (may exceed maxComputeWorkGroupCount)
  std::vector<BufferRef> bindings;           // binding i is bindings[i]
  uint32_t required_subgroup_size = 0;       // 0: the driver's choice
};

struct LibraryPlan {
  std::string summary;  // the op, the normalized problem, the config and why (for dumps and tests)
  MatmulProblem problem;
  TileConfig config;
  std::vector<uint64_t> scratch_bytes;
  std::vector<std::vector<uint32_t>> constants;  // tables the dispatches read (as DeviceKernel's)
  std::vector<LibraryDispatch> dispatches;  // empty when the result is empty or needs no work
  // Bytes the result takes (the runtime allocates it); every bound buffer's offset must be a
  // multiple of binding_alignment (vector loads read 32-byte units).
  uint64_t result_bytes = 0;
  ir::ElementType result_type = ir::ElementType::kF32;
  uint32_t binding_alignment = 4;
};

struct PlanOptions {
  std::string name = "";  // prefix of dispatch names ("fusion_3"); empty: the op's name
  // Force a configuration by name (tests and benchmarks); empty: ChooseMatmulConfig's choice.
  std::string force_config;
  uint32_t force_split_k = 0;  // > 0: override the split
};

// dot_general / dot (any dimension numbers) with a fused epilogue.
StatusOr<LibraryPlan> PlanDotGeneral(const ir::Operation& op, const TargetInfo& target,
                                     const Epilogue& epilogue = {}, const PlanOptions& options = {});

// convolution: implicit GEMM through the matmul family, or the direct kernel for depthwise and
// small channel counts.
StatusOr<LibraryPlan> PlanConvolution(const ir::Operation& op, const TargetInfo& target,
                                      const Epilogue& epilogue = {}, const PlanOptions& options = {});

// A normalized problem (for callers that build one themselves, and tests).
StatusOr<LibraryPlan> PlanMatmul(const MatmulProblem& problem, const TargetInfo& target,
                                 const Epilogue& epilogue = {}, const PlanOptions& options = {});

// Compiles every dispatch's GLSL (spirv-val'd, cached by content).
Status CompilePlan(LibraryPlan& plan, GlslCompiler& compiler, const TargetInfo& target);

}  // namespace vkhlo::codegen::library
