// dot_general and convolution on quantized tensors (src/interp/library_quantized.h): hand-computed
// cases of every kind (per-tensor, per-axis weights and results, i8 / u8 / i4 storage with zero
// points, i32 accumulator results, clamping, round-half-even, hybrid float x quantized), random
// cases bit-exact against the definition vkhlo pins (src/ir/requantize.h) computed here on the
// host, and within one stored unit of the spec's float formula written out as ops
// (uniform_dequantize, the float op, uniform_quantize); the same op in the storage form
// quantized-decompose leaves; the spec's constraints as errors; and custom_call @check.eq, which
// JAX's quantized test programs end with.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tests/interp/library/test_util.h"

namespace vkhlo::interp::testing {
namespace {

// `values` as a nested dense literal of shape `dims` ("2x3").
std::string List(const std::vector<double>& values, const std::string& dims) {
  std::vector<int64_t> shape;
  for (size_t start = 0; start <= dims.size();) {
    size_t end = dims.find('x', start);
    if (end == std::string::npos) end = dims.size();
    shape.push_back(std::stoll(dims.substr(start, end - start)));
    start = end + 1;
  }
  size_t next = 0;
  auto nest = [&](auto&& self, size_t d) -> std::string {
    std::vector<std::string> parts;
    for (int64_t i = 0; i < shape[d]; ++i) {
      parts.push_back(d + 1 == shape.size() ? fmt::format("{}", values.at(next++)) : self(self, d + 1));
    }
    return "[" + fmt::format("{}", fmt::join(parts, ", ")) + "]";
  };
  return nest(nest, 0);
}

// A function @main() -> storage of `result` computing `op_text` (which reads %l and %r) on lhs
// and rhs given as storage values bitcast to their (possibly quantized) types.
struct Side {
  std::string dims;     // "2x3"
  std::string storage;  // "i8", or "f32" for a float operand
  std::string type;     // the element type as used by the op: "!quant.uniform<...>" or "f32"
  std::vector<double> values;
};

std::string Program(const Side& lhs, const Side& rhs, const std::string& result_dims, const std::string& result_storage,
                    const std::string& result_type, const std::string& op_text) {
  auto t = [](const std::string& dims, const std::string& e) { return fmt::format("tensor<{}x{}>", dims, e); };
  std::string s = fmt::format("func.func @main() -> {} {{\n", t(result_dims, result_storage));
  s += fmt::format("  %l0 = stablehlo.constant dense<{}> : {}\n", List(lhs.values, lhs.dims), t(lhs.dims, lhs.storage));
  s += fmt::format("  %l = \"stablehlo.bitcast_convert\"(%l0) : ({}) -> {}\n", t(lhs.dims, lhs.storage), t(lhs.dims, lhs.type));
  s += fmt::format("  %r0 = stablehlo.constant dense<{}> : {}\n", List(rhs.values, rhs.dims), t(rhs.dims, rhs.storage));
  s += fmt::format("  %r = \"stablehlo.bitcast_convert\"(%r0) : ({}) -> {}\n", t(rhs.dims, rhs.storage), t(rhs.dims, rhs.type));
  s += fmt::format("  %o = {} : ({}, {}) -> {}\n", op_text, t(lhs.dims, lhs.type), t(rhs.dims, rhs.type),
                   t(result_dims, result_type));
  s += fmt::format("  %s = \"stablehlo.bitcast_convert\"(%o) : ({}) -> {}\n", t(result_dims, result_type),
                   t(result_dims, result_storage));
  s += fmt::format("  func.return %s : {}\n}}\n", t(result_dims, result_storage));
  return s;
}

const char* kMatmul =
    "\"stablehlo.dot_general\"(%l, %r) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], "
    "rhs_contracting_dimensions = [0]>}";

std::vector<int64_t> RunInts(const std::string& text) {
  auto out = RunMain(text);
  if (out.size() != 1) return {};
  return Ints(out[0]);
}

TEST(QuantizedDot, PerTensorWithZeroPoint) {
  // lhs (s - 1) * 0.5 = [[1, 2, -1], [0, -0.5, 3]]; rhs s * 0.25 = [[1, -2], [0.5, 0], [3, 1]];
  // product [[-1, -3], [8.75, 3]]; / 0.125 - 2 = [[-10, -26], [68, 22]].
  const Side lhs{"2x3", "i8", "!quant.uniform<i8:f32, 0.5:1>", {3, 5, -1, 1, 0, 7}};
  const Side rhs{"3x2", "i8", "!quant.uniform<i8:f32, 0.25>", {4, -8, 2, 0, 12, 4}};
  EXPECT_EQ(RunInts(Program(lhs, rhs, "2x2", "i8", "!quant.uniform<i8:f32, 0.125:-2>", kMatmul)),
            (std::vector<int64_t>{-10, -26, 68, 22}));
  // The accumulator form: i32 storage at scale 0.5 * 0.25, zero point 0.
  EXPECT_EQ(RunInts(Program(lhs, rhs, "2x2", "i32", "!quant.uniform<i32:f32, 0.125>", kMatmul)),
            (std::vector<int64_t>{-8, -24, 70, 24}));
}

TEST(QuantizedDot, RoundsHalfToEvenAndClamps) {
  // lhs = rhs = [[0.5, 1], [1.5, 2]]; product [[1.75, 2.5], [3.75, 5.5]]; / 0.5 = [[3.5, 5], [7.5, 11]]
  // -> [[4, 5], [8, 11]] (ties to even).
  const Side a{"2x2", "i8", "!quant.uniform<i8:f32, 0.5>", {1, 2, 3, 4}};
  EXPECT_EQ(RunInts(Program(a, a, "2x2", "i8", "!quant.uniform<i8:f32, 0.5>", kMatmul)),
            (std::vector<int64_t>{4, 5, 8, 11}));
  // At scale 0.0625 the values are 28, 40, 60, 88 (+ 50 zero point: 78, 90, 110, 138 -> 127).
  EXPECT_EQ(RunInts(Program(a, a, "2x2", "i8", "!quant.uniform<i8:f32, 0.0625:50>", kMatmul)),
            (std::vector<int64_t>{78, 90, 110, 127}));
  // storage_min / storage_max narrow the range: i8<-10:10> (4, 5, 8, 11 + 2 -> 6, 7, 10, 10).
  EXPECT_EQ(RunInts(Program(a, a, "2x2", "i8", "!quant.uniform<i8<-10:10>:f32, 0.5:2>", kMatmul)),
            (std::vector<int64_t>{6, 7, 10, 10}));
}

TEST(QuantizedDot, Uint8WithZeroPointsAndClamp) {
  // lhs (s - 128) * 0.5 = [1, -1]; rhs u8 [[3], [5]] at scale 1; product -2.
  const Side lhs{"1x2", "ui8", "!quant.uniform<u8:f32, 0.5:128>", {130, 126}};
  const Side rhs{"2x1", "ui8", "!quant.uniform<u8:f32, 1.0>", {3, 5}};
  EXPECT_EQ(RunInts(Program(lhs, rhs, "1x1", "ui8", "!quant.uniform<u8:f32, 0.5:128>", kMatmul)),
            (std::vector<int64_t>{124}));
  EXPECT_EQ(RunInts(Program(lhs, rhs, "1x1", "ui8", "!quant.uniform<u8:f32, 0.01:128>", kMatmul)),
            (std::vector<int64_t>{0}));
}

TEST(QuantizedDot, Int4) {
  const Side lhs{"1x2", "i4", "!quant.uniform<i4:f32, 1.0>", {7, -8}};
  const Side ones{"2x1", "i4", "!quant.uniform<i4:f32, 1.0>", {1, 1}};
  EXPECT_EQ(RunInts(Program(lhs, ones, "1x1", "i4", "!quant.uniform<i4:f32, 1.0>", kMatmul)),
            (std::vector<int64_t>{-1}));
  const Side sevens{"1x2", "i4", "!quant.uniform<i4:f32, 1.0>", {7, 7}};
  const Side rsevens{"2x1", "i4", "!quant.uniform<i4:f32, 1.0>", {7, 7}};
  EXPECT_EQ(RunInts(Program(sevens, rsevens, "1x1", "i4", "!quant.uniform<i4:f32, 1.0>", kMatmul)),
            (std::vector<int64_t>{7}));  // 98 saturates
}

TEST(QuantizedDot, PerAxisWeightsAndResult) {
  // rhs per output column: scales {1, 0.5, 2}: [[1, 1, 6], [4, 3, -2]]; lhs [2, 3];
  // product [14, 11, 6]; result per column: 14 / 2 + 0 = 7, round(11 / 4) + 1 = 4, 6 / 0.5 - 3 = 9.
  const Side lhs{"1x2", "i8", "!quant.uniform<i8:f32, 1.0>", {2, 3}};
  const Side rhs{"2x3", "i8", "!quant.uniform<i8:f32:1, {1.0, 0.5, 2.0}>", {1, 2, 3, 4, 6, -1}};
  EXPECT_EQ(RunInts(Program(lhs, rhs, "1x3", "i8", "!quant.uniform<i8:f32:1, {2.0:0, 4.0:1, 0.5:-3}>", kMatmul)),
            (std::vector<int64_t>{7, 4, 9}));
  // A per-tensor result of per-axis weights.
  EXPECT_EQ(RunInts(Program(lhs, rhs, "1x3", "i8", "!quant.uniform<i8:f32, 0.5>", kMatmul)),
            (std::vector<int64_t>{28, 22, 12}));
}

TEST(QuantizedDot, HybridDequantizesTheWeights) {
  // rhs per column scales {0.5, 2}: [[1, 2], [2, -6]]; lhs [1.5, -2] -> [-2.5, 15].
  const Side lhs{"1x2", "f32", "f32", {1.5, -2}};
  const Side rhs{"2x2", "i8", "!quant.uniform<i8:f32:1, {0.5, 2.0}>", {2, 1, 4, -3}};
  auto out = RunMain(Program(lhs, rhs, "1x2", "f32", "f32", kMatmul));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Doubles(out[0]), (std::vector<double>{-2.5, 15}));
}

// 1-D convolution [b, 0, f] x [0, i, o] -> [b, 0, f]: x = [1, 2, 3, 4] (i8 at 0.5), kernel
// per output feature (scales {1, 0.5}): o0 = [1, 1], o1 = [1, -1]; outputs o0 = [3, 5, 7],
// o1 = [-1, -1, -1].
const char* kConv1d =
    "stablehlo.convolution(%l, %r) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} "
    "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}";

TEST(QuantizedConvolution, PerAxisKernelAndResult) {
  const Side x{"1x4x1", "i8", "!quant.uniform<i8:f32, 0.5>", {2, 4, 6, 8}};
  const Side k{"2x1x2", "i8", "!quant.uniform<i8:f32:2, {1.0, 0.5}>", {1, 2, 1, -2}};
  EXPECT_EQ(RunInts(Program(x, k, "1x3x2", "i8", "!quant.uniform<i8:f32:2, {0.5, 0.25}>", kConv1d)),
            (std::vector<int64_t>{6, -4, 10, -4, 14, -4}));
  EXPECT_EQ(RunInts(Program(x, k, "1x3x2", "i32", "!quant.uniform<i32:f32, 0.25:3>", kConv1d)),
            (std::vector<int64_t>{15, -1, 23, -1, 31, -1}));
}

TEST(QuantizedConvolution, Hybrid) {
  const Side x{"1x4x1", "f32", "f32", {1, 2, 3, 4}};
  const Side k{"2x1x2", "i8", "!quant.uniform<i8:f32:2, {1.0, 0.5}>", {1, 2, 1, -2}};
  auto out = RunMain(Program(x, k, "1x3x2", "f32", "f32", kConv1d));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Doubles(out[0]), (std::vector<double>{3, -1, 5, -1, 7, -1}));
}

