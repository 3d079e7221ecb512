// The fixed layout of a .vkx file (docs/plan_format.md is the full description):
//
//   offset  size  field
//        0     8  magic 89 'V' 'K' 'X' 0D 0A 1A 0A
//        8     2  format major (u16)        a reader refuses other majors
//       10     2  format minor (u16)        newer minors only add optional sections
//       12     4  flags (u32), 0            a set bit is an error (reserved)
//       16     8  header bytes H (u64)
//       24     8  body bytes B (u64)        the file is exactly 40 + H + B bytes
//       32     4  header CRC-32 (u32)       over bytes 0..31, then the header
//       36     4  body CRC-32 (u32)         over the body
//       40     H  header (PlanHeader)
//   40 + H     B  body: sections, each u32 tag, u64 length, then `length` bytes
#pragma once

#include <array>
#include <cstdint>

namespace vkhlo::plan::format {

// The first byte is not ASCII (a text file is not a plan), and CR LF / SUB / LF catch a file
// mangled by a text-mode copy (as PNG's signature does).
inline constexpr std::array<uint8_t, 8> kMagic = {0x89, 'V', 'K', 'X', 0x0D, 0x0A, 0x1A, 0x0A};
inline constexpr uint64_t kPrefixBytes = 40;
inline constexpr uint64_t kCheckedPrefixBytes = 32;  // the prefix bytes the header CRC covers

// A section tag is 4 ASCII characters, the first in the lowest byte. One whose first character
// is lower-case is optional: a reader that does not know it skips it. Upper-case ones are
// required knowledge: an unknown one is an error.
constexpr uint32_t Tag(char a, char b, char c, char d) {
  return uint32_t(uint8_t(a)) | uint32_t(uint8_t(b)) << 8 | uint32_t(uint8_t(c)) << 16 | uint32_t(uint8_t(d)) << 24;
}
inline constexpr uint32_t kKernels = Tag('K', 'E', 'R', 'N');
inline constexpr uint32_t kProfiles = Tag('P', 'R', 'O', 'F');
inline constexpr uint32_t kConstants = Tag('C', 'O', 'N', 'S');
inline constexpr uint32_t kValues = Tag('V', 'A', 'L', 'U');
inline constexpr uint32_t kLists = Tag('L', 'I', 'S', 'T');
inline constexpr uint32_t kEntry = Tag('E', 'N', 'T', 'R');
inline constexpr uint32_t kChecks = Tag('c', 'h', 'c', 'k');  // optional: a test program's checks
inline constexpr uint32_t kFftKernels = Tag('f', 'f', 't', 'k');  // optional: VkFFT's kernels
inline constexpr bool IsOptional(uint32_t tag) {
  const char first = static_cast<char>(tag & 0xff);
  return first >= 'a' && first <= 'z';
}

// The deepest nesting of tuples in the entry's signature a reader accepts (recursion bound).
inline constexpr int kMostTupleDepth = 64;

}  // namespace vkhlo::plan::format
