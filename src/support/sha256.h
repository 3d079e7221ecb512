// SHA-256 (FIPS 180-4): the hash a compiled plan records of the program it was compiled from
// (src/plan/plan.h), so that a cache or a tool can tell which source a .vkx file belongs to.
// Written from the standard, not for secrecy: it runs in constant time per byte but makes no
// other side-channel promises.
//
//   Sha256 hash;
//   hash.Update(bytes);
//   std::array<uint8_t, 32> digest = hash.Finish();
//   std::string hex = Sha256Hex(text);  // "ba7816bf..."
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace vkhlo {

class Sha256 {
 public:
  static constexpr size_t kDigestBytes = 32;
  using Digest = std::array<uint8_t, kDigestBytes>;

  Sha256();
  void Update(std::span<const uint8_t> bytes);
  void Update(std::string_view text);
  // The digest of everything given; the object must not be updated afterwards.
  Digest Finish();

 private:
  void Compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> block_{};
  size_t block_used_ = 0;
  uint64_t total_bytes_ = 0;
};

Sha256::Digest Sha256Of(std::span<const uint8_t> bytes);
Sha256::Digest Sha256Of(std::string_view text);
// Lower-case hex of a digest (64 characters).
std::string DigestHex(const Sha256::Digest& digest);
std::string Sha256Hex(std::string_view text);

}  // namespace vkhlo
