// Normalization ("row") kernels (codegen/reduction/row_group.h, row_kernel.cc) against the
// interpreter: softmax, log_softmax, layer norm (JAX's form) and RMS norm in f32, f16 and bf16,
// over rows shorter than a workgroup (several rows per workgroup), rows kept in registers, rows
// re-read per fold, lengths that do not divide the workgroup, and a reducer that is not
// recognized as commutative (contiguous chunks, in order). Float sums may take another order
// than the interpreter's (docs/codegen.md, "Reductions"), so most results are compared with a
// tolerance; programs whose sums are exact in any order (small integers) are compared bit for
// bit, which checks the element-wise ops around the reductions. Plans: one kernel per
// softmax / layer norm, detected from the structure alone.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>

#include "codegen/fusion.h"
#include "frontend/parser.h"
#include "tests/support/runtime_test_util.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

using Dims = std::vector<int64_t>;
using ir::ElementType;

std::string T(const Dims& dims, const std::string& element) {
  std::string text = "tensor<";
  for (int64_t d : dims) text += fmt::format("{}x", d);
  return text + element + ">";
}

Dims Kept(const Dims& dims) { return Dims(dims.begin(), dims.end() - 1); }

std::string Iota(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += fmt::format("{}{}", i ? ", " : "", i);
  return s;
}

std::string NegInf(const std::string& e) {
  if (e == "f16") return "0xFC00";
  if (e == "bf16") return "0xFF80";
  return "0xFF800000";
}

// reduce(%in init %init) over the last dimension with a one-op body `op`.
std::string ReduceLast(const std::string& result, const std::string& in, const std::string& init, const std::string& op,
                       const Dims& dims, const std::string& e) {
  const std::string s = T({}, e);
  return fmt::format(
      "  {0} = \"stablehlo.reduce\"({1}, {2}) ({{\n  ^bb0(%a: {3}, %b: {3}):\n    %s = {4} %a, %b : {3}\n"
      "    stablehlo.return %s : {3}\n  }}) {{dimensions = array<i64: {5}>}} : ({6}, {3}) -> {7}\n",
      result, in, init, s, op, dims.size() - 1, T(dims, e), T(Kept(dims), e));
}

std::string Back(const std::string& result, const std::string& in, const Dims& from, const Dims& dims, const std::string& e) {
  return fmt::format("  {} = stablehlo.broadcast_in_dim {}, dims = [{}] : ({}) -> {}\n", result, in, Iota(from.size()),
                     T(from, e), T(dims, e));
}

std::string Softmax(const Dims& d, const std::string& e, bool log) {
  const Dims k = Kept(d);
  std::string p = fmt::format("func.func @main(%x: {0}) -> {0} {{\n", T(d, e));
  p += fmt::format("  %ninf = stablehlo.constant dense<{}> : {}\n", NegInf(e), T({}, e));
  p += ReduceLast("%m", "%x", "%ninf", "stablehlo.maximum", d, e);
  p += Back("%mb", "%m", k, d, e);
  p += fmt::format("  %d = stablehlo.subtract %x, %mb : {}\n", T(d, e));
  p += fmt::format("  %ex = stablehlo.exponential %d : {}\n", T(d, e));
  p += fmt::format("  %zero = stablehlo.constant dense<0.0> : {}\n", T({}, e));
  p += ReduceLast("%s", "%ex", "%zero", "stablehlo.add", d, e);
  if (log) {
    p += fmt::format("  %ls = stablehlo.log %s : {}\n", T(k, e));
    p += Back("%lb", "%ls", k, d, e);
    p += fmt::format("  %y = stablehlo.subtract %d, %lb : {}\n", T(d, e));
  } else {
    p += Back("%sb", "%s", k, d, e);
    p += fmt::format("  %y = stablehlo.divide %ex, %sb : {}\n", T(d, e));
  }
  return p + fmt::format("  func.return %y : {}\n}}\n", T(d, e));
}

