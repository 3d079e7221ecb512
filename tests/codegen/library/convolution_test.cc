// convolution through the library kernels (implicit GEMM and the direct kernel) vs the
// interpreter: random dimension numbers (any layout, 1 to 3 spatial dims), strides, padding
// (negative too), lhs and rhs dilation, window reversal, feature groups (depthwise included),
// batch groups, several element types; plus the shapes JAX's backward pass emits.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/codegen/library/library_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::testing {
namespace {

using codegen::library::PlanOptions;

std::string List(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", v[i]);
  return s;
}

std::string TensorType(const std::vector<int64_t>& dims, const std::string& element) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += fmt::format("{}x", d);
  return s + element + ">";
}

struct ConvSpec {
  int spatial = 2;
  int64_t batch = 1, in_per_group = 1, out_per_group = 1, feature_groups = 1, batch_groups = 1;
  std::vector<int64_t> in, window, stride, lhs_dil, rhs_dil, pad_lo, pad_hi;
  std::vector<bool> reverse;
  // Role order of each tensor's dimensions: -1 batch / output feature, -2 feature / input
  // feature, >= 0 spatial.
  std::vector<int> lhs_roles, rhs_roles, out_roles;
  std::string lt = "f32", rt = "f32", ot = "f32";
};

struct ConvCase {
  std::string mlir;
  int64_t k = 1;
  bool valid = false;
};

ConvCase Build(const ConvSpec& s) {
  ConvCase c;
  const int n = s.spatial;
  std::vector<int64_t> out_sp(n);
  for (int d = 0; d < n; ++d) {
    const int64_t dilated_in = (s.in[d] - 1) * s.lhs_dil[d] + 1;
    const int64_t padded = s.pad_lo[d] + dilated_in + s.pad_hi[d];
    const int64_t dilated_w = (s.window[d] - 1) * s.rhs_dil[d] + 1;
    if (padded <= 0 || dilated_w > padded) return c;
    out_sp[d] = (padded - dilated_w) / s.stride[d] + 1;
  }
  const int64_t groups = s.feature_groups * s.batch_groups;
  const int64_t in_features = s.in_per_group * s.feature_groups;
  const int64_t out_features = s.out_per_group * groups;
  auto dims = [&](const std::vector<int>& roles, int64_t first, int64_t second, const std::vector<int64_t>& sp) {
    std::vector<int64_t> d;
    for (int r : roles) d.push_back(r == -1 ? first : r == -2 ? second : sp[static_cast<size_t>(r)]);
    return d;
  };
  auto spell = [&](const std::vector<int>& roles, const char* a, const char* b) {
    std::string out = "[";
    for (size_t i = 0; i < roles.size(); ++i) {
      out += i ? ", " : "";
      out += roles[i] == -1 ? a : roles[i] == -2 ? b : std::to_string(roles[i]);
    }
    return out + "]";
  };
  const auto lhs = dims(s.lhs_roles, s.batch * s.batch_groups, in_features, s.in);
  const auto rhs = dims(s.rhs_roles, out_features, s.in_per_group, s.window);
  const auto out = dims(s.out_roles, s.batch, out_features, out_sp);
  std::string pads, rev;
  for (int d = 0; d < n; ++d) {
    pads += fmt::format("{}[{}, {}]", d ? ", " : "", s.pad_lo[d], s.pad_hi[d]);
    rev += fmt::format("{}{}", d ? ", " : "", s.reverse[d] ? "true" : "false");
  }
  const std::string lty = TensorType(lhs, s.lt), rty = TensorType(rhs, s.rt), oty = TensorType(out, s.ot);
  c.mlir = fmt::format(
      "func.func @main(%x: {0}, %k: {1}) -> {2} {{\n"
      "  %0 = stablehlo.convolution(%x, %k) dim_numbers = {3}x{4}->{5}, window = {{stride = [{6}], pad = [{7}], "
      "lhs_dilate = [{8}], rhs_dilate = [{9}], reverse = [{10}]}} {{batch_group_count = {11} : i64, "
      "feature_group_count = {12} : i64}} : ({0}, {1}) -> {2}\n"
      "  func.return %0 : {2}\n}}\n",
      lty, rty, oty, spell(s.lhs_roles, "b", "f"), spell(s.rhs_roles, "o", "i"), spell(s.out_roles, "b", "f"),
      List(s.stride), pads, List(s.lhs_dil), List(s.rhs_dil), rev, s.batch_groups, s.feature_groups);
  c.k = s.in_per_group;
  for (int64_t w : s.window) c.k *= w;
  c.valid = true;
  return c;
}

std::vector<int> Roles(int spatial, std::mt19937_64& rng) {
  std::vector<int> r = {-1, -2};
  for (int d = 0; d < spatial; ++d) r.push_back(d);
  std::shuffle(r.begin(), r.end(), rng);
  return r;
}

