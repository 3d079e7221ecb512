// Printing IR as text the frontend reads back to the same IR: functions in the func.func form
// JAX writes, every op in MLIR's generic form ("stablehlo.add"(%0, %1) : (...) -> ...).
// print -> parse -> print is a fixpoint.
#pragma once

#include <string>

#include "ir/module.h"

namespace vkhlo::ir {

std::string PrintModule(const Module& module);
std::string PrintFunction(const Function& function);
// One op (with its regions), values named as in a fresh numbering of its function.
std::string PrintOperation(const Operation& op);

}  // namespace vkhlo::ir
