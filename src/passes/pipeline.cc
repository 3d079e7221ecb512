#include "passes/pipeline.h"

#include <string>

#include "passes/pass_registry.h"
#include "verify/verifier.h"

namespace vkhlo::passes {

StatusOr<PassPipeline> PassPipeline::Parse(std::string_view spec) {
  PassPipeline pipeline;
  while (!spec.empty()) {
    size_t comma = spec.find(',');
    std::string_view name = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name.empty()) continue;
    VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<Pass> pass, CreatePass(name));
    pipeline.Add(std::move(pass));
  }
  return pipeline;
}

StatusOr<bool> PassPipeline::Run(ir::Module& module, const PipelineOptions& options) const {
  bool any_change = false;
  for (const auto& pass : passes_) {
    StatusOr<bool> changed = pass->Run(module);
    if (!changed.ok()) {
      return Status(changed.status().code(),
                    "pass '" + std::string(pass->name()) + "': " + changed.status().message());
    }
    any_change |= *changed;
    if (options.verify_each) {
      if (Status verified = verify::VerifyModule(module); !verified.ok()) {
        return Status(StatusCode::kInternal, "internal error: pass '" + std::string(pass->name()) +
                                                 "' left an invalid module: " + verified.message());
      }
    }
    if (options.after_pass) options.after_pass(pass->name(), *changed, module);
  }
  return any_change;
}

std::string DefaultPipelineSpec(const DefaultPipelineOptions& options) {
  std::string spec = "inline,chlo-decompose,quantized-decompose,batch-norm-decompose,";
  if (options.fft_limits) {
    spec += "split-large-ffts{max-transform-bytes=" + std::to_string(options.fft_limits->transform_bytes) +
            " binding-bytes=" + std::to_string(options.fft_limits->binding_bytes) + "},";
  }
  spec += "fft-to-dft,canonicalize,";
  if (options.fold_constants) spec += "fold-constants,";
  return spec + "transposed-products,split-long-reductions,hoist-loop-products,cse,dce";
}

PassPipeline DefaultPipeline(const DefaultPipelineOptions& options) {
  StatusOr<PassPipeline> pipeline = PassPipeline::Parse(DefaultPipelineSpec(options));
  // Every name in the spec is registered (pass_registry.cc; pipeline tests check the count).
  return pipeline.ok() ? std::move(*pipeline) : PassPipeline();
}

}  // namespace vkhlo::passes
