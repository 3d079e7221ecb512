// Generated epilogues through the whole runtime (fusion planning, the library kernel, the
// elemental emitter): a conv block (conv -> batch norm (inference) -> + residual -> relu, as JAX
// exports it) runs as the convolution's kernel alone, the per-channel scale rsqrt(var + eps) *
// gamma computed once per tile column inside it; matmul -> + bias -> GELU as the matmul's
// kernel alone, in f32, f16 and bf16. Results are bit-identical to the
// interpreter and to the unfused path. The operands hold small integers, so every
// product sum is exact whatever order the kernel adds in, and any difference would come from
// the element-wise part, which must round each op exactly as unfused.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "codegen/library/epilogue_match.h"
#include "frontend/parser.h"
#include "tests/codegen/library/gelu_program.h"
#include "tests/codegen/library/literal_fill.h"
#include "tests/support/runtime_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::testing {
namespace {

// A conv block as jax.jit exports it (cnn.mlir): the batch-norm vectors broadcast twice, eps a
// broadcast scalar constant, rsqrt(var + eps) * gamma computed after the convolution, a
// residual, relu through a broadcast scalar zero.
std::string ConvBlock(const std::string& t, bool residual) {
  std::string s = fmt::format(R"(func.func @main(%x: tensor<2x8x8x8x{0}>, %w: tensor<3x3x8x8x{0}>, %mean: tensor<8x{0}>, %var: tensor<8x{0}>, %gamma: tensor<8x{0}>, %beta: tensor<8x{0}>) -> tensor<2x8x8x8x{0}> {{
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [1, 1], pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<2x8x8x8x{0}>, tensor<3x3x8x8x{0}>) -> tensor<2x8x8x8x{0}>
  %1 = stablehlo.broadcast_in_dim %mean, dims = [3] : (tensor<8x{0}>) -> tensor<1x1x1x8x{0}>
  %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x8x{0}>) -> tensor<2x8x8x8x{0}>
  %3 = stablehlo.subtract %0, %2 : tensor<2x8x8x8x{0}>
  %cst = stablehlo.constant dense<9.99999974E-6> : tensor<{0}>
  %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<{0}>) -> tensor<8x{0}>
  %5 = stablehlo.add %var, %4 : tensor<8x{0}>
  %6 = stablehlo.rsqrt %5 : tensor<8x{0}>
  %7 = stablehlo.multiply %gamma, %6 : tensor<8x{0}>
  %8 = stablehlo.broadcast_in_dim %7, dims = [3] : (tensor<8x{0}>) -> tensor<1x1x1x8x{0}>
  %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3] : (tensor<1x1x1x8x{0}>) -> tensor<2x8x8x8x{0}>
  %10 = stablehlo.multiply %3, %9 : tensor<2x8x8x8x{0}>
  %11 = stablehlo.broadcast_in_dim %beta, dims = [3] : (tensor<8x{0}>) -> tensor<1x1x1x8x{0}>
  %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2, 3] : (tensor<1x1x1x8x{0}>) -> tensor<2x8x8x8x{0}>
  %13 = stablehlo.add %10, %12 : tensor<2x8x8x8x{0}>
)",
                              t);
  s += residual ? fmt::format("  %14 = stablehlo.add %13, %x : tensor<2x8x8x8x{0}>\n", t)
                : fmt::format("  %14 = stablehlo.add %13, %13 : tensor<2x8x8x8x{0}>\n", t);
  s += fmt::format(R"(  %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<{0}>
  %15 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<{0}>) -> tensor<2x8x8x8x{0}>
  %16 = stablehlo.maximum %14, %15 : tensor<2x8x8x8x{0}>
  func.return %16 : tensor<2x8x8x8x{0}>
}}
)",
                   t);
  return s;
}

