// Quantized programs against the interpreter (the oracle): uniform_quantize, uniform_dequantize
// and requantization over per-tensor and per-axis types, storage types i4/ui4/i8/ui8/i16 (some
// with a narrowed storage range), expressed types f32/f16/bf16, random scales and zero points,
// and inputs full of ties (x/scale exactly k + 1/2), values that clamp, infinities and NaN.
// Each program is checked twice, both times bit for bit:
//   - the interpreter on the program after `quantized-decompose` alone (the decomposition is
//     exact step by step, so any difference is a bug in the pass);
//   - the Vulkan runtime (default passes, so quantized-decompose before fusion).
// Plus element-wise ops and data movement on quantized tensors, hybrid dot_general / convolution
// (float lhs, quantized weights), and the clear error for an op the pass cannot lower.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/element_type.h"
#include "ir/requantize.h"
#include "passes/pass_registry.h"
#include "tests/support/runtime_test_util.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

using ir::ElementType;
using Dims = std::vector<int64_t>;

struct QType {
  ElementType storage;
  ElementType expressed;
  std::optional<int> axis;
  std::vector<double> scales;
  std::vector<int64_t> zero_points;
  int64_t storage_min = 0, storage_max = 0;  // min >= max: the storage type's range

  std::string ToString(const Dims& dims) const {
    std::string s = "tensor<";
    for (int64_t d : dims) s += fmt::format("{}x", d);
    s += "!quant.uniform<" + std::string(ir::ElementTypeName(storage));
    if (storage_min < storage_max) s += fmt::format("<{}:{}>", storage_min, storage_max);
    s += ":" + std::string(ir::ElementTypeName(expressed));
    if (axis) {
      s += fmt::format(":{}, {{", *axis);
      for (size_t i = 0; i < scales.size(); ++i) {
        s += fmt::format("{}{:.17g}:{}", i ? "," : "", scales[i], zero_points[i]);
      }
      s += "}";
    } else {
      s += fmt::format(", {:.17g}:{}", scales[0], zero_points[0]);
    }
    return s + ">>";
  }
  void Range(int64_t& lo, int64_t& hi) const {
    if (storage_min < storage_max) {
      lo = storage_min;
      hi = storage_max;
      return;
    }
    const int w = ir::BitWidth(storage);
    lo = ir::IsSignedInteger(storage) ? -(int64_t{1} << (w - 1)) : 0;
    hi = ir::IsSignedInteger(storage) ? (int64_t{1} << (w - 1)) - 1 : (int64_t{1} << w) - 1;
  }
};

std::string Plain(const Dims& dims, ElementType t) { return ir::Type::Tensor(t, dims).ToString(); }

