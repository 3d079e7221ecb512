// Column groups (codegen/library/epilogue.h's ColumnGroups): a recurrent cell after its product
// (the gates are slices of one product; the new state is computed from all of them at each
// index) runs in the product's kernel, which stores every value of the cell used afterwards.
// Results are bit-identical to the unfused path and within kMaxUlpFromTheInterpreter of the
// interpreter: the operands hold small integers, so each product sum is exact in any order,
// and the cell's ops must round exactly as unfused.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "codegen/library/epilogue_match.h"
#include "frontend/parser.h"
#include "tests/codegen/library/literal_fill.h"
#include "tests/support/device_fixture.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo::testing {
namespace {

ir::Type F32(std::vector<int64_t> dims) { return ir::Type::Tensor(ir::ElementType::kF32, std::move(dims)); }

// An LSTM cell as jax.jit exports it (tools/models' lstm): z = x_proj + h @ w + bias, gates
// i, f, g, o the four column blocks of z, c' = sigmoid(f) * c + sigmoid(i) * tanh(g),
// h' = sigmoid(o) * tanh(c'), both returned. M rows, hidden size W.
std::string LstmCell(int64_t m, int64_t k, int64_t w, const std::string& t = "f32") {
  std::string text = fmt::format(R"(func.func @main(%h: tensor<{0}x{1}xf32>, %w: tensor<{1}x{3}xf32>, %xp: tensor<{0}x{3}xf32>, %bias: tensor<{3}xf32>, %c: tensor<{0}x{2}xf32>) -> (tensor<{0}x{2}xf32>, tensor<{0}x{2}xf32>) {{
  %0 = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<{0}x{1}xf32>, tensor<{1}x{3}xf32>) -> tensor<{0}x{3}xf32>
  %1 = stablehlo.add %xp, %0 : tensor<{0}x{3}xf32>
  %2 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<{3}xf32>) -> tensor<{0}x{3}xf32>
  %3 = stablehlo.add %1, %2 : tensor<{0}x{3}xf32>
  %i = stablehlo.slice %3 [0:{0}, 0:{2}] : (tensor<{0}x{3}xf32>) -> tensor<{0}x{2}xf32>
  %f = stablehlo.slice %3 [0:{0}, {2}:{4}] : (tensor<{0}x{3}xf32>) -> tensor<{0}x{2}xf32>
  %g = stablehlo.slice %3 [0:{0}, {4}:{5}] : (tensor<{0}x{3}xf32>) -> tensor<{0}x{2}xf32>
  %o = stablehlo.slice %3 [0:{0}, {5}:{3}] : (tensor<{0}x{3}xf32>) -> tensor<{0}x{2}xf32>
  %si = stablehlo.logistic %i : tensor<{0}x{2}xf32>
  %nf = stablehlo.negate %f : tensor<{0}x{2}xf32>
  %ef = stablehlo.exponential %nf : tensor<{0}x{2}xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %ones = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<{0}x{2}xf32>
  %df = stablehlo.add %ones, %ef : tensor<{0}x{2}xf32>
  %sf = stablehlo.divide %ones, %df : tensor<{0}x{2}xf32>
  %tg = stablehlo.tanh %g : tensor<{0}x{2}xf32>
  %so = stablehlo.logistic %o : tensor<{0}x{2}xf32>
  %fc = stablehlo.multiply %sf, %c : tensor<{0}x{2}xf32>
  %ig = stablehlo.multiply %si, %tg : tensor<{0}x{2}xf32>
  %c2 = stablehlo.add %fc, %ig : tensor<{0}x{2}xf32>
  %tc = stablehlo.tanh %c2 : tensor<{0}x{2}xf32>
  %h2 = stablehlo.multiply %so, %tc : tensor<{0}x{2}xf32>
  func.return %h2, %c2 : tensor<{0}x{2}xf32>, tensor<{0}x{2}xf32>
}})",
                     m, k, w, 4 * w, 2 * w, 3 * w);
  for (size_t at = text.find("f32"); at != std::string::npos; at = text.find("f32", at + 3)) text.replace(at, 3, t);
  return text;
}