// JAX's layer norm (as jax.nn / flax emit it): mean and variance through a reshape to (..., 1),
// the divide by n, eps, rsqrt, gamma and beta.
std::string LayerNorm(const Dims& d, const std::string& e) {
  const Dims k = Kept(d);
  Dims k1 = k;
  k1.push_back(1);
  const int64_t n = d.back();
  const Dims g = {n};
  std::string p = fmt::format("func.func @main(%x: {0}, %gamma: {1}, %beta: {1}) -> {0} {{\n", T(d, e), T(g, e));
  p += fmt::format("  %zero = stablehlo.constant dense<0.0> : {}\n", T({}, e));
  p += ReduceLast("%0", "%x", "%zero", "stablehlo.add", d, e);
  p += Back("%1", "%0", k, k1, e);
  p += fmt::format("  %nc = stablehlo.constant dense<{}.0> : {}\n", n, T({}, e));
  p += fmt::format("  %2 = stablehlo.broadcast_in_dim %nc, dims = [] : ({}) -> {}\n", T({}, e), T(k1, e));
  p += fmt::format("  %3 = stablehlo.divide %1, %2 : {}\n", T(k1, e));
  p += fmt::format("  %4 = stablehlo.broadcast_in_dim %3, dims = [{}] : ({}) -> {}\n", Iota(k1.size()), T(k1, e), T(d, e));
  p += fmt::format("  %5 = stablehlo.subtract %x, %4 : {}\n", T(d, e));
  p += fmt::format("  %6 = stablehlo.multiply %5, %5 : {}\n", T(d, e));
  p += ReduceLast("%7", "%6", "%zero", "stablehlo.add", d, e);
  p += Back("%8", "%7", k, k1, e);
  p += fmt::format("  %10 = stablehlo.divide %8, %2 : {}\n", T(k1, e));
  p += fmt::format("  %eps = stablehlo.constant dense<9.99999997E-7> : {}\n", T({}, e));
  p += fmt::format("  %13 = stablehlo.broadcast_in_dim %eps, dims = [] : ({}) -> {}\n", T({}, e), T(k1, e));
  p += fmt::format("  %14 = stablehlo.add %10, %13 : {}\n", T(k1, e));
  p += fmt::format("  %15 = stablehlo.rsqrt %14 : {}\n", T(k1, e));
  p += fmt::format("  %16 = stablehlo.broadcast_in_dim %15, dims = [{}] : ({}) -> {}\n", Iota(k1.size()), T(k1, e), T(d, e));
  p += fmt::format("  %17 = stablehlo.multiply %5, %16 : {}\n", T(d, e));
  p += fmt::format("  %19 = stablehlo.broadcast_in_dim %gamma, dims = [{}] : ({}) -> {}\n", d.size() - 1, T(g, e), T(d, e));
  p += fmt::format("  %20 = stablehlo.multiply %17, %19 : {}\n", T(d, e));
  p += fmt::format("  %22 = stablehlo.broadcast_in_dim %beta, dims = [{}] : ({}) -> {}\n", d.size() - 1, T(g, e), T(d, e));
  p += fmt::format("  %23 = stablehlo.add %20, %22 : {}\n", T(d, e));
  return p + fmt::format("  func.return %23 : {}\n}}\n", T(d, e));
}

// RMS norm: x * rsqrt(mean(x^2) + eps) * gamma; the mean's divide after the reduce (ROW values).
std::string RmsNorm(const Dims& d, const std::string& e) {
  const Dims k = Kept(d);
  const Dims g = {d.back()};
  std::string p = fmt::format("func.func @main(%x: {0}, %gamma: {1}) -> {0} {{\n", T(d, e), T(g, e));
  p += fmt::format("  %zero = stablehlo.constant dense<0.0> : {}\n", T({}, e));
  p += fmt::format("  %sq = stablehlo.multiply %x, %x : {}\n", T(d, e));
  p += ReduceLast("%s", "%sq", "%zero", "stablehlo.add", d, e);
  p += fmt::format("  %nc = stablehlo.constant dense<{}.0> : {}\n", d.back(), T(k, e));
  p += fmt::format("  %ms = stablehlo.divide %s, %nc : {}\n", T(k, e));
  p += fmt::format("  %eps = stablehlo.constant dense<1.0e-05> : {}\n", T(k, e));
  p += fmt::format("  %v = stablehlo.add %ms, %eps : {}\n", T(k, e));
  p += fmt::format("  %r = stablehlo.rsqrt %v : {}\n", T(k, e));
  p += Back("%rb", "%r", k, d, e);
  p += fmt::format("  %xn = stablehlo.multiply %x, %rb : {}\n", T(d, e));
  p += fmt::format("  %gb = stablehlo.broadcast_in_dim %gamma, dims = [{}] : ({}) -> {}\n", d.size() - 1, T(g, e), T(d, e));
  p += fmt::format("  %y = stablehlo.multiply %xn, %gb : {}\n", T(d, e));
  return p + fmt::format("  func.return %y : {}\n}}\n", T(d, e));
}