// Runs @main expecting an error that contains `message`.
void ExpectError(const std::string& text, const std::string& message) {
  auto module = Parse(text);
  ASSERT_NE(module, nullptr);
  auto result = RunFunction(*module, "main", {});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find(message), std::string::npos) << result.status().ToString();
}

// The same op written as the spec defines it: uniform_dequantize both, the float op,
// uniform_quantize; both programs must give the same bits.
std::string DequantizeOpQuantize(const Side& lhs, const Side& rhs, const std::string& result_dims,
                                 const std::string& result_storage, const std::string& result_type,
                                 const std::string& op_text) {
  auto t = [](const std::string& dims, const std::string& e) { return fmt::format("tensor<{}x{}>", dims, e); };
  std::string s = fmt::format("func.func @main() -> {} {{\n", t(result_dims, result_storage));
  s += fmt::format("  %l0 = stablehlo.constant dense<{}> : {}\n", List(lhs.values, lhs.dims), t(lhs.dims, lhs.storage));
  s += fmt::format("  %lq = \"stablehlo.bitcast_convert\"(%l0) : ({}) -> {}\n", t(lhs.dims, lhs.storage), t(lhs.dims, lhs.type));
  s += fmt::format("  %l = \"stablehlo.uniform_dequantize\"(%lq) : ({}) -> {}\n", t(lhs.dims, lhs.type), t(lhs.dims, "f32"));
  s += fmt::format("  %r0 = stablehlo.constant dense<{}> : {}\n", List(rhs.values, rhs.dims), t(rhs.dims, rhs.storage));
  s += fmt::format("  %rq = \"stablehlo.bitcast_convert\"(%r0) : ({}) -> {}\n", t(rhs.dims, rhs.storage), t(rhs.dims, rhs.type));
  s += fmt::format("  %r = \"stablehlo.uniform_dequantize\"(%rq) : ({}) -> {}\n", t(rhs.dims, rhs.type), t(rhs.dims, "f32"));
  s += fmt::format("  %f = {} : ({}, {}) -> {}\n", op_text, t(lhs.dims, "f32"), t(rhs.dims, "f32"), t(result_dims, "f32"));
  s += fmt::format("  %o = \"stablehlo.uniform_quantize\"(%f) : ({}) -> {}\n", t(result_dims, "f32"), t(result_dims, result_type));
  s += fmt::format("  %s = \"stablehlo.bitcast_convert\"(%o) : ({}) -> {}\n", t(result_dims, result_type),
                   t(result_dims, result_storage));
  s += fmt::format("  func.return %s : {}\n}}\n", t(result_dims, result_storage));
  return s;
}

