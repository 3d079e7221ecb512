// Issue 26: quantized dot_general / convolution in the library kernels against the interpreter
// (src/interp/library_quantized.cc, the definition of ir/requantize.h).
//   - As plans (the storage form quantized-decompose leaves: storage tensors carrying
//     vkhlo.quantized_types): every tiled variant, split-K, with and without the packed
//     integer dot products, bit for bit; i8/u8/i4/i16 operands, per-tensor and per-axis
//     weights and results, nonzero zero points, an i32 accumulator result, saturating results,
//     batch dims and several contracting dims, convolutions with padding, strides, dilations
//     and groups, K not a multiple of 4, tiny and tiled shapes. Hybrid (float activations,
//     quantized weights) within a float tolerance.
//   - Through the runtime: tests/codegen/quantized_kernels_runtime_test.cc.
//   - The packed path is chosen where the device offers shaderIntegerDotProduct, and not under
//     the mobile profile.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>

#include "codegen/library/library_kernel.h"
#include "tests/codegen/library/library_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo {
namespace {

using codegen::library::PlanOptions;
using ir::ElementType;
using Dims = std::vector<int64_t>;

std::string DimsText(const Dims& dims) {
  std::string s;
  for (int64_t d : dims) s += fmt::format("{}x", d);
  return s;
}

std::string Plain(const Dims& dims, ElementType t) { return ir::Type::Tensor(t, dims).ToString(); }

// A uniform quantized type: per tensor (axis < 0) or per axis with one (scale, zero point) each.
struct QType {
  ElementType storage = ElementType::kS8;
  int axis = -1;
  std::vector<double> scales;
  std::vector<int64_t> zero_points;

