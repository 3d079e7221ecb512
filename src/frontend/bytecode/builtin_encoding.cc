// The builtin dialect's attribute, type and location encodings (llvm's
// mlir/include/mlir/IR/BuiltinDialectBytecode.td): a varint code, then the fields. They carry
// the module's own attributes, locations, and the attributes and types of ops of other
// dialects that an artifact may hold beside VHLO (check.*, chlo.*). Entries written as text
// go through vkhlo's text parser.
#include <fmt/format.h>

#include <optional>

#include "frontend/bytecode/attr_type_table.h"
#include "frontend/bytecode/encoded_values.h"
#include "frontend/parser.h"

namespace vkhlo::frontend::bytecode {
namespace {

using ir::ElementType;

std::optional<ElementType> IntegerType(uint64_t width, uint64_t signedness) {
  if (width == 1 && signedness == 0) return ElementType::kI1;
  const bool is_unsigned = signedness == 2;
  switch (width) {
    case 2: return is_unsigned ? ElementType::kU2 : ElementType::kS2;
    case 4: return is_unsigned ? ElementType::kU4 : ElementType::kS4;
    case 8: return is_unsigned ? ElementType::kU8 : ElementType::kS8;
    case 16: return is_unsigned ? ElementType::kU16 : ElementType::kS16;
    case 32: return is_unsigned ? ElementType::kU32 : ElementType::kS32;
    case 64: return is_unsigned ? ElementType::kU64 : ElementType::kS64;
    default: return std::nullopt;
  }
}

StatusOr<const std::string*> ReadStringAttribute(AttrTypeTable& table, ByteReader& reader, std::string_view what) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* attribute, table.ReadAttribute(reader));
  if (attribute->value.AsString() == nullptr) {
    return reader.ErrorAt(at, fmt::format("{} must be a string, found {}", what, attribute->value.ToString()));
  }
  return attribute->value.AsString();
}

StatusOr<DecodedAttribute> ReadScalar(AttrTypeTable& table, ByteReader& reader, bool is_float) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(const DecodedType* type, table.ReadType(reader));
  if (type->kind == DecodedType::Kind::kIndex && !is_float) {
    VKHLO_ASSIGN_OR_RETURN(uint64_t bits, ReadFixedWidthInt(reader, 64, "an index"));
    return DecodedAttribute{ir::Attribute(ir::IntegerValue{bits, ElementType::kS64})};
  }
  const bool fits = type->kind == DecodedType::Kind::kElement &&
                    (is_float ? ir::IsFloat(type->element) : ir::IsInteger(type->element) || ir::IsBoolean(type->element));
  if (!fits) return reader.ErrorAt(at, fmt::format("{} attribute of type {}", is_float ? "a float" : "an integer", type->spelling));
  VKHLO_ASSIGN_OR_RETURN(uint64_t bits, ReadFixedWidthInt(reader, ir::BitWidth(type->element), "a value"));
  if (is_float) return DecodedAttribute{ir::Attribute(ir::FloatValue{bits, type->element})};
  if (ir::IsBoolean(type->element)) return DecodedAttribute{ir::Attribute::Bool(bits != 0)};
  return DecodedAttribute{ir::Attribute(ir::IntegerValue{bits, type->element})};
}

// A dense array (array<i64: 1, 2>) or dense elements attribute (dense<...> : tensor<...>).
StatusOr<DecodedAttribute> ReadDense(AttrTypeTable& table, ByteReader& reader, bool is_array) {
  if (!is_array) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ReadTensorData(table, reader));
    return DecodedAttribute{ir::Attribute::Dense(std::move(literal))};
  }
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(const DecodedType* type, table.ReadType(reader));
  VKHLO_ASSIGN_OR_RETURN(uint64_t size, reader.VarInt("a dense array's size"));
  if (type->kind != DecodedType::Kind::kElement || size > static_cast<uint64_t>(INT64_MAX)) {
    return reader.ErrorAt(at, fmt::format("a dense array of {} elements of type {}", size, type->spelling));
  }
  const ir::Type tensor = ir::Type::Tensor(type->element, {static_cast<int64_t>(size)});
  VKHLO_ASSIGN_OR_RETURN(std::span<const uint8_t> data, reader.Blob("dense data"));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, AtByte(at, DenseLiteral(tensor, data)));
  return DecodedAttribute{ir::Attribute(ir::Attribute::DenseArray{std::move(literal)})};
}

}  // namespace

