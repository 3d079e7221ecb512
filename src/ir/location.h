// A position in a program's source, and the one way messages, profiles, dumps and tools spell it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace vkhlo::ir {

// Where something was written: 1-based line and column in the module's source (0: unknown).
struct Location {
  uint32_t line = 0;
  uint32_t column = 0;
  bool known() const { return line != 0; }
};

// "file:line:column"; "file" where the position is unknown; "<input>:line:column" for an
// unnamed source (the parser's name for text without a file); "" where neither is known.
std::string FormatLocation(std::string_view source_name, Location location);

}  // namespace vkhlo::ir
