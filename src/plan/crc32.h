// CRC-32 (the ISO-HDLC / zlib / PNG polynomial 0x04C11DB7, reflected): the checksums of a .vkx
// file's header and body. It detects every error of one byte (and every burst up to 32 bits),
// which is what a corrupted download or a truncated copy looks like; it is no defence against
// a deliberate change (the source hash is SHA-256; signing is the embedder's business).
#pragma once

#include <cstdint>
#include <span>

namespace vkhlo::plan {

// The CRC of `bytes`, continuing from `crc` (0 to start): Crc32(b, Crc32(a)) == Crc32(a + b).
uint32_t Crc32(std::span<const uint8_t> bytes, uint32_t crc = 0);

}  // namespace vkhlo::plan