  std::string Element() const {
    std::string s = "!quant.uniform<" + std::string(ir::ElementTypeName(storage)) + ":f32";
    if (axis < 0) return s + fmt::format(", {:.9g}:{}>", scales[0], zero_points[0]);
    s += fmt::format(":{}, {{", axis);
    for (size_t i = 0; i < scales.size(); ++i) s += fmt::format("{}{:.9g}:{}", i ? "," : "", scales[i], zero_points[i]);
    return s + "}>";
  }
  std::string Tensor(const Dims& dims) const { return "tensor<" + DimsText(dims) + Element() + ">"; }
};

int64_t Rand(std::mt19937_64& rng, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }
double RandScale(std::mt19937_64& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

void Range(ElementType t, int64_t& lo, int64_t& hi) {
  const int w = ir::BitWidth(t);
  lo = ir::IsSignedInteger(t) ? -(int64_t{1} << (w - 1)) : 0;
  hi = ir::IsSignedInteger(t) ? (int64_t{1} << (w - 1)) - 1 : (int64_t{1} << w) - 1;
}

// Random (scale, zero point) pairs: zero points anywhere in the storage range but the
// extremes' outer quarter, so that results neither all clamp nor never do.
QType RandomQ(std::mt19937_64& rng, ElementType storage, int axis, int64_t channels, double scale_lo, double scale_hi) {
  QType q{storage, axis, {}, {}};
  int64_t lo = 0, hi = 0;
  Range(storage, lo, hi);
  const int64_t span = (hi - lo) / 4;
  for (int64_t c = 0; c < (axis < 0 ? 1 : channels); ++c) {
    q.scales.push_back(RandScale(rng, scale_lo, scale_hi));
    q.zero_points.push_back(Rand(rng, lo + span, hi - span));
  }
  return q;
}

// The result type for operands of `a` and `b` (per axis along `axis` when >= 0) over K terms:
// scales put typical sums around a third of the storage range, `tight` a tenth of that (many
// results clamp).
QType ResultQ(std::mt19937_64& rng, ElementType storage, const QType& a, const QType& b, int axis, int64_t k,
              bool tight = false) {
  int64_t lo = 0, hi = 0;
  Range(storage, lo, hi);
  const double sa = a.scales[0];
  int64_t alo = 0, ahi = 0, blo = 0, bhi = 0;
  Range(a.storage, alo, ahi);
  Range(b.storage, blo, bhi);
  const double typical = std::sqrt(static_cast<double>(k)) * (ahi - alo) / 3.0 * (bhi - blo) / 3.0;
  QType q{storage, axis, {}, {}};
  const size_t channels = axis < 0 ? 1 : b.scales.size();
  for (size_t c = 0; c < channels; ++c) {
    const double sb = b.scales[std::min(c, b.scales.size() - 1)];
    q.scales.push_back(sa * sb * typical / ((hi - lo) / 3.0) * (tight ? 10.0 : 1.0));
    q.zero_points.push_back(Rand(rng, lo + (hi - lo) / 4, hi - (hi - lo) / 4));
  }
  return q;
}

std::string DotNumbers(const Dims& lb, const Dims& rb, const Dims& lc, const Dims& rc) {
  auto list = [](const Dims& d) {
    std::string s;
    for (size_t i = 0; i < d.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", d[i]);
    return s;
  };
  std::string s = "#stablehlo.dot<";
  if (!lb.empty()) s += fmt::format("lhs_batching_dimensions = [{}], rhs_batching_dimensions = [{}], ", list(lb), list(rb));
  return s + fmt::format("lhs_contracting_dimensions = [{}], rhs_contracting_dimensions = [{}]>", list(lc), list(rc));
}

// An op in the storage form: operands and result stored as integers (floats for the hybrid's
// lhs and result), the quantized types in vkhlo.quantized_types.
struct StorageOp {
  std::string text;
  Dims lhs, rhs, out;
  int64_t k = 1;
};

StorageOp StorageDot(const Dims& lhs, const Dims& rhs, const Dims& out, const std::string& numbers,
                     const std::string& lhs_t, const std::string& rhs_t, const std::string& out_t,
                     const std::string& lhs_s, const std::string& rhs_s, const std::string& out_s, int64_t k) {
  StorageOp op{"", lhs, rhs, out, k};
  op.text = fmt::format(R"(
func.func @main(%a: {0}, %b: {1}) -> {2} {{
  %r = "stablehlo.dot_general"(%a, %b) {{dot_dimension_numbers = {3}, vkhlo.quantized_types = [{4}, {5}, {6}]}} : ({0}, {1}) -> {2}
  return %r : {2}
}}
)", lhs_s, rhs_s, out_s, numbers, lhs_t, rhs_t, out_t);
  return op;
}

class QuantizedKernelTest : public testing::DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (device_) target_ = testing::TargetFromDevice(*device_);
  }

  // Plans `text`'s op with `options` on the device's target (the packed path allowed or not),
  // runs it on random storage values and compares with the interpreter: bit for bit, or for a
  // hybrid (float result) within the float tolerance for `k` terms of magnitude `scale`.
  void Check(const std::string& text, ir::OpCode code, const PlanOptions& options, bool allow_dot4, int64_t k,
             double hybrid_scale = 0) {
    SCOPED_TRACE(text + "config " + (options.force_config.empty() ? "chosen" : options.force_config) +
                 fmt::format(" split {} dot4 {}", options.force_split_k, allow_dot4));
    ASSERT_OK_AND_ASSIGN(testing::ParsedOp parsed, testing::ParseOp(text, code));
    std::vector<ir::Literal> operands = {testing::RandomLiteral(parsed.op->operand(0)->type(), rng_),
                                         testing::RandomLiteral(parsed.op->operand(1)->type(), rng_)};
    ASSERT_OK_AND_ASSIGN(ir::Literal expected, testing::Reference(*parsed.op, operands));
    codegen::TargetInfo target = target_;
    target.shader_integer_dot_product = target_.shader_integer_dot_product && allow_dot4;
    auto planned = code == ir::OpCode::kConvolution
                       ? codegen::library::PlanConvolution(*parsed.op, target, {}, options)
                       : codegen::library::PlanDotGeneral(*parsed.op, target, {}, options);
    ASSERT_OK_AND_ASSIGN(auto plan, std::move(planned));
    SCOPED_TRACE(plan.summary);
    ASSERT_TRUE(plan.problem.quant.has_value());
    const auto start = std::chrono::steady_clock::now();
    ASSERT_OK_AND_ASSIGN(ir::Literal actual, testing::RunPlan(dev(), testing::TestCompiler(), target, plan, operands));
    std::printf("  %s%s: %.1f s\n", plan.problem.quant->dot4 ? "dot4 " : "", plan.config.ToString().c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    std::fflush(stdout);
    // Compare is exact for integer results.
    EXPECT_EQ(testing::Compare(expected, actual, k, hybrid_scale > 0 ? hybrid_scale : 4.0), "");
  }

  // The tiled variants (as the device's class and forced), split-K, the per-output kernel.
  void CheckVariants(const std::string& text, ir::OpCode code, int64_t k) {
    for (bool dot4 : {true, false}) {
      Check(text, code, {}, dot4, k);
      Check(text, code, Forced("generic.shared_32x32"), dot4, k);
      Check(text, code, Forced("cpu.regtile_4x8", 2), dot4, k);
    }
    Check(text, code, Forced("generic.dot_per_output_64"), true, k);
  }

  static PlanOptions Forced(const std::string& config, uint32_t split = 0) {
    PlanOptions o;
    o.force_config = config;
    o.force_split_k = split;
    return o;
  }

  codegen::TargetInfo target_;
  std::mt19937_64 rng_{2026};
};

// A plain matmul [M, K] x [K, N] of the given storage types, per-axis weights along N or not.
StorageOp Matmul(std::mt19937_64& rng, int64_t m, int64_t k, int64_t n, ElementType ta, ElementType tb,
                 ElementType tout, bool per_axis, bool per_axis_result, bool tight = false) {
  const QType a = RandomQ(rng, ta, -1, 1, 0.01, 0.05);
  const QType b = RandomQ(rng, tb, per_axis ? 1 : -1, n, 0.01, 0.05);
  const QType o = ResultQ(rng, tout, a, b, per_axis_result ? 1 : -1, k, tight);
  return StorageDot({m, k}, {k, n}, {m, n}, DotNumbers({}, {}, {1}, {0}), a.Tensor({m, k}), b.Tensor({k, n}),
                    o.Tensor({m, n}), Plain({m, k}, ta), Plain({k, n}, tb), Plain({m, n}, tout), k);
}

TEST_F(QuantizedKernelTest, MatmulVariantsTiledShape) {
  const StorageOp op = Matmul(rng_, 64, 256, 96, ElementType::kS8, ElementType::kS8, ElementType::kS8, true, true);
  CheckVariants(op.text, ir::OpCode::kDotGeneral, op.k);
  const StorageOp per_tensor = Matmul(rng_, 64, 256, 96, ElementType::kU8, ElementType::kS8, ElementType::kU8, false, false);
  for (bool dot4 : {true, false}) Check(per_tensor.text, ir::OpCode::kDotGeneral, Forced("generic.shared_32x32"), dot4, op.k);
}

TEST_F(QuantizedKernelTest, MatmulVariantsTinyAndOddK) {
  for (int64_t k : {1, 3, 5, 13}) {
    const StorageOp op = Matmul(rng_, 3, k, 2, ElementType::kS8, ElementType::kS8, ElementType::kS8, false, false);
    CheckVariants(op.text, ir::OpCode::kDotGeneral, op.k);
  }
}

TEST_F(QuantizedKernelTest, StorageTypes) {
  struct Case {
    ElementType a, b, out;
    bool per_axis, per_axis_result, tight;
  };
  const Case cases[] = {
      {ElementType::kU8, ElementType::kS8, ElementType::kU8, true, false, false},   // u8 activations
      {ElementType::kU8, ElementType::kU8, ElementType::kS8, false, false, false},
      {ElementType::kS8, ElementType::kU8, ElementType::kS8, true, true, false},
      {ElementType::kS8, ElementType::kS4, ElementType::kS8, true, true, false},    // i4 weights
      {ElementType::kU8, ElementType::kU4, ElementType::kU8, false, false, false},
      {ElementType::kS16, ElementType::kS8, ElementType::kS16, true, false, false}, // no packed form
      {ElementType::kS8, ElementType::kS8, ElementType::kS8, true, true, true},     // mostly clamped
  };
  for (const Case& c : cases) {
    const StorageOp op = Matmul(rng_, 19, 37, 21, c.a, c.b, c.out, c.per_axis, c.per_axis_result, c.tight);
    for (bool dot4 : {true, false}) Check(op.text, ir::OpCode::kDotGeneral, {}, dot4, op.k);
  }
}

// An i32 result with scale sa * sb is the accumulator itself (M = 1).
TEST_F(QuantizedKernelTest, AccumulatorResult) {
  const std::string a = "!quant.uniform<i8:f32, 0.5:-7>", b = "!quant.uniform<i8:f32, 0.25:3>";
  const std::string o = "!quant.uniform<i32:f32, 0.125>";
  const StorageOp op = StorageDot({33, 70}, {70, 17}, {33, 17}, DotNumbers({}, {}, {1}, {0}), "tensor<33x70x" + a + ">",
                                  "tensor<70x17x" + b + ">", "tensor<33x17x" + o + ">", Plain({33, 70}, ElementType::kS8),
                                  Plain({70, 17}, ElementType::kS8), Plain({33, 17}, ElementType::kS32), 70);
  for (bool dot4 : {true, false}) Check(op.text, ir::OpCode::kDotGeneral, {}, dot4, op.k);
}

// Batch dims, several contracting dims in a different order on each side, weights per axis
// along a batching dimension and along a free dimension that is not the last.
TEST_F(QuantizedKernelTest, DotGeneralBatchAndContractingDims) {
  // lhs [K1=3, B=2, M=5, K2=7], rhs [B=2, N1=4, K2=7, N2=3, K1=3] -> [2, 5, 4, 3]
  const Dims lhs = {3, 2, 5, 7}, rhs = {2, 4, 7, 3, 3}, out = {2, 5, 4, 3};
  const std::string numbers = DotNumbers({1}, {0}, {0, 3}, {4, 2});
  for (int axis : {0, 1, 3}) {
    const QType a = RandomQ(rng_, ElementType::kS8, -1, 1, 0.01, 0.05);
    const QType b = RandomQ(rng_, ElementType::kS8, axis, rhs[static_cast<size_t>(axis)], 0.01, 0.05);
    const int out_axis = axis == 0 ? 0 : axis == 1 ? 2 : 3;
    const QType o = ResultQ(rng_, ElementType::kS8, a, b, out_axis, 21);
    const StorageOp op = StorageDot(lhs, rhs, out, numbers, a.Tensor(lhs), b.Tensor(rhs), o.Tensor(out),
                                    Plain(lhs, ElementType::kS8), Plain(rhs, ElementType::kS8),
                                    Plain(out, ElementType::kS8), 21);
    for (bool dot4 : {true, false}) Check(op.text, ir::OpCode::kDotGeneral, {}, dot4, op.k);
  }
}

// NHWC x HWIO convolutions: padding, strides, dilations, feature groups, per-axis kernels.
TEST_F(QuantizedKernelTest, Convolution) {
  struct Case {
    Dims in, kernel, out;
    std::string window;
    int64_t feature_groups, batch_groups;
  };
  const Case cases[] = {
      {{2, 9, 8, 6}, {3, 3, 6, 5}, {2, 9, 8, 5}, "pad = [[1, 1], [1, 1]]", 1, 1},
      {{1, 11, 9, 4}, {3, 2, 4, 8}, {1, 4, 5, 8}, "pad = [[2, 1], [0, 1]], stride = [3, 2], rhs_dilate = [2, 1]", 1, 1},
      {{1, 7, 6, 8}, {2, 3, 2, 12}, {1, 7, 5, 12}, "pad = [[1, 1], [1, 0]], lhs_dilate = [2, 1], stride = [2, 1]", 4, 1},
      {{4, 5, 5, 3}, {3, 3, 3, 6}, {2, 3, 3, 6}, "stride = [1, 1]", 1, 2},
      {{1, 6, 6, 4}, {3, 3, 1, 8}, {1, 6, 6, 8}, "pad = [[1, 1], [1, 1]]", 4, 1},  // depthwise, multiplier 2
  };
  for (const Case& c : cases) {
    const int64_t k = c.kernel[0] * c.kernel[1] * c.kernel[2];
    for (bool per_axis : {false, true}) {
      const QType a = RandomQ(rng_, ElementType::kU8, -1, 1, 0.01, 0.05);
      const QType b = RandomQ(rng_, ElementType::kS8, per_axis ? 3 : -1, c.kernel[3], 0.01, 0.05);
      const QType o = ResultQ(rng_, ElementType::kS8, a, b, per_axis ? 3 : -1, k);
      const std::string in_s = Plain(c.in, ElementType::kU8), k_s = Plain(c.kernel, ElementType::kS8);
      const std::string out_s = Plain(c.out, ElementType::kS8);
      const std::string text = fmt::format(R"(
func.func @main(%a: {0}, %b: {1}) -> {2} {{
  %r = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{{3}}} {{batch_group_count = {4} : i64, feature_group_count = {5} : i64, vkhlo.quantized_types = [{6}, {7}, {8}]}} : ({0}, {1}) -> {2}
  return %r : {2}
}}
)", in_s, k_s, out_s, c.window, c.batch_groups, c.feature_groups, a.Tensor(c.in), b.Tensor(c.kernel), o.Tensor(c.out));
      for (bool dot4 : {true, false}) Check(text, ir::OpCode::kConvolution, {}, dot4, k);
    }
  }
}

// Weight-only quantization: f32 activations, i8 / i4 weights dequantized on load.
TEST_F(QuantizedKernelTest, Hybrid) {
  for (ElementType wt : {ElementType::kS8, ElementType::kS4, ElementType::kU8}) {
    const QType b = RandomQ(rng_, wt, 1, 24, 0.01, 0.05);
    const int64_t k = 45;
    const StorageOp op = StorageDot({13, k}, {k, 24}, {13, 24}, DotNumbers({}, {}, {1}, {0}), Plain({13, k}, ElementType::kF32),
                                    b.Tensor({k, 24}), Plain({13, 24}, ElementType::kF32), Plain({13, k}, ElementType::kF32),
                                    Plain({k, 24}, wt), Plain({13, 24}, ElementType::kF32), k);
    Check(op.text, ir::OpCode::kDotGeneral, {}, true, k, 2.0 * 255 * 0.05);
    Check(op.text, ir::OpCode::kDotGeneral, Forced("generic.shared_32x32"), true, k, 2.0 * 255 * 0.05);
  }
  const QType b = RandomQ(rng_, ElementType::kS8, 3, 5, 0.01, 0.05);
  const std::string text = fmt::format(R"(
func.func @main(%a: tensor<1x7x7x4xf32>, %b: tensor<3x3x4x5xi8>) -> tensor<1x4x4x5xf32> {{
  %r = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{pad = [[1, 1], [1, 1]], stride = [2, 2]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64, vkhlo.quantized_types = [tensor<1x7x7x4xf32>, {0}, tensor<1x4x4x5xf32>]}} : (tensor<1x7x7x4xf32>, tensor<3x3x4x5xi8>) -> tensor<1x4x4x5xf32>
  return %r : tensor<1x4x4x5xf32>
}}
)", b.Tensor({3, 3, 4, 5}));
  Check(text, ir::OpCode::kConvolution, {}, true, 36, 2.0 * 255 * 0.05);
}

