// The IR of a module holding N bytes of constants stays under 2N + 16 MB.
#include <gtest/gtest.h>
#include <malloc.h>

#include "frontend/parser.h"
#include "tests/support/generated_programs.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

uint64_t HeapBytesInUse() {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;  // small-block heap + mmapped large blocks
}

TEST(ConstantMemoryTest, ParsedModuleCostsLessThanTwiceItsConstants) {
  uint64_t constant_bytes = 0;
  const std::string text = testing::HexConstantModule(50ull << 20, 1 << 16, &constant_bytes);
  const uint64_t before = HeapBytesInUse();
  auto module = frontend::ParseModule(text);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const uint64_t used = HeapBytesInUse() - before;
  EXPECT_LT(used, 2 * constant_bytes + (16ull << 20))
      << "IR of " << constant_bytes << " constant bytes takes " << used << " bytes";
  EXPECT_TRUE(verify::VerifyModule(**module).ok());
}

}  // namespace
}  // namespace vkhlo