// exp, logistic and tanh, which the spec leaves open, come within a few ULP of the interpreter's
// (docs/exactness.md), and the cell composes them; the fused kernel must equal the unfused
// kernels bit for bit.
constexpr int kMaxUlpFromTheInterpreter = 8;

class ColumnGroupsTest : public ::testing::Test {
 protected:
  // Runs `mlir` fused and unfused on the device and in the interpreter: `kernels` dispatches
  // when fused, fewer than unfused, and the same bits in every result.
  void Check(const std::string& mlir, const std::vector<ir::Literal>& inputs, uint64_t kernels,
             int max_ulp = kMaxUlpFromTheInterpreter) {
    SCOPED_TRACE(mlir);
    ASSERT_OK_AND_ASSIGN(BothResults fused, RunOnBoth(mlir, inputs));
    EXPECT_EQ(fused.stats.kernels_dispatched, kernels);
    CompileOptions off;
    off.fuse = false;
    ASSERT_OK_AND_ASSIGN(BothResults unfused, RunOnBoth(mlir, inputs, off));
    EXPECT_GT(unfused.stats.kernels_dispatched, fused.stats.kernels_dispatched);
    ASSERT_EQ(fused.vulkan.size(), fused.reference.size());
    for (size_t r = 0; r < fused.vulkan.size(); ++r) {
      SCOPED_TRACE(r);
      std::string why;
      EXPECT_TRUE(SameBits(fused.reference[r], fused.vulkan[r], &why, max_ulp))
          << "fused against the interpreter: " << why;
      EXPECT_TRUE(SameBits(unfused.vulkan[r], fused.vulkan[r], &why)) << "fused against unfused: " << why;
    }
  }

  std::mt19937_64 rng_{26};
};

// One kernel stores h' and c'. Rows not a multiple of the tile's, a hidden size of whole and
// partial tiles (12: three blocks of 4 columns; 6: blocks of 2), and the shape of the model.
TEST_F(ColumnGroupsTest, LstmCellIsTheRecurrentProductsKernel) {
  for (auto [m, k, w] : std::vector<std::array<int64_t, 3>>{{6, 16, 12}, {3, 5, 6}, {16, 32, 40}}) {
    SCOPED_TRACE(fmt::format("M={} K={} W={}", m, k, w));
    std::vector<ir::Literal> in;
    in.push_back(SmallIntegers(F32({m, k}), rng_));
    in.push_back(SmallIntegers(F32({k, 4 * w}), rng_));
    in.push_back(Uniform(F32({m, 4 * w}), -3, 3, rng_));
    in.push_back(Uniform(F32({4 * w}), -1, 1, rng_));
    in.push_back(Uniform(F32({m, w}), -2, 2, rng_));
    Check(LstmCell(m, k, w), in, 1);
  }
}

// In f16 and bf16 every op of the cell rounds through the codec, as unfused.
TEST_F(ColumnGroupsTest, LstmCellInNarrowFloats) {
  for (ir::ElementType type : {ir::ElementType::kF16, ir::ElementType::kBF16}) {
    const std::string t(ir::ElementTypeName(type));
    SCOPED_TRACE(t);
    auto of = [&](std::vector<int64_t> dims) { return ir::Type::Tensor(type, std::move(dims)); };
    std::vector<ir::Literal> in;
    in.push_back(SmallIntegers(of({6, 8}), rng_));
    in.push_back(SmallIntegers(of({8, 48}), rng_));
    in.push_back(Uniform(of({6, 48}), -3, 3, rng_));
    in.push_back(Uniform(of({48}), -1, 1, rng_));
    in.push_back(Uniform(of({6, 12}), -2, 2, rng_));
    Check(LstmCell(6, 8, 12, t), in, 1);
  }
}

