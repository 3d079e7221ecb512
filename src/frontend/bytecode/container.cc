#include "frontend/bytecode/container.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <tuple>

namespace vkhlo::frontend::bytecode {
namespace {

// Strings: a count, the sizes (each counting its NUL) from the last string to the first, then
// the strings back to back, ending at the section's end.
Status ReadStrings(const BytecodeFile& file, const Section& section, std::vector<std::string_view>& strings) {
  ByteReader reader = file.Reader(section.data);
  VKHLO_ASSIGN_OR_RETURN(uint64_t count, reader.Count("the string count"));
  strings.resize(count);
  size_t end = section.data.size();
  for (uint64_t i = count; i-- > 0;) {
    const size_t at = reader.offset();
    VKHLO_ASSIGN_OR_RETURN(uint64_t size, reader.VarInt("a string size"));
    if (size == 0 || size > end) {
      return reader.ErrorAt(at, fmt::format("string {} claims {} bytes, more than the {} the section holds", i, size, end));
    }
    const size_t begin = end - static_cast<size_t>(size);
    if (section.data[end - 1] != 0) return reader.ErrorAt(at, fmt::format("string {} is not NUL-terminated", i));
    strings[i] = std::string_view(reinterpret_cast<const char*>(section.data.data() + begin), size - 1);
    end = begin;
  }
  const size_t sizes_end = static_cast<size_t>(reader.rest().data() - section.data.data());
  if (sizes_end > end) return reader.Error("the string sizes overlap the string data");
  return OkStatus();
}

StatusOr<std::string_view> StringAt(const BytecodeFile& file, ByteReader& reader, uint64_t index) {
  if (index >= file.strings.size()) {
    return reader.Error(fmt::format("string index {} is out of range (the table has {})", index, file.strings.size()));
  }
  return file.strings[index];
}

// `{varint dialect, varint n, n entries}` groups until `total` entries were read (or, without
// a total, until the reader is empty).
template <typename ReadEntry>
Status ReadDialectGroups(const BytecodeFile& file, ByteReader& reader, std::optional<uint64_t> expected,
                         std::string_view what, ReadEntry&& read_entry) {
  const uint64_t total = expected.value_or(UINT64_MAX);
  uint64_t read = 0;
  while (expected ? read < total : !reader.empty()) {
    VKHLO_ASSIGN_OR_RETURN(uint64_t dialect, reader.Index("a dialect index", file.dialects.size()));
    const size_t at = reader.offset();
    VKHLO_ASSIGN_OR_RETURN(uint64_t n, reader.Count(fmt::format("the {} count of a dialect", what)));
    if (n > total - read) {
      return reader.ErrorAt(at, fmt::format("a dialect group holds {} {} but only {} remain to be listed", n, what,
                                            total - read));
    }
    for (uint64_t i = 0; i < n; ++i) VKHLO_RETURN_IF_ERROR(read_entry(static_cast<uint32_t>(dialect)));
    read += n;
  }
  return OkStatus();
}

Status ReadDialects(BytecodeFile& file, const Section& section) {
  ByteReader reader = file.Reader(section.data);
  VKHLO_ASSIGN_OR_RETURN(uint64_t count, reader.Count("the dialect count"));
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t name = 0;
    bool has_version = false;
    if (file.Has(kDialectVersioning)) {
      VKHLO_ASSIGN_OR_RETURN(auto name_and_flag, reader.VarIntWithFlag("a dialect name"));
      std::tie(name, has_version) = name_and_flag;
    } else {
      VKHLO_ASSIGN_OR_RETURN(name, reader.VarInt("a dialect name"));
    }
    VKHLO_ASSIGN_OR_RETURN(std::string_view dialect, StringAt(file, reader, name));
    file.dialects.push_back(dialect);
    if (has_version) {
      // A dialect's own version data: VHLO writes none (its version is the producer's).
      VKHLO_ASSIGN_OR_RETURN(Section versions, ReadSection(reader));
      if (versions.id != kDialectVersionsSection) {
        return reader.ErrorAt(versions.offset, fmt::format("expected the dialect version section of '{}', found the {} "
                                                           "section", dialect, SectionName(versions.id)));
      }
    }
  }
  // Op names, grouped by dialect; from version 4 their total count comes first.
  std::optional<uint64_t> total;
  if (file.Has(kElideUnknownBlockArgLocation)) {
    VKHLO_ASSIGN_OR_RETURN(total, reader.Count("the op name count"));
  }
  const auto read_name = [&](uint32_t dialect) -> Status {
    OpName op;
    op.dialect = dialect;
    uint64_t name = 0;
    if (file.Has(kNativeProperties)) {
      VKHLO_ASSIGN_OR_RETURN(auto name_and_flag, reader.VarIntWithFlag("an op name"));
      std::tie(name, op.registered) = name_and_flag;
    } else {
      VKHLO_ASSIGN_OR_RETURN(name, reader.VarInt("an op name"));
    }
    VKHLO_ASSIGN_OR_RETURN(op.name, StringAt(file, reader, name));
    file.op_names.push_back(op);
    return OkStatus();
  };
  return ReadDialectGroups(file, reader, total, "op names", read_name);
}

// The offset section slices the attribute/type section: attributes first, then types, each
// grouped by dialect, each entry `varint (size << 1 | has_custom_encoding)`.
Status ReadAttrTypeOffsets(BytecodeFile& file, const Section& offsets, const Section& data) {
  ByteReader reader = file.Reader(offsets.data);
  VKHLO_ASSIGN_OR_RETURN(uint64_t num_attributes, reader.Count("the attribute count"));
  VKHLO_ASSIGN_OR_RETURN(uint64_t num_types, reader.Count("the type count"));
  if (num_attributes + num_types > reader.remaining()) {
    return reader.Error(fmt::format("{} attributes and {} types cannot fit in the {} bytes of the offset section",
                                    num_attributes, num_types, reader.remaining()));
  }
  size_t next = 0;
  const auto read_entries = [&](std::vector<AttrTypeEntry>& entries, uint64_t count, std::string_view what) {
    entries.reserve(count);
    return ReadDialectGroups(file, reader, count, what, [&](uint32_t dialect) -> Status {
      const size_t at = reader.offset();
      VKHLO_ASSIGN_OR_RETURN(auto size_and_flag, reader.VarIntWithFlag("an entry size"));
      const auto [size, custom] = size_and_flag;
      if (size > data.data.size() - next) {
        return reader.ErrorAt(at, fmt::format("{} entry {} of {} bytes runs past the end of the attribute/type section",
                                              what, entries.size(), size));
      }
      entries.push_back(AttrTypeEntry{data.data.subspan(next, size), dialect, custom});
      next += size;
      return OkStatus();
    });
  };
  VKHLO_RETURN_IF_ERROR(read_entries(file.attributes, num_attributes, "attribute"));
  VKHLO_RETURN_IF_ERROR(read_entries(file.types, num_types, "type"));
  if (!reader.empty()) return reader.Error("unread bytes at the end of the attribute/type offset section");
  return OkStatus();
}

Status ReadProperties(BytecodeFile& file, const Section& section) {
  if (section.data.empty()) return OkStatus();
  ByteReader reader = file.Reader(section.data);
  VKHLO_ASSIGN_OR_RETURN(uint64_t count, reader.Count("the properties count"));
  file.properties.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    VKHLO_ASSIGN_OR_RETURN(std::span<const uint8_t> entry, reader.Blob("a properties entry"));
    file.properties.push_back(entry);
  }
  if (!reader.empty()) return reader.Error("unread bytes at the end of the properties section");
  return OkStatus();
}

