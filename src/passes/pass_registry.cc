#include "passes/pass_registry.h"

#include <string>

#include "passes/passes.h"
#include "passes/shapes/refine.h"

namespace vkhlo::passes {

namespace {
// One row per pass. Order here is only the order `vkhlo-opt --help`-style listings show.
constexpr PassInfo kPasses[] = {
    {"dce", "remove unused side-effect-free ops and unreferenced private functions",
     &CreateDeadCodeEliminationPass},
    {"inline", "inline every func.call; remove private functions left unreferenced", &CreateInlinePass},
    {"canonicalize", "exact algebraic simplification (x*1, double transposes, no-op converts, ...)",
     &CreateCanonicalizePass},
    {"fold-constants", "evaluate small pure ops of constants with the interpreter",
     &CreateFoldConstantsPass},
    {"cse", "merge identical pure ops", &CreateCsePass},
    {"batch-norm-decompose", "batch_norm_* ops to element-wise ops, broadcasts and reduces",
     &CreateBatchNormDecomposePass},
    {"chlo-decompose", "rewrite every chlo op into StableHLO ops", &CreateChloDecomposePass},
    {"fft-to-dft", "fft of short lengths with a prime factor above 13 as dot_generals with DFT matrices",
     &CreateFftToDftPass},
    {"quantized-decompose", "quantized tensors as their storage; (de)quantize as integer/float ops",
     &CreateQuantizedDecomposePass},
    {"split-long-reductions", "reduces over more than 2^31 - 1 elements per result as two reduces",
     &CreateSplitLongReductionsPass},
    {"hoist-loop-products", "a counted loop's products with one slice per iteration as one product before the loop",
     &CreateHoistLoopProductsPass},
    {"refine-shapes", "make dynamic shapes static from @main's static parameters (passes/shapes/refine.h)",
     &shapes::CreateRefineShapesPass},
};
}  // namespace

std::span<const PassInfo> RegisteredPasses() { return kPasses; }

StatusOr<std::unique_ptr<Pass>> CreatePass(std::string_view name) {
  for (const PassInfo& info : kPasses) {
    if (info.name == name) return info.create();
  }
  std::string known;
  for (const PassInfo& info : kPasses) known += (known.empty() ? "" : ", ") + std::string(info.name);
  return Status(StatusCode::kNotFound,
                "unknown pass '" + std::string(name) + "': expected one of " + known);
}

}  // namespace vkhlo::passes
