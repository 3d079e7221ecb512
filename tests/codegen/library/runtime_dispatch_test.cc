// The library kernels through the runtime (not only their plans): dot_general and convolution
// with random dimension numbers, odd sizes, groups, dilations, paddings and strides run by
// Client::Compile/Execute and by the interpreter; the MLP layer `dot -> add(broadcast bias) ->
// max(x, 0)` is one dispatch; stablehlo.fft runs as a runtime step.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <map>
#include <random>

#include "codegen/fusion.h"
#include "codegen/target.h"
#include "frontend/parser.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

using ir::ElementType;

std::string TensorText(const std::vector<int64_t>& dims, const std::string& type) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += fmt::format("{}x", d);
  return s + type + ">";
}

// Floats in [-1, 1] (products stay small, so a K-scaled tolerance is tight); integers in
// [-8, 8] (exact sums).
ir::Literal SmallRandom(const std::vector<int64_t>& dims, ElementType t, std::mt19937_64& rng) {
  auto literal = ir::Literal::Create(ir::Type::Tensor(t, dims));
  EXPECT_TRUE(literal.ok());
  std::uniform_real_distribution<double> real(-1, 1);
  std::uniform_int_distribution<int> integer(-8, 8);
  for (int64_t i = 0; i < literal->num_elements(); ++i) {
    if (ir::IsFloat(t)) {
      literal->SetFloat(i, real(rng));
    } else {
      literal->SetInt(i, integer(rng));
    }
  }
  return std::move(*literal);
}

// Exact for integers; floats within K ulps of f32 at magnitude 1 (plus a small absolute term).
std::string Compare(const ir::Literal& expected, const ir::Literal& actual, int64_t k) {
  if (expected.type() != actual.type()) return "types differ";
  const bool is_float = ir::IsFloat(expected.element_type());
  for (int64_t i = 0; i < expected.num_elements(); ++i) {
    if (is_float) {
      const double e = expected.GetFloat(i), a = actual.GetFloat(i);
      const double tolerance = 1e-6 + static_cast<double>(std::max<int64_t>(k, 1)) * 2.4e-7;
      if (!(std::fabs(e - a) <= tolerance)) return fmt::format("element {}: expected {}, got {}", i, e, a);
    } else if (expected.GetInt(i) != actual.GetInt(i)) {
      return fmt::format("element {}: expected {}, got {}", i, expected.GetInt(i), actual.GetInt(i));
    }
  }
  return "";
}

