// Pieces of StableHLO text that tests write programs from: a tensor type and an i64 array
// attribute. Shared so that every generated program spells them alike.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vkhlo::testing {

// `tensor<2x3xf32>` for dims {2, 3} and element "f32"; `tensor<f32>` for no dims.
inline std::string TensorType(const std::vector<int64_t>& dims, std::string_view element) {
  std::string text = "tensor<";
  for (int64_t d : dims) text += fmt::format("{}x", d);
  return text + std::string(element) + ">";
}

// `array<i64: 1, 0>`; `array<i64>` when empty.
inline std::string I64Array(const std::vector<int64_t>& values) {
  if (values.empty()) return "array<i64>";
  return fmt::format("array<i64: {}>", fmt::join(values, ", "));
}

}  // namespace vkhlo::testing
