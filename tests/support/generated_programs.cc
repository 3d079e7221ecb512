#include "tests/support/generated_programs.h"

#include <fmt/format.h>

namespace vkhlo::testing {

std::string HexConstantModule(uint64_t text_bytes, uint64_t elements_per_constant,
                              uint64_t* constant_bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const uint64_t per_constant_text = elements_per_constant * 8 + 100;
  const uint64_t constants = std::max<uint64_t>(1, text_bytes / per_constant_text);
  const std::string type = fmt::format("tensor<{}xf32>", elements_per_constant);
  std::string text;
  text.reserve(constants * per_constant_text + 1024);
  text += "module @generated {\n  func.func public @main() -> " + type + " {\n";
  uint32_t x = 12345;
  for (uint64_t c = 0; c < constants; ++c) {
    text += fmt::format("    %c{} = stablehlo.constant dense<\"0x", c);
    for (uint64_t i = 0; i < elements_per_constant * 4; ++i) {
      x = x * 1664525u + 1013904223u;
      text += kHex[(x >> 24) & 15];
      text += kHex[(x >> 16) & 15];
    }
    text += "\"> : " + type + "\n";
  }
  text += fmt::format("    %sum0 = stablehlo.add %c0, %c0 : {}\n", type);
  for (uint64_t c = 1; c < constants; ++c) {
    text += fmt::format("    %sum{} = stablehlo.add %sum{}, %c{} : {}\n", c, c - 1, c, type);
  }
  text += fmt::format("    return %sum{} : {}\n  }}\n}}\n", constants - 1, type);
  if (constant_bytes != nullptr) *constant_bytes = constants * elements_per_constant * 4;
  return text;
}

}  // namespace vkhlo::testing
