// SHA-256 against the FIPS 180-4 examples (NIST's "SHA256.pdf" example values) and the
// one-million-'a' vector, fed in pieces that cross block boundaries.
#include "support/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace vkhlo {
namespace {

TEST(Sha256, StandardVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                      "mnopqrstnopqrstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256, MillionAsInUnevenPieces) {
  Sha256 hash;
  const std::string piece(997, 'a');  // a prime: pieces end everywhere within a block
  size_t left = 1000000;
  while (left > 0) {
    const size_t n = std::min(left, piece.size());
    hash.Update(std::string_view(piece).substr(0, n));
    left -= n;
  }
  EXPECT_EQ(DigestHex(hash.Finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Lengths around the padding boundary (55, 56, 63, 64 bytes) hash the same in one piece and
// byte by byte.
TEST(Sha256, PaddingBoundaries) {
  EXPECT_EQ(Sha256Hex(std::string(55, 'a')), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  EXPECT_EQ(Sha256Hex(std::string(56, 'a')), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  EXPECT_EQ(Sha256Hex(std::string(64, 'a')), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  for (size_t n : {55, 56, 63, 64, 65, 119, 120}) {
    const std::string text(n, 'x');
    Sha256 bytewise;
    for (char ch : text) bytewise.Update(std::string_view(&ch, 1));
    EXPECT_EQ(DigestHex(bytewise.Finish()), Sha256Hex(text)) << n;
  }
}

}  // namespace
}  // namespace vkhlo