int64_t Rand(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

// A random type; `like` (when given) fixes the storage range, so that ops may mix the two.
QType RandomQType(std::mt19937_64& rng, ElementType storage, ElementType expressed, bool per_axis,
                  const Dims& dims, const QType* like = nullptr) {
  QType q{storage, expressed, std::nullopt, {}, {}};
  int64_t lo = 0, hi = 0;
  q.Range(lo, hi);
  if (like != nullptr) {
    q.storage_min = like->storage_min;
    q.storage_max = like->storage_max;
  } else if (Rand(rng, 0, 2) == 0 && hi - lo > 4) {  // a narrowed storage range
    q.storage_min = lo + Rand(rng, 1, 2);
    q.storage_max = hi - Rand(rng, 1, 2);
  }
  q.Range(lo, hi);
  const int64_t n = per_axis ? dims[1] : 1;
  if (per_axis) q.axis = 1;
  for (int64_t i = 0; i < n; ++i) {
    // Powers of two make ties exact; other scales exercise the division's rounding.
    const double scale = Rand(rng, 0, 1) ? std::ldexp(1.0, static_cast<int>(Rand(rng, -4, 2)))
                                         : std::uniform_real_distribution<double>(0.01, 3.0)(rng);
    q.scales.push_back(scale);
    q.zero_points.push_back(Rand(rng, lo, hi));
  }
  return q;
}

// Floats for quantizing to `q` (row-major `dims`, per-axis along dimension 1): ties, in-range
// values, values far outside the storage range, and the float specials.
ir::Literal FloatInputs(std::mt19937_64& rng, const QType& q, const Dims& dims, ElementType type) {
  ir::Literal l = ir::Literal::Create(ir::Type::Tensor(type, dims)).value();
  int64_t lo = 0, hi = 0;
  q.Range(lo, hi);
  for (int64_t i = 0; i < l.num_elements(); ++i) {
    const size_t k = q.axis ? static_cast<size_t>(i % dims[1]) : 0;
    const double scale = q.scales[k];
    const double zp = static_cast<double>(q.zero_points[k]);
    const double k_lo = static_cast<double>(lo) - zp - 4, k_hi = static_cast<double>(hi) - zp + 4;
    double v = 0;
    switch (Rand(rng, 0, 9)) {
      case 0: case 1: case 2:  // ties
        v = (std::floor(std::uniform_real_distribution<double>(k_lo, k_hi)(rng)) + 0.5) * scale;
        break;
      case 3: v = std::uniform_real_distribution<double>(-1e6, 1e6)(rng); break;
      case 4: {
        const double specials[] = {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<double>::quiet_NaN(), 0.0, -0.0, 1e30, -1e30};
        v = specials[Rand(rng, 0, 6)];
        break;
      }
      default: v = std::uniform_real_distribution<double>(k_lo, k_hi)(rng) * scale; break;
    }
    l.SetFloat(i, v);
  }
  return l;
}

ir::Literal StorageInputs(std::mt19937_64& rng, ElementType storage, const Dims& dims) {
  ir::Literal l = ir::Literal::Create(ir::Type::Tensor(storage, dims)).value();
  const int w = ir::BitWidth(storage);
  const int64_t lo = ir::IsSignedInteger(storage) ? -(int64_t{1} << (w - 1)) : 0;
  const int64_t hi = ir::IsSignedInteger(storage) ? (int64_t{1} << (w - 1)) - 1 : (int64_t{1} << w) - 1;
  for (int64_t i = 0; i < l.num_elements(); ++i) l.SetInt(i, Rand(rng, lo, hi));
  return l;
}

// The interpreter on `text` as written and after quantized-decompose alone: the same bits.
void ExpectPassKeepsResults(const std::string& text, const std::vector<ir::Literal>& inputs) {
  auto run = [&](bool decompose) -> StatusOr<std::vector<ir::Literal>> {
    VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, frontend::ParseModule(text));
    VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
    if (decompose) {
      VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<passes::Pass> pass, passes::CreatePass("quantized-decompose"));
      VKHLO_RETURN_IF_ERROR(pass->Run(*module).status());
      VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
    }
    interp::InterpValues values;
    for (const ir::Literal& l : inputs) values.push_back(interp::InterpValue::Tensor(l));
    VKHLO_ASSIGN_OR_RETURN(interp::RunResult result, interp::RunFunction(*module, "main", std::move(values)));
    std::vector<ir::Literal> out;
    for (const interp::InterpValue& v : result.outputs) out.push_back(v.literal());
    return out;
  };
  auto before = run(false);
  ASSERT_TRUE(before.ok()) << before.status().message() << "\n" << text;
  auto after = run(true);
  ASSERT_TRUE(after.ok()) << after.status().message() << "\n" << text;
  ASSERT_EQ(before->size(), after->size());
  for (size_t i = 0; i < before->size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits((*after)[i], (*before)[i], &why)) << why << "\n" << text;
  }
}

void ExpectVulkanMatches(const std::string& text, const std::vector<ir::Literal>& inputs) {
  auto both = testing::RunOnBoth(text, inputs);
  ASSERT_TRUE(both.ok()) << both.status().message() << "\n" << text;
  ASSERT_EQ(both->vulkan.size(), both->reference.size());
  for (size_t i = 0; i < both->vulkan.size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both->vulkan[i], both->reference[i], &why)) << why << "\n" << text;
  }
}

