#include "builder/type_conversion.h"

#include <utility>

namespace vkhlo::internal {

namespace {

using ir::ElementType;

constexpr std::pair<PrimitiveType, ElementType> kTypes[] = {
    {PRED, ElementType::kI1},
    {S2, ElementType::kS2},
    {S4, ElementType::kS4},
    {S8, ElementType::kS8},
    {S16, ElementType::kS16},
    {S32, ElementType::kS32},
    {S64, ElementType::kS64},
    {U2, ElementType::kU2},
    {U4, ElementType::kU4},
    {U8, ElementType::kU8},
    {U16, ElementType::kU16},
    {U32, ElementType::kU32},
    {U64, ElementType::kU64},
    {F4E2M1FN, ElementType::kF4E2M1FN},
    {F6E2M3FN, ElementType::kF6E2M3FN},
    {F6E3M2FN, ElementType::kF6E3M2FN},
    {F8E3M4, ElementType::kF8E3M4},
    {F8E4M3, ElementType::kF8E4M3},
    {F8E4M3FN, ElementType::kF8E4M3FN},
    {F8E4M3FNUZ, ElementType::kF8E4M3FNUZ},
    {F8E4M3B11FNUZ, ElementType::kF8E4M3B11FNUZ},
    {F8E5M2, ElementType::kF8E5M2},
    {F8E5M2FNUZ, ElementType::kF8E5M2FNUZ},
    {F8E8M0FNU, ElementType::kF8E8M0FNU},
    {BF16, ElementType::kBF16},
    {F16, ElementType::kF16},
    {F32, ElementType::kF32},
    {F64, ElementType::kF64},
    {C64, ElementType::kC64},
    {C128, ElementType::kC128},
};

}  // namespace

std::optional<ir::ElementType> ToElementType(PrimitiveType type) {
  for (const auto& [primitive, element] : kTypes) {
    if (primitive == type) return element;
  }
  return std::nullopt;
}

PrimitiveType FromElementType(ir::ElementType type) {
  for (const auto& [primitive, element] : kTypes) {
    if (element == type) return primitive;
  }
  return PRIMITIVE_TYPE_INVALID;
}

StatusOr<ir::Type> ToIrType(const Shape& shape) {
  VKHLO_RETURN_IF_ERROR(ShapeUtil::ValidateShape(shape));
  if (shape.IsToken()) return ir::Type::Token();
  if (shape.IsTuple()) {
    std::vector<ir::Type> elements;
    for (const Shape& element : shape.tuple_shapes()) {
      VKHLO_ASSIGN_OR_RETURN(ir::Type type, ToIrType(element));
      elements.push_back(std::move(type));
    }
    return ir::Type::Tuple(std::move(elements));
  }
  return ir::Type::Tensor(*ToElementType(shape.element_type()), shape.dimensions());
}

StatusOr<Shape> FromIrType(const ir::Type& type) {
  switch (type.kind()) {
    case ir::Type::Kind::kToken:
      return ShapeUtil::MakeTokenShape();
    case ir::Type::Kind::kTuple: {
      std::vector<Shape> elements;
      for (const ir::Type& element : type.tuple_elements()) {
        VKHLO_ASSIGN_OR_RETURN(Shape shape, FromIrType(element));
        elements.push_back(std::move(shape));
      }
      return ShapeUtil::MakeTupleShape(elements);
    }
    case ir::Type::Kind::kTensor:
      if (type.is_quantized()) {
        return InvalidArgumentError("quantized tensors have no XLA shape: " + type.ToString());
      }
      return ShapeUtil::MakeShape(FromElementType(type.element_type()), type.dims());
    case ir::Type::Kind::kInvalid:
      break;
  }
  return InvalidArgumentError("an invalid type has no XLA shape");
}

}  // namespace vkhlo::internal
