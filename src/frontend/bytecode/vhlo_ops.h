// The VHLO dialect's ops (vhlo_ops.cc holds the table) and StableHLO versions.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vkhlo::frontend::bytecode {

struct Version {
  int major = 0, minor = 0, patch = 0;
  auto operator<=>(const Version&) const = default;
  std::string ToString() const;
};

// The versions vkhlo reads: StableHLO's minimum and the newest release it knows.
inline constexpr Version kOldestVersion{0, 9, 0};
inline constexpr Version kNewestVersion{1, 20, 0};

// "1.15.0" -> {1, 15, 0}; nullopt unless three dot-separated numbers.
std::optional<Version> ParseVersion(std::string_view text);

struct VhloOp {
  std::string_view name;       // "dot_general_v2" (the op name without "vhlo.")
  std::string_view stablehlo;  // "stablehlo.dot_general", "func.func", "func.return", "func.call"
  Version first, last;         // the StableHLO versions it was current for
  std::vector<std::string_view> attributes;  // sorted by name
};

// nullptr for a name that is not a VHLO op.
const VhloOp* FindVhloOp(std::string_view name);

}  // namespace vkhlo::frontend::bytecode