ConvSpec RandomSpec(std::mt19937_64& rng) {
  auto pick = [&](std::initializer_list<int64_t> v) { return *(v.begin() + rng() % v.size()); };
  ConvSpec s;
  s.spatial = static_cast<int>(pick({1, 2, 2, 2, 3}));
  s.batch = pick({1, 2, 3});
  s.in_per_group = pick({1, 2, 3, 5});
  s.out_per_group = pick({1, 2, 4});
  const int64_t g = pick({1, 1, 2, 3});
  if (rng() % 3 == 0) {
    s.batch_groups = g;
  } else {
    s.feature_groups = g;
  }
  for (int d = 0; d < s.spatial; ++d) {
    s.in.push_back(s.spatial == 3 ? pick({1, 3, 4}) : pick({1, 3, 7, 9}));
    s.window.push_back(pick({1, 2, 3}));
    s.stride.push_back(pick({1, 1, 2}));
    s.lhs_dil.push_back(pick({1, 1, 2}));
    s.rhs_dil.push_back(pick({1, 1, 2}));
    s.pad_lo.push_back(pick({-1, 0, 0, 1, 2}));
    s.pad_hi.push_back(pick({-1, 0, 0, 1}));
    s.reverse.push_back(rng() % 4 == 0);
  }
  s.lhs_roles = Roles(s.spatial, rng);
  s.rhs_roles = Roles(s.spatial, rng);
  s.out_roles = Roles(s.spatial, rng);
  return s;
}

class ConvolutionTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (device_) target_ = TargetFromDevice(*device_);
  }

  void Check(const ConvCase& c, const PlanOptions& options) {
    SCOPED_TRACE(c.mlir + "config " + (options.force_config.empty() ? "chosen" : options.force_config));
    ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(c.mlir, ir::OpCode::kConvolution));
    std::vector<ir::Literal> operands = {RandomLiteral(parsed.op->operand(0)->type(), rng_),
                                         RandomLiteral(parsed.op->operand(1)->type(), rng_)};
    ASSERT_OK_AND_ASSIGN(ir::Literal expected, Reference(*parsed.op, operands));
    ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanConvolution(*parsed.op, target_, {}, options));
    SCOPED_TRACE(plan.summary);
    ASSERT_OK_AND_ASSIGN(ir::Literal actual, RunPlan(dev(), TestCompiler(), target_, plan, operands));
    EXPECT_EQ(Compare(expected, actual, c.k), "");
  }

  codegen::TargetInfo target_;
  std::mt19937_64 rng_{777};
};

TEST_F(ConvolutionTest, RandomAttributes) {
  std::mt19937_64 rng(11);
  int cases = 0;
  const char* configs[] = {"", "cpu.regtile_4x8", "generic.shared_32x32", "direct"};
  while (cases < 28) {
    const ConvSpec s = RandomSpec(rng);
    const ConvCase c = Build(s);
    if (!c.valid) continue;
    Check(c, {.force_config = configs[cases % 4]});
    ++cases;
  }
}

// NHWC / HWIO with features innermost: the vector paths of the implicit GEMM (channels a
// multiple of 8) and of the depthwise kernel.
TEST_F(ConvolutionTest, ChannelsLastVectorPaths) {
  ConvSpec s;
  s.spatial = 2;
  s.batch = 2;
  s.in = {9, 7};
  s.window = {3, 3};
  s.stride = {1, 2};
  s.lhs_dil = {1, 1};
  s.rhs_dil = {1, 1};
  s.pad_lo = {1, 1};
  s.pad_hi = {1, 0};
  s.reverse = {false, false};
  s.lhs_roles = {-1, 0, 1, -2};
  s.rhs_roles = {0, 1, -2, -1};
  s.out_roles = {-1, 0, 1, -2};
  s.in_per_group = 16;
  s.out_per_group = 24;
  Check(Build(s), {});
  Check(Build(s), {.force_config = "generic.shared_32x32"});
  // Depthwise, 8 groups per invocation.
  s.in_per_group = 1;
  s.out_per_group = 1;
  s.feature_groups = 32;
  Check(Build(s), {});
  // Sliding windows (several outputs per invocation share input loads): stride 1, dilations,
  // 1-D and 3-D.
  s.stride = {1, 1};
  Check(Build(s), {});
  s.rhs_dil = {1, 2};
  s.lhs_dil = {2, 1};
  s.pad_lo = {0, 2};
  s.pad_hi = {2, -1};
  Check(Build(s), {});
  {
    ConvSpec d1 = s;
    d1.spatial = 1;
    d1.in = {11};
    d1.window = {5};
    d1.stride = {1};
    d1.lhs_dil = {1};
    d1.rhs_dil = {1};
    d1.pad_lo = {2};
    d1.pad_hi = {2};
    d1.reverse = {false};
    d1.lhs_roles = {-1, 0, -2};
    d1.rhs_roles = {0, -2, -1};
    d1.out_roles = {-1, 0, -2};
    d1.feature_groups = 16;
    Check(Build(d1), {});
    ConvSpec d3 = d1;
    d3.spatial = 3;
    d3.in = {3, 4, 6};
    d3.window = {2, 3, 3};
    d3.stride = {1, 1, 1};
    d3.lhs_dil = {1, 1, 1};
    d3.rhs_dil = {1, 1, 1};
    d3.pad_lo = {1, 1, 1};
    d3.pad_hi = {0, 1, 1};
    d3.reverse = {false, false, false};
    d3.lhs_roles = {-1, 0, 1, 2, -2};
    d3.rhs_roles = {0, 1, 2, -2, -1};
    d3.out_roles = {-1, 0, 1, 2, -2};
    d3.feature_groups = 8;
    Check(Build(d3), {});
  }
  s.stride = {1, 2};
  s.rhs_dil = {1, 1};
  s.lhs_dil = {1, 1};
  s.pad_lo = {1, 1};
  s.pad_hi = {1, 0};
  // Depthwise with a channel multiplier, and with reversal (the scalar direct kernel).
  s.out_per_group = 2;
  s.feature_groups = 5;
  Check(Build(s), {});
  s.out_per_group = 1;
  s.reverse = {true, false};
  Check(Build(s), {});
}