// Many channels: the per-channel constant tables of a wide layer.
TEST_F(QuantizedKernelTest, ManyChannels) {
  const StorageOp op = Matmul(rng_, 4, 40, 520, ElementType::kS8, ElementType::kS8, ElementType::kS8, true, true);
  Check(op.text, ir::OpCode::kDotGeneral, {}, true, op.k);
}

// The packed path where the device offers it (natively on lavapipe), the i32 multiply-add
// under the mobile profile (which masks shaderIntegerDotProduct).
TEST_F(QuantizedKernelTest, PackedPathChosenByFeature) {
  const StorageOp op = Matmul(rng_, 64, 64, 64, ElementType::kS8, ElementType::kS8, ElementType::kS8, false, false);
  ASSERT_OK_AND_ASSIGN(testing::ParsedOp parsed, testing::ParseOp(op.text, ir::OpCode::kDotGeneral));
  ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanDotGeneral(*parsed.op, target_, {}, {}));
  const bool packed = plan.summary.find("packed 4x8-bit dot products") != std::string::npos;
  EXPECT_EQ(packed, target_.shader_integer_dot_product) << plan.summary;
  if (target_.profile == "mobile") {
    EXPECT_FALSE(target_.shader_integer_dot_product);
  }
  if (target_.shader_integer_dot_product) {
    EXPECT_NE(plan.dispatches.at(0).glsl.find("SPV_KHR_integer_dot_product"), std::string::npos);
  }
}