void ExpectBoth(const std::string& text, const std::vector<ir::Literal>& inputs) {
  ExpectPassKeepsResults(text, inputs);
  ExpectVulkanMatches(text, inputs);
}

struct Config {
  ElementType storage;
  ElementType expressed;
  bool per_axis;
};

std::string ConfigName(const ::testing::TestParamInfo<Config>& info) {
  return fmt::format("{}_{}_{}", ir::ElementTypeName(info.param.storage), ir::ElementTypeName(info.param.expressed),
                     info.param.per_axis ? "per_axis" : "per_tensor");
}

class Quantized : public ::testing::TestWithParam<Config> {
 protected:
  const Dims dims_ = {5, 4};
};

// floats of the expressed type -> quantized -> storage bits (two random types).
TEST_P(Quantized, Quantize) {
  const Config c = GetParam();
  std::mt19937_64 rng(static_cast<uint64_t>(c.storage) * 131 + static_cast<uint64_t>(c.expressed) * 7 + c.per_axis);
  for (int round = 0; round < 2; ++round) {
    const QType q = RandomQType(rng, c.storage, c.expressed, c.per_axis, dims_);
    const ElementType input = c.expressed;  // the verifier requires it (C2)
    const std::string qt = q.ToString(dims_), in = Plain(dims_, input), st = Plain(dims_, c.storage);
    const std::string text = fmt::format(
        "func.func @main(%x: {0}) -> {2} {{\n"
        "  %q = \"stablehlo.uniform_quantize\"(%x) : ({0}) -> {1}\n"
        "  %s = \"stablehlo.bitcast_convert\"(%q) : ({1}) -> {2}\n"
        "  return %s : {2}\n}}\n",
        in, qt, st);
    ExpectBoth(text, {FloatInputs(rng, q, dims_, input)});
  }
}

// storage bits -> quantized -> dequantized floats.
TEST_P(Quantized, Dequantize) {
  const Config c = GetParam();
  std::mt19937_64 rng(static_cast<uint64_t>(c.storage) * 17 + static_cast<uint64_t>(c.expressed) + c.per_axis);
  const QType q = RandomQType(rng, c.storage, c.expressed, c.per_axis, dims_);
  const std::string qt = q.ToString(dims_), out = Plain(dims_, c.expressed), st = Plain(dims_, c.storage);
  const std::string text = fmt::format(
      "func.func @main(%s: {2}) -> {0} {{\n"
      "  %q = \"stablehlo.bitcast_convert\"(%s) : ({2}) -> {1}\n"
      "  %f = \"stablehlo.uniform_dequantize\"(%q) : ({1}) -> {0}\n"
      "  return %f : {0}\n}}\n",
      out, qt, st);
  ExpectBoth(text, {StorageInputs(rng, c.storage, dims_)});
}

// quantized -> another quantized type (requantization), and an add of two quantized tensors.
TEST_P(Quantized, RequantizeAndAdd) {
  const Config c = GetParam();
  std::mt19937_64 rng(static_cast<uint64_t>(c.storage) * 29 + static_cast<uint64_t>(c.expressed) * 3 + c.per_axis);
  const QType a = RandomQType(rng, c.storage, c.expressed, c.per_axis, dims_);
  const QType b = RandomQType(rng, c.storage, c.expressed, !c.per_axis, dims_, &a);
  const std::string at = a.ToString(dims_), bt = b.ToString(dims_), st = Plain(dims_, c.storage);
  const std::string text = fmt::format(
      "func.func @main(%s: {0}, %t: {0}) -> ({0}, {0}) {{\n"
      "  %a = \"stablehlo.bitcast_convert\"(%s) : ({0}) -> {1}\n"
      "  %b = \"stablehlo.bitcast_convert\"(%t) : ({0}) -> {2}\n"
      "  %r = \"stablehlo.uniform_quantize\"(%a) : ({1}) -> {2}\n"
      "  %sum = \"stablehlo.add\"(%a, %b) : ({1}, {2}) -> {2}\n"
      "  %rs = \"stablehlo.bitcast_convert\"(%r) : ({2}) -> {0}\n"
      "  %ss = \"stablehlo.bitcast_convert\"(%sum) : ({2}) -> {0}\n"
      "  return %rs, %ss : {0}, {0}\n}}\n",
      st, at, bt);
  ExpectBoth(text, {StorageInputs(rng, c.storage, dims_), StorageInputs(rng, c.storage, dims_)});
}

