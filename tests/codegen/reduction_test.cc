// Reductions on the device (codegen/reduction/) against the interpreter, bit for bit: every
// reduced-dimension combination up to rank 4 (size-0 and size-1 dimensions included), many
// element types, variadic argmax with ties, an associative but non-commutative reducer (whose
// result the spec defines: any in-order tree gives it), determinism across runs, reduce_window
// with random attributes, prologue fusion (one dispatch for reduce(multiply(x, y))), and the
// vector-load paths (uvec4 rows, multi-result columns) with fused producers and consumers.
// Values are small integers (in every type) where the reducer rounds, so that every
// combination order gives the same bits and any difference is a real error.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>

#include "codegen/device_kernel.h"
#include "codegen/fusion.h"
#include "frontend/parser.h"
#include "tests/support/program_text.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

using Dims = std::vector<int64_t>;
using ir::ElementType;

bool Mobile() {
  const char* profile = std::getenv("VKHLO_PROFILE");
  return profile != nullptr && std::string(profile) == "mobile";
}

using testing::I64Array;
using testing::TensorType;

// Small integers in [lo, hi] (as the type's values; i1: 0/1; complex: both parts).
// With `sparse` > 1, only about one element in `sparse` is non-zero (sums stay small).
ir::Literal SmallInts(ElementType type, const Dims& dims, std::mt19937_64& rng, int lo, int hi, int sparse = 1) {
  auto literal = ir::Literal::Create(ir::Type::Tensor(type, dims));
  EXPECT_TRUE(literal.ok());
  std::uniform_int_distribution<int> dist(lo, hi);
  for (int64_t i = 0; i < literal->num_elements(); ++i) {
    if (sparse > 1 && rng() % sparse != 0) continue;
    if (type == ElementType::kI1) {
      literal->SetInt(i, dist(rng) & 1);
    } else if (ir::IsComplex(type)) {
      literal->SetComplex(i, {double(dist(rng)), double(dist(rng))});
    } else if (ir::IsFloat(type)) {
      literal->SetFloat(i, dist(rng));
    } else {
      literal->SetInt(i, ir::IsUnsignedInteger(type) ? std::abs(dist(rng)) : dist(rng));
    }
  }
  return std::move(*literal);
}

void ExpectSame(const testing::BothResults& r, const std::string& program) {
  ASSERT_EQ(r.vulkan.size(), r.reference.size());
  for (size_t i = 0; i < r.vulkan.size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(r.vulkan[i], r.reference[i], &why)) << "result " << i << ": " << why << "\n" << program;
  }
}

// A one-op reducer region body.
std::string Reduce(const std::string& input, const std::string& init, const std::string& op, const std::string& element,
                   const Dims& in_dims, const Dims& dimensions) {
  Dims out;
  for (size_t d = 0; d < in_dims.size(); ++d) {
    if (std::find(dimensions.begin(), dimensions.end(), int64_t(d)) == dimensions.end()) out.push_back(in_dims[d]);
  }
  const std::string s = TensorType({}, element);
  return fmt::format(
      "\"stablehlo.reduce\"({0}, {1}) ({{\n  ^bb0(%a: {2}, %b: {2}):\n    %s = {3} %a, %b : {2}\n"
      "    stablehlo.return %s : {2}\n  }}) {{dimensions = {4}}} : ({5}, {2}) -> {6}",
      input, init, s, op, I64Array(dimensions), TensorType(in_dims, element), TensorType(out, element));
}

std::string OutType(const Dims& in_dims, const Dims& dimensions, const std::string& element) {
  Dims out;
  for (size_t d = 0; d < in_dims.size(); ++d) {
    if (std::find(dimensions.begin(), dimensions.end(), int64_t(d)) == dimensions.end()) out.push_back(in_dims[d]);
  }
  return TensorType(out, element);
}

struct TypeCase {
  ElementType type;
  const char* name;
  const char* op;
  const char* init;
  int lo, hi;
  int sparse = 1;
};