std::string Join(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

const std::vector<int64_t> kOdd = {1, 3, 7, 33};

TEST(LibraryRuntimeTest, DotGeneralWithRandomDimensionNumbers) {
  std::mt19937_64 rng(6);
  for (int iteration = 0; iteration < 12; ++iteration) {
    const ElementType t = iteration % 3 == 2 ? ElementType::kS32 : ElementType::kF32;
    const std::string type(ir::ElementTypeName(t));
    auto pick = [&](int64_t n) { return std::uniform_int_distribution<int64_t>(0, n - 1)(rng); };
    auto size = [&] { return kOdd[static_cast<size_t>(pick(4))]; };
    const int nb = static_cast<int>(pick(2)), nc = 1 + static_cast<int>(pick(2));
    const int lf = static_cast<int>(pick(3)), rf = static_cast<int>(pick(3));
    // Roles of lhs / rhs dimensions: 'b' batching, 'c' contracting, 'f' free; then shuffled.
    std::vector<int64_t> batch, contract;
    for (int i = 0; i < nb; ++i) batch.push_back(1 + pick(3));
    for (int i = 0; i < nc; ++i) contract.push_back(size());
    if (iteration % 4 == 0) contract[0] = 100;  // a long K with a tail
    std::vector<std::pair<char, int64_t>> lhs, rhs;  // (role, index into batch/contract or size)
    for (int i = 0; i < nb; ++i) lhs.push_back({'b', i}), rhs.push_back({'b', i});
    for (int i = 0; i < nc; ++i) lhs.push_back({'c', i}), rhs.push_back({'c', i});
    std::vector<int64_t> lhs_free, rhs_free;
    for (int i = 0; i < lf; ++i) lhs_free.push_back(size()), lhs.push_back({'f', i});
    for (int i = 0; i < rf; ++i) rhs_free.push_back(size()), rhs.push_back({'f', i});
    std::shuffle(lhs.begin(), lhs.end(), rng);
    std::shuffle(rhs.begin(), rhs.end(), rng);
    std::vector<int64_t> lhs_dims, rhs_dims, lb(static_cast<size_t>(nb)), rb(static_cast<size_t>(nb)),
        lc(static_cast<size_t>(nc)), rc(static_cast<size_t>(nc));
    auto layout = [&](const std::vector<std::pair<char, int64_t>>& roles, const std::vector<int64_t>& free,
                      std::vector<int64_t>& dims, std::vector<int64_t>& b, std::vector<int64_t>& c,
                      std::vector<int64_t>& free_in_order) {
      for (size_t d = 0; d < roles.size(); ++d) {
        const auto [role, i] = roles[d];
        const size_t u = static_cast<size_t>(i);
        if (role == 'b') b[u] = static_cast<int64_t>(d), dims.push_back(batch[u]);
        if (role == 'c') c[u] = static_cast<int64_t>(d), dims.push_back(contract[u]);
        if (role == 'f') dims.push_back(free[u]), free_in_order.push_back(free[u]);
      }
    };
    std::vector<int64_t> lhs_free_dims, rhs_free_dims;  // the result's order: as in the operands
    layout(lhs, lhs_free, lhs_dims, lb, lc, lhs_free_dims);
    layout(rhs, rhs_free, rhs_dims, rb, rc, rhs_free_dims);
    std::vector<int64_t> out = batch;
    out.insert(out.end(), lhs_free_dims.begin(), lhs_free_dims.end());
    out.insert(out.end(), rhs_free_dims.begin(), rhs_free_dims.end());
    auto elements = [](const std::vector<int64_t>& d) { return std::accumulate(d.begin(), d.end(), int64_t{1}, std::multiplies<>()); };
    if (elements(lhs_dims) > 50000 || elements(rhs_dims) > 50000 || elements(out) > 50000) {
      --iteration;  // too big for a modest test: draw again
      continue;
    }
    const std::string program = fmt::format(
        "func.func @main(%a: {0}, %b: {1}) -> {2} {{\n"
        "  %r = stablehlo.dot_general %a, %b, batching_dims = [{3}] x [{4}], contracting_dims = [{5}] x [{6}]"
        " : ({0}, {1}) -> {2}\n  func.return %r : {2}\n}}\n",
        TensorText(lhs_dims, type), TensorText(rhs_dims, type), TensorText(out, type), Join(lb), Join(rb), Join(lc),
        Join(rc));
    int64_t k = 1;
    for (int64_t c : contract) k *= c;
    auto both = testing::RunOnBoth(program, {SmallRandom(lhs_dims, t, rng), SmallRandom(rhs_dims, t, rng)});
    ASSERT_TRUE(both.ok()) << both.status().ToString() << "\n" << program;
    EXPECT_EQ(Compare(both->reference[0], both->vulkan[0], k), "") << program;
    EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
  }
}

TEST(LibraryRuntimeTest, ConvolutionWithRandomAttributes) {
  std::mt19937_64 rng(7);
  for (int iteration = 0; iteration < 12; ++iteration) {
    const ElementType t = iteration % 3 == 2 ? ElementType::kS32 : ElementType::kF32;
    const std::string type(ir::ElementTypeName(t));
    auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
    const size_t spatial = static_cast<size_t>(pick(1, 2));
    const int64_t feature_groups = iteration % 4 == 1 ? pick(2, 3) : 1;
    const int64_t batch_groups = iteration % 4 == 3 ? 2 : 1;
    const int64_t out_batch = pick(1, 2), cin_per_group = pick(1, 3);
    const int64_t cout = feature_groups * batch_groups * pick(1, 3);
    std::vector<int64_t> in(spatial), window(spatial), stride(spatial), lhs_dil(spatial), rhs_dil(spatial), out(spatial);
    std::vector<int64_t> pad_lo(spatial), pad_hi(spatial);
    std::vector<int> reverse(spatial);
    for (size_t s = 0; s < spatial; ++s) {
      in[s] = kOdd[static_cast<size_t>(pick(1, 3))] + (spatial == 1 ? 0 : 0);
      window[s] = pick(1, 3);
      stride[s] = pick(1, 2);
      lhs_dil[s] = pick(1, 2);
      rhs_dil[s] = pick(1, 2);
      pad_lo[s] = pick(0, 2);
      pad_hi[s] = pick(0, 2);
      reverse[s] = static_cast<int>(pick(0, 1));
      const int64_t dilated_in = (in[s] - 1) * lhs_dil[s] + 1 + pad_lo[s] + pad_hi[s];
      const int64_t dilated_window = (window[s] - 1) * rhs_dil[s] + 1;
      if (dilated_in < dilated_window) pad_hi[s] += dilated_window - dilated_in;
      out[s] = ((in[s] - 1) * lhs_dil[s] + 1 + pad_lo[s] + pad_hi[s] - dilated_window) / stride[s] + 1;
    }
    // Dimension labels in a random order per tensor.
    auto labels = [&](const std::vector<std::string>& names) {
      std::vector<std::string> order = names;
      std::shuffle(order.begin(), order.end(), rng);
      return order;
    };
    std::vector<std::string> lhs_names = {"b", "f"}, rhs_names = {"i", "o"}, out_names = {"b", "f"};
    for (size_t s = 0; s < spatial; ++s) {
      lhs_names.push_back(std::to_string(s));
      rhs_names.push_back(std::to_string(s));
      out_names.push_back(std::to_string(s));
    }
    const auto lo = labels(lhs_names), ro = labels(rhs_names), oo = labels(out_names);
    auto dims_of = [&](const std::vector<std::string>& order, const std::map<std::string, int64_t>& size) {
      std::vector<int64_t> dims;
      for (const std::string& n : order) dims.push_back(size.at(n));
      return dims;
    };
    std::map<std::string, int64_t> lhs_size = {{"b", out_batch * batch_groups}, {"f", cin_per_group * feature_groups}};
    std::map<std::string, int64_t> rhs_size = {{"i", cin_per_group}, {"o", cout}};
    std::map<std::string, int64_t> out_size = {{"b", out_batch}, {"f", cout}};
    for (size_t s = 0; s < spatial; ++s) {
      lhs_size[std::to_string(s)] = in[s];
      rhs_size[std::to_string(s)] = window[s];
      out_size[std::to_string(s)] = out[s];
    }
    const auto lhs_dims = dims_of(lo, lhs_size), rhs_dims = dims_of(ro, rhs_size), out_dims = dims_of(oo, out_size);
    auto join_names = [](const std::vector<std::string>& v) {
      std::string s;
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
      return s;
    };
    std::string pads;
    for (size_t s = 0; s < spatial; ++s) pads += fmt::format("{}[{}, {}]", s ? ", " : "", pad_lo[s], pad_hi[s]);
    std::string reversal;
    for (size_t s = 0; s < spatial; ++s) reversal += fmt::format("{}{}", s ? ", " : "", reverse[s]);
    const std::string program = fmt::format(
        "func.func @main(%a: {0}, %b: {1}) -> {2} {{\n"
        "  %r = stablehlo.convolution(%a, %b) dim_numbers = [{3}]x[{4}]->[{5}],"
        " window = {{stride = [{6}], pad = [{7}], lhs_dilate = [{8}], rhs_dilate = [{9}], reverse = [{10}]}}"
        " {{batch_group_count = {11} : i64, feature_group_count = {12} : i64}} : ({0}, {1}) -> {2}\n"
        "  func.return %r : {2}\n}}\n",
        TensorText(lhs_dims, type), TensorText(rhs_dims, type), TensorText(out_dims, type), join_names(lo),
        join_names(ro), join_names(oo), Join(stride), pads, Join(lhs_dil), Join(rhs_dil), reversal, batch_groups,
        feature_groups);
    int64_t k = cin_per_group;
    for (int64_t w : window) k *= w;
    auto both = testing::RunOnBoth(program, {SmallRandom(lhs_dims, t, rng), SmallRandom(rhs_dims, t, rng)});
    ASSERT_TRUE(both.ok()) << both.status().ToString() << "\n" << program;
    EXPECT_EQ(Compare(both->reference[0], both->vulkan[0], k), "") << program;
    EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
  }
}

// One layer of an MLP: x * W + b, then relu.
constexpr const char* kMlp = R"(
func.func @main(%x: tensor<32x64xf32>, %w: tensor<64x48xf32>, %bias: tensor<48xf32>) -> tensor<32x48xf32> {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x48xf32>) -> tensor<32x48xf32>
  %b = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<48xf32>) -> tensor<32x48xf32>
  %s = stablehlo.add %d, %b : tensor<32x48xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<32x48xf32>
  %r = stablehlo.maximum %s, %zero : tensor<32x48xf32>
  func.return %r : tensor<32x48xf32>
}
)";

