// A pass: one IR-to-IR rewrite of a whole module.
//
// Run returns whether it changed anything (so a pipeline can iterate to a fixpoint) or an error
// (a program the pass cannot handle, said with the op's location). A pass leaves the module
// valid: the pipeline verifies after every pass and reports a pass that broke it as an
// internal error naming the pass.
#pragma once

#include <string_view>

#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::passes {

class Pass {
 public:
  virtual ~Pass() = default;
  // The name used on command lines ("inline", "chlo-decompose").
  virtual std::string_view name() const = 0;
  virtual StatusOr<bool> Run(ir::Module& module) = 0;
};

}  // namespace vkhlo::passes
