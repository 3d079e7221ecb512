// rng_bit_generator against known outputs (the spec's example, a JAX export, Random123's
// known-answer vectors for Threefry-2x32-20 and Philox-4x32-10), and rng's ranges.
#include <fmt/format.h>

#include <cmath>

#include "tests/interp/library/test_util.h"

namespace vkhlo::interp::testing {
namespace {

using ir::ElementType;

struct BitsResult {
  std::vector<uint64_t> state, output;
};

BitsResult Generate(const std::string& algorithm, const std::vector<uint64_t>& state, const std::string& output_type) {
  const std::string text = fmt::format(R"(
func.func @main(%s: tensor<{0}xui64>) -> (tensor<{0}xui64>, {1}) {{
  %0, %1 = "stablehlo.rng_bit_generator"(%s) {{rng_algorithm = #stablehlo<rng_algorithm {2}>}}
      : (tensor<{0}xui64>) -> (tensor<{0}xui64>, {1})
  func.return %0, %1 : tensor<{0}xui64>, {1}
}})",
                                       state.size(), output_type, algorithm);
  ir::Literal s = ir::Literal::Create(ir::Type::Tensor(ElementType::kU64, {static_cast<int64_t>(state.size())})).value();
  for (size_t i = 0; i < state.size(); ++i) s.SetBits(static_cast<int64_t>(i), state[i]);
  auto out = RunMain(text, {InterpValue::Tensor(s)});
  BitsResult r;
  if (out.size() != 2) {
    ADD_FAILURE() << "no results";
    return r;
  }
  for (int64_t i = 0; i < out[0].literal().num_elements(); ++i) r.state.push_back(out[0].literal().GetBits(i));
  for (int64_t i = 0; i < out[1].literal().num_elements(); ++i) r.output.push_back(out[1].literal().GetBits(i));
  return r;
}

TEST(RngBitGenerator, ThreeFrySpecExample) {
  auto r = Generate("THREE_FRY", {1, 2}, "tensor<2x2xui64>");
  EXPECT_EQ(r.state, (std::vector<uint64_t>{1, 6}));
  EXPECT_EQ(r.output, (std::vector<uint64_t>{9236835810183407956ull, 16087790271692313299ull,
                                             18212823393184779219ull, 2658481902456610144ull}));
}

TEST(RngBitGenerator, ThreeFryJaxExport) {
  // jax rng_bit_generator_uint64_2: state [3, 3] -> [3, 4], output 3349939604322698703.
  auto r = Generate("THREE_FRY", {3, 3}, "tensor<ui64>");
  EXPECT_EQ(r.state, (std::vector<uint64_t>{3, 4}));
  EXPECT_EQ(r.output, (std::vector<uint64_t>{3349939604322698703ull}));
}

TEST(RngBitGenerator, ThreeFryKnownAnswers) {
  // Random123 kat_vectors, threefry2x32 20 rounds: (counter words, key words) -> outputs. With
  // 32-bit outputs of 2 elements, element 0 is word 0 and element 1 word 1 of one block.
  struct Kat {
    uint32_t ctr[2], key[2], out[2];
  };
  const Kat kats[] = {
      {{0, 0}, {0, 0}, {0x6b200159, 0x99ba4efe}},
      {{0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}, {0x1cb996fc, 0xbb002be7}},
      {{0x243f6a88, 0x85a308d3}, {0x13198a2e, 0x03707344}, {0xc4923a9c, 0x483df7a0}},
  };
  for (const Kat& k : kats) {
    const uint64_t key = uint64_t{k.key[0]} | uint64_t{k.key[1]} << 32;
    const uint64_t ctr = uint64_t{k.ctr[0]} | uint64_t{k.ctr[1]} << 32;
    auto r = Generate("THREE_FRY", {key, ctr}, "tensor<2xui32>");
    EXPECT_EQ(r.output, (std::vector<uint64_t>{k.out[0], k.out[1]}));
    EXPECT_EQ(r.state, (std::vector<uint64_t>{key, ctr + 1}));
  }
}

TEST(RngBitGenerator, ThreeFryOddSizesAndNarrowTypes) {
  // 3 x u32: two blocks; elements are block0.w0, block0.w1, block1.w0 (pairs along the dimension).
  auto wide = Generate("THREE_FRY", {7, 100}, "tensor<4xui32>");
  auto odd = Generate("THREE_FRY", {7, 100}, "tensor<3xui32>");
  ASSERT_EQ(wide.output.size(), 4u);
  EXPECT_EQ(odd.output, (std::vector<uint64_t>{wide.output[0], wide.output[1], wide.output[2]}));
  EXPECT_EQ(odd.state, (std::vector<uint64_t>{7, 102}));
  // u8 keeps the low byte of each 32-bit value.
  auto narrow = Generate("THREE_FRY", {7, 100}, "tensor<4xui8>");
  for (int i = 0; i < 4; ++i) EXPECT_EQ(narrow.output[i], wide.output[i] & 0xff);
}

TEST(RngBitGenerator, PhiloxKnownAnswers) {
  // Random123 kat_vectors, philox4x32 10 rounds. State = [key, counter low, counter high].
  struct Kat {
    uint32_t ctr[4], key[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}, {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}, {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    const uint64_t key = uint64_t{k.key[0]} | uint64_t{k.key[1]} << 32;
    const uint64_t lo = uint64_t{k.ctr[0]} | uint64_t{k.ctr[1]} << 32;
    const uint64_t hi = uint64_t{k.ctr[2]} | uint64_t{k.ctr[3]} << 32;
    auto r = Generate("PHILOX", {key, lo, hi}, "tensor<4xui32>");
    EXPECT_EQ(r.output, (std::vector<uint64_t>{k.out[0], k.out[1], k.out[2], k.out[3]}));
    const uint64_t new_lo = lo + 1;
    EXPECT_EQ(r.state, (std::vector<uint64_t>{key, new_lo, new_lo == 0 ? hi + 1 : hi}));
    // 64-bit outputs pair the words: (w0 | w1 << 32), (w2 | w3 << 32).
    auto r64 = Generate("PHILOX", {key, lo, hi}, "tensor<2xui64>");
    EXPECT_EQ(r64.output, (std::vector<uint64_t>{uint64_t{k.out[0]} | uint64_t{k.out[1]} << 32,
                                                 uint64_t{k.out[2]} | uint64_t{k.out[3]} << 32}));
    EXPECT_EQ(r64.state, r.state);
  }
}

TEST(RngBitGenerator, DefaultIsPhiloxAndFloatsTakeTheBits) {
  auto philox = Generate("PHILOX", {5, 6}, "tensor<3x2xui32>");
  auto def = Generate("DEFAULT", {5, 6}, "tensor<3x2xui32>");
  EXPECT_EQ(philox.output, def.output);
  EXPECT_EQ(philox.state, (std::vector<uint64_t>{5, 8}));  // two blocks of four
  auto f = Generate("PHILOX", {5, 6}, "tensor<3x2xf32>");
  EXPECT_EQ(f.output, philox.output);
}

TEST(Rng, UniformAndNormalAreInRangeAndDeterministic) {
  const std::string text = R"(
func.func @main() -> (tensor<1000xf32>, tensor<1000xi32>, tensor<4000xf64>) {
  %a = stablehlo.constant dense<-2.0> : tensor<f32>
  %b = stablehlo.constant dense<3.0> : tensor<f32>
  %s = stablehlo.constant dense<[1000]> : tensor<1xi64>
  %0 = "stablehlo.rng"(%a, %b, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<1000xf32>
  %ia = stablehlo.constant dense<5> : tensor<i32>
  %ib = stablehlo.constant dense<9> : tensor<i32>
  %1 = "stablehlo.rng"(%ia, %ib, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<1000xi32>
  %m = stablehlo.constant dense<10.0> : tensor<f64>
  %sd = stablehlo.constant dense<2.0> : tensor<f64>
  %s2 = stablehlo.constant dense<[4000]> : tensor<1xi64>
  %2 = "stablehlo.rng"(%m, %sd, %s2) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f64>, tensor<f64>, tensor<1xi64>) -> tensor<4000xf64>
  func.return %0, %1, %2 : tensor<1000xf32>, tensor<1000xi32>, tensor<4000xf64>
})";
  auto first = RunMain(text);
  auto second = RunMain(text);
  ASSERT_EQ(first.size(), 3u);
  ASSERT_EQ(second.size(), 3u);
  EXPECT_EQ(first[0].literal(), second[0].literal());
  for (double v : Doubles(first[0])) {
    EXPECT_GE(v, -2.0);
    EXPECT_LT(v, 3.0);
  }
  std::vector<int> seen(4, 0);
  for (int64_t v : Ints(first[1])) {
    ASSERT_GE(v, 5);
    ASSERT_LT(v, 9);
    ++seen[v - 5];
  }
  for (int c : seen) EXPECT_GT(c, 150);
  double sum = 0, sq = 0;
  for (double v : Doubles(first[2])) {
    sum += v;
    sq += v * v;
  }
  const double mean = sum / 4000, var = sq / 4000 - mean * mean;
  EXPECT_NEAR(mean, 10.0, 0.2);
  EXPECT_NEAR(std::sqrt(var), 2.0, 0.2);
}

}  // namespace
}  // namespace vkhlo::interp::testing