// The definition, computed independently: the exact integer sum, then acc * M rounded half to
// even in long double (acc * M has at most 56 significant bits: exact in x87's 64).
int64_t HostRequantize(int64_t acc, float sa, float sb, float so, int64_t zo, int64_t lo, int64_t hi) {
  const float m = static_cast<float>(static_cast<double>(sa) * static_cast<double>(sb) / static_cast<double>(so));
  const long double x = static_cast<long double>(static_cast<int32_t>(acc)) * static_cast<long double>(m);
  return std::clamp(static_cast<int64_t>(std::nearbyintl(x)) + zo, lo, hi);
}

Side RandomLhs(uint32_t seed) {
  return Side{"5x16", "i8", "!quant.uniform<i8:f32, 0.037:-7>", RandomInts(80, -128, 127, seed)};
}
Side RandomRhs(uint32_t seed) {
  return Side{"16x3", "i8", "!quant.uniform<i8:f32:1, {0.011:2, 0.023:0, 0.0071:-5}>", RandomInts(48, -127, 127, seed + 100)};
}
const char* kRandomResult = "!quant.uniform<i8:f32:1, {0.09:3, 0.2:-1, 0.05:0}>";

TEST(QuantizedDot, RandomMatchesTheIntegerDefinition) {
  const std::vector<float> sb = {0.011f, 0.023f, 0.0071f}, so = {0.09f, 0.2f, 0.05f};
  const std::vector<int64_t> zb = {2, 0, -5}, zo = {3, -1, 0};
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const Side lhs = RandomLhs(seed), rhs = RandomRhs(seed);
    const auto got = RunInts(Program(lhs, rhs, "5x3", "i8", kRandomResult, kMatmul));
    ASSERT_EQ(got.size(), 15u);
    for (int m = 0; m < 5; ++m) {
      for (int n = 0; n < 3; ++n) {
        int64_t acc = 0;
        for (int k = 0; k < 16; ++k) {
          acc += (static_cast<int64_t>(lhs.values[m * 16 + k]) + 7) * (static_cast<int64_t>(rhs.values[k * 3 + n]) - zb[n]);
        }
        EXPECT_EQ(got[m * 3 + n], HostRequantize(acc, 0.037f, sb[n], so[n], zo[n], -128, 127))
            << "seed " << seed << " [" << m << ", " << n << "]";
      }
    }
  }
}

