// Factories of the built-in passes (each defined in its own file).
#pragma once

#include <memory>

#include "passes/pass.h"

namespace vkhlo::passes {

// Removes ops whose results are unused and that have no side effects; unused private functions.
std::unique_ptr<Pass> CreateDeadCodeEliminationPass();

// Rewrites every chlo op into StableHLO (src/passes/chlo/).
std::unique_ptr<Pass> CreateChloDecomposePass();

}  // namespace vkhlo::passes