TEST_F(QuantizedKernelTest, ClearErrors) {
  // Per axis along a contracting dimension.
  const std::string a = "tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>";
  const std::string b = "tensor<3x2x!quant.uniform<i8:f32:0, {0.25:0, 0.5:2, 0.5:1}>>";
  const std::string o = "tensor<2x2x!quant.uniform<i8:f32, 0.125:-2>>";
  const StorageOp bad = StorageDot({2, 3}, {3, 2}, {2, 2}, DotNumbers({}, {}, {1}, {0}), a, b, o, "tensor<2x3xi8>",
                                   "tensor<3x2xi8>", "tensor<2x2xi8>", 3);
  ASSERT_OK_AND_ASSIGN(testing::ParsedOp parsed, testing::ParseOp(bad.text, ir::OpCode::kDotGeneral));
  auto plan = codegen::library::PlanDotGeneral(*parsed.op, target_, {}, {});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("contracting dimension 0"), std::string::npos) << plan.status().message();
  // Storage tensors that are not what the attribute says.
  const StorageOp mismatch = StorageDot({2, 3}, {3, 2}, {2, 2}, DotNumbers({}, {}, {1}, {0}), a,
                                        "tensor<3x2x!quant.uniform<i8:f32, 0.5:2>>", o, "tensor<2x3xi16>",
                                        "tensor<3x2xi8>", "tensor<2x2xi8>", 3);
  ASSERT_OK_AND_ASSIGN(testing::ParsedOp parsed2, testing::ParseOp(mismatch.text, ir::OpCode::kDotGeneral));
  auto plan2 = codegen::library::PlanDotGeneral(*parsed2.op, target_, {}, {});
  ASSERT_FALSE(plan2.ok());
  EXPECT_NE(plan2.status().message().find("does not store"), std::string::npos) << plan2.status().message();
  // The integer path's epilogue is the requantization: a fused epilogue is refused.
  const StorageOp good = StorageDot({2, 3}, {3, 2}, {2, 2}, DotNumbers({}, {}, {1}, {0}), a,
                                    "tensor<3x2x!quant.uniform<i8:f32, 0.5:2>>", o, "tensor<2x3xi8>", "tensor<3x2xi8>",
                                    "tensor<2x2xi8>", 3);
  ASSERT_OK_AND_ASSIGN(testing::ParsedOp parsed3, testing::ParseOp(good.text, ir::OpCode::kDotGeneral));
  codegen::library::Epilogue relu;
  relu.steps.push_back({});
  auto plan3 = codegen::library::PlanDotGeneral(*parsed3.op, target_, relu, {});
  ASSERT_FALSE(plan3.ok());
  EXPECT_NE(plan3.status().message().find("takes no fused epilogue"), std::string::npos) << plan3.status().message();
  // Nor does the direct convolution kernel take a quantized convolution.
  const std::string conv = R"(