// The depthwise NHWC kernel takes 8 channels and 4 output positions per invocation.
TEST_F(ConvolutionTest, DepthwiseKernelShape) {
  ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(R"(func.func @main(%x: tensor<1x16x16x32xf32>, %k: tensor<3x3x1x32xf32>) -> tensor<1x16x16x32xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 32 : i64} : (tensor<1x16x16x32xf32>, tensor<3x3x1x32xf32>) -> tensor<1x16x16x32xf32>
  func.return %0 : tensor<1x16x16x32xf32>
})", ir::OpCode::kConvolution));
  ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanConvolution(*parsed.op, target_));
  EXPECT_NE(plan.summary.find("config direct [wg 64 groups per invocation 8 positions per invocation 4]"), std::string::npos)
      << plan.summary;
  ASSERT_EQ(plan.dispatches.size(), 1u);
  EXPECT_EQ(plan.dispatches[0].grid[0], 4u);  // 4 channel groups x 4 position blocks x 16 rows / 64
}

TEST_F(ConvolutionTest, ElementTypes) {
  ConvSpec s;
  s.spatial = 2;
  s.batch = 2;
  s.in = {5, 4};
  s.window = {2, 3};
  s.stride = {1, 1};
  s.lhs_dil = {1, 2};
  s.rhs_dil = {1, 1};
  s.pad_lo = {1, 0};
  s.pad_hi = {0, 1};
  s.reverse = {false, true};
  s.lhs_roles = {-1, -2, 0, 1};
  s.rhs_roles = {-1, -2, 0, 1};
  s.out_roles = {-1, -2, 0, 1};
  s.in_per_group = 3;
  s.out_per_group = 2;
  s.feature_groups = 2;
  const std::vector<std::array<const char*, 3>> types = {
      {"f32", "f32", "f32"}, {"bf16", "bf16", "bf16"}, {"f16", "f16", "f32"}, {"i32", "i32", "i32"},
      {"i8", "i8", "i32"},   {"f64", "f64", "f64"},     {"complex<f32>", "complex<f32>", "complex<f32>"},
      // JAX's preferred_element_type: integers converted into a float result.
      {"i8", "i8", "f32"},   {"i16", "i16", "f64"}};
  for (const auto& t : types) {
    if ((std::string(t[0]) == "f64" || std::string(t[2]) == "f64") && !target_.shader_float64) continue;
    s.lt = t[0];
    s.rt = t[1];
    s.ot = t[2];
    Check(Build(s), {.force_config = "cpu.regtile_4x8"});
  }
}

// What jax.grad emits: the input gradient as a convolution with lhs dilation (a transposed
// convolution) and the kernel gradient with batch_group_count = input features.
TEST_F(ConvolutionTest, BackwardPassShapes) {
  const ConvCase input_grad{R"(func.func @main(%dy: tensor<2x5x5x8xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<2x10x10x4xf32> {
  %0 = stablehlo.convolution(%dy, %w) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 2], [1, 2]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [true, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x5x8xf32>, tensor<3x3x4x8xf32>) -> tensor<2x10x10x4xf32>
  func.return %0 : tensor<2x10x10x4xf32>
})", 72, true};
  Check(input_grad, {});
  const ConvCase kernel_grad{R"(func.func @main(%x: tensor<2x10x10x4xf32>, %dy: tensor<2x10x10x8xf32>) -> tensor<3x3x4x8xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x10x4xf32>, tensor<2x10x10x8xf32>) -> tensor<3x3x4x8xf32>
  func.return %0 : tensor<3x3x4x8xf32>
})", 200, true};
  Check(kernel_grad, {});
  const ConvCase depthwise_kernel_grad{R"(func.func @main(%x: tensor<2x7x7x6xf32>, %dy: tensor<2x7x7x6xf32>) -> tensor<3x3x1x6xf32> {
  %0 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 6 : i64, feature_group_count = 1 : i64} : (tensor<2x7x7x6xf32>, tensor<2x7x7x6xf32>) -> tensor<3x3x1x6xf32>
  func.return %0 : tensor<3x3x1x6xf32>
})", 98, true};
  Check(depthwise_kernel_grad, {});
}

}  // namespace
}  // namespace vkhlo::testing