// A scan of the cell: each step is the product's kernel alone, the counter's step computed by
// its first invocation (fusion.cc's ScalarHost, DeviceKernelEmitter::hosts_scalars).
TEST_F(ColumnGroupsTest, AScanStepIsOneKernelWithTheCounter) {
  for (const char* counter : {"i32", "i64"}) {  // i64: pairs of words under VKHLO_PROFILE=mobile
  SCOPED_TRACE(counter);
  std::string mlir = R"(func.func @main(%h0: tensor<4x8xf32>, %c0: tensor<4x8xf32>, %w: tensor<8x32xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<i32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %zero, %h = %h0, %c = %c0, %ww = %w) : tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x32xf32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %z = stablehlo.dot_general %h, %ww, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
    %gi = stablehlo.slice %z [0:4, 0:8] : (tensor<4x32xf32>) -> tensor<4x8xf32>
    %gf = stablehlo.slice %z [0:4, 8:16] : (tensor<4x32xf32>) -> tensor<4x8xf32>
    %gg = stablehlo.slice %z [0:4, 16:24] : (tensor<4x32xf32>) -> tensor<4x8xf32>
    %go = stablehlo.slice %z [0:4, 24:32] : (tensor<4x32xf32>) -> tensor<4x8xf32>
    %si = stablehlo.logistic %gi : tensor<4x8xf32>
    %sf = stablehlo.logistic %gf : tensor<4x8xf32>
    %tg = stablehlo.tanh %gg : tensor<4x8xf32>
    %so = stablehlo.logistic %go : tensor<4x8xf32>
    %fc = stablehlo.multiply %sf, %c : tensor<4x8xf32>
    %ig = stablehlo.multiply %si, %tg : tensor<4x8xf32>
    %c2 = stablehlo.add %fc, %ig : tensor<4x8xf32>
    %tc = stablehlo.tanh %c2 : tensor<4x8xf32>
    %h2 = stablehlo.multiply %so, %tc : tensor<4x8xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %h2, %c2, %ww : tensor<i32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<8x32xf32>
  }
  func.return %r#1, %r#2, %r#0 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<i32>
})";
  for (size_t at = mlir.find("i32"); at != std::string::npos; at = mlir.find("i32", at + 3)) mlir.replace(at, 3, counter);
  std::vector<ir::Literal> in;
  in.push_back(Uniform(F32({4, 8}), -1, 1, rng_));
  in.push_back(Uniform(F32({4, 8}), -1, 1, rng_));
  in.push_back(Uniform(F32({8, 32}), -1, 1, rng_));
  // Products of fractions: the device sums with fma, the interpreter rounds each product, and
  // five steps of the recurrence carry the differences (21 ULP seen; 256 allowed, 3e-5).
  Check(mlir, in, 5, 1 << 8);
  }
}

// Three groups spaced wider than they are (columns between them unused), sliced straight from
// the product, a value read beside the slices at the roots' shape, a transposed weight, and a
// root that a later op reads (its own kernel after the product's).
TEST_F(ColumnGroupsTest, SpacedGroupsOfTheProductWithAnInputAndALaterUse) {
  const std::string mlir = R"(func.func @main(%x: tensor<5x7xf32>, %wt: tensor<40x7xf32>, %r: tensor<5x8xf32>) -> (tensor<5x8xf32>, tensor<5x8xf32>) {
  %p = stablehlo.dot_general %x, %wt, contracting_dims = [1] x [1] : (tensor<5x7xf32>, tensor<40x7xf32>) -> tensor<5x40xf32>
  %a = stablehlo.slice %p [0:5, 0:8] : (tensor<5x40xf32>) -> tensor<5x8xf32>
  %b = stablehlo.slice %p [0:5, 12:20] : (tensor<5x40xf32>) -> tensor<5x8xf32>
  %c = stablehlo.slice %p [0:5, 24:32] : (tensor<5x40xf32>) -> tensor<5x8xf32>
  %0 = stablehlo.multiply %a, %b : tensor<5x8xf32>
  %1 = stablehlo.subtract %0, %c : tensor<5x8xf32>
  %2 = stablehlo.maximum %1, %r : tensor<5x8xf32>
  %3 = stablehlo.reverse %2, dims = [1] : tensor<5x8xf32>
  %4 = stablehlo.add %3, %a : tensor<5x8xf32>
  func.return %4, %1 : tensor<5x8xf32>, tensor<5x8xf32>
})";
  ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(mlir));
  const ir::Block& block = module->functions().front()->body().front();
  const codegen::library::FusedEpilogue match = codegen::library::MatchEpilogue(block, *block.operations()[0]);
  ASSERT_TRUE(match.epilogue.groups.has_value());
  EXPECT_EQ(match.epilogue.groups->width, 8);
  EXPECT_EQ(match.epilogue.groups->stride, 12);
  // The reverse ends the cell; what it and the return read is stored: %a, %1, %2.
  ASSERT_EQ(match.Results().size(), 3u);
  EXPECT_EQ(match.Results()[0], block.operations()[1]->result(0));
  EXPECT_EQ(match.Results()[1], block.operations()[5]->result(0));
  EXPECT_EQ(match.Results()[2], block.operations()[6]->result(0));
  std::vector<ir::Literal> in;
  in.push_back(SmallIntegers(F32({5, 7}), rng_));
  in.push_back(SmallIntegers(F32({40, 7}), rng_));
  in.push_back(Uniform(F32({5, 8}), -3, 3, rng_));
  Check(mlir, in, 2);
}

