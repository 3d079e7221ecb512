// Bounds-checked little-endian decoding of a .vkx file (docs/plan_format.md "Encoding"). Every
// read checks what remains first; a count is checked against what remains (at `min_bytes` per
// element) before anything is allocated, so a file that claims 2^60 elements fails at once.
// Errors are DATA_LOSS naming what was being read and its byte offset in the file:
//   "reading kernel 3 SPIR-V word count at byte 1204: 4000000000 words need 16000000000 bytes, 96 left"
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo::plan {

class ByteReader {
 public:
  // `base` is the offset of `bytes` in the file, so errors give file offsets.
  explicit ByteReader(std::span<const uint8_t> bytes, uint64_t base = 0) : bytes_(bytes), base_(base) {}

  StatusOr<uint8_t> U8(std::string_view what);
  StatusOr<bool> Bool(std::string_view what);  // 0 or 1; anything else is an error
  StatusOr<uint16_t> U16(std::string_view what);
  StatusOr<uint32_t> U32(std::string_view what);
  StatusOr<uint64_t> U64(std::string_view what);
  StatusOr<int32_t> I32(std::string_view what);
  StatusOr<int64_t> I64(std::string_view what);
  // A u32 count of elements that take at least `min_bytes` each (at least 1 is assumed).
  StatusOr<size_t> Count(std::string_view what, uint64_t min_bytes);
  StatusOr<std::string> String(std::string_view what);
  StatusOr<std::vector<uint8_t>> Bytes(std::string_view what);
  // The next `n` bytes as a span into the input (for nested readers and fixed fields).
  StatusOr<std::span<const uint8_t>> Raw(std::string_view what, uint64_t n);

  uint64_t offset() const { return base_ + pos_; }  // in the file
  uint64_t remaining() const { return bytes_.size() - pos_; }
  bool done() const { return pos_ == bytes_.size(); }
  // DATA_LOSS "reading <what> at byte <offset>: <problem>".
  Status Error(std::string_view what, std::string_view problem) const;
  Status ErrorAt(uint64_t offset, std::string_view what, std::string_view problem) const;

 private:
  StatusOr<uint64_t> Little(std::string_view what, int n);

  std::span<const uint8_t> bytes_;
  uint64_t base_ = 0;
  size_t pos_ = 0;
};

}  // namespace vkhlo::plan