// Runs reduce over `dimensions` of a random `dims` input with the case's reducer and init.
void CheckReduce(const TypeCase& c, const Dims& dims, const Dims& dimensions, std::mt19937_64& rng) {
  const std::string program = fmt::format(
      "func.func @main(%x: {0}) -> {1} {{\n  %init = stablehlo.constant dense<{2}> : {3}\n  %r = {4}\n"
      "  func.return %r : {1}\n}}\n",
      TensorType(dims, c.name), OutType(dims, dimensions, c.name), c.init, TensorType({}, c.name),
      Reduce("%x", "%init", c.op, c.name, dims, dimensions));
  auto r = testing::RunOnBoth(program, {SmallInts(c.type, dims, rng, c.lo, c.hi, c.sparse)});
  ASSERT_TRUE(r.ok()) << r.status().ToString() << "\n" << program;
  ExpectSame(*r, program);
}

TEST(ReductionTest, EveryDimensionCombinationUpToRank4) {
  std::mt19937_64 rng(7);
  const TypeCase cases[] = {
      {ElementType::kS32, "i32", "stablehlo.add", "3", -100, 100},
      {ElementType::kF32, "f32", "stablehlo.maximum", "-1.0e+30", -50, 50},
      {ElementType::kF32, "f32", "stablehlo.add", "0.5", -8, 8},
  };
  const int64_t sizes[] = {0, 1, 2, 3, 5, 7, 40};
  int round = 0;
  for (int rank = 1; rank <= 4; ++rank) {
    for (uint32_t mask = 0; mask < (1u << rank); ++mask) {
      Dims dims, dimensions;
      for (int d = 0; d < rank; ++d) {
        // Mostly non-empty, sometimes 0 or 1; rank 1 and 2 get long rows (workgroup trees).
        int64_t size = sizes[1 + rng() % 5];
        if (rng() % 10 == 0) size = rng() % 2;
        if (rank <= 2 && (mask >> d & 1) && rng() % 2) size = 40 + int64_t(rng() % 300);
        dims.push_back(size);
        if (mask >> d & 1) dimensions.push_back(d);
      }
      SCOPED_TRACE(fmt::format("dims {} reduced {}", fmt::join(dims, "x"), fmt::join(dimensions, ",")));
      CheckReduce(cases[round++ % 3], dims, dimensions, rng);
    }
  }
}

TEST(ReductionTest, ElementTypes) {
  std::mt19937_64 rng(11);
  std::vector<TypeCase> cases = {
      {ElementType::kF16, "f16", "stablehlo.add", "1.0", -4, 4, 4},
      {ElementType::kBF16, "bf16", "stablehlo.maximum", "-3.0", -100, 100},
      {ElementType::kBF16, "bf16", "stablehlo.add", "0.0", -1, 1, 64},
      {ElementType::kS8, "i8", "stablehlo.add", "5", -128, 127},  // wraps: exact in any order
      {ElementType::kU8, "ui8", "stablehlo.multiply", "1", 0, 255},
      {ElementType::kS16, "i16", "stablehlo.minimum", "32767", -30000, 30000},
      {ElementType::kI1, "i1", "stablehlo.or", "false", 0, 1},
      {ElementType::kI1, "i1", "stablehlo.xor", "true", 0, 1},
      {ElementType::kU32, "ui32", "stablehlo.xor", "7", 0, 1000000},
      {ElementType::kC64, "complex<f32>", "stablehlo.add", "(1.0, -1.0)", -8, 8},
      // Subgroup arithmetic where the device has it (recognized 32-bit add / integer max, min).
      {ElementType::kS32, "i32", "stablehlo.add", "-4", -1000, 1000},
      {ElementType::kF32, "f32", "stablehlo.add", "-0.0", -8, 8},
      {ElementType::kS32, "i32", "stablehlo.maximum", "-2147483648", -1000000, 1000000},
      {ElementType::kU32, "ui32", "stablehlo.minimum", "4294967295", 0, 1000000},
  };
  if (!Mobile()) {
    cases.push_back({ElementType::kF64, "f64", "stablehlo.add", "0.25", -1000, 1000});
    cases.push_back({ElementType::kS64, "i64", "stablehlo.add", "-9", -1000000, 1000000});
    cases.push_back({ElementType::kU64, "ui64", "stablehlo.maximum", "0", 0, 1000000});
    cases.push_back({ElementType::kC128, "complex<f64>", "stablehlo.add", "(1.0, 0.5)", -100, 100});
  }
  // Rows (workgroup), columns (invocation), all (two passes on every target), a middle dimension.
  const std::pair<Dims, Dims> shapes[] = {{{9, 300}, {1}}, {{300, 9}, {0}}, {{140000}, {0}}, {{3, 50, 5}, {1}}};
  for (const TypeCase& c : cases) {
    for (const auto& [dims, dimensions] : shapes) {
      SCOPED_TRACE(fmt::format("{} {} over {}", c.name, c.op, fmt::join(dims, "x")));
      CheckReduce(c, dims, dimensions, rng);
    }
  }
}