TEST(LibraryRuntimeTest, MlpLayerIsOneFusionWithItsEpilogue) {
  auto module = frontend::ParseModule(kMlp);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  const ir::Function* main = (*module)->FindFunction("main");
  const ir::Block& block = main->body().front();
  auto plan = codegen::PlanBlock(block, codegen::TargetInfo::Everything());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->fusions.size(), 1u);
  const codegen::Fusion& f = plan->fusions[0];
  ASSERT_NE(f.device_op, nullptr);
  ASSERT_EQ(f.ops.size(), 3u);  // dot_general, add, maximum
  EXPECT_EQ(f.ops[1]->code(), ir::OpCode::kAdd);
  EXPECT_EQ(f.ops[2]->code(), ir::OpCode::kMaximum);
  ASSERT_EQ(f.inputs.size(), 3u);  // x, w, the bias before its broadcast
  EXPECT_EQ(f.inputs[2], block.argument(2));
  ASSERT_EQ(f.outputs.size(), 1u);
  EXPECT_EQ(f.outputs[0], f.ops[2]->result(0));

  // Without fusion every op is a kernel of its own.
  codegen::FusionOptions unfused;
  unfused.fuse = false;
  auto separate = codegen::PlanBlock(block, codegen::TargetInfo::Everything(), unfused);
  ASSERT_TRUE(separate.ok());
  EXPECT_GT(separate->fusions.size(), 1u);
}

