// Operand literals for the library kernels' tests through the runtime: small integers, whose
// products and sums are exact in any float type and any order, and uniform floats.
#pragma once

#include <random>

#include "ir/literal.h"

namespace vkhlo::testing {

// Integers in [-2, 2] of `type` (exact in every float type).
inline ir::Literal SmallIntegers(const ir::Type& type, std::mt19937_64& rng) {
  ir::Literal l = *ir::Literal::Create(type);
  std::uniform_int_distribution<int> d(-2, 2);
  for (int64_t i = 0; i < l.num_elements(); ++i) l.SetFloat(i, d(rng));
  return l;
}

// Floats in [lo, hi] rounded to the type.
inline ir::Literal Uniform(const ir::Type& type, double lo, double hi, std::mt19937_64& rng) {
  ir::Literal l = *ir::Literal::Create(type);
  std::uniform_real_distribution<double> d(lo, hi);
  for (int64_t i = 0; i < l.num_elements(); ++i) l.SetFloat(i, d(rng));
  return l;
}

}  // namespace vkhlo::testing
