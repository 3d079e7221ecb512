// Running programs with dynamic shapes (`tensor<?x4xf32>`): the interpreter's values always
// have static shapes, so an op whose declared result type has a dynamic size is evaluated
// with the concrete result type its operands imply — the verifier's shape function on the
// operands' actual types, or, for the dynamic-shape ops, the static form their shape operands'
// values give (verify/static_forms.h). Constraints the verifier deferred (two `?` sizes that
// must agree) are checked here, at run time, with the verifier's messages; every value is
// checked against its declared type (static sizes, bounds).
#pragma once

#include "interp/eval_context.h"
#include "interp/op_registry.h"

namespace vkhlo::interp {

// Whether a value of type `actual` (static) may flow where `declared` is expected: same kind,
// element type and rank, equal sizes where `declared` is static, within its bounds.
bool FitsType(const ir::Type& actual, const ir::Type& declared);

// Whether some result type of `op` has a dynamic size.
bool HasDynamicResults(const ir::Operation& op);

// Evaluates `op` (which HasDynamicResults) on `operands` with concrete result types, and checks
// its results against the declared types.
StatusOr<InterpValues> EvaluateDynamicOp(EvalContext& context, const ir::Operation& op, const InterpValues& operands,
                                         OpEvaluator evaluate);

}  // namespace vkhlo::interp
