// The MLIR bytecode container, versions 0 to 6: the header (magic, version, producer) and the
// tables every later step indexes — strings, dialects and op names, the attribute and type
// entries (sliced but not decoded: that happens lazily, see attr_type_table.h), properties,
// resources (checked, contents unused) and the IR section.
//
// What changes between container versions (llvm's mlir/docs/BytecodeFormat.md):
//   1  dialects may carry a version section          4  op-name count; unknown block-arg locs elided
//   2  isolated regions in nested IR sections        5  properties section, op "registered" flag
//   3  use-list orders                               6  ODS segment sizes as properties
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "frontend/bytecode/byte_reader.h"
#include "vkhlo/status.h"

namespace vkhlo::frontend::bytecode {

inline constexpr uint64_t kMaxBytecodeVersion = 6;
inline constexpr uint8_t kMagic[4] = {'M', 'L', 0xEF, 'R'};

// Bytecode versions that introduced what the reader must know about.
enum BytecodeFeature : uint64_t {
  kDialectVersioning = 1,
  kLazyLoading = 2,  // isolated regions in their own IR sections
  kUseListOrdering = 3,
  kElideUnknownBlockArgLocation = 4,
  kNativeProperties = 5,
};

struct OpName {
  uint32_t dialect = 0;
  std::string_view name;   // without the dialect prefix ("add_v1")
  bool registered = true;  // false: the op was written by a context that did not know it
};

// One entry of the attribute or type table: its encoding, not yet decoded.
struct AttrTypeEntry {
  std::span<const uint8_t> data;
  uint32_t dialect = 0;
  bool custom = false;  // dialect encoding; else the entry is MLIR text ending in a NUL
};

struct BytecodeFile {
  std::span<const uint8_t> bytes;  // the whole file
  uint64_t version = 0;
  std::string_view producer;       // "StableHLO_v1.15.0", "MLIR20.0.0git"
  std::vector<std::string_view> strings;
  std::vector<std::string_view> dialects;
  std::vector<OpName> op_names;
  std::vector<AttrTypeEntry> attributes;
  std::vector<AttrTypeEntry> types;
  std::vector<std::span<const uint8_t>> properties;
  std::span<const uint8_t> ir;  // the top-level IR section

  ByteReader Reader(std::span<const uint8_t> data) const { return ByteReader(data, bytes.data()); }
  bool Has(BytecodeFeature feature) const { return version >= feature; }
};

// True when `bytes` start with the bytecode magic "ML\xEFR".
bool HasBytecodeMagic(std::span<const uint8_t> bytes);

// Reads the header and every section's tables.
StatusOr<BytecodeFile> ReadContainer(std::span<const uint8_t> bytes);

// Reads only the magic, version and producer (cheap: for error messages and the public
// inspection call).
struct BytecodeHeader {
  uint64_t version = 0;
  std::string_view producer;
};
StatusOr<BytecodeHeader> ReadHeader(ByteReader& reader);

}  // namespace vkhlo::frontend::bytecode
