// The VHLO dialect's attribute encodings (StableHLO's VhloBytecode.cpp, "AttributeCode"): a
// varint code, then the fields. Each becomes what the StableHLO attribute means in vkhlo's IR
// (VhloLegalizeToStablehlo's generic conversion): vhlo.bool_v1 a bool, enums
// #stablehlo<kind VALUE>, vhlo.tensor_v1 dense elements, and so on. Op-specific rewrites
// (dense arrays, structured dimension numbers, dropped defaults) are the op mapping's job.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <bit>
#include <cmath>

#include "frontend/bytecode/attr_type_table.h"
#include "frontend/bytecode/encoded_values.h"

namespace vkhlo::frontend::bytecode {
namespace {

struct EnumCode {
  uint64_t code;
  std::string_view kind;  // as in #stablehlo<kind VALUE>
  uint64_t first;         // the value of names[0]
  std::vector<std::string_view> names;
};

const std::array<EnumCode, 8> kEnums = {{
    {3, "comparison_direction", 0, {"EQ", "NE", "GE", "GT", "LE", "LT"}},
    {4, "comparison_type", 0, {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
    {7, "fft_type", 0, {"FFT", "IFFT", "RFFT", "IRFFT"}},
    {11, "precision", 0, {"DEFAULT", "HIGH", "HIGHEST"}},
    {12, "rng_algorithm", 0, {"DEFAULT", "THREE_FRY", "PHILOX"}},
    {13, "rng_distribution", 1, {"UNIFORM", "NORMAL"}},
    {16, "transpose", 0, {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
    {19, "result_accuracy_mode", 0, {"DEFAULT", "HIGHEST", "TOLERANCE"}},
}};

StatusOr<DecodedAttribute> ReadEnum(ByteReader& reader, const EnumCode& e) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t value, reader.VarInt(e.kind));
  if (value < e.first || value - e.first >= e.names.size()) {
    return reader.ErrorAt(at, fmt::format("unknown {} value {} (expected {} to {})", e.kind, value, e.first,
                                          e.first + e.names.size() - 1));
  }
  return DecodedAttribute{ir::Attribute::Enum("stablehlo", std::string(e.kind), std::string(e.names[value - e.first]))};
}

StatusOr<double> ReadF64(ByteReader& reader, std::string_view what) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t bits, ReadFloatBits(reader, ir::ElementType::kF64, what));
  return std::bit_cast<double>(bits);
}

// The element type of an integer or float attribute.
StatusOr<ir::ElementType> ScalarAttributeType(ByteReader& reader, size_t at, const DecodedType& type, bool want_float) {
  if (type.kind == DecodedType::Kind::kIndex && !want_float) return ir::ElementType::kS64;  // "index reads as i64"
  if (type.kind == DecodedType::Kind::kElement &&
      (want_float ? ir::IsFloat(type.element) : ir::IsInteger(type.element) || ir::IsBoolean(type.element))) {
    return type.element;
  }
  return reader.ErrorAt(at, fmt::format("{} attribute of type {}", want_float ? "a float" : "an integer", type.spelling));
}

// The sharding attributes of StableHLO 1.16+ (meshes and axis references, used by collectives'
// replica groups) have no structured form in vkhlo's IR: they are kept as their text.
StatusOr<DecodedAttribute> ReadShardingAttribute(AttrTypeTable& table, ByteReader& reader, uint64_t code) {
  const auto text = [](const DecodedAttribute* a) { return a->value.ToString(); };
  std::string spelling;
  switch (code) {
    case 21: {
      VKHLO_ASSIGN_OR_RETURN(int64_t pre_size, reader.SignedVarInt("a sub-axis pre-size"));
      VKHLO_ASSIGN_OR_RETURN(int64_t size, reader.SignedVarInt("a sub-axis size"));
      spelling = fmt::format("#stablehlo.sub_axis_info<pre_size = {}, size = {}>", pre_size, size);
      break;
    }
    case 22: {
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* name, table.ReadAttribute(reader));
      VKHLO_ASSIGN_OR_RETURN(uint64_t has_sub_axis, reader.VarInt("an axis reference's sub-axis flag"));
      spelling = "#stablehlo.axis_ref<name = " + text(name);
      if (has_sub_axis) {
        VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* sub_axis, table.ReadAttribute(reader));
        spelling += ", sub_axis_info = " + text(sub_axis);
      }
      spelling += ">";
      break;
    }
    case 23: {
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* mesh, table.ReadAttribute(reader));
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* axes, table.ReadAttribute(reader));
      // A mesh given by name refers to a symbol.
      const std::string mesh_text =
          mesh->value.AsString() ? ir::Attribute::Symbol(*mesh->value.AsString()).ToString() : text(mesh);
      spelling = fmt::format("#stablehlo.replica_group_mesh_axes<mesh = {}, axes = {}>", mesh_text, text(axes));
      break;
    }
    case 24: {
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* name, table.ReadAttribute(reader));
      VKHLO_ASSIGN_OR_RETURN(int64_t size, reader.SignedVarInt("a mesh axis size"));
      spelling = fmt::format("#stablehlo.mesh_axis<name = {}, size = {}>", text(name), size);
      break;
    }
    default: {  // 25: mesh
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* axes, table.ReadAttribute(reader));
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* device_ids, table.ReadOptionalAttribute(reader));
      spelling = "#stablehlo.mesh<axes = " + text(axes);
      if (device_ids != nullptr) spelling += ", device_ids = " + text(device_ids);
      spelling += ">";
      break;
    }
  }
  return DecodedAttribute{ir::Attribute(ir::OpaqueValue{std::move(spelling)})};
}

}  // namespace