// x / sum(x) and the sum itself (a ROW output) with a two-op reducer body (add, then multiply by
// one): not recognized as commutative, so the kernel folds contiguous chunks in order.
std::string Normalize(const Dims& d, const std::string& e, bool plain_reducer) {
  const Dims k = Kept(d);
  const std::string s = T({}, e);
  std::string p = fmt::format("func.func @main(%x: {0}) -> ({0}, {1}) {{\n", T(d, e), T(k, e));
  p += fmt::format("  %zero = stablehlo.constant dense<0.0> : {}\n", s);
  if (plain_reducer) {
    p += ReduceLast("%s", "%x", "%zero", "stablehlo.add", d, e);
  } else {
    p += fmt::format(
        "  %s = \"stablehlo.reduce\"(%x, %zero) ({{\n  ^bb0(%a: {0}, %b: {0}):\n    %t = stablehlo.add %a, %b : {0}\n"
        "    %one = stablehlo.constant dense<1.0> : {0}\n    %u = stablehlo.multiply %t, %one : {0}\n"
        "    stablehlo.return %u : {0}\n  }}) {{dimensions = array<i64: {1}>}} : ({2}, {0}) -> {3}\n",
        s, d.size() - 1, T(d, e), T(k, e));
  }
  p += Back("%sb", "%s", k, d, e);
  p += fmt::format("  %y = stablehlo.divide %x, %sb : {}\n", T(d, e));
  return p + fmt::format("  func.return %y, %s : {}, {}\n}}\n", T(d, e), T(k, e));
}

ElementType Type(const std::string& e) {
  if (e == "f16") return ElementType::kF16;
  if (e == "bf16") return ElementType::kBF16;
  return ElementType::kF32;
}

ir::Literal Random(const std::string& e, const Dims& dims, std::mt19937_64& rng, double lo, double hi, bool ints) {
  auto literal = ir::Literal::Create(ir::Type::Tensor(Type(e), dims));
  EXPECT_TRUE(literal.ok());
  std::uniform_real_distribution<double> dist(lo, hi);
  for (int64_t i = 0; i < literal->num_elements(); ++i) {
    const double v = dist(rng);
    literal->SetFloat(i, ints ? std::round(v) : v);
  }
  return std::move(*literal);
}

// Rows of small integers whose mean is 0 exactly (each value and its negation; a 0 for odd
// lengths), so a layer norm's sums are exact in any order.
ir::Literal Symmetric(const Dims& dims, std::mt19937_64& rng) {
  auto literal = ir::Literal::Create(ir::Type::Tensor(ElementType::kF32, dims));
  EXPECT_TRUE(literal.ok());
  std::uniform_int_distribution<int> dist(-8, 8);
  const int64_t n = dims.back();
  for (int64_t row = 0; row < literal->num_elements() / n; ++row) {
    for (int64_t i = 0; i < n / 2; ++i) {
      const int v = dist(rng);
      literal->SetFloat(row * n + i, v);
      literal->SetFloat(row * n + n - 1 - i, -v);
    }
    if (n % 2 == 1) literal->SetFloat(row * n + n / 2, 0);
  }
  return std::move(*literal);
}

// Within atol + rtol |reference| element by element (NaNs equal).
void ExpectClose(const ir::Literal& got, const ir::Literal& want, double rtol, double atol, const std::string& program) {
  ASSERT_EQ(got.num_elements(), want.num_elements());
  int bad = 0;
  for (int64_t i = 0; i < got.num_elements() && bad < 5; ++i) {
    const double a = got.GetFloat(i), b = want.GetFloat(i);
    if (std::isnan(a) && std::isnan(b)) continue;
    if (!(std::abs(a - b) <= atol + rtol * std::abs(b))) {
      ADD_FAILURE() << "element " << i << ": " << a << " vs " << b << "\n" << (bad == 0 ? program : "");
      ++bad;
    }
  }
}