class EpilogueFusionTest : public ::testing::Test {
 protected:
  // Runs `mlir` fused and unfused on the device and in the interpreter: `kernels` dispatches
  // when fused (0: fewer than unfused), and the same bits everywhere.
  void Check(const std::string& mlir, const std::vector<ir::Literal>& inputs, uint64_t kernels) {
    SCOPED_TRACE(mlir);
    ASSERT_OK_AND_ASSIGN(BothResults fused, RunOnBoth(mlir, inputs));
    if (kernels > 0) {
      EXPECT_EQ(fused.stats.kernels_dispatched, kernels) << "the epilogue runs in the product's kernel";
    }
    CompileOptions off;
    off.fuse = false;
    ASSERT_OK_AND_ASSIGN(BothResults unfused, RunOnBoth(mlir, inputs, off));
    EXPECT_GT(unfused.stats.kernels_dispatched, fused.stats.kernels_dispatched);
    std::string why;
    EXPECT_TRUE(SameBits(fused.reference[0], fused.vulkan[0], &why)) << "fused against the interpreter: " << why;
    EXPECT_TRUE(SameBits(unfused.vulkan[0], fused.vulkan[0], &why)) << "fused against unfused: " << why;
  }

  std::vector<ir::Literal> ConvInputs(ir::ElementType t) {
    std::vector<ir::Literal> in;
    in.push_back(SmallIntegers(ir::Type::Tensor(t, {2, 8, 8, 8}), rng_));
    in.push_back(SmallIntegers(ir::Type::Tensor(t, {3, 3, 8, 8}), rng_));
    in.push_back(Uniform(ir::Type::Tensor(t, {8}), -1, 1, rng_));   // mean
    in.push_back(Uniform(ir::Type::Tensor(t, {8}), 0.1, 3, rng_));  // var
    in.push_back(Uniform(ir::Type::Tensor(t, {8}), -2, 2, rng_));   // gamma
    in.push_back(Uniform(ir::Type::Tensor(t, {8}), -1, 1, rng_));   // beta
    return in;
  }

  std::vector<ir::Literal> MatmulInputs(ir::ElementType t) {
    std::vector<ir::Literal> in;
    in.push_back(SmallIntegers(ir::Type::Tensor(t, {2, 8, 16}), rng_));
    in.push_back(SmallIntegers(ir::Type::Tensor(t, {16, 32}), rng_));
    in.push_back(Uniform(ir::Type::Tensor(t, {32}), -3, 3, rng_));
    return in;
  }

  std::mt19937_64 rng_{24};
};

// One kernel: the convolution, the scale's chain (a column value), everything else.
TEST_F(EpilogueFusionTest, ConvBlockWithResidualIsTheConvolutionsKernel) {
  Check(ConvBlock("f32", true), ConvInputs(ir::ElementType::kF32), 1);
}

// Narrow-float arithmetic rounds through the codec at each op, as unfused: the conv block's
// epilogue in f16 and bf16 is the convolution's kernel too (var + eps and the rsqrt's chain in
// a narrow float computed once per tile column, not per element).
TEST_F(EpilogueFusionTest, ConvBlockF16AndBf16) {
  Check(ConvBlock("f16", false), ConvInputs(ir::ElementType::kF16), 1);
  Check(ConvBlock("bf16", true), ConvInputs(ir::ElementType::kBF16), 1);
}

// The whole GELU is the matmul's epilogue, in f32, f16 and bf16.
TEST_F(EpilogueFusionTest, MatmulBiasGelu) {
  Check(MatmulBiasGelu("f32", true), MatmulInputs(ir::ElementType::kF32), 1);
  Check(MatmulBiasGelu("f16", true), MatmulInputs(ir::ElementType::kF16), 1);
  Check(MatmulBiasGelu("bf16", true), MatmulInputs(ir::ElementType::kBF16), 1);
}