// Variadic argmax over rows with many ties: the reducer keeps the larger value and, on ties,
// the smaller index (a commutative, associative reducer: every schedule gives the same result).
TEST(ReductionTest, VariadicArgmaxWithTies) {
  std::mt19937_64 rng(3);
  for (const Dims& dims : {Dims{5, 1000}, Dims{1, 100000}, Dims{7, 3}}) {
    const Dims out = {dims[0]};
    const std::string program = fmt::format(R"(
func.func @main(%x: {0}) -> ({1}, {2}) {{
  %i = stablehlo.iota dim = 1 : {3}
  %v0 = stablehlo.constant dense<-1.0e+30> : tensor<f32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.reduce"(%x, %i, %v0, %i0) ({{
    ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
      %gt = stablehlo.compare GT, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %eq = stablehlo.compare EQ, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare LT, %ai, %bi : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %take = stablehlo.or %gt, %tie : tensor<i1>
      %v = stablehlo.select %take, %av, %bv : tensor<i1>, tensor<f32>
      %j = stablehlo.select %take, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }}) {{dimensions = array<i64: 1>}} : ({0}, {3}, tensor<f32>, tensor<i32>) -> ({1}, {2})
  func.return %r#0, %r#1 : {1}, {2}
}}
)",
                                            TensorType(dims, "f32"), TensorType(out, "f32"), TensorType(out, "i32"),
                                            TensorType(dims, "i32"));
    auto r = testing::RunOnBoth(program, {SmallInts(ElementType::kF32, dims, rng, 0, 3)});
    ASSERT_TRUE(r.ok()) << r.status().ToString() << "\n" << program;
    ExpectSame(*r, program);
  }
}

// Composition of affine maps x -> m x + c (mod 2^32): associative, not commutative. Every
// in-order schedule gives the same result, so the device must combine neighbours left to right.
TEST(ReductionTest, NonCommutativeReducerKeepsOrder) {
  std::mt19937_64 rng(5);
  // Columns of 8 and 12: several results per invocation, uvec4 loads, each result in order.
  const std::pair<Dims, Dims> shapes[] = {{{4, 3000}, {1}},   {{200000}, {0}},        {{3000, 3}, {0}},
                                          {{6, 5, 40}, {0, 2}}, {{3000, 8}, {0}},     {{64, 5, 12}, {0, 1}}};
  for (const auto& [dims, dimensions] : shapes) {
    const std::string in = TensorType(dims, "i32"), out = OutType(dims, dimensions, "i32");
    const std::string program = fmt::format(R"(
func.func @main(%m: {0}, %c: {0}) -> ({1}, {1}) {{
  %one = stablehlo.constant dense<1> : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.reduce"(%m, %c, %one, %zero) ({{
    ^bb0(%lm: tensor<i32>, %lc: tensor<i32>, %rm: tensor<i32>, %rc: tensor<i32>):
      %mm = stablehlo.multiply %lm, %rm : tensor<i32>
      %cm = stablehlo.multiply %lc, %rm : tensor<i32>
      %cc = stablehlo.add %cm, %rc : tensor<i32>
      stablehlo.return %mm, %cc : tensor<i32>, tensor<i32>
  }}) {{dimensions = {2}}} : ({0}, {0}, tensor<i32>, tensor<i32>) -> ({1}, {1})
  func.return %r#0, %r#1 : {1}, {1}
}}
)",
                                            in, out, I64Array(dimensions));
    auto r = testing::RunOnBoth(program, {SmallInts(ElementType::kS32, dims, rng, -3, 3),
                                          SmallInts(ElementType::kS32, dims, rng, -1000, 1000)});
    ASSERT_TRUE(r.ok()) << r.status().ToString() << "\n" << program;
    ExpectSame(*r, program);
  }
}

