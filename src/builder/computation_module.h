// The program inside an XlaComputation, for the parts of vkhlo that compile and run it (the
// runtime's Client::Compile, tests). Not part of the public API.
//
// The module is `module @<name>` with a public `@main` (parameters in parameter order; a tuple
// root returned as one result per element, see vkhlo/xla_computation.h) and the private
// functions Call imported. It was verified when the computation was built.
#pragma once

#include <memory>

#include "ir/module.h"
#include "vkhlo/xla_computation.h"

namespace vkhlo::internal {

// The computation's module (shared and immutable); nullptr for a null computation.
const ir::Module* ComputationModule(const XlaComputation& computation);
// The same, shared: its identity names the computation (copies share it), as caches need.
std::shared_ptr<const ir::Module> SharedComputationModule(const XlaComputation& computation);
// A copy of the module that the caller owns and may change (for passes).
std::unique_ptr<ir::Module> CloneComputationModule(const XlaComputation& computation);

}  // namespace vkhlo::internal
