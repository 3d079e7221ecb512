// The seed mixing step of stablehlo.rng, shared by the reference interpreter
// (src/interp/random_ops.cc) and the device kernel (codegen/random/rng.cc), which must agree bit
// for bit: seed = Mix over the op's location, the bounds' storage bits and the element type.
#pragma once

#include <cstdint>

namespace vkhlo::ir {

inline uint64_t RngSeedMix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  return h;
}

}  // namespace vkhlo::ir