// Float sums of random values differ from the interpreter's order in rounding, but never
// between runs: the combination order depends only on the shapes. Each sum is also within a
// rounding bound of the exact sum (computed in double on the host): |error| <= 1e-5 * sum |x|.
// Rows (uvec4 loads into lane accumulators), a full sum (two passes), columns (several
// results per invocation; two passes for the tall one).
TEST(ReductionTest, SameBitsEveryRun) {
  std::mt19937_64 rng(9);
  const Client& client = testing::SharedClient();
  const std::pair<Dims, int64_t> cases[] = {{{1 << 20}, 0}, {{64, 4096}, 1}, {{4096, 16}, 1}, {{4096, 64}, 0},
                                            {{8192, 8}, 0}, {{300, 1000}, 1}};
  for (const auto& [dims, dim] : cases) {
    SCOPED_TRACE(fmt::format("{} over {}", fmt::join(dims, "x"), dim));
    const std::string program =
        fmt::format("func.func @main(%x: {0}) -> {1} {{\n  %z = stablehlo.constant dense<0.0> : tensor<f32>\n  %r = {2}\n"
                    "  func.return %r : {1}\n}}\n",
                    TensorType(dims, "f32"), OutType(dims, {dim}, "f32"),
                    Reduce("%x", "%z", "stablehlo.add", "f32", dims, {dim}));
    auto exe = client.Compile(program);
    ASSERT_TRUE(exe.ok()) << exe.status().ToString();
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    const int64_t rows = dims.size() > 1 ? dims[0] : 1, cols = dims.back();
    std::vector<float> host(size_t(rows * cols));
    for (float& v : host) v = dist(rng);
    // Exact (double) sums and sums of magnitudes per result.
    const int64_t results = dims.size() == 1 ? 1 : dims[1 - dim];
    std::vector<double> sum(size_t(results), 0.0), magnitude(size_t(results), 0.0);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        const size_t o = size_t(dims.size() == 1 ? 0 : dim == 1 ? r : c);
        sum[o] += host[size_t(r * cols + c)];
        magnitude[o] += std::abs(host[size_t(r * cols + c)]);
      }
    }
    vkhlo::TensorType shape{"f32", dims};
    auto buffer = client.BufferFromHost(shape, {reinterpret_cast<const uint8_t*>(host.data()), host.size() * 4});
    ASSERT_TRUE(buffer.ok());
    std::vector<uint8_t> first;
    for (int run = 0; run < 3; ++run) {
      auto results_or = exe->Execute({*buffer});
      ASSERT_TRUE(results_or.ok()) << results_or.status().ToString();
      auto bytes = (*results_or)[0].ToHost();
      ASSERT_TRUE(bytes.ok());
      ASSERT_EQ(bytes->size(), size_t(results) * 4);
      if (run == 0) {
        first.assign(bytes->begin(), bytes->end());
        for (int64_t o = 0; o < results; ++o) {
          float got;
          std::memcpy(&got, bytes->data() + o * 4, 4);
          ASSERT_LE(std::abs(double(got) - sum[size_t(o)]), 1e-5 * magnitude[size_t(o)] + 1e-30) << "result " << o;
        }
      } else {
        EXPECT_TRUE(std::equal(first.begin(), first.end(), bytes->begin(), bytes->end())) << "run " << run;
      }
    }
  }
}

// The vector-load paths (reduce_plan.h) against the interpreter, bit for bit (small integer
// values): rows of a multiple of 4 and not, a full sum, column reductions with 4, 8 and 32
// results per invocation (the CPU widths), merged and split reduced dimensions, and the tall
// column reductions that take two passes (with one and with several invocations per
// segment); integer add, float maximum, float add.
TEST(ReductionTest, VectorLoadPaths) {
  std::mt19937_64 rng(29);
  const TypeCase cases[] = {
      {ElementType::kS32, "i32", "stablehlo.add", "3", -1000, 1000},
      {ElementType::kF32, "f32", "stablehlo.maximum", "-1.0e+30", -50, 50},
      {ElementType::kF32, "f32", "stablehlo.add", "0.5", -8, 8},
  };
  const std::pair<Dims, Dims> shapes[] = {
      {{8, 400}, {1}},   {{3, 4100}, {1}},   {{2, 402}, {1}},          {{150000}, {0}},
      {{130, 64}, {0}},  {{70, 24}, {0}},    {{33, 12}, {0}},          {{5, 30, 36}, {0, 1}},
      {{3, 40, 8}, {1}}, {{8192, 8}, {0}},   {{4, 6, 5, 16}, {0, 2}},  {{8192, 64}, {0}},
  };
  for (const auto& [dims, dimensions] : shapes) {
    for (const TypeCase& c : cases) {
      SCOPED_TRACE(fmt::format("{} {} over {} reduced {}", c.name, c.op, fmt::join(dims, "x"), fmt::join(dimensions, ",")));
      CheckReduce(c, dims, dimensions, rng);
    }
  }
}

