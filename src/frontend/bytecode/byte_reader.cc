#include "frontend/bytecode/byte_reader.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>

namespace vkhlo::frontend::bytecode {

Status ByteReader::ErrorAt(size_t offset, std::string_view message) const {
  return InvalidArgumentError(fmt::format("byte {}: {}", offset, message));
}

Status ByteReader::Truncated(size_t wanted, std::string_view what) const {
  return Error(fmt::format("unexpected end of data reading {} (needs {} bytes, {} left)", what, wanted, remaining()));
}

StatusOr<uint8_t> ByteReader::Byte(std::string_view what) {
  if (pos_ == end_) return Truncated(1, what);
  return *pos_++;
}

StatusOr<uint64_t> ByteReader::VarInt(std::string_view what) {
  // The number of trailing zero bits of the first byte is the number of bytes that follow it;
  // a first byte of zero means 8 raw bytes follow.
  if (pos_ == end_) return Truncated(1, what);
  const uint8_t first = *pos_;
  if (first & 1) {
    ++pos_;
    return uint64_t{first} >> 1;
  }
  if (first == 0) {
    if (remaining() < 9) return Truncated(9, what);
    uint64_t value = 0;
    std::memcpy(&value, pos_ + 1, 8);  // the file is little-endian, like every host vkhlo runs on
    pos_ += 9;
    return value;
  }
  const int extra = std::countr_zero(first);
  const size_t total = static_cast<size_t>(extra) + 1;
  if (remaining() < total) return Truncated(total, what);
  uint64_t value = 0;
  std::memcpy(&value, pos_, total);
  pos_ += total;
  return value >> total;
}

StatusOr<int64_t> ByteReader::SignedVarInt(std::string_view what) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t zigzag, VarInt(what));
  return static_cast<int64_t>((zigzag >> 1) ^ (~(zigzag & 1) + 1));
}

StatusOr<std::pair<uint64_t, bool>> ByteReader::VarIntWithFlag(std::string_view what) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t value, VarInt(what));
  return std::make_pair(value >> 1, (value & 1) != 0);
}

StatusOr<std::span<const uint8_t>> ByteReader::Bytes(uint64_t count, std::string_view what) {
  if (count > remaining()) return Truncated(count, what);
  std::span<const uint8_t> bytes(pos_, static_cast<size_t>(count));
  pos_ += count;
  return bytes;
}

StatusOr<std::span<const uint8_t>> ByteReader::Blob(std::string_view what) {
  const size_t at = offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t size, VarInt(what));
  if (size > remaining()) {
    return ErrorAt(at, fmt::format("{} claims {} bytes but only {} remain", what, size, remaining()));
  }
  return Bytes(size, what);
}

StatusOr<std::string_view> ByteReader::CString(std::string_view what) {
  const void* nul = std::memchr(pos_, 0, remaining());
  if (nul == nullptr) return Error(fmt::format("{} has no terminating NUL byte", what));
  const size_t length = static_cast<size_t>(static_cast<const uint8_t*>(nul) - pos_);
  std::string_view text(reinterpret_cast<const char*>(pos_), length);
  pos_ += length + 1;
  return text;
}

StatusOr<uint64_t> ByteReader::Count(std::string_view what, uint64_t min_item_bytes) {
  const size_t at = offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t count, VarInt(what));
  if (min_item_bytes != 0 && count > remaining() / min_item_bytes) {
    return ErrorAt(at, fmt::format("{} is {}, more than the {} bytes left can hold", what, count, remaining()));
  }
  return count;
}

StatusOr<std::vector<int64_t>> ByteReader::SignedVarInts(std::string_view what) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t count, Count(what));
  std::vector<int64_t> values(count);
  for (int64_t& v : values) {
    VKHLO_ASSIGN_OR_RETURN(v, SignedVarInt(what));
  }
  return values;
}

StatusOr<uint64_t> ByteReader::Index(std::string_view what, uint64_t limit) {
  const size_t at = offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t index, VarInt(what));
  if (index >= limit) return ErrorAt(at, fmt::format("{} {} is out of range (the table has {})", what, index, limit));
  return index;
}

Status ByteReader::AlignTo(uint64_t alignment) {
  if (alignment == 0 || !std::has_single_bit(alignment)) {
    return Error(fmt::format("section alignment {} is not a power of two", alignment));
  }
  while (offset() % alignment != 0) {
    const size_t at = offset();
    VKHLO_ASSIGN_OR_RETURN(uint8_t pad, Byte("alignment padding"));
    if (pad != 0xCB) return ErrorAt(at, fmt::format("expected alignment padding byte 0xCB, found 0x{:02X}", pad));
  }
  return OkStatus();
}

Status AtByte(size_t offset, const Status& status) {
  if (status.ok()) return status;
  return Status(status.code(), fmt::format("byte {}: {}", offset, status.message()));
}

std::string_view SectionName(uint8_t id) {
  static constexpr std::string_view kNames[] = {"string",   "dialect",         "attribute/type", "attribute/type offset",
                                                "IR",       "resource",        "resource offset",
                                                "dialect versions", "properties"};
  return id < kNumSections ? kNames[id] : "unknown";
}

StatusOr<Section> ReadSection(ByteReader& reader) {
  Section section;
  section.offset = reader.offset();
  VKHLO_ASSIGN_OR_RETURN(uint8_t id_and_alignment, reader.Byte("a section id"));
  section.id = id_and_alignment & 0x7F;
  if (section.id >= kNumSections) {
    return reader.ErrorAt(section.offset, fmt::format("unknown section id {} (ids 0 to {} exist)", section.id,
                                                      kNumSections - 1));
  }
  VKHLO_ASSIGN_OR_RETURN(uint64_t length, reader.VarInt("a section length"));
  if (id_and_alignment & 0x80) {
    VKHLO_ASSIGN_OR_RETURN(uint64_t alignment, reader.VarInt("a section alignment"));
    VKHLO_RETURN_IF_ERROR(reader.AlignTo(alignment));
  }
  if (length > reader.remaining()) {
    return reader.ErrorAt(section.offset, fmt::format("the {} section claims {} bytes but only {} remain",
                                                      SectionName(section.id), length, reader.remaining()));
  }
  VKHLO_ASSIGN_OR_RETURN(section.data, reader.Bytes(length, "section contents"));
  return section;
}

}  // namespace vkhlo::frontend::bytecode
