// A custom_call's operand and result types against its target's declared signature
// (custom_call_signature.h): the compile checks each op, a plan's loader each
// host callback the plan names.
#include <fmt/format.h>

#include "runtime/custom_call_signature.h"

namespace vkhlo::runtime {
namespace {

std::string SpecString(const CustomCallTensorSpec& spec) {
  std::string dims = "*";
  if (spec.dims) {
    dims.clear();
    for (int64_t d : *spec.dims) dims += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  } else {
    dims += "x";
  }
  return fmt::format("tensor<{}{}>", dims, spec.element_type.empty() ? "*" : spec.element_type);
}

bool Matches(const CustomCallTensorSpec& spec, const TensorType& type) {
  if (!spec.element_type.empty() && spec.element_type != type.element_type) return false;
  if (!spec.dims) return true;
  if (spec.dims->size() != type.dims.size()) return false;
  for (size_t d = 0; d < type.dims.size(); ++d) {
    if ((*spec.dims)[d] >= 0 && (*spec.dims)[d] != type.dims[d]) return false;
  }
  return true;
}

}  // namespace

Status CheckCustomCallSignature(const CustomCallSignature& signature, std::span<const TensorType> operands,
                                std::span<const TensorType> results, const std::string& location,
                                const std::string& target) {
  auto error = [&](std::string_view what) {
    return InvalidArgumentError(fmt::format("{}: error: custom_call @{} {}", location, target, what));
  };
  auto check = [&](const std::vector<CustomCallTensorSpec>& specs, std::span<const TensorType> types,
                   std::string_view what) -> Status {
    if (specs.size() != types.size()) {
      return error(fmt::format("takes {} {}s, found {}", specs.size(), what, types.size()));
    }
    for (size_t i = 0; i < specs.size(); ++i) {
      if (!Matches(specs[i], types[i])) {
        return error(fmt::format("{} {}: expected {}, found {}", what, i, SpecString(specs[i]), types[i].ToString()));
      }
    }
    return OkStatus();
  };
  VKHLO_RETURN_IF_ERROR(check(signature.operands, operands, "operand"));
  return check(signature.results, results, "result");
}

}  // namespace vkhlo::runtime
