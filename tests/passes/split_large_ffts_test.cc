// split-large-ffts on the reference interpreter: every kind (FFT, IFFT, RFFT, IRFFT) in both
// precisions, over one to three axes with batches, odd and composite lengths, split with no
// limit (down to prime pieces; primes beyond 7 by Bluestein's form) and with limits between;
// results against the unsplit op, within an FFT's rounding. What the pass leaves must fit the
// limit or be a prime length of at most 7; an op that fits is left alone. (tests/runtime/fft_split_test.cc runs the split programs on the device.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "passes/pass_registry.h"
#include "passes/passes.h"
#include "passes/pipeline.h"
#include "tests/support/fft_programs.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

using Case = testing::FftCase;

double Tolerance(const Case& c, bool f64) {
  double n = 1;
  for (int64_t len : c.lengths) n *= static_cast<double>(len);
  const double eps = f64 ? 2.2e-16 : 1.2e-7;
  return eps * 8 * (std::log2(n + 1) + 4);
}

// The fft ops left in `module`: each must fit `limit` (0: none does) or be a single prime length
// of at most 7 (or 1), which the pass leaves.
void ExpectPiecesFit(const ir::Module& module, uint64_t limit) {
  ir::WalkOps(module, [&](ir::Operation& op) {
    if (op.code() != ir::OpCode::kFft) return;
    EXPECT_FALSE(passes::FftTransformExceeds(op, {limit, limit})) << "left unsplit: " << op.result(0)->type().ToString();
  });
}

int CountFfts(const ir::Module& module) {
  int count = 0;
  ir::WalkOps(module, [&](ir::Operation& op) { count += op.code() == ir::OpCode::kFft; });
  return count;
}

void CheckCases(const std::vector<Case>& cases, bool f64, const std::vector<uint64_t>& limits) {
  std::mt19937_64 rng(f64 ? 2 : 1);
  for (const Case& c : cases) {
    const std::string text = testing::FftProgram(c, f64, "f");
    SCOPED_TRACE(text);
    auto original = frontend::ParseModule(text);
    ASSERT_TRUE(original.ok()) << original.status().ToString();
    const ir::Function* f = (*original)->FindFunction("f");
    ASSERT_NE(f, nullptr);
    const ir::Literal x = testing::UniformLiteral(f->type().inputs[0], rng);
    auto want = interp::RunFunction(**original, "f", {interp::InterpValue::Tensor(x)});
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    for (uint64_t limit : limits) {
      SCOPED_TRACE("max-transform-bytes=" + std::to_string(limit));
      auto module = frontend::ParseModule(text);
      ASSERT_TRUE(module.ok());
      auto pipeline = passes::PassPipeline::Parse(fmt::format("split-large-ffts{{max-transform-bytes={}}}", limit));
      ASSERT_TRUE(pipeline.ok()) << pipeline.status().ToString();
      auto changed = pipeline->Run(**module);
      ASSERT_TRUE(changed.ok()) << changed.status().ToString();
      ExpectPiecesFit(**module, limit);
      auto got = interp::RunFunction(**module, "f", {interp::InterpValue::Tensor(x)});
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      EXPECT_LE(testing::FftRelativeError(got->outputs[0].literal(), want->outputs[0].literal()), Tolerance(c, f64));
    }
  }
}

std::vector<Case> Cases(const std::string& kind) {
  return {
      {kind, {}, {12}},     {kind, {3}, {60}},        {kind, {2}, {45}},       {kind, {}, {1024}},
      {kind, {}, {221}},    {kind, {2}, {96}},        {kind, {}, {6, 10}},     {kind, {2}, {4, 9}},
      {kind, {}, {2, 3, 8}}, {kind, {}, {1, 16}},     {kind, {2}, {16, 1}},    {kind, {}, {13}},
      {kind, {}, {2}},      {kind, {3}, {1}},         {kind, {}, {210}},       {kind, {2}, {17}},
      {kind, {}, {1031}},   {kind, {}, {11, 7}},
  };
}

TEST(SplitLargeFfts, EveryKindInF32) {
  for (const char* kind : {"FFT", "IFFT", "RFFT", "IRFFT"}) CheckCases(Cases(kind), false, {0, 64, 400});
}

TEST(SplitLargeFfts, EveryKindInF64) {
  for (const char* kind : {"FFT", "IFFT", "RFFT", "IRFFT"}) CheckCases(Cases(kind), true, {0, 128, 800});
}

