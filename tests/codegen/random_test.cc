// rng_bit_generator on the device (codegen/random) against the interpreter, bit for bit: every
// algorithm, state sizes 2 and 3 (PHILOX), counters that carry across words, and output types
// of every storage width (packed 8/16-bit, sub-byte, 32, 64 bits), odd and empty shapes.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "frontend/parser.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

void Check(const std::string& algorithm, const std::vector<uint64_t>& state, const std::string& out_type) {
  const std::string state_type = fmt::format("tensor<{}xui64>", state.size());
  const std::string text = fmt::format(
      "func.func @main(%s: {0}) -> ({0}, {1}) {{\n"
      "  %ns, %o = stablehlo.rng_bit_generator %s, algorithm = {2} : ({0}) -> ({0}, {1})\n"
      "  func.return %ns, %o : {0}, {1}\n}}\n",
      state_type, out_type, algorithm);
  auto type = frontend::ParseType(state_type);
  ASSERT_TRUE(type.ok());
  auto literal = ir::Literal::Create(*type);
  ASSERT_TRUE(literal.ok());
  for (size_t i = 0; i < state.size(); ++i) literal->SetBits(static_cast<int64_t>(i), state[i]);
  auto both = testing::RunOnBoth(text, {*literal});
  ASSERT_TRUE(both.ok()) << both.status().ToString() << "\n" << text;
  EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
  for (size_t k = 0; k < 2; ++k) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both->vulkan[k], both->reference[k], &why)) << "result " << k << ": " << why << "\n" << text;
  }
}

constexpr uint64_t kNearCarry = 0xfffffffffffffff0ull;  // the counter wraps within the stream

TEST(RandomTest, ThreeFryStreams) {
  // Outputs of 32 bits or fewer pair elements along one dimension (ir/threefry_layout.h): the
  // first, a middle or the last one, or none (scalars, all ones).
  for (const char* type : {"tensor<7x5xui32>", "tensor<33xui64>", "tensor<9xf32>", "tensor<3x5xi8>", "tensor<11xf16>",
                           "tensor<9xi4>", "tensor<0xui32>", "tensor<f64>", "tensor<3x5x2xui8>", "tensor<5x1x3xui16>",
                           "tensor<3x4x3xf32>", "tensor<1x1xui32>", "tensor<ui16>", "tensor<4x0x3xui32>"}) {
    SCOPED_TRACE(type);
    Check("THREE_FRY", {0x0123456789abcdefull, kNearCarry}, type);
  }
  Check("THREE_FRY", {42, 0xffffffffull}, "tensor<1000xui32>");
}

TEST(RandomTest, PhiloxAndDefaultStreams) {
  for (const char* type : {"tensor<7x5xui32>", "tensor<33xui64>", "tensor<9xf32>", "tensor<3x5xui8>", "tensor<11xbf16>",
                           "tensor<2x3xi64>", "tensor<0xf32>"}) {
    SCOPED_TRACE(type);
    Check("PHILOX", {0x0123456789abcdefull, kNearCarry, 0xffffffffffffffffull}, type);
    Check("PHILOX", {7, kNearCarry}, type);
  }
  Check("DEFAULT", {1, 2, 3}, "tensor<100xui32>");
  Check("DEFAULT", {5, 0xffffffffull}, "tensor<10xi16>");
}

}  // namespace
}  // namespace vkhlo
