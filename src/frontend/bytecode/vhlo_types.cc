// The VHLO dialect's type encodings (StableHLO's VhloBytecode.cpp, "TypeCode"): a varint code,
// then the type's fields.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bit>
#include <optional>

#include "frontend/bytecode/attr_type_table.h"
#include "frontend/bytecode/encoded_values.h"

namespace vkhlo::frontend::bytecode {
namespace {

using ir::ElementType;

// Codes of the types without fields that are element types.
std::optional<ElementType> ScalarTypeForCode(uint64_t code) {
  switch (code) {
    case 0: return ElementType::kI1;
    case 2: return ElementType::kBF16;
    case 3: return ElementType::kF16;
    case 4: return ElementType::kF32;
    case 5: return ElementType::kF64;
    case 6: return ElementType::kF8E4M3FN;
    case 7: return ElementType::kF8E5M2;
    case 10: return ElementType::kS4;
    case 11: return ElementType::kS8;
    case 12: return ElementType::kS16;
    case 13: return ElementType::kS32;
    case 14: return ElementType::kS64;
    case 15: return ElementType::kU4;
    case 16: return ElementType::kU8;
    case 17: return ElementType::kU16;
    case 18: return ElementType::kU32;
    case 19: return ElementType::kU64;
    case 27: return ElementType::kF8E4M3FNUZ;
    case 28: return ElementType::kF8E5M2FNUZ;
    case 29: return ElementType::kF8E4M3B11FNUZ;
    case 31: return ElementType::kS2;
    case 32: return ElementType::kU2;
    case 35: return ElementType::kF8E4M3;
    case 36: return ElementType::kF8E3M4;
    case 37: return ElementType::kF4E2M1FN;
    case 38: return ElementType::kF6E2M3FN;
    case 39: return ElementType::kF6E3M2FN;
    case 40: return ElementType::kF8E8M0FNU;
    default: return std::nullopt;
  }
}

// Integer storage of a quantized type: its width from the type, its signedness from the flags.
StatusOr<ElementType> QuantizedStorage(ByteReader& reader, const DecodedType& storage, bool is_signed) {
  if (storage.kind != DecodedType::Kind::kElement || !ir::IsInteger(storage.element)) {
    return reader.Error(fmt::format("a quantized type's storage must be an integer type, found {}", storage.spelling));
  }
  const int bits = ir::BitWidth(storage.element);
  for (ElementType t : {ElementType::kS2, ElementType::kS4, ElementType::kS8, ElementType::kS16, ElementType::kS32,
                        ElementType::kS64, ElementType::kU2, ElementType::kU4, ElementType::kU8, ElementType::kU16,
                        ElementType::kU32, ElementType::kU64}) {
    if (ir::BitWidth(t) == bits && ir::IsSignedInteger(t) == is_signed) return t;
  }
  return reader.Error(fmt::format("no {}-bit quantized storage type", bits));
}

// flags, storage, expressed, then the per-tensor (scale, zero point, min, max) or per-axis
// (dimension, min, max, scales, zero points) fields.
StatusOr<DecodedType> ReadQuantized(AttrTypeTable& table, ByteReader& reader, bool per_axis) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t flags, reader.VarInt("quantization flags"));
  VKHLO_ASSIGN_OR_RETURN(const DecodedType* storage, table.ReadType(reader));
  VKHLO_ASSIGN_OR_RETURN(const DecodedType* expressed, table.ReadType(reader));
  auto q = std::make_shared<ir::QuantizedElement>();
  VKHLO_ASSIGN_OR_RETURN(q->storage, QuantizedStorage(reader, *storage, (flags & 1) != 0));
  if (expressed->kind != DecodedType::Kind::kElement || !ir::IsFloat(expressed->element)) {
    return reader.Error(fmt::format("a quantized type's expressed type must be a float type, found {}",
                                    expressed->spelling));
  }
  q->expressed = expressed->element;
  const auto read_scale = [&]() -> StatusOr<double> {
    VKHLO_ASSIGN_OR_RETURN(uint64_t bits, ReadFloatBits(reader, ElementType::kF64, "a quantization scale"));
    return std::bit_cast<double>(bits);
  };
  if (!per_axis) {
    VKHLO_ASSIGN_OR_RETURN(double scale, read_scale());
    VKHLO_ASSIGN_OR_RETURN(int64_t zero_point, reader.SignedVarInt("a zero point"));
    q->scales = {scale};
    q->zero_points = {zero_point};
    VKHLO_ASSIGN_OR_RETURN(q->storage_min, reader.SignedVarInt("the storage minimum"));
    VKHLO_ASSIGN_OR_RETURN(q->storage_max, reader.SignedVarInt("the storage maximum"));
  } else {
    const size_t at = reader.offset();
    VKHLO_ASSIGN_OR_RETURN(uint64_t dimension, reader.VarInt("the quantized dimension"));
    if (dimension > INT32_MAX) return reader.ErrorAt(at, fmt::format("quantized dimension {} is too large", dimension));
    q->quantized_dimension = static_cast<int32_t>(dimension);
    VKHLO_ASSIGN_OR_RETURN(q->storage_min, reader.SignedVarInt("the storage minimum"));
    VKHLO_ASSIGN_OR_RETURN(q->storage_max, reader.SignedVarInt("the storage maximum"));
    VKHLO_ASSIGN_OR_RETURN(uint64_t scales, reader.Count("the scale count"));
    for (uint64_t i = 0; i < scales; ++i) {
      VKHLO_ASSIGN_OR_RETURN(double scale, read_scale());
      q->scales.push_back(scale);
    }
    VKHLO_ASSIGN_OR_RETURN(uint64_t zero_points, reader.Count("the zero point count"));
    for (uint64_t i = 0; i < zero_points; ++i) {
      VKHLO_ASSIGN_OR_RETURN(int64_t zero_point, reader.SignedVarInt("a zero point"));
      q->zero_points.push_back(zero_point);
    }
    if (q->scales.empty() || q->scales.size() != q->zero_points.size()) {
      return reader.Error(fmt::format("a per-axis quantized type with {} scales and {} zero points", q->scales.size(),
                                      q->zero_points.size()));
    }
  }
  if (q->storage_min > q->storage_max) {
    return reader.Error(fmt::format("quantized storage range <{}:{}> is empty", q->storage_min, q->storage_max));
  }
  DecodedType t;
  t.kind = DecodedType::Kind::kQuantized;
  t.spelling = ir::QuantizedElementToString(*q);
  t.quantized = std::move(q);
  return t;
}

}  // namespace