// Splitting stops at what fits: 1024 points of complex<f32> (8 KiB) under a 2 KiB limit become
// transforms of 32 points, not smaller; under 8 KiB nothing changes.
TEST(SplitLargeFfts, StopsAtWhatFits) {
  const std::string text = testing::FftProgram({"FFT", {2}, {1024}}, false, "f");
  auto module = frontend::ParseModule(text);
  ASSERT_TRUE(module.ok());
  auto fits = passes::CreateSplitLargeFftsPass({8192, 8192})->Run(**module);
  ASSERT_TRUE(fits.ok());
  EXPECT_FALSE(*fits);
  EXPECT_EQ(CountFfts(**module), 1);
  auto split = passes::CreateSplitLargeFftsPass({2048, 2048})->Run(**module);
  ASSERT_TRUE(split.ok());
  EXPECT_TRUE(*split);
  EXPECT_EQ(CountFfts(**module), 2);
  ir::WalkOps(**module, [&](ir::Operation& op) {
    if (op.code() != ir::OpCode::kFft) return;
    EXPECT_EQ(op.result(0)->type().dims().back(), 32);
  });
  EXPECT_TRUE(verify::VerifyModule(**module).ok());
}

// A side that one binding holds whole needs no split, however long its one transform: 2^14
// points of complex<f32> (128 KiB) with a 64 KiB transform limit and a 128 KiB binding limit
// stay one op; with two rows (256 KiB) they are split.
TEST(SplitLargeFfts, WholeSidesWithinTheBindingStay) {
  for (int64_t rows : {1, 2}) {
    auto module = frontend::ParseModule(testing::FftProgram({"FFT", {rows}, {16384}}, false, "f"));
    ASSERT_TRUE(module.ok());
    auto changed = passes::CreateSplitLargeFftsPass({65536, 131072})->Run(**module);
    ASSERT_TRUE(changed.ok());
    EXPECT_EQ(*changed, rows == 2) << rows;
  }
}

// A prime length too long takes Bluestein's form: 1031 points under a 1 KiB limit become
// transforms of the 7-smooth 2100 = 2^2 3 5^2 7 (>= 2 1031 - 1), split in turn, none of 1031
// left; a real transform of innermost length 1 over a big tensor becomes a convert (RFFT) or a
// real part (IRFFT). (EveryKind* check the values.)
TEST(SplitLargeFfts, PrimeLengthsTakeBluesteinAndUnitRealLengthsConvert) {
  auto prime = frontend::ParseModule(testing::FftProgram({"FFT", {}, {1031}}, false, "f"));
  ASSERT_TRUE(prime.ok());
  auto changed = passes::CreateSplitLargeFftsPass({1024, 1024})->Run(**prime);
  ASSERT_TRUE(changed.ok());
  EXPECT_TRUE(*changed);
  int64_t product = 1;
  ir::WalkOps(**prime, [&](ir::Operation& op) {
    if (op.code() != ir::OpCode::kFft) return;
    EXPECT_NE(op.result(0)->type().dims().back(), 1031);
    EXPECT_LE(op.result(0)->type().dims().back() * 8, 1024);
    product *= op.result(0)->type().dims().back();
  });
  EXPECT_EQ(product % 2100, 0) << "the convolution's transforms have length 2100";
  EXPECT_TRUE(verify::VerifyModule(**prime).ok());
  ExpectPiecesFit(**prime, 1024);
  for (const char* kind : {"RFFT", "IRFFT"}) {
    auto unit = frontend::ParseModule(testing::FftProgram({kind, {4096}, {1}}, false, "f"));
    ASSERT_TRUE(unit.ok());
    auto split = passes::CreateSplitLargeFftsPass({1024, 1024})->Run(**unit);
    ASSERT_TRUE(split.ok());
    EXPECT_TRUE(*split) << kind;
    EXPECT_EQ(CountFfts(**unit), 0) << kind;
  }
}

TEST(SplitLargeFfts, OptionsAreChecked) {
  EXPECT_TRUE(passes::CreatePass("split-large-ffts{max-transform-bytes=4096}").ok());
  EXPECT_TRUE(passes::CreatePass("split-large-ffts").ok());
  EXPECT_TRUE(passes::CreatePass("split-large-ffts{max-transform-bytes=4096 binding-bytes=8192}").ok());
  for (const char* bad : {"split-large-ffts{max-transform-bytes=}", "split-large-ffts{max-transform-bytes=-1}",
                          "split-large-ffts{size=1}", "split-large-ffts{max-transform-bytes=1",
                          "split-large-ffts{binding-bytes=8}", "split-large-ffts{max-transform-bytes=1 max-transform-bytes=2}",
                          "dce{x=1}"}) {
    auto pass = passes::CreatePass(bad);
    EXPECT_FALSE(pass.ok()) << bad;
    EXPECT_EQ(pass.status().code(), StatusCode::kInvalidArgument) << bad;
  }
  // The default pipeline carries the device's limit when given one.
  EXPECT_NE(passes::DefaultPipelineSpec({.fft_limits = passes::FftSplitLimits{134086656, 134217728}})
                .find("split-large-ffts{max-transform-bytes=134086656 binding-bytes=134217728},fft-to-dft"),
            std::string::npos);
  EXPECT_TRUE(passes::PassPipeline::Parse(passes::DefaultPipelineSpec({.fft_limits = passes::FftSplitLimits{1, 2}})).ok());
  EXPECT_EQ(passes::DefaultPipelineSpec().find("split-large-ffts"), std::string::npos);
}

}  // namespace
}  // namespace vkhlo
