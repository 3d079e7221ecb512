// Little-endian encoding of a .vkx file's fields (docs/plan_format.md "Encoding"): the writer
// side of byte_reader.h. Appending cannot fail; sizes are the caller's to keep within the
// format's limits (counts are u32, byte strings u64).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace vkhlo::plan {

class ByteWriter {
 public:
  void U8(uint8_t v) { bytes_.push_back(v); }
  void Bool(bool v) { U8(v ? 1 : 0); }
  void U16(uint16_t v) { Little(v, 2); }
  void U32(uint32_t v) { Little(v, 4); }
  void U64(uint64_t v) { Little(v, 8); }
  void I32(int32_t v) { U32(static_cast<uint32_t>(v)); }
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  // A count of what follows (u32).
  void Count(size_t n) { U32(static_cast<uint32_t>(n)); }
  // u32 length, then the bytes (UTF-8 is not checked: names are whatever the source said).
  void String(std::string_view s) {
    Count(s.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  // u64 length, then the bytes.
  void Bytes(std::span<const uint8_t> b) {
    U64(b.size());
    Raw(b);
  }
  void Raw(std::span<const uint8_t> b) { bytes_.insert(bytes_.end(), b.begin(), b.end()); }
  // Overwrites 4 bytes at `offset` (a length or checksum known only later).
  void PatchU32(size_t offset, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes_[offset + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
  }
  void PatchU64(size_t offset, uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes_[offset + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
  }

  size_t size() const { return bytes_.size(); }
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t> Take() { return std::move(bytes_); }

 private:
  void Little(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  std::vector<uint8_t> bytes_;
};

}  // namespace vkhlo::plan
