// Fused epilogues: `dot_general -> add(broadcast bias) -> max(x, 0)` (and the convolution
// equivalent, a scale, a convert, a custom GLSL hook) in one dispatch, against the interpreter
// running the unfused program.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "frontend/parser.h"
#include "codegen/library/epilogue_match.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "tests/codegen/library/library_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::testing {
namespace {

using codegen::library::Epilogue;
using codegen::library::EpilogueOp;

class EpilogueTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (device_) target_ = TargetFromDevice(*device_);
  }

  // Runs `mlir`'s main on random arguments in the interpreter, and its first dot_general or
  // convolution with `epilogue` (inputs: the arguments after the first two) on the device.
  void Check(const std::string& mlir, const Epilogue& epilogue, int64_t k) {
    SCOPED_TRACE(mlir);
    ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(mlir));
    const ir::Function& main = *module->functions().front();
    std::vector<ir::Literal> args;
    interp::InterpValues values;
    for (const auto& arg : main.body().front().arguments()) {
      args.push_back(RandomLiteral(arg->type(), rng_));
      values.push_back(interp::InterpValue::Tensor(args.back()));
    }
    ASSERT_OK_AND_ASSIGN(interp::RunResult expected, interp::RunFunction(*module, "main", values));
    const ir::Operation* op = nullptr;
    ir::WalkOps(*module, [&](ir::Operation& o) {
      if (!op && (o.code() == ir::OpCode::kDotGeneral || o.code() == ir::OpCode::kConvolution)) op = &o;
    });
    ASSERT_NE(op, nullptr);
    auto plan = op->code() == ir::OpCode::kDotGeneral ? codegen::library::PlanDotGeneral(*op, target_, epilogue)
                                                      : codegen::library::PlanConvolution(*op, target_, epilogue);
    ASSERT_OK(plan.status());
    SCOPED_TRACE(plan->summary);
    EXPECT_EQ(plan->dispatches.size(), 1u) << "the epilogue is fused: one dispatch";
    std::vector<ir::Literal> operands = {args[0], args[1]};
    std::vector<ir::Literal> inputs(args.begin() + 2, args.end());
    ASSERT_OK_AND_ASSIGN(ir::Literal actual, RunPlan(dev(), TestCompiler(), target_, *plan, operands, inputs));
    EXPECT_EQ(Compare(expected.outputs[0].literal(), actual, k), "");
  }

  codegen::TargetInfo target_;
  std::mt19937_64 rng_{99};
};

TEST_F(EpilogueTest, DotBiasRelu) {
  Epilogue e;
  e.inputs.push_back({ir::ElementType::kF32, {7}, {1}});
  e.steps = {{EpilogueOp::kAdd, 0}, {EpilogueOp::kRelu}};
  Check(R"(func.func @main(%a: tensor<33x100xf32>, %b: tensor<100x7xf32>, %bias: tensor<7xf32>) -> tensor<33x7xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<33x100xf32>, tensor<100x7xf32>) -> tensor<33x7xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<7xf32>) -> tensor<33x7xf32>
  %2 = stablehlo.add %0, %1 : tensor<33x7xf32>
  %3 = stablehlo.constant dense<0.0> : tensor<33x7xf32>
  %4 = stablehlo.maximum %2, %3 : tensor<33x7xf32>
  func.return %4 : tensor<33x7xf32>
})", e, 100);
}

// bf16 in, bf16 dot result rounded before the epilogue (as the unfused ops), a row bias, a
// scale, then converted to f32.
TEST_F(EpilogueTest, Bf16ScaleBiasConvert) {
  Epilogue e;
  e.inputs.push_back({ir::ElementType::kBF16, {3, 9}, {0, 1}});
  e.steps = {{EpilogueOp::kScale, -1, 0.5}, {EpilogueOp::kSubtract, 0}};
  e.convert_to = ir::ElementType::kF32;
  Check(R"(func.func @main(%a: tensor<3x9x40xbf16>, %b: tensor<3x40x5xbf16>, %r: tensor<3x9xbf16>) -> tensor<3x9x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x9x40xbf16>, tensor<3x40x5xbf16>) -> tensor<3x9x5xbf16>
  %1 = stablehlo.constant dense<0.5> : tensor<3x9x5xbf16>
  %2 = stablehlo.multiply %0, %1 : tensor<3x9x5xbf16>
  %3 = stablehlo.broadcast_in_dim %r, dims = [0, 1] : (tensor<3x9xbf16>) -> tensor<3x9x5xbf16>
  %4 = stablehlo.subtract %2, %3 : tensor<3x9x5xbf16>
  %5 = stablehlo.convert %4 : (tensor<3x9x5xbf16>) -> tensor<3x9x5xf32>
  func.return %5 : tensor<3x9x5xf32>
})", e, 40);
}