StatusOr<DecodedAttribute> DecodeVhloAttribute(AttrTypeTable& table, ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t code, reader.VarInt("a vhlo attribute code"));
  for (const EnumCode& e : kEnums) {
    if (e.code == code) return ReadEnum(reader, e);
  }
  switch (code) {
    case 1:  // array
      return ReadArray(table, reader);
    case 2: {  // boolean
      VKHLO_ASSIGN_OR_RETURN(uint64_t value, reader.VarInt("a boolean"));
      if (value > 1) return reader.ErrorAt(at, fmt::format("a boolean of value {} (expected 0 or 1)", value));
      return DecodedAttribute{ir::Attribute::Bool(value == 1)};
    }
    case 5: {  // custom_call api_version: an i32 in StableHLO
      VKHLO_ASSIGN_OR_RETURN(uint64_t value, reader.VarInt("a custom_call API version"));
      if (value > 4) return reader.ErrorAt(at, fmt::format("unknown custom_call API version {} (0 to 4)", value));
      return DecodedAttribute{ir::Attribute::Int(static_cast<int64_t>(value), ir::ElementType::kS32)};
    }
    case 6:  // dictionary
      return ReadDictionary(table, reader);
    case 8:    // float
    case 9: {  // integer
      const size_t type_at = reader.offset();
      VKHLO_ASSIGN_OR_RETURN(const DecodedType* type, table.ReadType(reader));
      VKHLO_ASSIGN_OR_RETURN(ir::ElementType element, ScalarAttributeType(reader, type_at, *type, code == 8));
      const int width = type->kind == DecodedType::Kind::kIndex ? 64 : ir::BitWidth(element);
      VKHLO_ASSIGN_OR_RETURN(uint64_t bits, ReadFixedWidthInt(reader, width, code == 8 ? "a float" : "an integer"));
      if (code == 8) return DecodedAttribute{ir::Attribute(ir::FloatValue{bits, element})};
      if (ir::IsBoolean(element)) return DecodedAttribute{ir::Attribute::Bool(bits != 0)};
      return DecodedAttribute{ir::Attribute(ir::IntegerValue{bits, element})};
    }
    case 10: {  // output_operand_alias
      ir::OutputOperandAlias alias;
      VKHLO_ASSIGN_OR_RETURN(alias.output_tuple_indices, reader.SignedVarInts("output tuple indices"));
      VKHLO_ASSIGN_OR_RETURN(alias.operand_index, reader.SignedVarInt("an operand index"));
      VKHLO_ASSIGN_OR_RETURN(alias.operand_tuple_indices, reader.SignedVarInts("operand tuple indices"));
      return DecodedAttribute{ir::Attribute(std::move(alias))};
    }
    case 14: {  // string
      VKHLO_ASSIGN_OR_RETURN(std::string_view value, table.ReadString(reader));
      return DecodedAttribute{ir::Attribute::String(std::string(value))};
    }
    case 15: {  // tensor
      VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ReadTensorData(table, reader));
      return DecodedAttribute{ir::Attribute::Dense(std::move(literal))};
    }
    case 17: {  // type
      VKHLO_ASSIGN_OR_RETURN(const DecodedType* type, table.ReadType(reader));
      return TypeAttribute(type);
    }
    case 18: {  // type_extensions: only ever a tensor type's encoding (its dimensions' bounds)
      DecodedAttribute attribute;
      VKHLO_ASSIGN_OR_RETURN(attribute.bounds, reader.SignedVarInts("dimension bounds"));
      attribute.is_type_extensions = true;
      attribute.value = ir::Attribute(ir::OpaqueValue{"#stablehlo.bounds<...>"});
      attribute.expressible = false;  // only a tensor type takes it
      return attribute;
    }
    case 20: {  // result_accuracy
      ir::ResultAccuracy accuracy;
      VKHLO_ASSIGN_OR_RETURN(accuracy.atol, ReadF64(reader, "atol"));
      VKHLO_ASSIGN_OR_RETURN(accuracy.rtol, ReadF64(reader, "rtol"));
      if (std::isnan(accuracy.atol) || std::isnan(accuracy.rtol)) {
        return reader.ErrorAt(at, "a result accuracy's atol and rtol must be numbers, found NaN");
      }
      VKHLO_ASSIGN_OR_RETURN(accuracy.ulps, reader.SignedVarInt("ulps"));
      const size_t mode_at = reader.offset();
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* mode, table.ReadAttribute(reader));
      const auto* value = mode->value.as<ir::EnumValue>();
      if (value == nullptr || value->kind != "result_accuracy_mode") {
        return reader.ErrorAt(mode_at, fmt::format("a result accuracy's mode must be a result_accuracy_mode, found {}",
                                                   mode->value.ToString()));
      }
      accuracy.mode = value->value;
      return DecodedAttribute{ir::Attribute(std::move(accuracy))};
    }
    case 21:
    case 22:
    case 23:
    case 24:
    case 25:
      return ReadShardingAttribute(table, reader, code);
    default:
      return UnimplementedError(fmt::format("byte {}: unknown vhlo attribute code {} (vkhlo knows the codes of "
                                            "StableHLO 0.9.0 to 1.20.0: 1 to 25)", at, code));
  }
}

}  // namespace vkhlo::frontend::bytecode