INSTANTIATE_TEST_SUITE_P(
    Types, Quantized,
    ::testing::Values(Config{ElementType::kS8, ElementType::kF32, false},
                      Config{ElementType::kS8, ElementType::kF32, true},
                      Config{ElementType::kU8, ElementType::kF32, false},
                      Config{ElementType::kU8, ElementType::kF32, true},
                      Config{ElementType::kS4, ElementType::kF32, false},
                      Config{ElementType::kS4, ElementType::kF32, true},
                      Config{ElementType::kU4, ElementType::kF32, true},
                      Config{ElementType::kS16, ElementType::kF32, false},
                      Config{ElementType::kS16, ElementType::kF32, true},
                      Config{ElementType::kS8, ElementType::kF16, true},
                      Config{ElementType::kS8, ElementType::kBF16, false}),
    ConfigName);

// Data movement on quantized tensors moves the stored values: a per-axis type transposed (its
// quantized dimension moves), reshaped, sliced, concatenated and broadcast, then compared and
// selected; the storage comes back bit for bit.
TEST(QuantizedOps, DataMovementAndCompare) {
  const std::string q = "!quant.uniform<i8:f32:1, {0.5:1,0.25:-2,2.0:0}>";
  const std::string qt = "!quant.uniform<i8:f32:0, {0.5:1,0.25:-2,2.0:0}>";
  const std::string p = "!quant.uniform<i8:f32, 0.125:3>";
  const std::string text = fmt::format(R"(
func.func @main(%s: tensor<2x3xi8>, %t: tensor<2x3xi8>) -> (tensor<3x4xi8>, tensor<3x2xi1>, tensor<3x2xi8>) {{
  %a = "stablehlo.bitcast_convert"(%s) : (tensor<2x3xi8>) -> tensor<2x3x{0}>
  %b = "stablehlo.bitcast_convert"(%t) : (tensor<2x3xi8>) -> tensor<2x3x{0}>
  %at = "stablehlo.transpose"(%a) {{permutation = array<i64: 1, 0>}} : (tensor<2x3x{0}>) -> tensor<3x2x{1}>
  %bt = "stablehlo.transpose"(%b) {{permutation = array<i64: 1, 0>}} : (tensor<2x3x{0}>) -> tensor<3x2x{1}>
  %c = "stablehlo.concatenate"(%at, %bt) {{dimension = 1 : i64}} : (tensor<3x2x{1}>, tensor<3x2x{1}>) -> tensor<3x4x{1}>
  %cs = "stablehlo.bitcast_convert"(%c) : (tensor<3x4x{1}>) -> tensor<3x4xi8>
  %lt = "stablehlo.compare"(%at, %bt) {{comparison_direction = #stablehlo<comparison_direction LT>}} : (tensor<3x2x{1}>, tensor<3x2x{1}>) -> tensor<3x2xi1>
  %m = "stablehlo.select"(%lt, %at, %bt) : (tensor<3x2xi1>, tensor<3x2x{1}>, tensor<3x2x{1}>) -> tensor<3x2x{1}>
  %n = "stablehlo.negate"(%m) : (tensor<3x2x{1}>) -> tensor<3x2x{2}>
  %ns = "stablehlo.bitcast_convert"(%n) : (tensor<3x2x{2}>) -> tensor<3x2xi8>
  return %cs, %lt, %ns : tensor<3x4xi8>, tensor<3x2xi1>, tensor<3x2xi8>
}}
)", q, qt, p);
  std::mt19937_64 rng(7);
  ExpectBoth(text, {StorageInputs(rng, ElementType::kS8, {2, 3}), StorageInputs(rng, ElementType::kS8, {2, 3})});
}

// A reduce over quantized values: its body's add is itself dequantize-add-quantize.
TEST(QuantizedOps, ReduceWithQuantizedBody) {
  const std::string q = "!quant.uniform<i8:f32, 0.25:-1>";
  const std::string text = fmt::format(R"(
func.func @main(%s: tensor<4x5xi8>) -> tensor<4xi8> {{
  %a = "stablehlo.bitcast_convert"(%s) : (tensor<4x5xi8>) -> tensor<4x5x{0}>
  %zero = "stablehlo.constant"() {{value = dense<-1> : tensor<i8>}} : () -> tensor<i8>
  %z = "stablehlo.bitcast_convert"(%zero) : (tensor<i8>) -> tensor<{0}>
  %r = "stablehlo.reduce"(%a, %z) ({{
  ^bb0(%x: tensor<{0}>, %y: tensor<{0}>):
    %sum = "stablehlo.add"(%x, %y) : (tensor<{0}>, tensor<{0}>) -> tensor<{0}>
    "stablehlo.return"(%sum) : (tensor<{0}>) -> ()
  }}) {{dimensions = array<i64: 1>}} : (tensor<4x5x{0}>, tensor<{0}>) -> tensor<4x{0}>
  %rs = "stablehlo.bitcast_convert"(%r) : (tensor<4x{0}>) -> tensor<4xi8>
  return %rs : tensor<4xi8>
}}
)", q);
  std::mt19937_64 rng(11);
  ExpectBoth(text, {StorageInputs(rng, ElementType::kS8, {4, 5})});
}

// Hybrid dot_general and convolution (float activations, quantized weights): the float op on the
// dequantized weights. Activations are small multiples of 1/2 and weight scales powers of two,
// so every product and sum is exact in f32 and the device's summation order cannot change a bit.
std::string HybridProgram(const std::string& dot_type, const std::string& conv_type, const std::string& storage) {
  return fmt::format(R"(
func.func @main(%x: tensor<3x8xf32>, %w: tensor<8x4x{1}>, %img: tensor<1x6x5x8xf32>, %k: tensor<3x3x8x4x{1}>) -> (tensor<3x4xf32>, tensor<1x4x3x4xf32>) {{
  %wq = "stablehlo.bitcast_convert"(%w) : (tensor<8x4x{1}>) -> tensor<8x4x{0}>
  %d = "stablehlo.dot_general"(%x, %wq) {{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}} : (tensor<3x8xf32>, tensor<8x4x{0}>) -> tensor<3x4xf32>
  %kq = "stablehlo.bitcast_convert"(%k) : (tensor<3x3x8x4x{1}>) -> tensor<3x3x8x4x{2}>
  %c = stablehlo.convolution(%img, %kq) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{pad = [[0, 0], [1, 1]], stride = [1, 2]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<1x6x5x8xf32>, tensor<3x3x8x4x{2}>) -> tensor<1x4x3x4xf32>
  return %d, %c : tensor<3x4xf32>, tensor<1x4x3x4xf32>
}}
)", dot_type, storage, conv_type);
}

ir::Literal Halves(std::mt19937_64& rng, const Dims& dims) {
  ir::Literal l = ir::Literal::Create(ir::Type::Tensor(ElementType::kF32, dims)).value();
  for (int64_t i = 0; i < l.num_elements(); ++i) l.SetFloat(i, static_cast<double>(Rand(rng, -16, 16)) / 2);
  return l;
}

TEST(QuantizedOps, HybridDotAndConvolution) {
  // Per case: the dot weights' type (per axis: along the output columns, dimension 1), the
  // convolution kernel's (per axis: along the output features, dimension 3), their storage.
  struct Case {
    std::string dot_type, conv_type, storage;
    ElementType storage_type;
  };
  const std::vector<Case> cases = {
      {"!quant.uniform<i8:f32, 0.25>", "!quant.uniform<i8:f32, 0.5:3>", "i8", ElementType::kS8},
      {"!quant.uniform<i8:f32:1, {0.5, 0.25, 2.0, 1.0}>", "!quant.uniform<i8:f32:3, {0.25, 1.0, 0.5, 2.0}>", "i8",
       ElementType::kS8},
      {"!quant.uniform<u8:f32:1, {0.5:128, 0.25:120, 2.0:130, 1.0:127}>", "!quant.uniform<u8:f32, 0.125:128>", "ui8",
       ElementType::kU8},
      {"!quant.uniform<i4:f32:1, {0.5:1, 0.25:-2, 2.0:0, 1.0:3}>", "!quant.uniform<i4:f32:3, {0.5:1, 0.25:0, 2.0:-1, 1.0:0}>",
       "i4", ElementType::kS4},
  };
  std::mt19937_64 rng(23);
  for (const Case& c : cases) {
    const std::string text = HybridProgram(c.dot_type, c.conv_type, c.storage);
    SCOPED_TRACE(text);
    ExpectBoth(text, {Halves(rng, {3, 8}), StorageInputs(rng, c.storage_type, {8, 4}), Halves(rng, {1, 6, 5, 8}),
                      StorageInputs(rng, c.storage_type, {3, 3, 8, 4})});
  }
}

// All-quantized dot_general and convolution need integer kernels the device does not have yet:
// a compile error naming the op, never a wrong answer.
// An all-quantized dot_general stays one op on the storage tensors, its types in
// `vkhlo.quantized_types` (the library's integer kernels run it: quantized_kernels_*_test);
// an op the pass cannot lower on quantized tensors is an error naming it.
TEST(QuantizedOps, DotGeneralStaysOneOpOnStorageTensors) {
  const std::string q = "!quant.uniform<i8:f32, 0.5:0>";
  const std::string text = fmt::format(R"(
func.func @main(%a: tensor<2x2x{0}>, %b: tensor<2x2x{0}>) -> tensor<2x2x{0}> {{
  %r = "stablehlo.dot_general"(%a, %b) {{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}} : (tensor<2x2x{0}>, tensor<2x2x{0}>) -> tensor<2x2x{0}>
  return %r : tensor<2x2x{0}>
}}
)", q);
  auto module = frontend::ParseModule(text);
  ASSERT_TRUE(module.ok()) << module.status().message();
  auto pass = passes::CreatePass("quantized-decompose");
  ASSERT_TRUE(pass.ok());
  auto ran = (*pass)->Run(**module);
  ASSERT_TRUE(ran.ok()) << ran.status().message();
  const ir::Block& body = (*module)->functions().front()->body().front();
  ASSERT_EQ(body.operations().size(), 2u);  // the dot_general and the return
  const ir::Operation& dot = *body.operations().front();
  EXPECT_EQ(dot.code(), ir::OpCode::kDotGeneral);
  EXPECT_EQ(dot.result(0)->type().ToString(), "tensor<2x2xi8>");
  EXPECT_NE(dot.attribute(ir::kQuantizedTypesAttribute), nullptr);

  auto custom = frontend::ParseModule(fmt::format(R"(
func.func @main(%a: tensor<2x2x{0}>) -> tensor<2x2x{0}> {{
  %r = stablehlo.custom_call @foo(%a) : (tensor<2x2x{0}>) -> tensor<2x2x{0}>
  return %r : tensor<2x2x{0}>
}}
)", q));
  ASSERT_TRUE(custom.ok()) << custom.status().message();
  auto refused = (*pass)->Run(**custom);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("stablehlo.custom_call"), std::string::npos) << refused.status().message();
  EXPECT_NE(refused.status().message().find("cannot be lowered"), std::string::npos) << refused.status().message();
}

}  // namespace
}  // namespace vkhlo
