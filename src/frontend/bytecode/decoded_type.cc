#include "frontend/bytecode/decoded_type.h"

#include <fmt/format.h>

#include <limits>

namespace vkhlo::frontend::bytecode {
namespace {

std::string DimsSpelling(const std::vector<int64_t>& dims) {
  std::string s;
  for (int64_t d : dims) s += (d == std::numeric_limits<int64_t>::min() ? std::string("?") : std::to_string(d)) + "x";
  return s;
}

}  // namespace

DecodedType DecodedType::Value(ir::Type type) {
  DecodedType t;
  t.kind = Kind::kValue;
  t.spelling = type.ToString();
  t.value = std::move(type);
  return t;
}

DecodedType DecodedType::Element(ir::ElementType element) {
  DecodedType t;
  t.kind = Kind::kElement;
  t.element = element;
  t.spelling = std::string(ir::ElementTypeName(element));
  return t;
}

DecodedType DecodedType::Unsupported(std::string spelling) {
  DecodedType t;
  t.kind = Kind::kUnsupported;
  t.spelling = std::move(spelling);
  return t;
}

DecodedType DecodedType::Index() {
  DecodedType t;
  t.kind = Kind::kIndex;
  t.spelling = "index";
  return t;
}

DecodedType DecodedType::None() {
  DecodedType t;
  t.kind = Kind::kNone;
  t.spelling = "none";
  return t;
}

DecodedType MakeComplexType(const DecodedType& part) {
  if (part.kind == DecodedType::Kind::kElement && part.element == ir::ElementType::kF32) {
    return DecodedType::Element(ir::ElementType::kC64);
  }
  if (part.kind == DecodedType::Kind::kElement && part.element == ir::ElementType::kF64) {
    return DecodedType::Element(ir::ElementType::kC128);
  }
  return DecodedType::Unsupported("complex<" + part.spelling + ">");
}

StatusOr<ir::Type> DecodedType::AsValueType() const {
  if (kind == Kind::kValue) return value;
  switch (kind) {
    case Kind::kElement:
    case Kind::kQuantized:
    case Kind::kIndex:
      return InvalidArgumentError(fmt::format("expected a tensor, tuple or token type, found the element type {}", spelling));
    case Kind::kFunction:
      return InvalidArgumentError(fmt::format("expected a tensor, tuple or token type, found the function type {}", spelling));
    default:
      return UnimplementedError(fmt::format("values of type {} are not supported (vkhlo's values are ranked "
                                            "tensors, tuples and tokens)", spelling));
  }
}

StatusOr<DecodedType> MakeTensorType(const std::vector<int64_t>& dims, const DecodedType& element,
                                     const std::vector<int64_t>* bounds) {
  const std::string spelling = "tensor<" + DimsSpelling(dims) + element.spelling + ">";
  for (int64_t d : dims) {
    if (d < 0 && !ir::IsDynamicDim(d)) return InvalidArgumentError(fmt::format("{} has a negative dimension", spelling));
  }
  if (bounds != nullptr) {
    if (bounds->size() != dims.size()) {
      return InvalidArgumentError(fmt::format("{} has {} dimension bounds, expected one per dimension", spelling,
                                              bounds->size()));
    }
    for (size_t i = 0; i < dims.size(); ++i) {
      const int64_t b = (*bounds)[i];
      if (ir::IsDynamicDim(b)) continue;
      if (b < 0) return InvalidArgumentError(fmt::format("{} has a negative bound {}", spelling, b));
      if (!ir::IsDynamicDim(dims[i])) {
        return InvalidArgumentError(fmt::format("{} has a bound on its static dimension {}", spelling, i));
      }
    }
  }
  ir::Type type;
  switch (element.kind) {
    case DecodedType::Kind::kElement:
      type = ir::Type::Tensor(element.element, dims);
      break;
    case DecodedType::Kind::kQuantized:
      type = ir::Type::QuantizedTensor(*element.quantized, dims);
      break;
    case DecodedType::Kind::kIndex:
      type = ir::Type::IndexTensor(dims);
      break;
    case DecodedType::Kind::kUnsupported:
      return DecodedType::Unsupported(spelling);
    default:
      return InvalidArgumentError(fmt::format("a tensor's element type must be a scalar type, found {}", element.spelling));
  }
  if (bounds != nullptr) type = type.WithBounds(*bounds);
  return DecodedType::Value(std::move(type));
}

StatusOr<DecodedType> MakeFunctionType(const std::vector<const DecodedType*>& inputs,
                                       const std::vector<const DecodedType*>& results) {
  auto function = std::make_shared<ir::FunctionType>();
  for (const DecodedType* t : inputs) {
    VKHLO_ASSIGN_OR_RETURN(ir::Type type, t->AsValueType());
    function->inputs.push_back(std::move(type));
  }
  for (const DecodedType* t : results) {
    VKHLO_ASSIGN_OR_RETURN(ir::Type type, t->AsValueType());
    function->results.push_back(std::move(type));
  }
  DecodedType t;
  t.kind = DecodedType::Kind::kFunction;
  t.spelling = function->ToString();
  t.function = std::move(function);
  return t;
}

StatusOr<DecodedType> MakeTupleType(const std::vector<const DecodedType*>& elements) {
  std::vector<ir::Type> types;
  for (const DecodedType* t : elements) {
    VKHLO_ASSIGN_OR_RETURN(ir::Type type, t->AsValueType());
    types.push_back(std::move(type));
  }
  return DecodedType::Value(ir::Type::Tuple(std::move(types)));
}

}  // namespace vkhlo::frontend::bytecode