// How many elements of `got` differ from `spec`, each by at most one stored unit.
int CountWithinOneUnit(const std::vector<int64_t>& got, const std::vector<int64_t>& spec, uint32_t seed) {
  int differing = 0;
  for (size_t i = 0; i < got.size() && i < spec.size(); ++i) {
    EXPECT_LE(std::abs(got[i] - spec[i]), 1) << "seed " << seed << " element " << i;
    differing += got[i] != spec[i];
  }
  return differing;
}

// The spec's float formula rounds every dequantized value, product and partial sum to f32: it
// may differ from the exact integer form by one stored unit where those roundings move a value
// across a rounding boundary, rarely.
TEST(QuantizedDot, WithinOneUnitOfDequantizeOpQuantize) {
  int differing = 0;
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const Side lhs = RandomLhs(seed), rhs = RandomRhs(seed);
    const auto got = RunInts(Program(lhs, rhs, "5x3", "i8", kRandomResult, kMatmul));
    const auto spec = RunInts(DequantizeOpQuantize(lhs, rhs, "5x3", "i8", kRandomResult, kMatmul));
    ASSERT_EQ(got.size(), 15u);
    ASSERT_EQ(spec.size(), 15u);
    differing += CountWithinOneUnit(got, spec, seed);
  }
  EXPECT_LE(differing, 9);  // of 90: rare
}

