// A cursor over the bytes of an MLIR bytecode file, decoding the container's primitive
// encodings: prefix varints, zigzag signed varints, varints carrying a flag bit, blobs and
// sections.
//
// Every error names the absolute byte offset in the file (sub-readers over a section keep
// counting from the file's start) and what was expected there, e.g.
//   "byte 483: truncated varint (expected 3 bytes, 1 left) for the op's operand count"
// Counts are checked against the bytes left before anything is reserved, so a corrupt count
// costs an error, never a huge allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo::frontend::bytecode {

class ByteReader {
 public:
  // `data` lies within the file that starts at `file_begin` (for offsets in messages).
  ByteReader(std::span<const uint8_t> data, const uint8_t* file_begin)
      : pos_(data.data()), end_(data.data() + data.size()), file_begin_(file_begin) {}

  // Absolute offset (in the file) of the next byte.
  size_t offset() const { return static_cast<size_t>(pos_ - file_begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }
  bool empty() const { return pos_ == end_; }
  // The unread bytes.
  std::span<const uint8_t> rest() const { return {pos_, remaining()}; }
  // A reader over `data` (a part of the same file).
  ByteReader Sub(std::span<const uint8_t> data) const { return ByteReader(data, file_begin_); }

  // `what` names the value in error messages ("the string count").
  StatusOr<uint8_t> Byte(std::string_view what);
  StatusOr<uint64_t> VarInt(std::string_view what);
  StatusOr<int64_t> SignedVarInt(std::string_view what);
  // (value >> 1, value & 1): indices that carry a flag in their low bit.
  StatusOr<std::pair<uint64_t, bool>> VarIntWithFlag(std::string_view what);
  StatusOr<std::span<const uint8_t>> Bytes(uint64_t count, std::string_view what);
  // A varint size followed by that many bytes.
  StatusOr<std::span<const uint8_t>> Blob(std::string_view what);
  // A NUL-terminated string (the producer name); the NUL is consumed, not returned.
  StatusOr<std::string_view> CString(std::string_view what);
  // `varint n`, then n zigzag varints (shapes, index lists).
  StatusOr<std::vector<int64_t>> SignedVarInts(std::string_view what);
  // A varint count of items that each take at least `min_item_bytes` bytes: a count the
  // remaining bytes cannot hold is an error.
  StatusOr<uint64_t> Count(std::string_view what, uint64_t min_item_bytes = 1);
  // A varint that must be an index below `limit`.
  StatusOr<uint64_t> Index(std::string_view what, uint64_t limit);
  // Skips 0xCB padding bytes up to the next multiple of `alignment` (a power of two) in the file.
  Status AlignTo(uint64_t alignment);

  // "byte <offset>: <message>", at the next byte or at `offset`.
  Status Error(std::string_view message) const { return ErrorAt(offset(), message); }
  Status ErrorAt(size_t offset, std::string_view message) const;

 private:
  Status Truncated(size_t wanted, std::string_view what) const;

  const uint8_t* pos_;
  const uint8_t* end_;
  const uint8_t* file_begin_;
};

// `status` (an error without a position) as an error at byte `offset`, keeping its code.
Status AtByte(size_t offset, const Status& status);
template <typename T>
StatusOr<T> AtByte(size_t offset, StatusOr<T> value) {
  if (value.ok()) return value;
  return AtByte(offset, value.status());
}

// A section of the container: its id and contents.
struct Section {
  uint8_t id = 0;
  std::span<const uint8_t> data;
  size_t offset = 0;  // of the section header in the file
};

// The section ids of MLIR bytecode.
enum SectionId : uint8_t {
  kStringSection = 0,
  kDialectSection = 1,
  kAttrTypeSection = 2,
  kAttrTypeOffsetSection = 3,
  kIrSection = 4,
  kResourceSection = 5,
  kResourceOffsetSection = 6,
  kDialectVersionsSection = 7,
  kPropertiesSection = 8,
  kNumSections = 9,
};

std::string_view SectionName(uint8_t id);

// Reads a section header (id, length, optional alignment) and its contents.
StatusOr<Section> ReadSection(ByteReader& reader);

}  // namespace vkhlo::frontend::bytecode