TEST_F(EpilogueTest, ConvolutionBiasRelu) {
  Epilogue e;
  e.inputs.push_back({ir::ElementType::kF32, {16}, {3}});
  e.steps = {{EpilogueOp::kAdd, 0}, {EpilogueOp::kRelu}};
  Check(R"(func.func @main(%x: tensor<2x9x9x8xf32>, %w: tensor<3x3x8x16xf32>, %bias: tensor<16xf32>) -> tensor<2x9x9x16xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x9x9x16xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [3] : (tensor<16xf32>) -> tensor<2x9x9x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<2x9x9x16xf32>
  %3 = stablehlo.constant dense<0.0> : tensor<2x9x9x16xf32>
  %4 = stablehlo.maximum %2, %3 : tensor<2x9x9x16xf32>
  func.return %4 : tensor<2x9x9x16xf32>
})", e, 72);
}

// MatchEpilogue finds the chain in the IR: the bias through its broadcast, relu from max(x, 0),
// a scale from a splat multiply, a convert; a value with a second use ends the chain.
TEST_F(EpilogueTest, MatchEpilogueFindsTheChain) {
  const std::string mlir = R"(func.func @main(%a: tensor<33x100xf32>, %b: tensor<100x7xf32>, %bias: tensor<7xf32>) -> tensor<33x7xf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<33x100xf32>, tensor<100x7xf32>) -> tensor<33x7xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<7xf32>) -> tensor<33x7xf32>
  %2 = stablehlo.add %0, %1 : tensor<33x7xf32>
  %c = stablehlo.constant dense<2.5> : tensor<33x7xf32>
  %3 = stablehlo.multiply %c, %2 : tensor<33x7xf32>
  %z = stablehlo.constant dense<0.0> : tensor<33x7xf32>
  %4 = stablehlo.maximum %3, %z : tensor<33x7xf32>
  %5 = stablehlo.convert %4 : (tensor<33x7xf32>) -> tensor<33x7xf16>
  func.return %5 : tensor<33x7xf16>
})";
  ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(mlir));
  const ir::Block& block = module->functions().front()->body().front();
  const ir::Operation* dot = block.operations().front().get();
  const codegen::library::FusedEpilogue f = codegen::library::MatchEpilogue(block, *dot);
  // The generated form (epilogue_generate.h): add, multiply, maximum and convert; the bias's
  // broadcast and the splat constants are emitted inline.
  ASSERT_EQ(f.fused.size(), 4u);
  ASSERT_EQ(f.inputs.size(), 1u);
  EXPECT_EQ(f.inputs[0], block.arguments()[2].get());
  ASSERT_TRUE(f.epilogue.generated.has_value());
  EXPECT_TRUE(f.epilogue.steps.empty());
  EXPECT_EQ(f.epilogue.custom_result_type, ir::ElementType::kF16);
  EXPECT_EQ(f.result, block.operations().back()->operand(0));
  Check(mlir, f.epilogue, 100);

  // %2 used twice: the chain stops before it.
  const std::string shared = R"(func.func @main(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %1 = stablehlo.subtract %0, %c : tensor<3x5xf32>
  %2 = stablehlo.exponential %1 : tensor<3x5xf32>
  func.return %1, %2 : tensor<3x5xf32>, tensor<3x5xf32>
})";
  ASSERT_OK_AND_ASSIGN(auto module2, frontend::ParseModule(shared));
  const ir::Block& block2 = module2->functions().front()->body().front();
  const codegen::library::FusedEpilogue g = codegen::library::MatchEpilogue(block2, *block2.operations().front());
  ASSERT_EQ(g.fused.size(), 1u);
  EXPECT_EQ(g.fused[0]->code(), ir::OpCode::kSubtract);
  EXPECT_EQ(g.result, block2.operations()[1]->result(0));
}

// The hook the elemental emitter plugs into: generated GLSL defining epilogue().
TEST_F(EpilogueTest, CustomGlsl) {
  Epilogue e;
  e.inputs.push_back({ir::ElementType::kS32, {5, 6}, {0, 1}});
  e.custom_glsl =
      "int epilogue(int acc, uint b, uint m, uint n) {\n"
      "  int x = round_result(acc);\n"
      "  return x * 3 + epi_in0(out_index(b, m, n));\n"
      "}\n";
  Check(R"(func.func @main(%a: tensor<5x11xi32>, %b: tensor<11x6xi32>, %c: tensor<5x6xi32>) -> tensor<5x6xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<5x11xi32>, tensor<11x6xi32>) -> tensor<5x6xi32>
  %1 = stablehlo.constant dense<3> : tensor<5x6xi32>
  %2 = stablehlo.multiply %0, %1 : tensor<5x6xi32>
  %3 = stablehlo.add %2, %c : tensor<5x6xi32>
  func.return %3 : tensor<5x6xi32>
})", e, 11);
}