StatusOr<DecodedAttribute> DecodeBuiltinAttribute(AttrTypeTable& table, ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t code, reader.VarInt("a builtin attribute code"));
  switch (code) {
    case 0:  // array
      return ReadArray(table, reader);
    case 1:  // dictionary
      return ReadDictionary(table, reader);
    case 2:    // string
    case 3: {  // string with a type
      VKHLO_ASSIGN_OR_RETURN(std::string_view value, table.ReadString(reader));
      return DecodedAttribute{ir::Attribute::String(std::string(value))};
    }
    case 4: {  // flat symbol reference
      VKHLO_ASSIGN_OR_RETURN(const std::string* name, ReadStringAttribute(table, reader, "a symbol name"));
      return DecodedAttribute{ir::Attribute::Symbol(*name)};
    }
    case 6: {  // type
      VKHLO_ASSIGN_OR_RETURN(const DecodedType* type, table.ReadType(reader));
      return TypeAttribute(type);
    }
    case 7:
      return DecodedAttribute{ir::Attribute::Unit()};
    case 8:
    case 9:
      return ReadScalar(table, reader, code == 9);
    case 17:
    case 18:
      return ReadDense(table, reader, code == 17);
    case 5:
      return UnimplementedError(fmt::format("byte {}: nested symbol references (@a::@b) are not supported", at));
    case 16:
      return UnimplementedError(fmt::format("byte {}: dense_resource elements are not supported; use dense<...>", at));
    case 19:
      return UnimplementedError(fmt::format("byte {}: dense string elements are not supported", at));
    case 20:
      return UnimplementedError(fmt::format("byte {}: sparse elements attributes are not supported", at));
    case 21:
      return UnimplementedError(fmt::format("byte {}: distinct attributes are not supported", at));
    case 10: case 11: case 12: case 13: case 14: case 15: case 22:
      return reader.ErrorAt(at, "a location where an attribute value was expected");
    default:
      return UnimplementedError(fmt::format("byte {}: unknown builtin attribute code {}", at, code));
  }
}

StatusOr<DecodedType> DecodeBuiltinType(AttrTypeTable& table, ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t code, reader.VarInt("a builtin type code"));
  switch (code) {
    case 0: {
      VKHLO_ASSIGN_OR_RETURN(uint64_t width_and_signedness, reader.VarInt("an integer type"));
      const uint64_t width = width_and_signedness >> 2, signedness = width_and_signedness & 3;
      if (auto element = IntegerType(width, signedness)) return DecodedType::Element(*element);
      return DecodedType::Unsupported(fmt::format("{}i{}", signedness == 1 ? "s" : signedness == 2 ? "u" : "", width));
    }
    case 1:
      return DecodedType::Index();
    case 2: {
      VKHLO_ASSIGN_OR_RETURN(auto inputs, table.ReadTypes(reader));
      VKHLO_ASSIGN_OR_RETURN(auto results, table.ReadTypes(reader));
      return AtByte(at, MakeFunctionType(inputs, results));
    }
    case 3: return DecodedType::Element(ElementType::kBF16);
    case 4: return DecodedType::Element(ElementType::kF16);
    case 5: return DecodedType::Element(ElementType::kF32);
    case 6: return DecodedType::Element(ElementType::kF64);
    case 9: {
      VKHLO_ASSIGN_OR_RETURN(const DecodedType* part, table.ReadType(reader));
      return MakeComplexType(*part);
    }
    case 12:
      return DecodedType::None();
    case 13: {
      VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> dims, reader.SignedVarInts("a tensor shape"));
      VKHLO_ASSIGN_OR_RETURN(const DecodedType* element, table.ReadType(reader));
      return AtByte(at, MakeTensorType(dims, *element));
    }
    case 15: {
      VKHLO_ASSIGN_OR_RETURN(auto elements, table.ReadTypes(reader));
      return AtByte(at, MakeTupleType(elements));
    }
    // Codes 21 to 32: the small float types, as MLIR added them (21 is tf32).
    case 21: return DecodedType::Unsupported("tf32");
    case 22: return DecodedType::Element(ElementType::kF8E5M2);
    case 23: return DecodedType::Element(ElementType::kF8E4M3);
    case 24: return DecodedType::Element(ElementType::kF8E4M3FN);
    case 25: return DecodedType::Element(ElementType::kF8E5M2FNUZ);
    case 26: return DecodedType::Element(ElementType::kF8E4M3FNUZ);
    case 27: return DecodedType::Element(ElementType::kF8E4M3B11FNUZ);
    case 28: return DecodedType::Element(ElementType::kF8E3M4);
    case 29: return DecodedType::Element(ElementType::kF4E2M1FN);
    case 30: return DecodedType::Element(ElementType::kF6E2M3FN);
    case 31: return DecodedType::Element(ElementType::kF6E3M2FN);
    case 32: return DecodedType::Element(ElementType::kF8E8M0FNU);
    case 7: return DecodedType::Unsupported("f80");
    case 8: return DecodedType::Unsupported("f128");
    case 10: case 11: return DecodedType::Unsupported("memref<...>");
    case 14: return DecodedType::Unsupported("tensor<...> with an encoding");
    case 16: case 17: return DecodedType::Unsupported("memref<*x...>");
    case 18: return DecodedType::Unsupported("tensor<*x...>");
    case 19: case 20: return DecodedType::Unsupported("vector<...>");
    default:
      return UnimplementedError(fmt::format("byte {}: unknown builtin type code {}", at, code));
  }
}

