// The rewrite rules of the canonicalize pass, by concept (canonicalize*.cc). Each returns the
// values replacing the op's results, or nullopt when it does not apply. Every rule is exact for
// every element type: the rewritten program computes bit-identical results (NaN payloads
// aside), including -0.0, infinities and NaN.
#pragma once

#include "passes/rewrite_driver.h"

namespace vkhlo::passes::canonicalize {

// x+(-0.0), x*1, x-0, x/1, --x, not not x, x&x, integer x*0 and x-x, select of a constant
// predicate, ... (canonicalize_algebra.cc).
RewriteResult SimplifyAlgebra(ir::Operation& op, OpBuilder& builder);

// convert to the same type, convert chains through a lossless intermediate type
// (canonicalize_convert.cc).
RewriteResult SimplifyConvert(ir::Operation& op, OpBuilder& builder);

// Shape ops: transposes, reshapes and broadcasts that compose or do nothing, full slices, zero
// padding, single concatenations, reverses, tuples, splat constants reshaped, dot -> dot_general
// (canonicalize_shapes.cc).
RewriteResult SimplifyShapes(ir::Operation& op, OpBuilder& builder);

// Helpers shared by the rules.
inline RewriteResult Keep() { return std::optional<std::vector<ir::Value*>>(); }
inline RewriteResult Replace(ir::Value* value) {
  return std::optional<std::vector<ir::Value*>>(std::vector<ir::Value*>{value});
}

}  // namespace vkhlo::passes::canonicalize
