// Differential checks of passes on the reference interpreter: inputs that probe the edges of
// each element type (+-0, +-inf, NaN, subnormals, integer extremes), and comparisons of the
// outputs of a function before and after passes.
#pragma once

#include <string>

#include "interp/interpreter.h"
#include "ir/module.h"

namespace vkhlo::testing {

// Arguments for `function` (tensor parameters only; nullopt-like empty vector plus false when
// some parameter is not a plain tensor). `seed` rotates the values so that every element meets
// every edge value across a few seeds.
bool EdgeCaseArguments(const ir::Function& function, int seed, interp::InterpValues& arguments);

// Random arguments in [-2, 2] (floats) or [-4, 4] (integers).
bool RandomArguments(const ir::Function& function, uint32_t seed, interp::InterpValues& arguments);

// A rank-1 literal holding every value of `type` (all bit patterns for types of up to 16 bits)
// or, for wider types, a set of edge values.
ir::Literal AllValues(ir::ElementType type);

// Empty when `expected` and `actual` are equal element by element: same bits, or both NaN.
std::string CompareExactly(const interp::InterpValues& expected, const interp::InterpValues& actual);

// Empty when every element differs by at most `tolerance` * max(1, |expected|) (NaN matches NaN,
// infinities must match).
std::string CompareClose(const interp::InterpValues& expected, const interp::InterpValues& actual,
                         double tolerance);

}  // namespace vkhlo::testing