// Compare / select / convert / logistic / exp / a second full-size input after a dot.
TEST_F(EpilogueFusionTest, SelectConvertAndTwoFullSizeInputs) {
  const std::string mlir = R"(func.func @main(%a: tensor<6x9xf32>, %b: tensor<9x10xf32>, %r: tensor<6x10xf32>, %s: tensor<6x10xf32>) -> tensor<6x10xf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<6x9xf32>, tensor<9x10xf32>) -> tensor<6x10xf32>
  %1 = stablehlo.add %0, %r : tensor<6x10xf32>
  %2 = stablehlo.logistic %1 : tensor<6x10xf32>
  %3 = stablehlo.exponential %0 : tensor<6x10xf32>
  %4 = stablehlo.compare GT, %1, %s : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xi1>
  %5 = stablehlo.select %4, %2, %3 : tensor<6x10xi1>, tensor<6x10xf32>
  %6 = stablehlo.convert %5 : (tensor<6x10xf32>) -> tensor<6x10xf16>
  func.return %6 : tensor<6x10xf16>
})";
  std::vector<ir::Literal> in;
  in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {6, 9}), rng_));
  in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {9, 10}), rng_));
  in.push_back(Uniform(ir::Type::Tensor(ir::ElementType::kF32, {6, 10}), -2, 2, rng_));
  in.push_back(Uniform(ir::Type::Tensor(ir::ElementType::kF32, {6, 10}), -2, 2, rng_));
  Check(mlir, in, 1);  // logistic and exponential included: one kernel
}

// Attention's projections: reshape(x @ w + bias) to [b, s, h, d], read by the scores' product
// through a transpose. The reshape (the stored value's only use) is part of the epilogue: the
// product's kernel stores the reshaped value (same bytes, same order), no copy kernel; and the
// transposes fold into the scores' product (passes/transposed_products.cc). Also a reshape
// straight after a product (no element-wise op) and a reshape chain.
TEST_F(EpilogueFusionTest, ReshapeOfTheStoredValueIsStoredByTheProduct) {
  const std::string mlir = R"(func.func @main(%x: tensor<2x6x8xf32>, %wq: tensor<8x8xf32>, %wk: tensor<8x8xf32>, %bias: tensor<8xf32>) -> tensor<2x2x6x6xf32> {
  %q0 = stablehlo.dot_general %x, %wq, contracting_dims = [2] x [0] : (tensor<2x6x8xf32>, tensor<8x8xf32>) -> tensor<2x6x8xf32>
  %bb = stablehlo.broadcast_in_dim %bias, dims = [2] : (tensor<8xf32>) -> tensor<2x6x8xf32>
  %q1 = stablehlo.add %q0, %bb : tensor<2x6x8xf32>
  %q = stablehlo.reshape %q1 : (tensor<2x6x8xf32>) -> tensor<2x6x2x4xf32>
  %k0 = stablehlo.dot_general %x, %wk, contracting_dims = [2] x [0] : (tensor<2x6x8xf32>, tensor<8x8xf32>) -> tensor<2x6x8xf32>
  %k1 = stablehlo.reshape %k0 : (tensor<2x6x8xf32>) -> tensor<12x8xf32>
  %k = stablehlo.reshape %k1 : (tensor<12x8xf32>) -> tensor<2x6x2x4xf32>
  %qt = stablehlo.transpose %q, dims = [0, 2, 1, 3] : (tensor<2x6x2x4xf32>) -> tensor<2x2x6x4xf32>
  %kt = stablehlo.transpose %k, dims = [0, 2, 3, 1] : (tensor<2x6x2x4xf32>) -> tensor<2x2x4x6xf32>
  %s = stablehlo.dot_general %qt, %kt, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x2x6x4xf32>, tensor<2x2x4x6xf32>) -> tensor<2x2x6x6xf32>
  func.return %s : tensor<2x2x6x6xf32>
})";
  std::vector<ir::Literal> in;
  in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {2, 6, 8}), rng_));
  in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {8, 8}), rng_));
  in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {8, 8}), rng_));
  in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {8}), rng_));
  Check(mlir, in, 3);  // the three products, nothing else
}

