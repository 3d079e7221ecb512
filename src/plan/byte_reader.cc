#include "plan/byte_reader.h"

#include <algorithm>

namespace vkhlo::plan {

Status ByteReader::Error(std::string_view what, std::string_view problem) const {
  return ErrorAt(offset(), what, problem);
}

Status ByteReader::ErrorAt(uint64_t offset, std::string_view what, std::string_view problem) const {
  return DataLossError("reading " + std::string(what) + " at byte " + std::to_string(offset) + ": " +
                       std::string(problem));
}

StatusOr<uint64_t> ByteReader::Little(std::string_view what, int n) {
  if (remaining() < static_cast<uint64_t>(n)) {
    return Error(what, "needs " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left");
  }
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= uint64_t{bytes_[pos_ + static_cast<size_t>(i)]} << (8 * i);
  pos_ += static_cast<size_t>(n);
  return v;
}

StatusOr<uint8_t> ByteReader::U8(std::string_view what) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t v, Little(what, 1));
  return static_cast<uint8_t>(v);
}

StatusOr<bool> ByteReader::Bool(std::string_view what) {
  const uint64_t at = offset();
  VKHLO_ASSIGN_OR_RETURN(uint8_t v, U8(what));
  if (v > 1) return ErrorAt(at, what, "a flag of " + std::to_string(v) + " (must be 0 or 1)");
  return v == 1;
}

StatusOr<uint16_t> ByteReader::U16(std::string_view what) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t v, Little(what, 2));
  return static_cast<uint16_t>(v);
}

StatusOr<uint32_t> ByteReader::U32(std::string_view what) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t v, Little(what, 4));
  return static_cast<uint32_t>(v);
}

StatusOr<uint64_t> ByteReader::U64(std::string_view what) { return Little(what, 8); }

StatusOr<int32_t> ByteReader::I32(std::string_view what) {
  VKHLO_ASSIGN_OR_RETURN(uint32_t v, U32(what));
  return static_cast<int32_t>(v);
}

StatusOr<int64_t> ByteReader::I64(std::string_view what) {
  VKHLO_ASSIGN_OR_RETURN(uint64_t v, U64(what));
  return static_cast<int64_t>(v);
}

StatusOr<size_t> ByteReader::Count(std::string_view what, uint64_t min_bytes) {
  const uint64_t at = offset();
  VKHLO_ASSIGN_OR_RETURN(uint32_t n, U32(what));
  min_bytes = std::max<uint64_t>(min_bytes, 1);
  if (n > remaining() / min_bytes) {  // n * min_bytes > remaining, without overflow
    return ErrorAt(at, what,
                   std::to_string(n) + " elements need at least " + std::to_string(uint64_t{n} * min_bytes) +
                       " bytes, " + std::to_string(remaining()) + " left");
  }
  return static_cast<size_t>(n);
}

StatusOr<std::span<const uint8_t>> ByteReader::Raw(std::string_view what, uint64_t n) {
  if (n > remaining()) {
    return Error(what, "needs " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left");
  }
  std::span<const uint8_t> out = bytes_.subspan(pos_, static_cast<size_t>(n));
  pos_ += static_cast<size_t>(n);
  return out;
}

StatusOr<std::string> ByteReader::String(std::string_view what) {
  VKHLO_ASSIGN_OR_RETURN(size_t n, Count(what, 1));
  VKHLO_ASSIGN_OR_RETURN(std::span<const uint8_t> raw, Raw(what, n));
  return std::string(raw.begin(), raw.end());
}

StatusOr<std::vector<uint8_t>> ByteReader::Bytes(std::string_view what) {
  const uint64_t at = offset();
  VKHLO_ASSIGN_OR_RETURN(uint64_t n, U64(what));
  if (n > remaining()) {
    return ErrorAt(at, what, std::to_string(n) + " bytes claimed, " + std::to_string(remaining()) + " left");
  }
  VKHLO_ASSIGN_OR_RETURN(std::span<const uint8_t> raw, Raw(what, n));
  return std::vector<uint8_t>(raw.begin(), raw.end());
}

}  // namespace vkhlo::plan