// Vector loads with fused producers (one input read as uvec4, a broadcast one word by word),
// an epilogue with narrow (bf16) results written by 32-result invocations, and a variadic
// argmax over columns (any reducer: each result still folds its rows in order).
TEST(ReductionTest, VectorLoadsWithFusion) {
  std::mt19937_64 rng(31);
  const std::string program = R"(
func.func @main(%x: tensor<96x64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xbf16>, tensor<96xf32>, tensor<64xf32>, tensor<64xi32>) {
  %yb = stablehlo.broadcast_in_dim %y, dims = [1] : (tensor<64xf32>) -> tensor<96x64xf32>
  %m = stablehlo.multiply %x, %yb : tensor<96x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %c = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0] : (tensor<96x64xf32>, tensor<f32>) -> tensor<64xf32>
  %cn = stablehlo.convert %c : (tensor<64xf32>) -> tensor<64xbf16>
  %m2 = stablehlo.multiply %x, %yb : tensor<96x64xf32>
  %r = stablehlo.reduce(%m2 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<96x64xf32>, tensor<f32>) -> tensor<96xf32>
  %i = stablehlo.iota dim = 0 : tensor<96x64xi32>
  %v0 = stablehlo.constant dense<-1.0e+30> : tensor<f32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %a:2 = "stablehlo.reduce"(%x, %i, %v0, %i0) ({
    ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
      %gt = stablehlo.compare GT, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %eq = stablehlo.compare EQ, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare LT, %ai, %bi : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %take = stablehlo.or %gt, %tie : tensor<i1>
      %v = stablehlo.select %take, %av, %bv : tensor<i1>, tensor<f32>
      %j = stablehlo.select %take, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<96x64xf32>, tensor<96x64xi32>, tensor<f32>, tensor<i32>) -> (tensor<64xf32>, tensor<64xi32>)
  func.return %c, %cn, %r, %a#0, %a#1 : tensor<64xf32>, tensor<64xbf16>, tensor<96xf32>, tensor<64xf32>, tensor<64xi32>
}
)";
  auto r = testing::RunOnBoth(program, {SmallInts(ElementType::kF32, {96, 64}, rng, 0, 3),
                                        SmallInts(ElementType::kF32, {64}, rng, -3, 3)});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectSame(*r, program);
}

TEST(ReductionTest, ReduceWindowRandomAttributes) {
  std::mt19937_64 rng(13);
  const TypeCase cases[] = {
      {ElementType::kS32, "i32", "stablehlo.add", "2", -100, 100},
      {ElementType::kF32, "f32", "stablehlo.maximum", "-5.0", -50, 50},
      {ElementType::kS8, "i8", "stablehlo.add", "1", -128, 127},
      {ElementType::kBF16, "bf16", "stablehlo.minimum", "3.0", -20, 20},
  };
  int done = 0;
  for (int attempt = 0; done < 24 && attempt < 500; ++attempt) {
    const int rank = 1 + int(rng() % 3);
    Dims dims, window, strides, base, wdil, padding, out;
    bool ok = true;
    for (int d = 0; d < rank; ++d) {
      dims.push_back(int64_t(rng() % 7));
      window.push_back(1 + int64_t(rng() % 3));
      strides.push_back(1 + int64_t(rng() % 2));
      base.push_back(1 + int64_t(rng() % 2));
      wdil.push_back(1 + int64_t(rng() % 2));
      padding.push_back(int64_t(rng() % 4) - 1);
      padding.push_back(int64_t(rng() % 3));
      const int64_t dilated = dims[d] == 0 ? 0 : (dims[d] - 1) * base[d] + 1;
      const int64_t padded = dilated + padding[2 * d] + padding[2 * d + 1];
      const int64_t span = (window[d] - 1) * wdil[d] + 1;
      if (padded < 0) ok = false;
      out.push_back(padded < span ? 0 : (padded - span) / strides[d] + 1);
    }
    if (!ok) continue;
    const TypeCase& c = cases[done % 4];
    const std::string s = TensorType({}, c.name);
    const std::string program = fmt::format(R"(
func.func @main(%x: {0}) -> {1} {{
  %init = stablehlo.constant dense<{2}> : {3}
  %r = "stablehlo.reduce_window"(%x, %init) ({{
    ^bb0(%a: {3}, %b: {3}):
      %s = {4} %a, %b : {3}
      stablehlo.return %s : {3}
  }}) {{window_dimensions = {5}, window_strides = {6}, base_dilations = {7}, window_dilations = {8},
       padding = dense<{9}> : tensor<{10}x2xi64>}} : ({0}, {3}) -> {1}
  func.return %r : {1}
}}
)",
                                            TensorType(dims, c.name), TensorType(out, c.name), c.init, s, c.op,
                                            I64Array(window), I64Array(strides), I64Array(base), I64Array(wdil),
                                            [&] {
                                              std::string p = "[";
                                              for (int d = 0; d < rank; ++d) {
                                                p += fmt::format("{}[{}, {}]", d ? ", " : "", padding[2 * d],
                                                                 padding[2 * d + 1]);
                                              }
                                              return p + "]";
                                            }(),
                                            rank);
    auto r = testing::RunOnBoth(program, {SmallInts(c.type, dims, rng, c.lo, c.hi)});
    ASSERT_TRUE(r.ok()) << r.status().ToString() << "\n" << program;
    ExpectSame(*r, program);
    ++done;
  }
  EXPECT_EQ(done, 24);
}

