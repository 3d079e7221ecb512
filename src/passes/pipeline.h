// A pass pipeline: passes run in order, the verifier after each, optional IR dumps.
//
//   auto pipeline = PassPipeline::Parse("inline,chlo-decompose,canonicalize,cse,dce");
//   VKHLO_RETURN_IF_ERROR(pipeline->Run(module));
#pragma once

#include <functional>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "passes/pass.h"
#include "passes/passes.h"

namespace vkhlo::passes {

struct PipelineOptions {
  // Verify the module after every pass (a failure is an internal error naming the pass).
  bool verify_each = true;
  // Called after every pass with the pass's name, whether it changed the module, and the module
  // (`--dump-after-all`).
  std::function<void(std::string_view pass, bool changed, const ir::Module&)> after_pass;
};

class PassPipeline {
 public:
  PassPipeline() = default;
  PassPipeline(PassPipeline&&) = default;
  PassPipeline& operator=(PassPipeline&&) = default;

  // A comma-separated list of registered pass names; empty entries are ignored, an unknown
  // name is an error naming the known ones.
  static StatusOr<PassPipeline> Parse(std::string_view spec);

  void Add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
  size_t size() const { return passes_.size(); }

  // Runs every pass once, in order. Returns whether any pass changed the module.
  StatusOr<bool> Run(ir::Module& module, const PipelineOptions& options = {}) const;

 private:
  std::vector<std::unique_ptr<Pass>> passes_;
};

struct DefaultPipelineOptions {
  // Also evaluate small ops of constants at compile time (fold-constants, after canonicalize).
  // The runtime leaves it out: the device computes every op of a program, constants or not.
  bool fold_constants = false;
  // The device's limits on FFT bindings: when set, split-large-ffts runs with them (before
  // fft-to-dft, so that short prime pieces become DFT products). The compile sets them.
  std::optional<FftSplitLimits> fft_limits;
};

// The pipeline the runtime runs before fusion (Client::Compile when CompileOptions::passes is
// empty), and so what vkhlo-compile-report and the pass tests run: inline, chlo-decompose,
// quantized-decompose, batch-norm-decompose, [split-large-ffts,] fft-to-dft, canonicalize, [fold-constants,]
// transposed-products, split-long-reductions, hoist-loop-products, cse, dce. The one list; a spelled-out pipeline is parsed by PassPipeline::Parse.
std::string DefaultPipelineSpec(const DefaultPipelineOptions& options = {});
PassPipeline DefaultPipeline(const DefaultPipelineOptions& options = {});

}  // namespace vkhlo::passes
