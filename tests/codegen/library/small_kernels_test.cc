// The kernel classes of small models (issue 24): small-channel convolutions (the implicit GEMM
// with a separable index, texel-buffer loads), skinny and transposed-operand products (the
// all-rows register tile), against the interpreter with the float tolerance of
// library_test_util.h. Shapes sit on and off the tile edges; convolutions take strides, rhs
// dilation, asymmetric and negative padding, 1-3 spatial dimensions; f32, f16 and bf16. Runs
// natively and with VKHLO_PROFILE=mobile (MOBILE_TOO), where other configs are chosen.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "codegen/library/tile_config.h"
#include "tests/codegen/library/library_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::testing {
namespace {

using codegen::library::PlanOptions;

class SmallKernelsTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (device_) target_ = TargetFromDevice(*device_);
  }

  // Plans `mlir`'s first op of `code` for `target` (the device's when null), runs it and
  // compares with the interpreter; returns the plan's GLSL (all dispatches) and summary.
  std::string Check(const std::string& mlir, ir::OpCode code, int64_t k, const PlanOptions& options = {},
                    const codegen::TargetInfo* target = nullptr) {
    const codegen::TargetInfo& t = target ? *target : target_;
    SCOPED_TRACE(mlir + "config " + (options.force_config.empty() ? "chosen" : options.force_config));
    auto parsed = ParseOp(mlir, code);
    EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
    if (!parsed.ok()) return "";
    std::vector<ir::Literal> operands = {RandomLiteral(parsed->op->operand(0)->type(), rng_),
                                         RandomLiteral(parsed->op->operand(1)->type(), rng_)};
    auto expected = Reference(*parsed->op, operands);
    EXPECT_TRUE(expected.ok()) << expected.status().ToString();
    auto plan = code == ir::OpCode::kConvolution ? codegen::library::PlanConvolution(*parsed->op, t, {}, options)
                                                 : codegen::library::PlanDotGeneral(*parsed->op, t, {}, options);
    EXPECT_TRUE(plan.ok()) << plan.status().ToString();
    if (!expected.ok() || !plan.ok()) return "";
    SCOPED_TRACE(plan->summary);
    auto actual = RunPlan(dev(), TestCompiler(), t, *plan, operands);
    EXPECT_TRUE(actual.ok()) << actual.status().ToString();
    if (actual.ok()) {
      EXPECT_EQ(Compare(*expected, *actual, k), "");
    }
    std::string all = plan->summary + "\n";
    for (const auto& d : plan->dispatches) all += d.glsl;
    return all;
  }

  bool Cpu() const { return codegen::library::ClassifyDevice(target_) == codegen::library::DeviceClass::kCpu; }

  codegen::TargetInfo target_;
  std::mt19937_64 rng_{2024};
};

struct Conv {
  int64_t batch, h, w, ci, co, window, stride, dilation, pad_lo, pad_hi;
  std::string type = "f32";
};

// NHWC input, HWIO kernel, NHWC output (JAX's layout), square windows.
std::string ConvMlir(const Conv& c) {
  auto out = [&](int64_t in) {
    const int64_t span = (c.window - 1) * c.dilation + 1;
    return (in + c.pad_lo + c.pad_hi - span) / c.stride + 1;
  };
  const std::string x = fmt::format("tensor<{}x{}x{}x{}x{}>", c.batch, c.h, c.w, c.ci, c.type);
  const std::string k = fmt::format("tensor<{0}x{0}x{1}x{2}x{3}>", c.window, c.ci, c.co, c.type);
  const std::string y = fmt::format("tensor<{}x{}x{}x{}x{}>", c.batch, out(c.h), out(c.w), c.co, c.type);
  return fmt::format(
      "func.func @main(%x: {0}, %k: {1}) -> {2} {{\n"
      "  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = "
      "[{3}, {3}], pad = [[{4}, {5}], [{4}, {5}]], rhs_dilate = [{6}, {6}]}} {{batch_group_count = 1 : i64, "
      "feature_group_count = 1 : i64}} : ({0}, {1}) -> {2}\n  func.return %0 : {2}\n}}\n",
      x, k, y, c.stride, c.pad_lo, c.pad_hi, c.dilation);
}

