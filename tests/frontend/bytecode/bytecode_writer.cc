#include "tests/frontend/bytecode/bytecode_writer.h"

#include <algorithm>

namespace vkhlo::testing {

Bytes& Bytes::VarInt(uint64_t value) {
  // The number of trailing zeros of the first byte says how many bytes follow.
  for (int extra = 0; extra < 8; ++extra) {
    const int bits = 7 * (extra + 1);
    if (value < (uint64_t{1} << bits)) {
      const uint64_t encoded = (value << (extra + 1)) | (uint64_t{1} << extra);
      for (int i = 0; i <= extra; ++i) data_.push_back(static_cast<uint8_t>(encoded >> (8 * i)));
      return *this;
    }
  }
  data_.push_back(0);
  for (int i = 0; i < 8; ++i) data_.push_back(static_cast<uint8_t>(value >> (8 * i)));
  return *this;
}

uint64_t BytecodeWriter::String(std::string_view s) {
  for (size_t i = 0; i < strings_.size(); ++i) {
    if (strings_[i] == s) return i;
  }
  strings_.emplace_back(s);
  return strings_.size() - 1;
}

uint64_t BytecodeWriter::Dialect(std::string_view name) {
  const uint64_t s = String(name);
  for (size_t i = 0; i < dialects_.size(); ++i) {
    if (dialects_[i] == s) return i;
  }
  dialects_.push_back(s);
  return dialects_.size() - 1;
}

uint64_t BytecodeWriter::OpName(std::string_view dialect, std::string_view name, bool registered) {
  op_names_.push_back({Dialect(dialect), {String(name), registered}});
  return op_names_.size() - 1;
}

uint64_t BytecodeWriter::Attribute(std::string_view dialect, const Bytes& encoding, bool custom) {
  attributes_.push_back(Entry{Dialect(dialect), encoding.data(), custom});
  return attributes_.size() - 1;
}

uint64_t BytecodeWriter::Type(std::string_view dialect, const Bytes& encoding, bool custom) {
  types_.push_back(Entry{Dialect(dialect), encoding.data(), custom});
  return types_.size() - 1;
}

uint64_t BytecodeWriter::Properties(const Bytes& encoding) {
  properties_.push_back(encoding.data());
  return properties_.size() - 1;
}

Bytes BytecodeWriter::Offsets(const std::vector<Entry>& entries) const {
  Bytes out;
  for (size_t i = 0; i < entries.size();) {
    size_t end = i;
    while (end < entries.size() && entries[end].dialect == entries[i].dialect) ++end;
    out.VarInt(entries[i].dialect).VarInt(end - i);
    for (; i < end; ++i) out.VarIntWithFlag(entries[i].bytes.size(), entries[i].custom);
  }
  return out;
}

std::vector<uint8_t> BytecodeWriter::Finish(const Bytes& ir, uint64_t version, std::string_view producer,
                                            const std::vector<uint8_t>& omit) const {
  Bytes file;
  file.Raw({'M', 'L', 0xEF, 'R'}).VarInt(version);
  for (char c : producer) file.Byte(static_cast<uint8_t>(c));
  file.Byte(0);

  Bytes dialects;
  dialects.VarInt(dialects_.size());
  for (uint64_t d : dialects_) {
    if (version >= 1) {
      dialects.VarIntWithFlag(d, false);
    } else {
      dialects.VarInt(d);
    }
  }
  if (version >= 4) dialects.VarInt(op_names_.size());
  for (const auto& [dialect, name] : op_names_) {
    dialects.VarInt(dialect).VarInt(1);
    if (version >= 5) {
      dialects.VarIntWithFlag(name.first, name.second);
    } else {
      dialects.VarInt(name.first);
    }
  }
  Bytes offsets;
  offsets.VarInt(attributes_.size()).VarInt(types_.size());
  Bytes attribute_offsets = Offsets(attributes_), type_offsets = Offsets(types_);
  offsets.Raw(attribute_offsets.data()).Raw(type_offsets.data());
  Bytes attr_type;
  for (const Entry& e : attributes_) attr_type.Raw(e.bytes);
  for (const Entry& e : types_) attr_type.Raw(e.bytes);
  Bytes strings;
  strings.VarInt(strings_.size());
  for (size_t i = strings_.size(); i-- > 0;) strings.VarInt(strings_[i].size() + 1);
  for (const std::string& s : strings_) {
    strings.Raw(std::vector<uint8_t>(s.begin(), s.end())).Byte(0);
  }
  Bytes properties;
  properties.VarInt(properties_.size());
  for (const auto& p : properties_) properties.Blob(p);
  const std::pair<uint8_t, const Bytes*> sections[] = {{1, &dialects}, {3, &offsets}, {2, &attr_type}, {4, &ir},
                                                       {0, &strings}, {8, &properties}};
  for (const auto& [id, contents] : sections) {
    if (id == 8 && version < 5) continue;
    if (std::find(omit.begin(), omit.end(), id) == omit.end()) file.Section(id, *contents);
  }
  return file.data();
}

Bytes MinimalModule::Ir(const Bytes* body_ops, uint64_t num_body_ops, uint64_t num_values) const {
  Bytes body;
  if (body_ops != nullptr) {
    body.Raw(body_ops->data());
  } else {
    // %0 = vhlo.constant_v1 (properties: value) : tensor<f32>; vhlo.return_v1 %0
    body.VarInt(constant_op).Byte(0x42).VarInt(unknown_location).VarInt(constant_properties).VarInt(1).VarInt(scalar);
    body.VarInt(return_op).Byte(0x04).VarInt(unknown_location).VarInt(1).VarInt(0);
  }
  Bytes function_region;  // one block, `num_values` values, no arguments
  function_region.VarInt(1).VarInt(num_values).VarIntWithFlag(num_body_ops, false).Raw(body.data());
  return ModuleOfOneFunction(module_op, module_properties, func_op, func_properties, unknown_location, function_region);
}

Bytes ModuleOfOneFunction(uint64_t module_op, uint64_t module_properties, uint64_t func_op, uint64_t func_properties,
                          uint64_t location, const Bytes& function_region) {
  Bytes module_region;
  module_region.VarInt(1).VarInt(0).VarIntWithFlag(1, false);
  module_region.VarInt(func_op).Byte(0x50).VarInt(location).VarInt(func_properties).VarIntWithFlag(1, true);
  module_region.Section(4, function_region);
  Bytes ir;
  ir.VarIntWithFlag(1, false);
  ir.VarInt(module_op).Byte(0x50).VarInt(location).VarInt(module_properties).VarIntWithFlag(1, true);
  ir.Section(4, module_region);
  return ir;
}

MinimalModule MakeMinimalModule() {
  MinimalModule m;
  BytecodeWriter& w = m.writer;
  w.Dialect("builtin");
  w.Dialect("vhlo");
  m.module_op = w.OpName("builtin", "module");
  m.func_op = w.OpName("vhlo", "func_v1");
  m.constant_op = w.OpName("vhlo", "constant_v1");
  m.return_op = w.OpName("vhlo", "return_v1");
  m.unknown_location = w.Attribute("builtin", Bytes().VarInt(15));
  m.f32 = w.Type("vhlo", Bytes().VarInt(4));
  m.scalar = w.Type("vhlo", Bytes().VarInt(20).VarInt(0).VarInt(m.f32));
  m.function_type = w.Type("vhlo", Bytes().VarInt(8).VarInt(0).VarInt(1).VarInt(m.scalar));
  m.name = w.Attribute("vhlo", Bytes().VarInt(14).VarInt(w.String("main")));
  m.type = w.Attribute("vhlo", Bytes().VarInt(17).VarInt(m.function_type));
  m.empty_string = w.Attribute("vhlo", Bytes().VarInt(14).VarInt(w.String("")));
  m.empty_array = w.Attribute("vhlo", Bytes().VarInt(1).VarInt(0));
  m.constant_value = w.Attribute("vhlo", Bytes().VarInt(15).VarInt(m.scalar).Blob({0x00, 0x00, 0x80, 0x3F}));
  m.module_properties = w.Properties(Bytes().VarIntWithFlag(0, false).VarIntWithFlag(0, false));
  // func_v1: arg_attrs, function_type, res_attrs, sym_name, sym_visibility (sorted by name).
  m.func_properties =
      w.Properties(Bytes().VarInt(m.empty_array).VarInt(m.type).VarInt(m.empty_array).VarInt(m.name).VarInt(m.empty_string));
  m.constant_properties = w.Properties(Bytes().VarInt(m.constant_value));
  return m;
}

}  // namespace vkhlo::testing
