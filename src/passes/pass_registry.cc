#include "passes/pass_registry.h"

#include <optional>
#include <string>

#include "passes/passes.h"
#include "passes/shapes/refine.h"

namespace vkhlo::passes {

namespace {

std::unique_ptr<Pass> CreateSplitAllFfts() { return CreateSplitLargeFftsPass({}); }

// A byte count, or nullopt.
std::optional<uint64_t> ParseBytes(std::string_view digits) {
  if (digits.empty() || digits.size() > 19) return std::nullopt;
  uint64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

// "max-transform-bytes=N [binding-bytes=M]" (M defaults to N).
StatusOr<std::unique_ptr<Pass>> CreateSplitLargeFftsWith(std::string_view options) {
  std::optional<uint64_t> transform, binding;
  bool ok = true;
  while (ok && !options.empty()) {
    const size_t space = options.find(' ');
    const std::string_view item = options.substr(0, space);
    options = space == std::string_view::npos ? std::string_view() : options.substr(space + 1);
    if (item.empty()) continue;
    const size_t equals = item.find('=');
    const std::string_view key = item.substr(0, equals);
    const std::optional<uint64_t> value =
        equals == std::string_view::npos ? std::nullopt : ParseBytes(item.substr(equals + 1));
    if (key == "max-transform-bytes" && value && !transform) {
      transform = value;
    } else if (key == "binding-bytes" && value && !binding) {
      binding = value;
    } else {
      ok = false;
    }
  }
  if (!ok || !transform) {
    return InvalidArgumentError(
        "split-large-ffts takes {max-transform-bytes=N binding-bytes=M} (byte counts; M defaults to N)");
  }
  return CreateSplitLargeFftsPass({*transform, binding.value_or(*transform)});
}

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
    {"transposed-products", "transposes folded into dot_general: of an operand (dimension numbers renumbered), of the result "
     "when it swaps the free dimensions (operands swapped)",
     &CreateTransposedProductsPass},
    {"split-large-ffts",
     "fft transforms a binding cannot hold ({max-transform-bytes=N binding-bytes=M}) as smaller ones "
     "(per axis, four-step); without options every composite length",
     &CreateSplitAllFfts, &CreateSplitLargeFftsWith},
    {"refine-shapes", "make dynamic shapes static from @main's static parameters (passes/shapes/refine.h)",
     &shapes::CreateRefineShapesPass},
};
}  // namespace

std::span<const PassInfo> RegisteredPasses() { return kPasses; }

StatusOr<std::unique_ptr<Pass>> CreatePass(std::string_view spec) {
  std::string_view name = spec, options;
  const bool has_options = spec.find('{') != std::string_view::npos;
  if (has_options) {
    const size_t open = spec.find('{');
    if (spec.back() != '}') {
      return InvalidArgumentError("pass '" + std::string(spec) + "': options go between { and } at the end");
    }
    name = spec.substr(0, open);
    options = spec.substr(open + 1, spec.size() - open - 2);
  }
  for (const PassInfo& info : kPasses) {
    if (info.name != name) continue;
    if (!has_options) return info.create();
    if (info.create_with_options == nullptr) {
      return InvalidArgumentError("pass '" + std::string(name) + "' takes no options");
    }
    return info.create_with_options(options);
  }
  std::string known;
  for (const PassInfo& info : kPasses) known += (known.empty() ? "" : ", ") + std::string(info.name);
  return Status(StatusCode::kNotFound,
                "unknown pass '" + std::string(name) + "': expected one of " + known);
}

}  // namespace vkhlo::passes