// Resources (external groups, then per-dialect groups of `{key, size, kind}` entries whose data
// follow one another in the resource section). VHLO keeps constants inline, so only the
// structure is checked.
Status CheckResources(const BytecodeFile& file, const Section* data, const Section& offsets) {
  ByteReader reader = file.Reader(offsets.data);
  ByteReader contents = file.Reader(data != nullptr ? data->data : std::span<const uint8_t>());
  const auto read_group = [&]() -> Status {
    VKHLO_ASSIGN_OR_RETURN(uint64_t count, reader.Count("the resource count of a group", 3));
    for (uint64_t i = 0; i < count; ++i) {
      VKHLO_ASSIGN_OR_RETURN(uint64_t key, reader.VarInt("a resource key"));
      VKHLO_RETURN_IF_ERROR(StringAt(file, reader, key).status());
      VKHLO_ASSIGN_OR_RETURN(uint64_t size, reader.VarInt("a resource size"));
      VKHLO_ASSIGN_OR_RETURN(uint8_t kind, reader.Byte("a resource kind"));
      if (kind > 2) return reader.Error(fmt::format("unknown resource kind {} (0 blob, 1 bool, 2 string)", kind));
      VKHLO_RETURN_IF_ERROR(contents.Bytes(size, "resource data").status());
    }
    return OkStatus();
  };
  VKHLO_ASSIGN_OR_RETURN(uint64_t external, reader.Count("the external resource group count"));
  for (uint64_t i = 0; i < external; ++i) {
    VKHLO_ASSIGN_OR_RETURN(uint64_t key, reader.VarInt("a resource group key"));
    VKHLO_RETURN_IF_ERROR(StringAt(file, reader, key).status());
    VKHLO_RETURN_IF_ERROR(read_group());
  }
  while (!reader.empty()) {
    VKHLO_RETURN_IF_ERROR(reader.Index("the dialect of a resource group", file.dialects.size()).status());
    VKHLO_RETURN_IF_ERROR(read_group());
  }
  return OkStatus();
}

}  // namespace