// The whole GELU (tanh form, as jax.nn.gelu exports it) as the generated epilogue of a plan
// made with library calls allowed: the GLSL library's tanh per element, one dispatch, bits
// identical to the interpreter (small-integer operands: the product is exact in any order).
TEST_F(EpilogueTest, WholeGeluGenerated) {
  for (const char* t : {"f32"}) {
    const std::string mlir = fmt::format(R"(func.func @main(%a: tensor<2x8x16x{0}>, %b: tensor<16x32x{0}>, %bias: tensor<32x{0}>) -> tensor<2x8x32x{0}> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<2x8x16x{0}>, tensor<16x32x{0}>) -> tensor<2x8x32x{0}>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [2] : (tensor<32x{0}>) -> tensor<1x1x32x{0}>
  %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x32x{0}>) -> tensor<2x8x32x{0}>
  %x = stablehlo.add %0, %2 : tensor<2x8x32x{0}>
  %3 = stablehlo.multiply %x, %x : tensor<2x8x32x{0}>
  %4 = stablehlo.multiply %3, %x : tensor<2x8x32x{0}>
  %c1 = stablehlo.constant dense<4.471500e-02> : tensor<{0}>
  %5 = stablehlo.broadcast_in_dim %c1, dims = [] : (tensor<{0}>) -> tensor<2x8x32x{0}>
  %6 = stablehlo.multiply %5, %4 : tensor<2x8x32x{0}>
  %7 = stablehlo.add %x, %6 : tensor<2x8x32x{0}>
  %c2 = stablehlo.constant dense<0.797884583> : tensor<{0}>
  %8 = stablehlo.broadcast_in_dim %c2, dims = [] : (tensor<{0}>) -> tensor<2x8x32x{0}>
  %9 = stablehlo.multiply %8, %7 : tensor<2x8x32x{0}>
  %10 = stablehlo.tanh %9 : tensor<2x8x32x{0}>
  %c3 = stablehlo.constant dense<1.000000e+00> : tensor<{0}>
  %11 = stablehlo.broadcast_in_dim %c3, dims = [] : (tensor<{0}>) -> tensor<2x8x32x{0}>
  %12 = stablehlo.add %11, %10 : tensor<2x8x32x{0}>
  %c4 = stablehlo.constant dense<5.000000e-01> : tensor<{0}>
  %13 = stablehlo.broadcast_in_dim %c4, dims = [] : (tensor<{0}>) -> tensor<2x8x32x{0}>
  %14 = stablehlo.multiply %13, %12 : tensor<2x8x32x{0}>
  %15 = stablehlo.multiply %x, %14 : tensor<2x8x32x{0}>
  func.return %15 : tensor<2x8x32x{0}>
}})", t);
    SCOPED_TRACE(mlir);
    ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(mlir));
    const ir::Block& block = module->functions().front()->body().front();
    const ir::Operation& dot = *block.operations().front();
    const codegen::library::FusedEpilogue f = codegen::library::MatchEpilogue(block, dot, {.library_calls = true});
    ASSERT_EQ(f.result, block.operations().back()->operand(0)) << "the whole GELU";
    ASSERT_EQ(f.inputs.size(), 1u);
    // Without library calls: the bias add alone (its value is read again after the tanh).
    EXPECT_EQ(codegen::library::MatchEpilogue(block, dot).fused.size(), 1u);
    std::vector<ir::Literal> args;
    interp::InterpValues values;
    std::uniform_int_distribution<int> small(-2, 2);
    std::uniform_real_distribution<double> bias(-3, 3);
    for (const auto& arg : block.arguments()) {
      ir::Literal l = *ir::Literal::Create(arg->type());
      for (int64_t i = 0; i < l.num_elements(); ++i) l.SetFloat(i, args.size() < 2 ? small(rng_) : bias(rng_));
      args.push_back(l);
      values.push_back(interp::InterpValue::Tensor(l));
    }
    ASSERT_OK_AND_ASSIGN(interp::RunResult expected, interp::RunFunction(*module, "main", values));
    ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanDotGeneral(dot, target_, f.epilogue));
    EXPECT_EQ(plan.dispatches.size(), 1u);
    ASSERT_OK_AND_ASSIGN(ir::Literal actual, RunPlan(dev(), TestCompiler(), target_, plan, {args[0], args[1]}, {args[2]}));
    const auto want = expected.outputs[0].literal().raw(), got = actual.raw();
    ASSERT_EQ(want.size(), got.size());
    EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << "bits differ from the interpreter";
  }
}

}  // namespace
}  // namespace vkhlo::testing