// Small-channel 3x3 convolutions as JAX's CNNs have them (SAME, 1 to 64 channels) and their
// variations: strides, dilation, valid and negative padding, odd sizes at the tile edges.
TEST_F(SmallKernelsTest, SmallChannelConvolutions) {
  // Each case compiles its own kernels (seconds each on lavapipe): few, each covering several
  // edges at once.
  const Conv cases[] = {
      {2, 9, 7, 3, 16, 3, 1, 1, 1, 1},    // the first layer: 3 input features (scalar loads)
      {2, 8, 8, 16, 16, 3, 1, 1, 1, 1},   // 16 -> 16 SAME
      {1, 7, 5, 32, 24, 3, 2, 1, 1, 1},   // stride 2, odd spatial sizes, 24 outputs
      {3, 6, 6, 64, 64, 3, 1, 1, 1, 1},   // 64 -> 64 on a small image (lanes along M)
      {1, 9, 9, 12, 20, 3, 1, 2, -1, 3},  // rhs dilation 2, a crop low, more padding high
  };
  bool forced = false;
  for (const Conv& c : cases) {
    const int64_t k = c.window * c.window * c.ci;
    const std::string glsl = Check(ConvMlir(c), ir::OpCode::kConvolution, k);
    if (!forced || c.ci == 3) Check(ConvMlir(c), ir::OpCode::kConvolution, k, {.force_config = "cpu.regtile_4x8"});
    forced = true;
    // On CPU drivers the implicit operand's index is split into its row and column parts, and
    // f32 vectors of 4 or 8 features come from texel buffers.
    if (Cpu() && glsl.find("config direct") == std::string::npos) {
      EXPECT_NE(glsl.find("ixr_a("), std::string::npos) << glsl.substr(0, 600);
      if (c.ci % 4 == 0 && target_.storage_texel_buffer_rgba32f) {
        EXPECT_NE(glsl.find("imageBuffer a_t4"), std::string::npos) << glsl.substr(0, 600);
      }
    }
  }
  // f16 and bf16 operands (no texel views: they hold 2-byte elements) through the same kernels.
  for (const char* type : {"f16", "bf16"}) {
    Conv c{1, 5, 5, 8, 8, 3, 1, 1, 1, 1, type};
    Check(ConvMlir(c), ir::OpCode::kConvolution, 9 * 8);
  }
}

// One and three spatial dimensions and a batch-group convolution (the weight gradient JAX
// emits) keep their index split and stay exact within tolerance.
TEST_F(SmallKernelsTest, OtherConvolutionShapes) {
  const std::string conv1d = R"(func.func @main(%x: tensor<3x17x8xf32>, %k: tensor<5x8x16xf32>) -> tensor<3x15x16xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x17x8xf32>, tensor<5x8x16xf32>) -> tensor<3x15x16xf32>
  func.return %0 : tensor<3x15x16xf32>
})";
  Check(conv1d, ir::OpCode::kConvolution, 5 * 8);
  const std::string conv3d = R"(func.func @main(%x: tensor<1x3x4x5x8xf32>, %k: tensor<3x3x3x8x8xf32>) -> tensor<1x3x4x5x8xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 1, 1], pad = [[1, 1], [1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x4x5x8xf32>, tensor<3x3x3x8x8xf32>) -> tensor<1x3x4x5x8xf32>
  func.return %0 : tensor<1x3x4x5x8xf32>
})";
  Check(conv3d, ir::OpCode::kConvolution, 27 * 8);
  // Two feature groups of 8 inputs each: the group selects the input features in the row part.
  const std::string grouped = R"(func.func @main(%x: tensor<2x6x6x16xf32>, %k: tensor<3x3x8x32xf32>) -> tensor<2x6x6x32xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x6x6x16xf32>, tensor<3x3x8x32xf32>) -> tensor<2x6x6x32xf32>
  func.return %0 : tensor<2x6x6x32xf32>
})";
  Check(grouped, ir::OpCode::kConvolution, 9 * 8);
}