bool HasBytecodeMagic(std::span<const uint8_t> bytes) {
  return bytes.size() >= 4 && std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin());
}

StatusOr<BytecodeHeader> ReadHeader(ByteReader& reader) {
  if (!HasBytecodeMagic(reader.rest())) {
    return reader.Error("not MLIR bytecode: the file does not start with the magic bytes 4D 4C EF 52 (\"ML\\xEFR\")");
  }
  VKHLO_RETURN_IF_ERROR(reader.Bytes(4, "the magic").status());
  BytecodeHeader header;
  VKHLO_ASSIGN_OR_RETURN(header.version, reader.VarInt("the bytecode version"));
  VKHLO_ASSIGN_OR_RETURN(header.producer, reader.CString("the producer string"));
  return header;
}

StatusOr<BytecodeFile> ReadContainer(std::span<const uint8_t> bytes) {
  BytecodeFile file;
  file.bytes = bytes;
  ByteReader reader = file.Reader(bytes);
  VKHLO_ASSIGN_OR_RETURN(BytecodeHeader header, ReadHeader(reader));
  file.version = header.version;
  file.producer = header.producer;
  if (file.version > kMaxBytecodeVersion) {
    return UnimplementedError(fmt::format(
        "byte 4: MLIR bytecode version {} (producer \"{}\") is newer than the versions vkhlo reads (0 to {}, as written "
        "for StableHLO 0.9.0 to 1.20.0)",
        file.version, file.producer, kMaxBytecodeVersion));
  }

  std::array<std::optional<Section>, kNumSections> sections;
  while (!reader.empty()) {
    VKHLO_ASSIGN_OR_RETURN(Section section, ReadSection(reader));
    if (sections[section.id]) {
      return reader.ErrorAt(section.offset, fmt::format("a second {} section (the first is at byte {})",
                                                        SectionName(section.id), sections[section.id]->offset));
    }
    sections[section.id] = section;
  }
  for (uint8_t id : {kStringSection, kDialectSection, kAttrTypeSection, kAttrTypeOffsetSection, kIrSection}) {
    if (!sections[id]) return reader.Error(fmt::format("the file has no {} section", SectionName(id)));
  }
  if (file.Has(kNativeProperties) && !sections[kPropertiesSection]) {
    return reader.Error(fmt::format("the file has no properties section (required from bytecode version {})",
                                    static_cast<int>(kNativeProperties)));
  }
  if (sections[kResourceSection] && !sections[kResourceOffsetSection]) {
    return reader.ErrorAt(sections[kResourceSection]->offset, "a resource section without its resource offset section");
  }

  VKHLO_RETURN_IF_ERROR(ReadStrings(file, *sections[kStringSection], file.strings));
  VKHLO_RETURN_IF_ERROR(ReadDialects(file, *sections[kDialectSection]));
  VKHLO_RETURN_IF_ERROR(ReadAttrTypeOffsets(file, *sections[kAttrTypeOffsetSection], *sections[kAttrTypeSection]));
  if (sections[kPropertiesSection]) VKHLO_RETURN_IF_ERROR(ReadProperties(file, *sections[kPropertiesSection]));
  if (sections[kResourceOffsetSection]) {
    VKHLO_RETURN_IF_ERROR(CheckResources(file, sections[kResourceSection] ? &*sections[kResourceSection] : nullptr,
                                         *sections[kResourceOffsetSection]));
  }
  file.ir = sections[kIrSection]->data;
  return file;
}

}  // namespace vkhlo::frontend::bytecode
