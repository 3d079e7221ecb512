#include "frontend/bytecode/attr_type_table.h"

#include <fmt/format.h>

#include <algorithm>

#include "frontend/bytecode/encoded_values.h"

namespace vkhlo::frontend::bytecode {
namespace {

// The NUL-terminated text of an entry without a dialect encoding.
StatusOr<std::string_view> EntryText(const AttrTypeEntry& entry, ByteReader& reader) {
  if (entry.data.empty() || entry.data.back() != 0) return reader.Error("a textual entry is not NUL-terminated");
  return std::string_view(reinterpret_cast<const char*>(entry.data.data()), entry.data.size() - 1);
}

// An entry written as text goes through `parse_text`, one with a dialect encoding through
// `decode(dialect)`.
template <typename T, typename ParseText, typename Decode>
StatusOr<T> DecodeEntry(const BytecodeFile& file, const AttrTypeEntry& entry, ByteReader& reader,
                        ParseText&& parse_text, Decode&& decode) {
  if (entry.custom) return decode(file.dialects[entry.dialect]);
  VKHLO_ASSIGN_OR_RETURN(std::string_view text, EntryText(entry, reader));
  StatusOr<T> parsed = parse_text(text);
  if (parsed.ok()) return parsed;
  return reader.Error(fmt::format("'{}': {}", text, parsed.status().message()));
}

Status OutOfRange(ByteReader& reader, size_t at, std::string_view what, uint64_t index, size_t size) {
  return reader.ErrorAt(at, fmt::format("{} index {} is out of range (the table has {})", what, index, size));
}

Status UnreadDialect(ByteReader& reader, std::string_view what, std::string_view dialect) {
  return UnimplementedError(fmt::format("byte {}: {} of dialect '{}', whose binary encoding vkhlo does not read "
                                        "(vkhlo reads the vhlo and builtin dialects, and the stablehlo token type)",
                                        reader.offset(), what, dialect));
}

}  // namespace

AttrTypeTable::AttrTypeTable(const BytecodeFile& file)
    : file_(file), attributes_(file.attributes.size()), types_(file.types.size()), locations_(file.attributes.size()) {}

template <typename T>
StatusOr<uint64_t> AttrTypeTable::ReadIndex(ByteReader& reader, const Slots<T>& slots, std::string_view what) {
  return reader.Index(fmt::format("{} index", what), slots.value.size());
}

template <typename T, typename Decode>
StatusOr<const T*> AttrTypeTable::Resolve(ByteReader& reader, size_t at, uint64_t index, Slots<T>& slots,
                                          const std::vector<AttrTypeEntry>& entries, std::string_view what,
                                          Decode&& decode) {
  if (slots.state[index] == State::kDone) return &*slots.value[index];
  if (slots.state[index] == State::kDecoding) return reader.ErrorAt(at, fmt::format("{} {} refers to itself", what, index));
  if (depth_ >= kMaxNesting) {
    return reader.ErrorAt(at, fmt::format("attributes and types nest deeper than {} levels", kMaxNesting));
  }
  const AttrTypeEntry& entry = entries[index];
  ByteReader entry_reader = file_.Reader(entry.data);
  ++depth_;
  slots.state[index] = State::kDecoding;
  StatusOr<T> decoded = decode(entry, entry_reader);
  --depth_;
  if (!decoded.ok()) {
    slots.state[index] = State::kNew;
    return Status(decoded.status().code(), fmt::format("{} (decoding {} {})", decoded.status().message(), what, index));
  }
  slots.value[index] = std::move(decoded).value();
  slots.state[index] = State::kDone;
  return &*slots.value[index];
}

StatusOr<const DecodedAttribute*> AttrTypeTable::ReadAttribute(ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t index, ReadIndex(reader, attributes_, "attribute"));
  return ResolveAttribute(reader, at, index);
}

StatusOr<const DecodedAttribute*> AttrTypeTable::ReadOptionalAttribute(ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(auto index_and_present, reader.VarIntWithFlag("an optional attribute"));
  const auto [index, present] = index_and_present;
  if (!present) return static_cast<const DecodedAttribute*>(nullptr);
  if (index >= attributes_.value.size()) return OutOfRange(reader, at, "attribute", index, attributes_.value.size());
  return ResolveAttribute(reader, at, index);
}