// The accumulator form (i32 result at scale sa * sb) holds the exact sum, also beyond 2^24
// where f32 sums (the spec's float formula) would round it.
TEST(QuantizedDot, AccumulatorFormIsTheExactSum) {
  const int64_t k = 1101;  // 1101 * 127 * 127 = 17758029 > 2^24, odd
  const Side lhs{fmt::format("1x{}", k), "i8", "!quant.uniform<i8:f32, 0.5>", std::vector<double>(k, 127)};
  const Side rhs{fmt::format("{}x1", k), "i8", "!quant.uniform<i8:f32, 0.25>", std::vector<double>(k, 127)};
  EXPECT_EQ(RunInts(Program(lhs, rhs, "1x1", "i32", "!quant.uniform<i32:f32, 0.125>", kMatmul)),
            (std::vector<int64_t>{17758029}));
}

// After quantized-decompose the op runs on storage tensors and names its types in
// `vkhlo.quantized_types`: the interpreter gives it the same meaning (folding agrees with it).
TEST(QuantizedDot, StorageFormWithQuantizedTypesAttribute) {
  const std::string text = R"(
func.func @main() -> tensor<2x2xi8> {
  %a = stablehlo.constant dense<[[3, 5, -1], [1, 0, 7]]> : tensor<2x3xi8>
  %b = stablehlo.constant dense<[[4, -8], [2, 0], [12, 4]]> : tensor<3x2xi8>
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, vkhlo.quantized_types = [tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x!quant.uniform<i8:f32:1, {0.25:0, 0.5:2}>>, tensor<2x2x!quant.uniform<i8:f32, 0.125:-2>>]} : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi8>
  return %r : tensor<2x2xi8>
})";
  EXPECT_EQ(RunInts(text), (std::vector<int64_t>{-10, -66, 68, 26}));
  // An attribute that does not describe the operands is an error, not a guess.
  std::string wrong = text;
  wrong.replace(wrong.find("tensor<2x3x!quant"), 9, "tensor<3x2");
  ExpectError(wrong, "does not describe");
}

TEST(QuantizedConvolution, RandomWithinOneUnitOfDequantizeOpQuantize) {
  const std::string conv =
      "stablehlo.convolution(%l, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
      "window = {stride = [2, 1], pad = [[1, 1], [0, 1]], rhs_dilate = [1, 2]} "
      "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}";
  int differing = 0;
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    const Side x{"2x6x5x3", "ui8", "!quant.uniform<u8:f32, 0.02:120>", RandomInts(180, 0, 255, seed)};
    const Side k{"3x2x3x4", "i8", "!quant.uniform<i8:f32:3, {0.01, 0.03, 0.005, 0.02}>",
                 RandomInts(72, -127, 127, seed + 50)};
    const std::string result = "!quant.uniform<u8:f32:3, {0.05:128, 0.1:100, 0.02:130, 0.07:128}>";
    const auto got = RunInts(Program(x, k, "2x3x4x4", "ui8", result, conv));
    const auto spec = RunInts(DequantizeOpQuantize(x, k, "2x3x4x4", "ui8", result, conv));
    ASSERT_EQ(got.size(), 96u);
    ASSERT_EQ(spec.size(), 96u);
    differing += CountWithinOneUnit(got, spec, seed);
  }
  EXPECT_LE(differing, 20);  // of 384: rare
}