func.func @main(%a: tensor<1x4x4x2xi8>, %b: tensor<3x3x1x2xi8>) -> tensor<1x2x2x2xi8> {
  %r = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, vkhlo.quantized_types = [tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x3x1x2x!quant.uniform<i8:f32, 0.25:0>>, tensor<1x2x2x2x!quant.uniform<i8:f32, 0.5:-1>>]} : (tensor<1x4x4x2xi8>, tensor<3x3x1x2xi8>) -> tensor<1x2x2x2xi8>
  return %r : tensor<1x2x2x2xi8>
}
)";
  ASSERT_OK_AND_ASSIGN(testing::ParsedOp parsed4, testing::ParseOp(conv, ir::OpCode::kConvolution));
  PlanOptions direct;
  direct.force_config = "direct";
  auto plan4 = codegen::library::PlanConvolution(*parsed4.op, target_, {}, direct);
  ASSERT_FALSE(plan4.ok());
  EXPECT_NE(plan4.status().message().find("direct convolution kernel"), std::string::npos) << plan4.status().message();
  // Depthwise (which the direct kernel would take unquantized) goes through the implicit GEMM.
  ASSERT_OK_AND_ASSIGN(auto depthwise, codegen::library::PlanConvolution(*parsed4.op, target_, {}, {}));
  EXPECT_TRUE(depthwise.problem.quant.has_value()) << depthwise.summary;
}

}  // namespace
}  // namespace vkhlo