// A transpose of what a product stores (its only use) is stored in place through the result's
// index maps, a reshape after it too: attention's output transpose(p @ v, [0, 2, 1, 3]) as
// [b, s, h * d]; batch dimensions moved inside, and a permutation that leaves no column run
// contiguous (the tile stored element by element), after element-wise ops.
TEST_F(EpilogueFusionTest, TransposeOfTheStoredValueIsStoredByTheProduct) {
  const std::vector<std::string> permutations = {"0, 2, 1, 3", "2, 3, 0, 1", "3, 1, 2, 0"};
  for (const std::string& permutation : permutations) {
    std::vector<int64_t> perm;
    for (char c : permutation) {
      if (c >= '0' && c <= '9') perm.push_back(c - '0');
    }
    const std::vector<int64_t> dims = {2, 3, 5, 4};  // [b, h, s, d]
    std::vector<int64_t> out;
    for (int64_t d : perm) out.push_back(dims[static_cast<size_t>(d)]);
    const std::string out_type = fmt::format("tensor<{}x{}x{}x{}xf32>", out[0], out[1], out[2], out[3]);
    const std::string mlir = fmt::format(R"(func.func @main(%p: tensor<2x3x5x6xf32>, %v: tensor<2x3x6x4xf32>, %r: tensor<2x3x5x4xf32>) -> tensor<{1}x{2}xf32> {{
  %0 = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x3x5x6xf32>, tensor<2x3x6x4xf32>) -> tensor<2x3x5x4xf32>
  %1 = stablehlo.add %0, %r : tensor<2x3x5x4xf32>
  %2 = stablehlo.transpose %1, dims = [{3}] : (tensor<2x3x5x4xf32>) -> {0}
  %3 = stablehlo.reshape %2 : ({0}) -> tensor<{1}x{2}xf32>
  func.return %3 : tensor<{1}x{2}xf32>
}})", out_type, out[0] * out[1], out[2] * out[3], permutation);
    std::vector<ir::Literal> in;
    in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {2, 3, 5, 6}), rng_));
    in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {2, 3, 6, 4}), rng_));
    in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {2, 3, 5, 4}), rng_));
    Check(mlir, in, 1);
  }
}

// A scan step's slice of a product computed before its loop (passes/hoist_loop_products.cc):
// the epilogue reads the slice from the whole tensor at the step's index, clamped as
// dynamic_slice clamps, with no kernel storing the slice first; the slice is taken before the
// dot, as the pass leaves it.
TEST_F(EpilogueFusionTest, DynamicSliceOfAnEarlierTensorIsReadInPlace) {
  const std::string mlir = R"(func.func @main(%a: tensor<6x9xf32>, %b: tensor<9x10xf32>, %p: tensor<4x6x10xf32>, %i: tensor<i32>, %bias: tensor<10xf32>) -> tensor<6x10xf32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.dynamic_slice %p, %i, %z, %z, sizes = [1, 6, 10] : (tensor<4x6x10xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x6x10xf32>
  %r = stablehlo.reshape %s : (tensor<1x6x10xf32>) -> tensor<6x10xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<6x9xf32>, tensor<9x10xf32>) -> tensor<6x10xf32>
  %1 = stablehlo.add %r, %0 : tensor<6x10xf32>
  %2 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<10xf32>) -> tensor<6x10xf32>
  %3 = stablehlo.add %1, %2 : tensor<6x10xf32>
  func.return %3 : tensor<6x10xf32>
})";
  for (int32_t step : {0, 2, 3, 7, -5}) {  // 7 and -5 clamp to 3 and 0
    SCOPED_TRACE(step);
    std::vector<ir::Literal> in;
    in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {6, 9}), rng_));
    in.push_back(SmallIntegers(ir::Type::Tensor(ir::ElementType::kF32, {9, 10}), rng_));
    in.push_back(Uniform(ir::Type::Tensor(ir::ElementType::kF32, {4, 6, 10}), -2, 2, rng_));
    ir::Literal index = *ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kS32, {}));
    index.SetInt(0, step);
    in.push_back(std::move(index));
    in.push_back(Uniform(ir::Type::Tensor(ir::ElementType::kF32, {10}), -2, 2, rng_));
    Check(mlir, in, 1);
  }
  ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(mlir));
  const ir::Block& block = module->functions().front()->body().front();
  const codegen::library::FusedEpilogue match = codegen::library::MatchEpilogue(block, *block.operations()[3]);
  EXPECT_EQ(match.fused.size(), 2u) << "both adds";
  // The whole tensor and the index, then the bias: not the slice.
  ASSERT_EQ(match.inputs.size(), 3u);
  EXPECT_EQ(match.inputs[0], block.arguments()[2].get());
  EXPECT_EQ(match.inputs[1], block.arguments()[3].get());
  EXPECT_EQ(match.inputs[2], block.arguments()[4].get());

  // A slice of a value the block computes element-wise (fused, never stored) stays an input of
  // its own: the epilogue reads the small slice, not the whole value.
  ASSERT_OK_AND_ASSIGN(auto iota_module, frontend::ParseModule(R"(func.func @main(%a: tensor<6x9xf32>, %b: tensor<9x10xf32>) -> tensor<6x10xf32> {
  %big = stablehlo.iota dim = 0 : tensor<6000x10xf32>
  %s = stablehlo.slice %big [0:6, 0:10] : (tensor<6000x10xf32>) -> tensor<6x10xf32>
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<6x9xf32>, tensor<9x10xf32>) -> tensor<6x10xf32>
  %1 = stablehlo.add %s, %0 : tensor<6x10xf32>
  func.return %1 : tensor<6x10xf32>
})"));
  const ir::Block& iota_block = iota_module->functions().front()->body().front();
  const codegen::library::FusedEpilogue iota_match =
      codegen::library::MatchEpilogue(iota_block, *iota_block.operations()[2]);
  ASSERT_EQ(iota_match.inputs.size(), 1u);
  EXPECT_EQ(iota_match.inputs[0], iota_block.operations()[1]->result(0)) << "the slice, not the iota";
}