void ExpectSame(const testing::BothResults& r, const std::string& program) {
  ASSERT_EQ(r.vulkan.size(), r.reference.size());
  for (size_t i = 0; i < r.vulkan.size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(r.vulkan[i], r.reference[i], &why)) << "result " << i << ": " << why << "\n" << program;
  }
}

double Rtol(const std::string& e) { return e == "f32" ? 2e-5 : e == "f16" ? 1e-2 : 6e-2; }

void Check(const std::string& program, const std::vector<ir::Literal>& inputs, const std::string& e, double atol) {
  auto r = testing::RunOnBoth(program, inputs);
  ASSERT_TRUE(r.ok()) << r.status().ToString() << "\n" << program;
  ASSERT_EQ(r->vulkan.size(), r->reference.size());
  for (size_t i = 0; i < r->vulkan.size(); ++i) ExpectClose(r->vulkan[i], r->reference[i], Rtol(e), atol, program);
}

// Shapes: several rows per workgroup (short rows), rows kept in registers, rows that do not
// divide the workgroup, and rows re-read per fold (long). Narrow types round after every add,
// in the interpreter's sequential order as in the kernel's tree, so their sums drift apart
// with the row's length: they take the shorter rows.
const std::vector<Dims> kShapes = {{3, 5, 16}, {40, 128}, {7, 33}, {2, 3, 256}, {5, 1000}, {3, 4096}};
const std::vector<Dims> kNarrowShapes = {{3, 5, 16}, {40, 128}, {7, 34}};
const std::vector<Dims>& Shapes(const std::string& e) { return e == "f32" ? kShapes : kNarrowShapes; }

TEST(RowKernelTest, Softmax) {
  std::mt19937_64 rng(1);
  for (const std::string e : {"f32", "f16", "bf16"}) {
    for (const Dims& d : Shapes(e)) {
      SCOPED_TRACE(fmt::format("{} {}", e, T(d, e)));
      Check(Softmax(d, e, false), {Random(e, d, rng, -6, 6, false)}, e, e == "f32" ? 1e-7 : 1e-3);
    }
  }
}

TEST(RowKernelTest, LogSoftmax) {
  std::mt19937_64 rng(2);
  for (const std::string e : {"f32", "f16", "bf16"}) {
    for (const Dims& d : Shapes(e)) {
      SCOPED_TRACE(fmt::format("{} {}", e, T(d, e)));
      Check(Softmax(d, e, true), {Random(e, d, rng, -6, 6, false)}, e, e == "f32" ? 1e-5 : e == "f16" ? 2e-2 : 1e-1);
    }
  }
}

TEST(RowKernelTest, LayerNorm) {
  std::mt19937_64 rng(3);
  for (const std::string e : {"f32", "f16", "bf16"}) {
    for (const Dims& d : Shapes(e)) {
      SCOPED_TRACE(fmt::format("{} {}", e, T(d, e)));
      const Dims g = {d.back()};
      Check(LayerNorm(d, e), {Random(e, d, rng, -3, 3, false), Random(e, g, rng, 0.5, 2, false), Random(e, g, rng, -1, 1, false)},
            e, e == "f32" ? 1e-4 : 5e-2);
    }
  }
}

TEST(RowKernelTest, RmsNorm) {
  std::mt19937_64 rng(4);
  for (const std::string e : {"f32", "f16", "bf16"}) {
    for (const Dims& d : Shapes(e)) {
      SCOPED_TRACE(fmt::format("{} {}", e, T(d, e)));
      const Dims g = {d.back()};
      Check(RmsNorm(d, e), {Random(e, d, rng, -3, 3, false), Random(e, g, rng, 0.5, 2, false)}, e,
            e == "f32" ? 1e-6 : 1e-2);
    }
  }
}

