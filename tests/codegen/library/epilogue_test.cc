// Fused epilogues: `dot_general -> add(broadcast bias) -> max(x, 0)` (and the convolution
// equivalent, a scale, a convert, a custom GLSL hook) in one dispatch, against the interpreter
// running the unfused program.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "frontend/parser.h"
#include "codegen/library/epilogue_match.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "tests/codegen/library/gelu_program.h"
#include "tests/codegen/library/library_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::testing {
namespace {

class EpilogueTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (device_) target_ = TargetFromDevice(*device_);
  }

  // Runs `mlir`'s main on random arguments in the interpreter, and its first dot_general or
  // convolution with the epilogue MatchEpilogue finds (`ops` ops absorbed, the whole chain up
  // to the returned value) on the device, in one dispatch.
  void Check(const std::string& mlir, int64_t k, size_t ops) {
    SCOPED_TRACE(mlir);
    ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(mlir));
    const ir::Function& main = *module->functions().front();
    const ir::Block& block = main.body().front();
    std::vector<ir::Literal> args;
    interp::InterpValues values;
    for (const auto& arg : block.arguments()) {
      args.push_back(RandomLiteral(arg->type(), rng_));
      values.push_back(interp::InterpValue::Tensor(args.back()));
    }
    ASSERT_OK_AND_ASSIGN(interp::RunResult expected, interp::RunFunction(*module, "main", values));
    const ir::Operation* op = nullptr;
    ir::WalkOps(*module, [&](ir::Operation& o) {
      if (!op && (o.code() == ir::OpCode::kDotGeneral || o.code() == ir::OpCode::kConvolution)) op = &o;
    });
    ASSERT_NE(op, nullptr);
    const codegen::library::FusedEpilogue f = codegen::library::MatchEpilogue(block, *op);
    ASSERT_EQ(f.fused.size(), ops);
    ASSERT_EQ(f.result, block.operations().back()->operand(0)) << "the whole chain";
    std::vector<ir::Literal> inputs;
    for (const ir::Value* v : f.inputs) {
      ASSERT_TRUE(v->is_block_argument());
      inputs.push_back(args[static_cast<size_t>(v->index())]);
    }
    auto plan = op->code() == ir::OpCode::kDotGeneral ? codegen::library::PlanDotGeneral(*op, target_, f.epilogue)
                                                      : codegen::library::PlanConvolution(*op, target_, f.epilogue);
    ASSERT_OK(plan.status());
    SCOPED_TRACE(plan->summary);
    EXPECT_EQ(plan->dispatches.size(), 1u) << "the epilogue is fused: one dispatch";
    std::vector<ir::Literal> operands = {args[0], args[1]};
    ASSERT_OK_AND_ASSIGN(ir::Literal actual, RunPlan(dev(), TestCompiler(), target_, *plan, operands, inputs));
    EXPECT_EQ(Compare(expected.outputs[0].literal(), actual, k), "");
  }

  codegen::TargetInfo target_;
  std::mt19937_64 rng_{99};
};

TEST_F(EpilogueTest, DotBiasRelu) {
  Check(R"(func.func @main(%a: tensor<33x100xf32>, %b: tensor<100x7xf32>, %bias: tensor<7xf32>) -> tensor<33x7xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<33x100xf32>, tensor<100x7xf32>) -> tensor<33x7xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<7xf32>) -> tensor<33x7xf32>
  %2 = stablehlo.add %0, %1 : tensor<33x7xf32>
  %3 = stablehlo.constant dense<0.0> : tensor<33x7xf32>
  %4 = stablehlo.maximum %2, %3 : tensor<33x7xf32>
  func.return %4 : tensor<33x7xf32>
})", 100, 2);
}

// bf16 in, bf16 dot result rounded before the epilogue (as the unfused ops), a scale and a row
// bias in bf16 arithmetic (each op rounded through the codec), then converted to f32.
TEST_F(EpilogueTest, Bf16ScaleBiasConvert) {
  Check(R"(func.func @main(%a: tensor<3x9x40xbf16>, %b: tensor<3x40x5xbf16>, %r: tensor<3x9xbf16>) -> tensor<3x9x5xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x9x40xbf16>, tensor<3x40x5xbf16>) -> tensor<3x9x5xbf16>
  %1 = stablehlo.constant dense<0.5> : tensor<3x9x5xbf16>
  %2 = stablehlo.multiply %0, %1 : tensor<3x9x5xbf16>
  %3 = stablehlo.broadcast_in_dim %r, dims = [0, 1] : (tensor<3x9xbf16>) -> tensor<3x9x5xbf16>
  %4 = stablehlo.subtract %2, %3 : tensor<3x9x5xbf16>
  %5 = stablehlo.convert %4 : (tensor<3x9x5xbf16>) -> tensor<3x9x5xf32>
  func.return %5 : tensor<3x9x5xf32>
})", 40, 3);
}

