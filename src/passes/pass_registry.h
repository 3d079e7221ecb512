// The passes vkhlo knows, by name, for pipelines and `vkhlo-opt --pass=`.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "passes/pass.h"

namespace vkhlo::passes {

struct PassInfo {
  std::string_view name;
  std::string_view summary;
  std::unique_ptr<Pass> (*create)();
  // For a pass that takes options (`name{key=value}` in a pipeline spec): creates it from the
  // text between the braces, or fails naming what it expects. Null: the pass takes none.
  StatusOr<std::unique_ptr<Pass>> (*create_with_options)(std::string_view options) = nullptr;
};

// Every registered pass, in a stable order (the table in pass_registry.cc).
std::span<const PassInfo> RegisteredPasses();
// `spec` is a name, or a name with options: "split-large-ffts{max-transform-bytes=4096}".
// NOT_FOUND (listing the known names) for an unknown pass; INVALID_ARGUMENT for options the
// pass does not take.
StatusOr<std::unique_ptr<Pass>> CreatePass(std::string_view spec);

}  // namespace vkhlo::passes