// Small integers: every sum is exact in any order, so the results are the interpreter's bits.
TEST(RowKernelTest, ExactWhereSumsAreExact) {
  std::mt19937_64 rng(5);
  for (const Dims& d : kShapes) {
    SCOPED_TRACE(T(d, "f32"));
    for (const bool plain : {true, false}) {
      const std::string program = Normalize(d, "f32", plain);
      auto r = testing::RunOnBoth(program, {Random("f32", d, rng, 1, 9, true)});
      ASSERT_TRUE(r.ok()) << r.status().ToString() << "\n" << program;
      ExpectSame(*r, program);
    }
    const std::string program = LayerNorm(d, "f32");
    const Dims g = {d.back()};
    auto r = testing::RunOnBoth(program, {Symmetric(d, rng), Random("f32", g, rng, 1, 3, true),
                                          Random("f32", g, rng, -2, 2, true)});
    ASSERT_TRUE(r.ok()) << r.status().ToString() << "\n" << program;
    ExpectSame(*r, program);
  }
}

// The plans: one row kernel per softmax / layer norm (the producer that only the chain reads
// is computed inside it), and none where a narrow output would split a word between rows.
std::unique_ptr<ir::Module> Parse(const std::string& text) {
  auto module = frontend::ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  if (!module.ok()) return nullptr;
  EXPECT_TRUE(verify::VerifyModule(**module).ok());
  return std::move(*module);
}

size_t RowKernels(const codegen::BlockPlan& plan, size_t reductions) {
  size_t count = 0;
  for (const codegen::Fusion& f : plan.fusions) count += f.row_reductions.size() == reductions ? 1 : 0;
  return count;
}

codegen::TargetInfo Cpu() {
  codegen::TargetInfo t = codegen::TargetInfo::Everything();
  t.device_type = codegen::TargetInfo::DeviceType::kCpu;
  t.subgroup_size = 16;
  return t;
}

TEST(RowKernelPlanTest, SoftmaxAndLayerNormAreOneKernelEach) {
  for (const codegen::TargetInfo& target : {codegen::TargetInfo::Everything(), Cpu()}) {
    for (const std::string e : {"f32", "bf16"}) {
      auto softmax = Parse(Softmax({4, 128}, e, false));
      auto plan = codegen::PlanBlock(softmax->functions().front()->body().front(), target);
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      EXPECT_EQ(plan->fusions.size(), 1u);
      EXPECT_EQ(RowKernels(*plan, 2), 1u);
      auto norm = Parse(LayerNorm({4, 8, 256}, e));
      plan = codegen::PlanBlock(norm->functions().front()->body().front(), target);
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      EXPECT_EQ(plan->fusions.size(), 1u);
      EXPECT_EQ(RowKernels(*plan, 2), 1u);
    }
  }
  // The scaled scores of attention (divide by a constant, read by both folds): in the kernel.
  auto scaled = Parse(R"(
func.func @main(%q: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %c = stablehlo.constant dense<8.0> : tensor<8x64xf32>
  %x = stablehlo.divide %q, %c : tensor<8x64xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
  %d = stablehlo.subtract %x, %mb : tensor<8x64xf32>
  %e = stablehlo.exponential %d : tensor<8x64xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
  %y = stablehlo.divide %e, %sb : tensor<8x64xf32>
  return %y : tensor<8x64xf32>
})");
  auto plan = codegen::PlanBlock(scaled->functions().front()->body().front(), Cpu());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->fusions.size(), 1u);
  EXPECT_EQ(plan->fusions[0].inputs.size(), 1u);  // %q only
  // Odd rows of f16: two rows would share an output word, so no row kernel (reduce kernels).
  auto odd = Parse(Softmax({4, 33}, "f16", false));
  plan = codegen::PlanBlock(odd->functions().front()->body().front(), Cpu());
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(RowKernels(*plan, 2), 0u);
  // Unfused: no row kernels.
  codegen::FusionOptions unfused;
  unfused.fuse = false;
  auto norm = Parse(LayerNorm({4, 256}, "f32"));
  plan = codegen::PlanBlock(norm->functions().front()->body().front(), Cpu(), unfused);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(RowKernels(*plan, 2), 0u);
}

}  // namespace
}  // namespace vkhlo
