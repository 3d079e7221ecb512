#include "builder/literal_conversion.h"

#include <cstring>

#include "builder/type_conversion.h"

namespace vkhlo::internal {

StatusOr<ir::Literal> ToIrLiteral(const Literal& literal) {
  if (!literal.shape().IsArray()) {
    return InvalidArgumentError("a literal of shape " + literal.shape().ToString() + " is not an array");
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ToIrType(ShapeUtil::MakeShape(literal.shape().element_type(),
                                                                      literal.shape().dimensions())));
  const auto* data = static_cast<const uint8_t*>(literal.untyped_data());
  return ir::Literal::FromBytes(type, std::vector<uint8_t>(data, data + literal.size_bytes()));
}

StatusOr<Literal> FromIrLiteral(const ir::Literal& literal) {
  VKHLO_ASSIGN_OR_RETURN(Shape shape, FromIrType(literal.type()));
  if (!shape.IsArray()) return InvalidArgumentError("not a tensor literal: " + literal.type().ToString());
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(shape));
  std::span<const uint8_t> raw = literal.raw();
  auto* out = static_cast<uint8_t*>(result.untyped_data());
  if (literal.is_splat()) {
    for (int64_t i = 0; i < result.element_count(); ++i) std::memcpy(out + i * raw.size(), raw.data(), raw.size());
  } else if (!raw.empty()) {
    std::memcpy(out, raw.data(), raw.size());
  }
  return result;
}

}  // namespace vkhlo::internal