StatusOr<const DecodedAttribute*> AttrTypeTable::ResolveAttribute(ByteReader& reader, size_t at, uint64_t index) {
  return Resolve(reader, at, index, attributes_, file_.attributes, "attribute",
                 [&](const AttrTypeEntry& entry, ByteReader& entry_reader) {
                   return DecodeEntry<DecodedAttribute>(
                       file_, entry, entry_reader, DecodeTextAttribute,
                       [&](std::string_view dialect) -> StatusOr<DecodedAttribute> {
                         if (dialect == "vhlo") return DecodeVhloAttribute(*this, entry_reader);
                         if (dialect == "builtin") return DecodeBuiltinAttribute(*this, entry_reader);
                         if (dialect == "sdy") return ShardyAttribute();
                         return UnreadDialect(entry_reader, "an attribute", dialect);
                       });
                 });
}

StatusOr<const DecodedType*> AttrTypeTable::ReadType(ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t index, ReadIndex(reader, types_, "type"));
  return TypeAt(reader, at, index);
}

StatusOr<const DecodedType*> AttrTypeTable::TypeAt(ByteReader& reader, size_t at, uint64_t index) {
  if (index >= types_.value.size()) return OutOfRange(reader, at, "type", index, types_.value.size());
  return Resolve(reader, at, index, types_, file_.types, "type",
                 [&](const AttrTypeEntry& entry, ByteReader& entry_reader) {
                   return DecodeEntry<DecodedType>(
                       file_, entry, entry_reader, DecodeTextType, [&](std::string_view dialect) -> StatusOr<DecodedType> {
                         if (dialect == "vhlo") return DecodeVhloType(*this, entry_reader);
                         if (dialect == "builtin") return DecodeBuiltinType(*this, entry_reader);
                         if (dialect == "stablehlo") return DecodeStablehloType(entry_reader);
                         return UnreadDialect(entry_reader, "a type", dialect);
                       });
                 });
}

StatusOr<DecodedLocation> AttrTypeTable::ReadLocation(ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t index, ReadIndex(reader, locations_, "location"));
  VKHLO_ASSIGN_OR_RETURN(
      const DecodedLocation* location,
      Resolve(reader, at, index, locations_, file_.attributes, "location",
              [&](const AttrTypeEntry& entry, ByteReader& entry_reader) -> StatusOr<DecodedLocation> {
                // Locations are builtin; any other kind only costs messages their position.
                if (!entry.custom || file_.dialects[entry.dialect] != "builtin") return DecodedLocation{};
                return DecodeBuiltinLocation(*this, entry_reader);
              }));
  return *location;
}

StatusOr<std::string_view> AttrTypeTable::ReadString(ByteReader& reader) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t index, reader.Index("a string index", file_.strings.size()));
  return file_.strings[index];
}

// `varint n`, then n of what `read_one` reads.
template <typename T, typename ReadOne>
static StatusOr<std::vector<const T*>> ReadList(ByteReader& reader, std::string_view what, ReadOne&& read_one) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t count, reader.Count(what));
  std::vector<const T*> list;
  list.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    VKHLO_ASSIGN_OR_RETURN(const T* one, read_one());
    list.push_back(one);
  }
  return list;
}

StatusOr<std::vector<const DecodedAttribute*>> AttrTypeTable::ReadAttributes(ByteReader& reader) {
  return ReadList<DecodedAttribute>(reader, "an attribute list's length", [&] { return ReadAttribute(reader); });
}

StatusOr<std::vector<const DecodedType*>> AttrTypeTable::ReadTypes(ByteReader& reader) {
  return ReadList<DecodedType>(reader, "a type list's length", [&] { return ReadType(reader); });
}

StatusOr<DecodedAttribute> ReadDictionary(AttrTypeTable& table, ByteReader& reader) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t count, reader.Count("a dictionary's size", 2));
  DecodedAttribute dictionary;
  ir::Attribute::Dictionary values;
  values.reserve(count);
  dictionary.entries.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    const size_t at = reader.offset();
    VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* name, table.ReadAttribute(reader));
    VKHLO_ASSIGN_OR_RETURN(const DecodedAttribute* value, table.ReadAttribute(reader));
    const std::string* key = name->value.AsString();
    if (key == nullptr) {
      return reader.ErrorAt(at, fmt::format("a dictionary key must be a string, found {}", name->value.ToString()));
    }
    values.emplace_back(*key, value->value);
    dictionary.entries.emplace_back(*key, value);
    dictionary.expressible &= value->expressible;
    dictionary.holds_shardy |= value->holds_shardy;
  }
  // Names are unique, as MLIR's dictionaries (and vkhlo's text parser) require.
  std::vector<std::string_view> names;
  for (const auto& [name, value] : dictionary.entries) names.push_back(name);
  std::sort(names.begin(), names.end());
  const auto duplicate = std::adjacent_find(names.begin(), names.end());
  if (duplicate != names.end()) return reader.Error(fmt::format("a dictionary holds '{}' twice", *duplicate));
  dictionary.value = ir::Attribute(std::move(values));
  return dictionary;
}

