// A small MLIR bytecode writer for the reader's tests: the container's encodings, byte by byte,
// so a test can build exactly the file it needs — valid, or broken in one chosen place.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vkhlo::testing {

// Bytes with the container's primitive encodings.
class Bytes {
 public:
  Bytes& Byte(uint8_t b) { data_.push_back(b); return *this; }
  Bytes& Raw(const std::vector<uint8_t>& bytes) { data_.insert(data_.end(), bytes.begin(), bytes.end()); return *this; }
  Bytes& VarInt(uint64_t value);
  Bytes& SignedVarInt(int64_t value) { return VarInt((static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63)); }
  Bytes& VarIntWithFlag(uint64_t value, bool flag) { return VarInt(value << 1 | (flag ? 1 : 0)); }
  Bytes& Blob(const std::vector<uint8_t>& bytes) { return VarInt(bytes.size()).Raw(bytes); }
  // A nested section: id, length, contents.
  Bytes& Section(uint8_t id, const Bytes& contents) { return Byte(id).VarInt(contents.size()).Raw(contents.data_); }
  size_t size() const { return data_.size(); }
  const std::vector<uint8_t>& data() const { return data_; }

 private:
  std::vector<uint8_t> data_;
};

// The tables of a file and its assembly. Indices are handed out in order of the calls.
class BytecodeWriter {
 public:
  uint64_t String(std::string_view s);
  uint64_t Dialect(std::string_view name);
  uint64_t OpName(std::string_view dialect, std::string_view name, bool registered = true);
  // Entries with a dialect encoding (`custom`) or MLIR text. Entries must be added grouped by
  // dialect, as the offset section lists them.
  uint64_t Attribute(std::string_view dialect, const Bytes& encoding, bool custom = true);
  uint64_t Type(std::string_view dialect, const Bytes& encoding, bool custom = true);
  uint64_t Properties(const Bytes& encoding);

  // The whole file: header, then the sections (IR last but one, properties from version 5).
  // `omit` leaves out the sections of those ids.
  std::vector<uint8_t> Finish(const Bytes& ir, uint64_t version = 6, std::string_view producer = "StableHLO_v1.15.0",
                              const std::vector<uint8_t>& omit = {}) const;

 private:
  struct Entry {
    uint64_t dialect;
    std::vector<uint8_t> bytes;
    bool custom;
  };
  Bytes Offsets(const std::vector<Entry>& entries) const;

  std::vector<std::string> strings_;
  std::vector<uint64_t> dialects_;  // string indices
  std::vector<std::pair<uint64_t, std::pair<uint64_t, bool>>> op_names_;  // dialect, (string, registered)
  std::vector<Entry> attributes_, types_;
  std::vector<std::vector<uint8_t>> properties_;
};

// The IR section of a module holding one function, both isolated (bytecode version 2+): the
// module op (with its properties), the func_v1 op (with its properties), then the function's
// region given whole — `varint blocks, varint values`, then its blocks.
Bytes ModuleOfOneFunction(uint64_t module_op, uint64_t module_properties, uint64_t func_op, uint64_t func_properties,
                          uint64_t location, const Bytes& function_region);

// A module @main() -> tensor<f32> returning the constant 1.0, as StableHLO 1.15.0 writes it
// (bytecode version 6), built by `writer`; tests replace parts of it.
struct MinimalModule {
  BytecodeWriter writer;
  uint64_t unknown_location, f32, scalar, function_type, constant_value;
  uint64_t name, type, empty_string, empty_array;  // the function's attributes
  uint64_t module_op, func_op, constant_op, return_op;
  uint64_t module_properties, func_properties, constant_properties;
  // The function body's ops (constant, return); `body_ops` replaces them when given.
  Bytes Ir(const Bytes* body_ops = nullptr, uint64_t num_body_ops = 2, uint64_t num_values = 1) const;
};
MinimalModule MakeMinimalModule();

}  // namespace vkhlo::testing