TEST(QuantizedDot, SpecConstraintsAreErrors) {
  const Side q{"2x2", "i8", "!quant.uniform<i8:f32, 0.5>", {1, 2, 3, 4}};
  const Side f{"2x2", "f32", "f32", {1, 2, 3, 4}};
  const Side per_axis_lhs{"2x2", "i8", "!quant.uniform<i8:f32:0, {0.5, 0.25}>", {1, 2, 3, 4}};
  const Side contracting_axis{"2x2", "i8", "!quant.uniform<i8:f32:0, {0.5, 0.25}>", {1, 2, 3, 4}};
  const std::string qt = "!quant.uniform<i8:f32, 0.5>";
  ExpectError(Program(q, f, "2x2", "i8", qt, kMatmul), "needs a quantized rhs");
  ExpectError(Program(q, q, "2x2", "f32", "f32", kMatmul), "needs a quantized result");
  ExpectError(Program(f, q, "2x2", "i8", qt, kMatmul), "hybrid) needs a float result");
  ExpectError(Program(per_axis_lhs, q, "2x2", "i8", qt, kMatmul), "per-tensor quantized lhs");
  ExpectError(Program(q, contracting_axis, "2x2", "i8", qt, kMatmul), "along contracting dimension 0");
  ExpectError(Program(q, q, "2x2", "i8", "!quant.uniform<i8:f32:1, {0.5, 0.25}>", kMatmul), "per-tensor rhs");
  const Side f16{"2x2", "f16", "f16", {1, 2, 3, 4}};
  ExpectError(Program(f16, q, "2x2", "f16", "f16", kMatmul), "one expressed type");
}

TEST(QuantizedConvolution, PerAxisMustBeOnOutputFeatures) {
  const Side x{"1x4x1", "i8", "!quant.uniform<i8:f32, 0.5>", {2, 4, 6, 8}};
  const Side k_in{"2x1x2", "i8", "!quant.uniform<i8:f32:0, {1.0, 0.5}>", {1, 2, 1, -2}};
  ExpectError(Program(x, k_in, "1x3x2", "i8", "!quant.uniform<i8:f32, 0.5>", kConv1d),
              "not the kernel output feature dimension 2");
  const Side k{"2x1x2", "i8", "!quant.uniform<i8:f32:2, {1.0, 0.5}>", {1, 2, 1, -2}};
  ExpectError(Program(x, k, "1x3x2", "i8", "!quant.uniform<i8:f32:1, {0.5, 0.5, 0.5}>", kConv1d),
              "not the output feature dimension 2");
}

// JAX's quantized test exports end with custom_call @check.eq(%expected, %actual): its i1 result
// is whether they match, and a mismatch is a failed check.
TEST(CheckEq, ReturnsWhetherOperandsMatchAndRecordsAMismatch) {
  for (const bool same : {true, false}) {
    const std::string text = fmt::format(R"(
func.func @main() -> tensor<i1> {{
  %e = stablehlo.constant dense<[1, 2]> : tensor<2xi8>
  %a = stablehlo.constant dense<[1, {}]> : tensor<2xi8>
  %0 = stablehlo.custom_call @check.eq(%e, %a) : (tensor<2xi8>, tensor<2xi8>) -> tensor<i1>
  return %0 : tensor<i1>
}})", same ? 2 : 3);
    auto module = Parse(text);
    ASSERT_NE(module, nullptr);
    auto result = RunFunction(*module, "main", {});
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    ASSERT_EQ(result->outputs.size(), 1u);
    EXPECT_EQ(Ints(result->outputs[0]), std::vector<int64_t>{same ? 1 : 0});
    ASSERT_EQ(result->check_failures.size(), same ? 0u : 1u);
    if (!same) EXPECT_EQ(result->check_failures[0].message, "element [1]: actual 3, expected 2");
  }
}

}  // namespace
}  // namespace vkhlo::interp::testing