// Variadic reduce_window: max pooling that also returns the position of the maximum (ties: the
// smaller position), with padding and strides.
TEST(ReductionTest, VariadicReduceWindow) {
  std::mt19937_64 rng(19);
  const std::string program = R"(
func.func @main(%x: tensor<9x11xf32>) -> (tensor<5x6xf32>, tensor<5x6xi32>) {
  %i = stablehlo.iota dim = 1 : tensor<9x11xi32>
  %v0 = stablehlo.constant dense<-1.0e+30> : tensor<f32>
  %i0 = stablehlo.constant dense<-1> : tensor<i32>
  %r:2 = "stablehlo.reduce_window"(%x, %i, %v0, %i0) ({
    ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
      %gt = stablehlo.compare GT, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %eq = stablehlo.compare EQ, %av, %bv : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare LT, %ai, %bi : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %take = stablehlo.or %gt, %tie : tensor<i1>
      %v = stablehlo.select %take, %av, %bv : tensor<i1>, tensor<f32>
      %j = stablehlo.select %take, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }) {window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>,
      padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>}
     : (tensor<9x11xf32>, tensor<9x11xi32>, tensor<f32>, tensor<i32>) -> (tensor<5x6xf32>, tensor<5x6xi32>)
  func.return %r#0, %r#1 : tensor<5x6xf32>, tensor<5x6xi32>
}
)";
  auto r = testing::RunOnBoth(program, {SmallInts(ElementType::kF32, {9, 11}, rng, 0, 3)});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectSame(*r, program);
}

// reduce(multiply(x, y)) and a reduce of a broadcast: the producers are computed in the
// reduce's kernel (one dispatch), and the results still match.
TEST(ReductionTest, ProducersFuseIntoTheReduce) {
  std::mt19937_64 rng(17);
  const std::string program = R"(
func.func @main(%x: tensor<64x300xf32>, %y: tensor<64x300xf32>, %b: tensor<300xf32>) -> (tensor<64xf32>, tensor<300xf32>) {
  %m = stablehlo.multiply %x, %y : tensor<64x300xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [1] : (tensor<64x300xf32>, tensor<f32>) -> tensor<64xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<300xf32>) -> tensor<64x300xf32>
  %n = stablehlo.negate %bb : tensor<64x300xf32>
  %c = stablehlo.reduce(%n init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<64x300xf32>, tensor<f32>) -> tensor<300xf32>
  func.return %r, %c : tensor<64xf32>, tensor<300xf32>
}
)";
  auto module = frontend::ParseModule(program);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  auto plan = codegen::PlanBlock((*module)->FindFunction("main")->body().front(), codegen::TargetInfo::Everything());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->fusions.size(), 2u);
  for (const codegen::Fusion& f : plan->fusions) {
    ASSERT_NE(f.device_op, nullptr);
    // reduce, its init constant, multiply / broadcast_in_dim and negate.
    EXPECT_EQ(f.ops.size(), 3u + (f.device_op->result(0)->type().dims()[0] == 300 ? 1u : 0u));
  }
  auto r = testing::RunOnBoth(program, {SmallInts(ElementType::kF32, {64, 300}, rng, -8, 8),
                                        SmallInts(ElementType::kF32, {64, 300}, rng, -8, 8),
                                        SmallInts(ElementType::kF32, {300}, rng, -8, 8)});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectSame(*r, program);
  // No loop kernels: one dispatch per reduce, or two where the target makes the column
  // reduction (300 rows of 64) two passes.
  EXPECT_GE(r->stats.kernels_dispatched, 2u);
  EXPECT_LE(r->stats.kernels_dispatched, 3u);

  // reduce(multiply(x, y)) over 512 rows of 300 alone: one dispatch on any target.
  const std::string dot = R"(