StatusOr<DecodedLocation> DecodeBuiltinLocation(AttrTypeTable& table, ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t code, reader.VarInt("a location code"));
  const auto position = [&](uint64_t line, uint64_t column, const std::string* file) {
    return DecodedLocation{*file, static_cast<uint32_t>(std::min<uint64_t>(line, UINT32_MAX)),
                           static_cast<uint32_t>(std::min<uint64_t>(column, UINT32_MAX))};
  };
  switch (code) {
    case 10: {  // call site: where the op was made (callee), else its caller
      VKHLO_ASSIGN_OR_RETURN(DecodedLocation callee, table.ReadLocation(reader));
      VKHLO_ASSIGN_OR_RETURN(DecodedLocation caller, table.ReadLocation(reader));
      return callee.line != 0 ? callee : caller;
    }
    case 11: {  // file:line:col
      VKHLO_ASSIGN_OR_RETURN(const std::string* file, ReadStringAttribute(table, reader, "a location's file name"));
      VKHLO_ASSIGN_OR_RETURN(uint64_t line, reader.VarInt("a line"));
      VKHLO_ASSIGN_OR_RETURN(uint64_t column, reader.VarInt("a column"));
      return position(line, column, file);
    }
    case 12:    // fused: the first known position
    case 13: {  // fused with metadata
      VKHLO_ASSIGN_OR_RETURN(uint64_t count, reader.Count("a fused location's size"));
      DecodedLocation first;
      for (uint64_t i = 0; i < count; ++i) {
        VKHLO_ASSIGN_OR_RETURN(DecodedLocation location, table.ReadLocation(reader));
        if (first.line == 0) first = location;
      }
      return first;
    }
    case 14: {  // name(child)
      VKHLO_RETURN_IF_ERROR(ReadStringAttribute(table, reader, "a location's name").status());
      return table.ReadLocation(reader);
    }
    case 15:
      return DecodedLocation{};
    case 22: {  // file:line:col ranges: [line, column, ...]
      VKHLO_ASSIGN_OR_RETURN(const std::string* file, ReadStringAttribute(table, reader, "a location's file name"));
      VKHLO_ASSIGN_OR_RETURN(uint64_t count, reader.Count("a location range's size"));
      uint64_t numbers[2] = {0, 0};
      for (uint64_t i = 0; i < count; ++i) {
        VKHLO_ASSIGN_OR_RETURN(uint64_t n, reader.VarInt("a line or column"));
        if (i < 2) numbers[i] = n;
      }
      return position(numbers[0], numbers[1], file);
    }
    default:
      return reader.ErrorAt(at, fmt::format("builtin attribute code {} where a location was expected", code));
  }
}

StatusOr<DecodedType> DecodeStablehloType(ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t code, reader.VarInt("a stablehlo type code"));
  if (code == 0) return DecodedType::Value(ir::Type::Token());
  return UnimplementedError(fmt::format("byte {}: stablehlo dialect type code {} (vkhlo reads its token type, code 0)",
                                        at, code));
}

StatusOr<DecodedAttribute> DecodeTextAttribute(std::string_view text) {
  VKHLO_ASSIGN_OR_RETURN(ir::Attribute attribute, frontend::ParseAttribute(text));
  return DecodedAttribute{std::move(attribute)};
}

StatusOr<DecodedType> DecodeTextType(std::string_view text) {
  if (auto element = ir::ParseElementTypeName(text)) return DecodedType::Element(*element);
  if (text == "index") return DecodedType::Index();
  StatusOr<ir::Type> type = frontend::ParseType(text);
  if (type.ok()) return DecodedType::Value(*type);
  return DecodedType::Unsupported(std::string(text));
}

}  // namespace vkhlo::frontend::bytecode
