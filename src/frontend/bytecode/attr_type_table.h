// The attribute and type tables of a bytecode file, decoded lazily: an entry is decoded the
// first time an op (or another entry) refers to it, then kept. Entries of the vhlo and builtin
// dialects have their own binary encodings (vhlo_encoding.cc, builtin_encoding.cc); entries
// written as text (no dialect encoding) go through vkhlo's text parser.
//
// Entries refer to each other by index, so a corrupt file can make one refer to itself: an
// entry met again while it is being decoded is an error ("attribute 12 refers to itself"), and
// so is nesting deeper than kMaxNesting, so neither a cycle nor a long chain can overflow the
// stack.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "frontend/bytecode/container.h"
#include "frontend/bytecode/decoded_type.h"
#include "ir/attribute.h"
#include "vkhlo/status.h"

namespace vkhlo::frontend::bytecode {

inline constexpr int kMaxNesting = 200;

// Shardy (the sdy dialect) rides along in the artifacts jax.export writes: sharding rules on
// custom calls, shardings of arguments and results, meshes and constraints for a function
// jitted with shardings. They steer partitioning, not the computation, and vkhlo runs one
// device: its attributes are dropped (their encoding is not in the reference), its annotation
// ops too; what partitions the computation itself is refused.
inline constexpr std::string_view kShardyComputationUnsupported =
    "Shardy's partitioned computations (shard_map: manual computations, collectives) are not supported: vkhlo "
    "runs one device";

struct DecodedAttribute {
  // What the attribute means in StableHLO, as vkhlo's text parser builds it.
  ir::Attribute value;
  // For type attributes (!vhlo.type_v1, builtin TypeAttr): the type itself.
  const DecodedType* type = nullptr;
  // For dictionaries: the entries, decoded (an op's attribute dictionary holds type attributes
  // whose types the op mapping needs).
  std::vector<std::pair<std::string_view, const DecodedAttribute*>> entries;
  // For arrays: the elements, decoded.
  std::vector<const DecodedAttribute*> elements;
  // False when `value` (or a part of it) is a type vkhlo's attributes cannot spell — a function
  // type, `none`, tf32, index: such an attribute serves only the op mappings that read `type`
  // (a function's signature, a dot algorithm), and is an error anywhere else.
  bool expressible = true;
  // A Shardy attribute in sdy's own encoding (not decoded: `value` is a placeholder), and
  // whether it is one or holds one.
  bool shardy = false;
  bool holds_shardy = false;
  // #stablehlo.type_extensions (VHLO's spelling of #stablehlo.bounds): a tensor type's encoding,
  // one bound per dimension (kDynamic: none). Empty for every other attribute.
  std::vector<int64_t> bounds;
  bool is_type_extensions = false;
};

// What an attribute named `name` becomes in vkhlo's IR: nullopt for a Shardy attribute (and
// an array holding one), dropped; the value with Shardy entries taken out of the dictionaries
// it holds; an error when it holds a type vkhlo's attributes cannot spell.
StatusOr<std::optional<ir::Attribute>> AttributeForIr(std::string_view name, const DecodedAttribute& attribute);

// A type as an attribute: the type itself for tensors, tuples and tokens; an element type as
// its name (the text parser keeps a bare `f32` so); anything else inexpressible.
DecodedAttribute TypeAttribute(const DecodedType* type);

// An error naming `name` unless `attribute` is expressible.
Status CheckExpressible(std::string_view name, const DecodedAttribute& attribute);
// The placeholder of a Shardy attribute.
DecodedAttribute ShardyAttribute();

// Where an op came from, for messages: the first file position found in its location.
struct DecodedLocation {
  std::string_view file;  // empty: unknown
  uint32_t line = 0;
  uint32_t column = 0;
};

class AttrTypeTable {
 public:
  explicit AttrTypeTable(const BytecodeFile& file);

  const BytecodeFile& file() const { return file_; }

