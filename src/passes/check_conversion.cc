#include "passes/check_conversion.h"

#include <string>

namespace vkhlo::passes {

CheckComparison ToComparison(const interp::CheckParams& params) {
  CheckComparison c;
  switch (params.kind) {
    case interp::CheckKind::kExact:
      c.kind = CheckComparison::Kind::kExact;
      break;
    case interp::CheckKind::kAlmost:
      c.kind = CheckComparison::Kind::kAlmost;
      break;
    case interp::CheckKind::kClose:
      c.kind = CheckComparison::Kind::kClose;
      break;
  }
  c.tolerance = params.tolerance;
  c.max_ulp_difference = params.max_ulp_difference;
  c.min_ulp_difference = params.min_ulp_difference;
  return c;
}

HostTensor ToHostTensor(const ir::Literal& literal) {
  const ir::Type& type = literal.type();
  const std::span<const uint8_t> raw = literal.raw();
  return HostTensor{TensorType{std::string(ir::ElementTypeName(type.element_type())), type.dims()},
                    std::vector<uint8_t>(raw.begin(), raw.end())};
}

}  // namespace vkhlo::passes
