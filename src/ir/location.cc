#include "ir/location.h"

#include <fmt/format.h>

namespace vkhlo::ir {

std::string FormatLocation(std::string_view source_name, Location location) {
  if (!location.known()) return std::string(source_name);
  return fmt::format("{}:{}:{}", source_name.empty() ? "<input>" : source_name, location.line, location.column);
}

}  // namespace vkhlo::ir