StatusOr<DecodedType> DecodeVhloType(AttrTypeTable& table, ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t code, reader.VarInt("a vhlo type code"));
  if (auto scalar = ScalarTypeForCode(code)) return DecodedType::Element(*scalar);
  switch (code) {
    case 1: {  // complex
      VKHLO_ASSIGN_OR_RETURN(const DecodedType* part, table.ReadType(reader));
      return MakeComplexType(*part);
    }
    case 8: {  // function
      VKHLO_ASSIGN_OR_RETURN(auto inputs, table.ReadTypes(reader));
      VKHLO_ASSIGN_OR_RETURN(auto results, table.ReadTypes(reader));
      return AtByte(at, MakeFunctionType(inputs, results));
    }
    case 9:
      return DecodedType::Index();
    case 21: {  // a ranked tensor with an encoding (first): the bounds of its dynamic dimensions
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* encoding, table.ReadAttribute(reader));
      VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> dims, reader.SignedVarInts("a tensor shape"));
      VKHLO_ASSIGN_OR_RETURN(const DecodedType* element, table.ReadType(reader));
      if (!encoding->is_type_extensions) {
        return UnimplementedError(fmt::format("byte {}: a tensor type with the encoding {}: vkhlo takes only "
                                              "#stablehlo.type_extensions (bounds)", at, encoding->value.ToString()));
      }
      return AtByte(at, MakeTensorType(dims, *element, &encoding->bounds));
    }
    case 20: {
      VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> dims, reader.SignedVarInts("a tensor shape"));
      VKHLO_ASSIGN_OR_RETURN(const DecodedType* element, table.ReadType(reader));
      return AtByte(at, MakeTensorType(dims, *element));
    }
    case 22:
      return DecodedType::Value(ir::Type::Token());
    case 23: {
      VKHLO_ASSIGN_OR_RETURN(auto elements, table.ReadTypes(reader));
      return AtByte(at, MakeTupleType(elements));
    }
    case 24:
    case 30:
      return ReadQuantized(table, reader, code == 30);
    case 25: {
      VKHLO_ASSIGN_OR_RETURN(const DecodedType* element, table.ReadType(reader));
      return DecodedType::Unsupported("tensor<*x" + element->spelling + ">");
    }
    case 26:
      return DecodedType::Unsupported("!stablehlo.witness");
    case 33:
      return DecodedType::None();
    case 34:
      return DecodedType::Unsupported("tf32");
    case 41: {
      VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> dims, reader.SignedVarInts("a tensor shape"));
      VKHLO_ASSIGN_OR_RETURN(const DecodedType* element, table.ReadType(reader));
      return DecodedType::Unsupported(fmt::format("!stablehlo.buffer<{}x{}>", fmt::join(dims, "x"), element->spelling));
    }
    case 42: {
      VKHLO_ASSIGN_OR_RETURN(auto types, table.ReadTypes(reader));
      return DecodedType::Unsupported(fmt::format("!stablehlo.future<{} types>", types.size()));
    }
    default:
      return UnimplementedError(fmt::format("byte {}: unknown vhlo type code {} (vkhlo knows the codes of StableHLO "
                                            "0.9.0 to 1.20.0: 0 to 42)", at, code));
  }
}

}  // namespace vkhlo::frontend::bytecode