// The subgraph the matcher finds in the conv block, and the smaller ones a device with fewer
// storage-buffer bindings gets (each drops what needs another input buffer).
TEST(EpilogueMatchTest, ConvBlockSubgraphAndBindingLimit) {
  ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(ConvBlock("f32", true)));
  const ir::Block& block = module->functions().front()->body().front();
  const ir::Operation& conv = *block.operations().front();
  const codegen::library::FusedEpilogue all = codegen::library::MatchEpilogue(block, conv);
  ASSERT_FALSE(all.epilogue.empty());
  EXPECT_EQ(all.result, block.operations()[block.operations().size() - 2]->result(0)) << "the relu";
  // mean, gamma, var, beta, the residual: read from buffers at the index the emitter derives.
  ASSERT_EQ(all.inputs.size(), 5u);
  EXPECT_EQ(all.inputs[0], block.arguments()[2].get());
  EXPECT_EQ(all.inputs[2], block.arguments()[3].get());
  EXPECT_EQ(all.inputs[4], block.arguments()[0].get());
  // Every element-wise op after the convolution, the scale's chain included: rsqrt(var + eps)
  // * gamma broadcast along the channels is a column value, computed once per tile column.
  EXPECT_EQ(all.fused.size(), 10u);
  ASSERT_EQ(all.epilogue.column_values.size(), 1u);
  EXPECT_EQ(all.epilogue.column_values[0], block.operations()[10]->result(0)) << "the scale's broadcast";
  // Without column values the rsqrt's chain is left to its own kernel (once per channel rather
  // than once per element), unless side library calls are allowed: then it is computed per
  // element from var.
  const codegen::library::FusedEpilogue rows = codegen::library::MatchEpilogue(block, conv, {.column_values = false});
  EXPECT_EQ(rows.fused.size(), 8u);
  EXPECT_EQ(rows.inputs[2]->defining_op()->code(), ir::OpCode::kRsqrt);
  EXPECT_TRUE(rows.epilogue.column_values.empty());
  const codegen::library::FusedEpilogue calls =
      codegen::library::MatchEpilogue(block, conv, {.side_library_calls = true, .column_values = false});
  EXPECT_EQ(calls.fused.size(), 10u);
  EXPECT_EQ(calls.inputs[2], block.arguments()[3].get());
  EXPECT_TRUE(calls.epilogue.column_values.empty());
  const codegen::library::FusedEpilogue one = codegen::library::MatchEpilogue(block, conv, {.max_inputs = 1});
  ASSERT_EQ(one.inputs.size(), 1u);
  EXPECT_EQ(one.result->defining_op()->code(), ir::OpCode::kSubtract);
  const codegen::library::FusedEpilogue none = codegen::library::MatchEpilogue(block, conv, {.max_inputs = 0});
  EXPECT_TRUE(none.fused.empty());
  EXPECT_EQ(none.result, conv.result(0));
}

}  // namespace
}  // namespace vkhlo::testing
