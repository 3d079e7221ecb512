#include "verify/diagnostic.h"

#include <fmt/format.h>

namespace vkhlo::verify {

std::string LocationPrefix(std::string_view source_name, ir::Location location) {
  std::string prefix = ir::FormatLocation(source_name, location);
  if (!prefix.empty()) prefix += ": ";
  return prefix;
}

const ir::Module* ModuleOf(const ir::Operation& op) {
  const ir::Function* function = op.parent_function();
  return function != nullptr ? function->parent() : nullptr;
}

std::string LocationPrefix(const ir::Operation& op) {
  const ir::Module* module = ModuleOf(op);
  return LocationPrefix(module != nullptr ? std::string_view(module->source_name()) : std::string_view(),
                        op.location());
}

Status MakeError(std::string_view prefix, std::string_view op_name, std::string_view what,
                 std::string_view expected, std::string_view found) {
  return InvalidArgumentError(
      fmt::format("{}error: '{}' {}: expected {}, found {}", prefix, op_name, what, expected, found));
}

std::string TypeListToString(std::span<const ir::Type> types) {
  std::string s = "(";
  for (size_t i = 0; i < types.size(); ++i) {
    if (i) s += ", ";
    s += types[i].ToString();
  }
  return s + ")";
}

std::string IntListToString(std::span<const int64_t> values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    text += (i ? ", " : "") + (ir::IsDynamicDim(values[i]) ? std::string("?") : std::to_string(values[i]));
  }
  return text + "]";
}

std::string ValueName(const ir::Value* value) {
  if (value == nullptr) return "a missing value";
  if (value->name_hint().empty()) return "a value with no name";
  return "%" + value->name_hint();
}

}  // namespace vkhlo::verify
