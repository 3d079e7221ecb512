#include "frontend/bytecode/op_properties.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace vkhlo::frontend::bytecode {
namespace {

// The properties of the chlo ops a test artifact may hold (serialized with other dialects
// allowed; JAX's own exports decompose chlo): ODS's encoding, one attribute per property sorted
// by name, an optional one as `varint (index << 1 | present)`.
struct Property {
  std::string_view name;
  bool optional;
};
struct OpProperties {
  std::string_view op;
  std::vector<Property> properties;
};

const std::vector<OpProperties>& KnownProperties() {
  static const auto* known = new std::vector<OpProperties>{
      {"chlo.top_k", {{"k", false}}},
      {"chlo.ragged_dot", {{"precision_config", true}, {"ragged_dot_dimension_numbers", false}}},
      {"chlo.constant", {{"value", false}}},
      {"chlo.constant_like", {{"value", false}}},
      {"chlo.broadcast_compare",
       {{"broadcast_dimensions", true}, {"compare_type", true}, {"comparison_direction", false}}},
  };
  return *known;
}

}  // namespace

StatusOr<VhloAttributeMap> InherentVhloAttributes(const BytecodeFile& file, AttrTypeTable& table, const VhloOp& spec,
                                                  const EncodedOp& op) {
  VhloAttributeMap inherent;
  if (op.has_properties) {
    if (!op.registered) {
      return InvalidArgumentError(fmt::format("byte {}: vhlo.{} was written as an op of an unknown dialect", op.offset,
                                              op.name));
    }
    ByteReader reader = file.Reader(op.properties);
    for (std::string_view name : spec.attributes) {
      if (reader.empty()) {
        return reader.Error(fmt::format("the properties of vhlo.{} (byte {}) end before attribute {}; the op has {}",
                                        op.name, op.offset, name, fmt::join(spec.attributes, ", ")));
      }
      VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* value, table.ReadAttribute(reader));
      inherent.emplace_back(name, value);
    }
    if (!reader.empty()) {
      return reader.Error(fmt::format("the properties of vhlo.{} (byte {}) hold more than its {} attributes", op.name,
                                      op.offset, spec.attributes.size()));
    }
    return inherent;
  }
  for (const auto& [name, value] : op.attributes) {
    if (std::find(spec.attributes.begin(), spec.attributes.end(), name) != spec.attributes.end()) {
      inherent.emplace_back(name, value);
    }
  }
  return inherent;
}

Status AppendForIr(const EncodedOp& op, std::string_view name, const DecodedAttribute& value,
                   std::vector<ir::NamedAttribute>& out) {
  StatusOr<std::optional<ir::Attribute>> kept = AttributeForIr(name, value);
  if (!kept.ok()) {
    return Status(kept.status().code(),
                  fmt::format("byte {}: {}.{}: {}", op.offset, op.dialect, op.name, kept.status().message()));
  }
  if (*kept) out.emplace_back(std::string(name), std::move(**kept));
  return OkStatus();
}

StatusOr<std::vector<ir::NamedAttribute>> OtherDialectAttributes(const BytecodeFile& file, AttrTypeTable& table,
                                                                 const EncodedOp& op) {
  std::vector<ir::NamedAttribute> attributes;
  const auto add = [&](std::string_view name, const DecodedAttribute& value) {
    return AppendForIr(op, name, value, attributes);
  };
  for (const auto& [name, value] : op.attributes) VKHLO_RETURN_IF_ERROR(add(name, *value));
  if (!op.has_properties) return attributes;
  if (op.properties_attribute != nullptr) {
    if (!op.properties_attribute->value.is<ir::Attribute::Dictionary>()) {
      return InvalidArgumentError(fmt::format("byte {}: the properties of {}.{} must be a dictionary, found {}",
                                              op.offset, op.dialect, op.name,
                                              op.properties_attribute->value.ToString()));
    }
    for (const auto& [name, value] : op.properties_attribute->entries) VKHLO_RETURN_IF_ERROR(add(name, *value));
    return attributes;
  }
  const std::string full_name = fmt::format("{}.{}", op.dialect, op.name);
  const OpProperties* known = nullptr;
  for (const OpProperties& p : KnownProperties()) {
    if (p.op == full_name) known = &p;
  }
  // The binary chlo ops have one optional property, broadcast_dimensions.
  static const OpProperties kBroadcastBinary{"", {{"broadcast_dimensions", true}}};
  if (known == nullptr && full_name.starts_with("chlo.broadcast_") && full_name != "chlo.broadcast_select") {
    known = &kBroadcastBinary;
  }
  if (known == nullptr) {
    return UnimplementedError(fmt::format("byte {}: {} has properties in the {} dialect's own encoding, which vkhlo "
                                          "does not read", op.offset, full_name, op.dialect));
  }
  ByteReader reader = file.Reader(op.properties);
  for (const Property& property : known->properties) {
    const DecodedAttribute* value = nullptr;
    if (property.optional) {
      VKHLO_ASSIGN_OR_RETURN(value, table.ReadOptionalAttribute(reader));
    } else {
      VKHLO_ASSIGN_OR_RETURN(value, table.ReadAttribute(reader));
    }
    if (value != nullptr) VKHLO_RETURN_IF_ERROR(add(property.name, *value));
  }
  if (!reader.empty()) {
    return reader.Error(fmt::format("the properties of {} (byte {}) hold more than its {} attributes", full_name,
                                    op.offset, known->properties.size()));
  }
  return attributes;
}

}  // namespace vkhlo::frontend::bytecode