func.func @main(%x: tensor<512x300xf32>, %y: tensor<512x300xf32>) -> tensor<512xf32> {
  %m = stablehlo.multiply %x, %y : tensor<512x300xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [1] : (tensor<512x300xf32>, tensor<f32>) -> tensor<512xf32>
  func.return %r : tensor<512xf32>
}
)";
  auto d = testing::RunOnBoth(dot, {SmallInts(ElementType::kF32, {512, 300}, rng, -8, 8),
                                    SmallInts(ElementType::kF32, {512, 300}, rng, -8, 8)});
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ExpectSame(*d, dot);
  EXPECT_EQ(d->stats.kernels_dispatched, 1u);
}

// CPU devices read vector inputs through rgba32ui texel buffers (at most 4 per kernel, the rest
// through uvec4 storage-buffer views); GPUs keep storage buffers. A row sum of 5 inputs added
// together runs with both kinds of view in one kernel, bit for bit against the interpreter.
TEST(ReductionTest, TexelViewsOnCpuDevices) {
  const std::string program = R"(
func.func @main(%a: tensor<40x256xf32>, %b: tensor<40x256xf32>, %c: tensor<40x256xf32>, %d: tensor<40x256xf32>, %e: tensor<40x256xf32>) -> tensor<40xf32> {
  %ab = stablehlo.add %a, %b : tensor<40x256xf32>
  %abc = stablehlo.add %ab, %c : tensor<40x256xf32>
  %abcd = stablehlo.add %abc, %d : tensor<40x256xf32>
  %s = stablehlo.add %abcd, %e : tensor<40x256xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [1] : (tensor<40x256xf32>, tensor<f32>) -> tensor<40xf32>
  func.return %r : tensor<40xf32>
}
)";
  auto module = frontend::ParseModule(program);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  for (bool cpu : {true, false}) {
    codegen::TargetInfo target = codegen::TargetInfo::Everything();
    target.device_type = cpu ? codegen::TargetInfo::DeviceType::kCpu : codegen::TargetInfo::DeviceType::kDiscreteGpu;
    auto plan = codegen::PlanBlock((*module)->FindFunction("main")->body().front(), target);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    ASSERT_EQ(plan->fusions.size(), 1u);
    const codegen::Fusion& f = plan->fusions[0];
    auto kernel = codegen::FindDeviceKernelEmitter(*f.device_op)->emit(f, target, {});
    ASSERT_TRUE(kernel.ok()) << kernel.status().ToString();
    ASSERT_FALSE(kernel->dispatches.empty());
    const std::string& glsl = kernel->dispatches[0].glsl;
    SCOPED_TRACE(glsl);
    EXPECT_EQ(count(glsl, "readonly uniform uimageBuffer"), cpu ? 4u : 0u);
    EXPECT_EQ(count(glsl, "uvec4 in"), cpu ? 1u : 5u);  // aliased uvec4[] views
    // Texel views are extra bindings of the same inputs.
    EXPECT_EQ(kernel->dispatches[0].bindings.size(), (cpu ? 4u : 0u) + 6u);
  }
  std::mt19937_64 rng(41);
  std::vector<ir::Literal> inputs;
  for (int i = 0; i < 5; ++i) inputs.push_back(SmallInts(ElementType::kF32, {40, 256}, rng, -8, 8));
  auto r = testing::RunOnBoth(program, inputs);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectSame(*r, program);
}

