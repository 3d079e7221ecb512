// The compiler's step for test programs (CompileOptions::checks; include/vkhlo/checks.h says
// what the result means): rewrites test function `function` of `module` in place so that the
// device computes every value its checks read — checks of its body become extra results,
// checks in regions and interpreter.probe ops become outfeeds tagged with their index,
// check.expect_serialized_eq reads its operand as an extra result — and returns how the host
// compares them. Afterwards the function holds no test op.
//
// A test op that is not a value-comparing check (check.expect_true/false on a region, prints,
// ...) is UNIMPLEMENTED, naming it and its location; so is a check with results inside a region
// (@check.eq's match flag is only known on the host).
#pragma once

#include <string_view>

#include "ir/module.h"
#include "vkhlo/checks.h"

namespace vkhlo::passes {

StatusOr<CompiledChecks> LowerChecks(ir::Module& module, std::string_view function);

}  // namespace vkhlo::passes
