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
};

// Every registered pass, in a stable order (the table in pass_registry.cc).
std::span<const PassInfo> RegisteredPasses();
// NOT_FOUND (listing the known names) for an unknown pass.
StatusOr<std::unique_ptr<Pass>> CreatePass(std::string_view name);

}  // namespace vkhlo::passes