// Element-wise consumers of the result join the reduce's kernel (mean and relu of a row sum,
// also converted to bf16); a consumer that broadcasts the result (x - max, as in softmax) does
// not: it reads the result at other indices.
TEST(ReductionTest, ConsumersFuseIntoTheReduce) {
  std::mt19937_64 rng(23);
  const std::string program = R"(
func.func @main(%x: tensor<512x300xf32>) -> (tensor<512xf32>, tensor<512xbf16>, tensor<512x300xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<512x300xf32>, tensor<f32>) -> tensor<512xf32>
  %n = stablehlo.constant dense<300.0> : tensor<512xf32>
  %mean = stablehlo.divide %r, %n : tensor<512xf32>
  %zeros = stablehlo.constant dense<0.0> : tensor<512xf32>
  %relu = stablehlo.maximum %mean, %zeros : tensor<512xf32>
  %narrow = stablehlo.convert %relu : (tensor<512xf32>) -> tensor<512xbf16>
  %b = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<512xf32>) -> tensor<512x300xf32>
  %centered = stablehlo.subtract %x, %b : tensor<512x300xf32>
  func.return %relu, %narrow, %centered : tensor<512xf32>, tensor<512xbf16>, tensor<512x300xf32>
}
)";
  auto module = frontend::ParseModule(program);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  auto plan = codegen::PlanBlock((*module)->FindFunction("main")->body().front(), codegen::TargetInfo::Everything());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->fusions.size(), 2u);
  ASSERT_NE(plan->fusions[0].device_op, nullptr);
  EXPECT_EQ(plan->fusions[0].outputs.size(), 3u);  // %r, %relu, %narrow
  EXPECT_EQ(plan->fusions[1].device_op, nullptr);  // %centered reads %r from its buffer
  auto r = testing::RunOnBoth(program, {SmallInts(ElementType::kF32, {512, 300}, rng, -8, 8)});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectSame(*r, program);
  EXPECT_EQ(r->stats.kernels_dispatched, 2u);
}

// Without shaderFloat64 an f64 reduce is a clear compile error; without shaderInt64 an i64
// reduce compiles to emulated 32-bit pairs (hlo_i64.glsl) and needs no 64-bit extension.
TEST(ReductionTest, MissingFeaturesAreClearErrors) {
  for (const char* element : {"f64", "i64"}) {
    const std::string program = fmt::format(
        "func.func @main(%x: tensor<8x8x{0}>) -> tensor<8x{0}> {{\n  %z = stablehlo.constant dense<0> : tensor<{0}>\n"
        "  %r = {1}\n  func.return %r : tensor<8x{0}>\n}}\n",
        element, Reduce("%x", "%z", "stablehlo.add", element, {8, 8}, {1}));
    auto module = frontend::ParseModule(program);
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    codegen::TargetInfo target = codegen::TargetInfo::Everything();
    target.shader_float64 = target.shader_int64 = false;
    target.device_name = "a phone";
    target.profile = "mobile";
    auto plan = codegen::PlanBlock((*module)->FindFunction("main")->body().front(), target);
    ASSERT_TRUE(plan.ok());
    ASSERT_EQ(plan->fusions.size(), 1u);
    const codegen::Fusion& f = plan->fusions[0];
    ASSERT_NE(f.device_op, nullptr);
    auto kernel = codegen::FindDeviceKernelEmitter(*f.device_op)->emit(f, target, {});
    if (element[0] == 'i') {
      ASSERT_TRUE(kernel.ok()) << kernel.status().ToString();
      for (const auto& dispatch : kernel->dispatches) {
        EXPECT_EQ(dispatch.glsl.find("int64"), std::string::npos) << dispatch.glsl;
        EXPECT_NE(dispatch.glsl.find("hlo_i64.glsl"), std::string::npos) << dispatch.glsl;
      }
      continue;
    }
    ASSERT_FALSE(kernel.ok());
    EXPECT_NE(kernel.status().message().find("needs shaderFloat64"), std::string::npos) << kernel.status().ToString();
    EXPECT_NE(kernel.status().message().find("stablehlo.reduce"), std::string::npos) << kernel.status().ToString();
  }
  if (Mobile()) {  // the same through the runtime on the masked device
    auto exe = testing::SharedClient().Compile(
        "func.func @main(%x: tensor<8xf64>) -> tensor<f64> {\n  %z = stablehlo.constant dense<0.0> : tensor<f64>\n  %r = " +
        Reduce("%x", "%z", "stablehlo.add", "f64", {8}, {0}) + "\n  func.return %r : tensor<f64>\n}\n");
    ASSERT_FALSE(exe.ok());
    EXPECT_NE(exe.status().message().find("needs shaderFloat64"), std::string::npos) << exe.status().ToString();
  }
}

}  // namespace
}  // namespace vkhlo