namespace vkhlo {
namespace {

// Not a test (disabled; no timed assertions): the same GEMM as f32 and as i8 with and without
// the packed dot products, each run twice, the second (compiled, cached) run timed. For
// docs/codegen.md; run with --gtest_also_run_disabled_tests.
TEST_F(QuantizedKernelTest, DISABLED_Timing) {
  const int64_t m = 256, k = 512, n = 256;
  const StorageOp q = Matmul(rng_, m, k, n, ElementType::kS8, ElementType::kS8, ElementType::kS8, true, true);
  const std::string f = fmt::format(R"(
func.func @main(%a: tensor<{0}x{1}xf32>, %b: tensor<{1}x{2}xf32>) -> tensor<{0}x{2}xf32> {{
  %r = "stablehlo.dot_general"(%a, %b) {{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}} : (tensor<{0}x{1}xf32>, tensor<{1}x{2}xf32>) -> tensor<{0}x{2}xf32>
  return %r : tensor<{0}x{2}xf32>
}}
)", m, k, n);
  struct Run {
    const char* what;
    const std::string* text;
    bool dot4;
    const char* config;
  };
  for (const Run& r : {Run{"f32", &f, false, ""}, Run{"f32", &f, false, "cpu.regtile_8x16"},
                       Run{"i8 packed dot4", &q.text, true, ""}, Run{"i8 i32 multiply-add", &q.text, false, ""}}) {
    ASSERT_OK_AND_ASSIGN(testing::ParsedOp parsed, testing::ParseOp(*r.text, ir::OpCode::kDotGeneral));
    std::vector<ir::Literal> operands = {testing::RandomLiteral(parsed.op->operand(0)->type(), rng_),
                                         testing::RandomLiteral(parsed.op->operand(1)->type(), rng_)};
    codegen::TargetInfo target = target_;
    target.shader_integer_dot_product = target_.shader_integer_dot_product && r.dot4;
    PlanOptions options;
    options.force_config = r.config;
    ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanDotGeneral(*parsed.op, target, {}, options));
    double best = 1e9;
    for (int i = 0; i < 3; ++i) {
      const auto start = std::chrono::steady_clock::now();
      ASSERT_OK_AND_ASSIGN(ir::Literal out, testing::RunPlan(dev(), testing::TestCompiler(), target, plan, operands));
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (i > 0) best = std::min(best, s);
    }
    std::printf("%s %lldx%lldx%lld (%s): %.1f ms (best of 2 after a first run)\n", r.what, (long long)m, (long long)k,
                (long long)n, plan.config.name.c_str(), best * 1e3);
  }
}

}  // namespace
}  // namespace vkhlo