TEST_F(EpilogueTest, ConvolutionBiasRelu) {
  Check(R"(func.func @main(%x: tensor<2x9x9x8xf32>, %w: tensor<3x3x8x16xf32>, %bias: tensor<16xf32>) -> tensor<2x9x9x16xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x9x9x16xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [3] : (tensor<16xf32>) -> tensor<2x9x9x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<2x9x9x16xf32>
  %3 = stablehlo.constant dense<0.0> : tensor<2x9x9x16xf32>
  %4 = stablehlo.maximum %2, %3 : tensor<2x9x9x16xf32>
  func.return %4 : tensor<2x9x9x16xf32>
})", 72, 2);
}

// Integer arithmetic in the epilogue: wraps as the unfused ops do.
TEST_F(EpilogueTest, IntegerScaleAndResidual) {
  Check(R"(func.func @main(%a: tensor<5x11xi32>, %b: tensor<11x6xi32>, %c: tensor<5x6xi32>) -> tensor<5x6xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<5x11xi32>, tensor<11x6xi32>) -> tensor<5x6xi32>
  %1 = stablehlo.constant dense<3> : tensor<5x6xi32>
  %2 = stablehlo.multiply %0, %1 : tensor<5x6xi32>
  %3 = stablehlo.add %2, %c : tensor<5x6xi32>
  func.return %3 : tensor<5x6xi32>
})", 11, 2);
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
  EXPECT_EQ(f.epilogue.ResultType(ir::ElementType::kF32), ir::ElementType::kF16);
  EXPECT_EQ(f.result, block.operations().back()->operand(0));
  Check(mlir, 100, 4);

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

// The whole GELU (tanh form, as jax.nn.gelu exports it) as the epilogue: the GLSL library's
// tanh per element, one dispatch, stored through one loop per tile (one copy of the epilogue
// in the kernel), bits identical to the interpreter (small-integer operands: the product is
// exact in any order). In f16 and bf16 each op rounds through the codec as unfused.
TEST_F(EpilogueTest, WholeGeluGenerated) {
  for (const char* t : {"f32", "f16", "bf16"}) {
    const std::string mlir = MatmulBiasGelu(t, /*tanh_form=*/true);
    SCOPED_TRACE(mlir);
    ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(mlir));
    const ir::Block& block = module->functions().front()->body().front();
    const ir::Operation& dot = *block.operations().front();
    const codegen::library::FusedEpilogue f = codegen::library::MatchEpilogue(block, dot);
    ASSERT_EQ(f.result, block.operations().back()->operand(0)) << "the whole GELU";
    ASSERT_EQ(f.inputs.size(), 1u);
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
    // The register tile (32 stores an invocation) in every type, the shared-memory tile in f32.
    std::vector<std::string> configs = {"cpu.regtile_4x8"};
    if (std::string(t) == "f32") configs.push_back("generic.shared_32x32");
    for (const std::string& config : configs) {
      SCOPED_TRACE(config);
      ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanDotGeneral(dot, target_, f.epilogue, {.force_config = config}));
      ASSERT_EQ(plan.dispatches.size(), 1u);
      const std::string& glsl = plan.dispatches[0].glsl;
      const size_t calls = [&] {
        size_t n = 0;
        for (size_t at = glsl.find("store_c("); at != std::string::npos; at = glsl.find("store_c(", at + 1)) ++n;
        return n;
      }();
      EXPECT_LE(calls, 2u) << "store_c (the epilogue) is defined once and called from one store loop:\n" << glsl;
      ASSERT_OK_AND_ASSIGN(ir::Literal actual,
                           RunPlan(dev(), TestCompiler(), target_, plan, {args[0], args[1]}, {args[2]}));
      const auto want = expected.outputs[0].literal().raw(), got = actual.raw();
      ASSERT_EQ(want.size(), got.size());
      EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << "bits differ from the interpreter";
    }
  }
}

}  // namespace
}  // namespace vkhlo::testing
