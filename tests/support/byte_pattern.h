// Reproducible pseudo-random bytes (xorshift32 from a seed) for transfer and copy tests, where
// any byte out of place must show.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vkhlo::testing {

inline std::vector<std::byte> BytePattern(size_t size, uint32_t seed) {
  std::vector<std::byte> data(size);
  uint32_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < size; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    data[i] = static_cast<std::byte>(x);
  }
  return data;
}

}  // namespace vkhlo::testing