TEST(LibraryRuntimeTest, MlpLayerRunsInOneDispatch) {
  std::mt19937_64 rng(8);
  auto both = testing::RunOnBoth(kMlp, {SmallRandom({32, 64}, ElementType::kF32, rng),
                                        SmallRandom({64, 48}, ElementType::kF32, rng),
                                        SmallRandom({48}, ElementType::kF32, rng)});
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  EXPECT_EQ(Compare(both->reference[0], both->vulkan[0], 64), "");
  EXPECT_EQ(both->stats.kernels_dispatched, 1u);
}

TEST(LibraryRuntimeTest, AChainWithAnotherUserStaysSeparate) {
  // %d is also returned, so it needs a buffer: the add runs in a loop kernel of its own.
  constexpr const char* kProgram = R"(
func.func @main(%x: tensor<5x7xf32>, %w: tensor<7x3xf32>, %bias: tensor<3xf32>) -> (tensor<5x3xf32>, tensor<5x3xf32>) {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<5x7xf32>, tensor<7x3xf32>) -> tensor<5x3xf32>
  %b = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<3xf32>) -> tensor<5x3xf32>
  %s = stablehlo.add %d, %b : tensor<5x3xf32>
  func.return %s, %d : tensor<5x3xf32>, tensor<5x3xf32>
}
)";
  std::mt19937_64 rng(9);
  auto both = testing::RunOnBoth(kProgram, {SmallRandom({5, 7}, ElementType::kF32, rng),
                                            SmallRandom({7, 3}, ElementType::kF32, rng),
                                            SmallRandom({3}, ElementType::kF32, rng)});
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  EXPECT_EQ(Compare(both->reference[0], both->vulkan[0], 7), "");
  EXPECT_EQ(Compare(both->reference[1], both->vulkan[1], 7), "");
  EXPECT_EQ(both->stats.kernels_dispatched, 2u);
}

TEST(LibraryRuntimeTest, FftRunsAsARuntimeStep) {
  // RFFT over odd lengths, then a kernel reading its result: VkFFT records between kernels.
  constexpr const char* kProgram = R"(
func.func @main(%x: tensor<3x5x7xf32>) -> tensor<3x5x4xcomplex<f32>> {
  %n = stablehlo.negate %x : tensor<3x5x7xf32>
  %f = stablehlo.fft %n, type = RFFT, length = [5, 7] : (tensor<3x5x7xf32>) -> tensor<3x5x4xcomplex<f32>>
  %r = stablehlo.add %f, %f : tensor<3x5x4xcomplex<f32>>
  func.return %r : tensor<3x5x4xcomplex<f32>>
}
)";
  std::mt19937_64 rng(10);
  auto both = testing::RunOnBoth(kProgram, {SmallRandom({3, 5, 7}, ElementType::kF32, rng)});
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  const ir::Literal& e = both->reference[0];
  const ir::Literal& a = both->vulkan[0];
  for (int64_t i = 0; i < e.num_elements(); ++i) {
    EXPECT_LT(std::abs(e.GetComplex(i) - a.GetComplex(i)), 1e-4) << "element " << i;
  }
  EXPECT_EQ(both->stats.kernels_dispatched, 3u);  // negate, the fft, add
  EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
}

}  // namespace
}  // namespace vkhlo
