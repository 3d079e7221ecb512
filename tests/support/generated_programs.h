// Programs generated for tests and benchmarks (so no large file is checked in).
#pragma once

#include <cstdint>
#include <string>

namespace vkhlo::testing {

// A module whose functions hold f32 constants written as hex blobs, about `text_bytes` long in
// total (each constant `elements_per_constant` elements). `constant_bytes` receives the bytes
// of constant data it holds.
std::string HexConstantModule(uint64_t text_bytes, uint64_t elements_per_constant,
                              uint64_t* constant_bytes = nullptr);

}  // namespace vkhlo::testing