// Not column groups: slices at uneven starts, a use of the sliced value besides its slices,
// strided slices.
TEST_F(ColumnGroupsTest, OtherSlicesAreLeftAlone) {
  const std::vector<std::string> programs = {
      R"(func.func @main(%x: tensor<4x6xf32>, %w: tensor<6x24xf32>) -> tensor<4x8xf32> {
  %p = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x24xf32>) -> tensor<4x24xf32>
  %a = stablehlo.slice %p [0:4, 0:8] : (tensor<4x24xf32>) -> tensor<4x8xf32>
  %b = stablehlo.slice %p [0:4, 10:18] : (tensor<4x24xf32>) -> tensor<4x8xf32>
  %c = stablehlo.slice %p [0:4, 16:24] : (tensor<4x24xf32>) -> tensor<4x8xf32>
  %0 = stablehlo.add %a, %b : tensor<4x8xf32>
  %1 = stablehlo.add %0, %c : tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
})",
      R"(func.func @main(%x: tensor<4x6xf32>, %w: tensor<6x16xf32>) -> (tensor<4x8xf32>, tensor<4x16xf32>) {
  %p = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x16xf32>) -> tensor<4x16xf32>
  %q = stablehlo.multiply %p, %p : tensor<4x16xf32>
  %a = stablehlo.slice %q [0:4, 0:8] : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %b = stablehlo.slice %q [0:4, 8:16] : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %0 = stablehlo.add %a, %b : tensor<4x8xf32>
  func.return %0, %q : tensor<4x8xf32>, tensor<4x16xf32>
})",
      R"(func.func @main(%x: tensor<4x6xf32>, %w: tensor<6x16xf32>) -> tensor<4x8xf32> {
  %p = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x6xf32>, tensor<6x16xf32>) -> tensor<4x16xf32>
  %a = "stablehlo.slice"(%p) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 16>, strides = array<i64: 1, 2>} : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %b = "stablehlo.slice"(%p) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 4, 16>, strides = array<i64: 1, 2>} : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %0 = stablehlo.add %a, %b : tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
})",
  };
  for (const std::string& mlir : programs) {
    SCOPED_TRACE(mlir);
    ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(mlir));
    const ir::Block& block = module->functions().front()->body().front();
    const codegen::library::FusedEpilogue match = codegen::library::MatchEpilogue(block, *block.operations()[0]);
    EXPECT_FALSE(match.epilogue.groups.has_value());
    std::vector<ir::Literal> in;
    for (const auto& arg : block.arguments()) in.push_back(SmallIntegers(arg->type(), rng_));
    ASSERT_OK_AND_ASSIGN(BothResults run, RunOnBoth(mlir, in));
    for (size_t r = 0; r < run.vulkan.size(); ++r) {
      std::string why;
      EXPECT_TRUE(SameBits(run.reference[r], run.vulkan[r], &why)) << why;
    }
  }
}

}  // namespace
}  // namespace vkhlo::testing