std::string DotMlir(int64_t m, int64_t k, int64_t n, bool transposed_lhs, int64_t batch, const std::string& type) {
  const std::string b = batch > 1 ? fmt::format("{}x", batch) : "";
  const std::string lhs = transposed_lhs ? fmt::format("tensor<{}{}x{}x{}>", b, k, m, type)
                                         : fmt::format("tensor<{}{}x{}x{}>", b, m, k, type);
  const std::string rhs = fmt::format("tensor<{}{}x{}x{}>", b, k, n, type);
  const std::string out = fmt::format("tensor<{}{}x{}x{}>", b, m, n, type);
  const int64_t o = batch > 1 ? 1 : 0;
  const std::string dims = fmt::format("{}contracting_dims = [{}] x [{}]", batch > 1 ? "batching_dims = [0] x [0], " : "",
                                       transposed_lhs ? o : o + 1, o);
  return fmt::format("func.func @main(%a: {0}, %b: {1}) -> {2} {{\n  %0 = stablehlo.dot_general %a, %b, {3} : ({0}, {1}) -> {2}\n"
                     "  func.return %0 : {2}\n}}\n",
                     lhs, rhs, out, dims);
}

// Skinny products (M <= 16: a recurrent step, a small batch): on CPU drivers one dispatch of
// the all-rows register tile; M, N and K around its edges (rows by powers of two, columns by 8
// per lane, K by its unroll of 8), a transposed lhs, a batch, narrow float types.
TEST_F(SmallKernelsTest, SkinnyProducts) {
  struct Case {
    int64_t m, k, n;
    bool transposed;
    int64_t batch;
  };
  const Case cases[] = {{16, 64, 128, false, 1}, {13, 33, 100, false, 1}, {5, 7, 257, false, 1},
                        {9, 17, 80, true, 1},    {4, 24, 96, false, 3}};
  for (const Case& c : cases) {
    const std::string glsl = Check(DotMlir(c.m, c.k, c.n, c.transposed, c.batch, "f32"), ir::OpCode::kDotGeneral, c.k);
    if (Cpu()) {
      EXPECT_NE(glsl.find("skinny M"), std::string::npos) << glsl.substr(0, 400);
    }
  }
  for (const char* type : {"f16", "bf16"}) {
    Check(DotMlir(12, 40, 96, type == std::string("bf16"), 1, type), ir::OpCode::kDotGeneral, 40);
  }
  // Split-K on top of it where K is long and the output small.
  Check(DotMlir(8, 4096, 64, false, 1, "f32"), ir::OpCode::kDotGeneral, 4096,
        {.force_config = "cpu.regtile_rows_16x8", .force_split_k = 4});
}

// Texel views are used only where the device and operand allow them: without rgba32f storage
// texel buffers, or with a maxTexelBufferElements the operand exceeds, the same kernels read
// uvec4 storage-buffer words, and the results agree.
TEST_F(SmallKernelsTest, TexelViewsFallBack) {
  if (!Cpu()) GTEST_SKIP() << "texel loads are configured for CPU drivers only";
  const std::string conv = ConvMlir({1, 6, 6, 16, 16, 3, 1, 1, 1, 1});
  const std::string dot = DotMlir(16, 64, 128, false, 1, "f32");
  codegen::TargetInfo no_rgba = target_;
  no_rgba.storage_texel_buffer_rgba32f = false;
  codegen::TargetInfo small = target_;
  small.max_texel_buffer_elements = 64;  // every operand here has more than 256 texels
  for (const codegen::TargetInfo* t : {&no_rgba, &small}) {
    for (const std::string& mlir : {conv, dot}) {
      const std::string glsl = Check(mlir, mlir == conv ? ir::OpCode::kConvolution : ir::OpCode::kDotGeneral,
                                     mlir == conv ? 144 : 64, {}, t);
      EXPECT_EQ(glsl.find("imageBuffer a_t4"), std::string::npos);
      EXPECT_EQ(glsl.find("imageBuffer b_t4"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace vkhlo::testing