StatusOr<DecodedAttribute> ReadArray(AttrTypeTable& table, ByteReader& reader) {
  VKHLO_ASSIGN_OR_RETURN(std::vector<const DecodedAttribute*> elements, table.ReadAttributes(reader));
  DecodedAttribute array;
  ir::Attribute::Array values;
  values.reserve(elements.size());
  for (const DecodedAttribute* e : elements) {
    values.push_back(e->value);
    array.expressible &= e->expressible;
    array.holds_shardy |= e->holds_shardy;
  }
  array.elements = std::move(elements);
  array.value = ir::Attribute(std::move(values));
  return array;
}

StatusOr<ir::Literal> ReadTensorData(AttrTypeTable& table, ByteReader& reader) {
  const size_t at = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(const DecodedType* type, table.ReadType(reader));
  VKHLO_ASSIGN_OR_RETURN(std::span<const uint8_t> data, reader.Blob("tensor data"));
  VKHLO_ASSIGN_OR_RETURN(ir::Type tensor, AtByte(at, type->AsValueType()));
  if (!tensor.is_static()) {
    return reader.ErrorAt(at, fmt::format("a dense elements attribute needs a static shape, found {}", tensor.ToString()));
  }
  return AtByte(at, DenseLiteral(tensor, data));
}

DecodedAttribute TypeAttribute(const DecodedType* type) {
  DecodedAttribute attribute;
  attribute.type = type;
  switch (type->kind) {
    case DecodedType::Kind::kValue:
      attribute.value = ir::Attribute(type->value);
      break;
    case DecodedType::Kind::kElement:
      attribute.value = ir::Attribute(ir::OpaqueValue{type->spelling});
      break;
    case DecodedType::Kind::kNone:
      attribute.value = ir::Attribute(ir::Type());  // marks an absent optional attribute
      attribute.expressible = false;
      break;
    default:
      attribute.value = ir::Attribute(ir::OpaqueValue{type->spelling});
      attribute.expressible = false;
      break;
  }
  return attribute;
}

DecodedAttribute ShardyAttribute() {
  DecodedAttribute attribute;
  attribute.value = ir::Attribute(ir::OpaqueValue{"#sdy.<not read>"});
  attribute.expressible = false;
  attribute.shardy = attribute.holds_shardy = true;
  return attribute;
}

StatusOr<std::optional<ir::Attribute>> AttributeForIr(std::string_view name, const DecodedAttribute& attribute) {
  if (attribute.shardy) return std::optional<ir::Attribute>();
  if (!attribute.holds_shardy) {
    VKHLO_RETURN_IF_ERROR(CheckExpressible(name, attribute));
    return std::optional<ir::Attribute>(attribute.value);
  }
  if (!attribute.entries.empty()) {
    ir::Attribute::Dictionary kept;
    for (const auto& [key, value] : attribute.entries) {
      VKHLO_ASSIGN_OR_RETURN(std::optional<ir::Attribute> entry, AttributeForIr(key, *value));
      if (entry) kept.emplace_back(key, std::move(*entry));
    }
    return std::optional<ir::Attribute>(ir::Attribute(std::move(kept)));
  }
  // An array: its elements keep their positions, so an array of Shardy attributes goes whole.
  ir::Attribute::Array kept;
  for (const DecodedAttribute* element : attribute.elements) {
    VKHLO_ASSIGN_OR_RETURN(std::optional<ir::Attribute> value, AttributeForIr(name, *element));
    if (!value) return std::optional<ir::Attribute>();
    kept.push_back(std::move(*value));
  }
  return std::optional<ir::Attribute>(ir::Attribute(std::move(kept)));
}

Status CheckExpressible(std::string_view name, const DecodedAttribute& attribute) {
  if (attribute.expressible) return OkStatus();
  return UnimplementedError(fmt::format("attribute '{}' holds a type vkhlo's attributes cannot hold ({})", name,
                                        attribute.type != nullptr ? attribute.type->spelling : "in a part of it"));
}

}  // namespace vkhlo::frontend::bytecode