  // An index read from `reader`, resolved.
  StatusOr<const DecodedAttribute*> ReadAttribute(ByteReader& reader);
  // `varint (index << 1 | present)`: nullptr when absent.
  StatusOr<const DecodedAttribute*> ReadOptionalAttribute(ByteReader& reader);
  StatusOr<const DecodedType*> ReadType(ByteReader& reader);
  // Type `index`, read at byte `at` of `reader` (for indices that carry a flag).
  StatusOr<const DecodedType*> TypeAt(ByteReader& reader, size_t at, uint64_t index);
  StatusOr<DecodedLocation> ReadLocation(ByteReader& reader);
  StatusOr<std::string_view> ReadString(ByteReader& reader);
  // `varint n` then n of each.
  StatusOr<std::vector<const DecodedAttribute*>> ReadAttributes(ByteReader& reader);
  StatusOr<std::vector<const DecodedType*>> ReadTypes(ByteReader& reader);

 private:
  enum class State : uint8_t { kNew, kDecoding, kDone };
  // Decoded entries of one table, each decoded at most once.
  template <typename T>
  struct Slots {
    explicit Slots(size_t n) : state(n, State::kNew), value(n) {}
    std::vector<State> state;
    std::vector<std::optional<T>> value;
  };
  // Entry `index` of `slots`, decoded by `decode(entry, entry_reader)` on first use; `at` is
  // where the index was read.
  template <typename T, typename Decode>
  StatusOr<const T*> Resolve(ByteReader& reader, size_t at, uint64_t index, Slots<T>& slots,
                             const std::vector<AttrTypeEntry>& entries, std::string_view what, Decode&& decode);
  // Reads an index below `slots`' size.
  template <typename T>
  StatusOr<uint64_t> ReadIndex(ByteReader& reader, const Slots<T>& slots, std::string_view what);
  StatusOr<const DecodedAttribute*> ResolveAttribute(ByteReader& reader, size_t at, uint64_t index);

  const BytecodeFile& file_;
  Slots<DecodedAttribute> attributes_;
  Slots<DecodedType> types_;
  Slots<DecodedLocation> locations_;
  int depth_ = 0;
};

// `varint n`, then n (string attribute, attribute) pairs: a dictionary; `varint n`, then n
// attributes: an array (vhlo and builtin encode both alike).
StatusOr<DecodedAttribute> ReadDictionary(AttrTypeTable& table, ByteReader& reader);
StatusOr<DecodedAttribute> ReadArray(AttrTypeTable& table, ByteReader& reader);
// A tensor type then a blob of its elements (vhlo.tensor_v1, builtin dense elements), as a
// Literal; index tensors (custom_call layouts) hold i64 elements.
StatusOr<ir::Literal> ReadTensorData(AttrTypeTable& table, ByteReader& reader);

// The dialect encodings (one file each).
StatusOr<DecodedAttribute> DecodeVhloAttribute(AttrTypeTable& table, ByteReader& reader);
StatusOr<DecodedType> DecodeVhloType(AttrTypeTable& table, ByteReader& reader);
StatusOr<DecodedAttribute> DecodeBuiltinAttribute(AttrTypeTable& table, ByteReader& reader);
StatusOr<DecodedType> DecodeBuiltinType(AttrTypeTable& table, ByteReader& reader);
StatusOr<DecodedLocation> DecodeBuiltinLocation(AttrTypeTable& table, ByteReader& reader);
// The stablehlo dialect's own type encoding, as other dialects' ops beside VHLO use it: only
// its token type (code 0).
StatusOr<DecodedType> DecodeStablehloType(ByteReader& reader);
// Entries written as MLIR text (NUL-terminated).
StatusOr<DecodedAttribute> DecodeTextAttribute(std::string_view text);
StatusOr<DecodedType> DecodeTextType(std::string_view text);

}  // namespace vkhlo::frontend::bytecode
