#include "frontend/bytecode/op_properties.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace vkhlo::frontend::bytecode {

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

StatusOr<std::vector<ir::NamedAttribute>> OtherDialectAttributes(const BytecodeFile& file, AttrTypeTable& table,
                                                                 const EncodedOp& op) {
  (void)file;
  (void)table;
  std::vector<ir::NamedAttribute> attributes;
  for (const auto& [name, value] : op.attributes) attributes.emplace_back(std::string(name), value->value);
  if (!op.has_properties) return attributes;
  if (op.properties_attribute != nullptr) {
    const auto* dictionary = op.properties_attribute->value.as<ir::Attribute::Dictionary>();
    if (dictionary == nullptr) {
      return InvalidArgumentError(fmt::format("byte {}: the properties of {}.{} must be a dictionary, found {}",
                                              op.offset, op.dialect, op.name,
                                              op.properties_attribute->value.ToString()));
    }
    attributes.insert(attributes.end(), dictionary->begin(), dictionary->end());
    return attributes;
  }
  return UnimplementedError(fmt::format("byte {}: {}.{} has properties in the {} dialect's own encoding, which vkhlo "
                                        "does not read", op.offset, op.dialect, op.name, op.dialect));
}

}  // namespace vkhlo::frontend::bytecode
