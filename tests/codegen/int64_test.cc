// 64-bit integers (i64, ui64) in every kernel family, on the device against the interpreter, bit
// for bit (issue 25): element-wise ops fused in one kernel, conversions to and from every type,
// reductions (multi-stage, variadic argmax with i64 indices), reduce_window (cumsum, max pool),
// iota, sort, gather / scatter / dynamic_slice / dynamic_update_slice with i64 indices (clamped,
// never wrapped to their low word), while loops with i64 counters, rng_bit_generator with a
// ui64 state, dot_general, bitcasts and data movement. Inputs hold the values where a 32-bit
// pair emulation goes wrong (carries and borrows across the words, low words 0 and 0xffffffff,
// INT64_MIN / -1, shift amounts around 32 and 64) besides random ones.
//
// The same tests run under VKHLO_PROFILE=mobile (no shaderInt64): every result must be exact
// there too, with nothing evaluated on the host.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "frontend/parser.h"
#include "ir/element_type.h"
#include "tests/support/program_text.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

using Dims = std::vector<int64_t>;
using ir::ElementType;

constexpr uint64_t kMin = 0x8000000000000000ull;  // INT64_MIN's bits

// 64-bit patterns where a pair of 32-bit words carries, borrows or overflows.
const std::vector<uint64_t>& Edges64() {
  static const std::vector<uint64_t> edges = {
      0,
      1,
      2,
      3,
      ~uint64_t{0},                // -1, UINT64_MAX
      ~uint64_t{1},                // -2
      kMin,                        // INT64_MIN
      kMin - 1,                    // INT64_MAX
      kMin + 1,
      0xffffffffull,               // 2^32 - 1
      0x100000000ull,              // 2^32: low word 0
      0x100000001ull,
      0x1ffffffffull,              // low word 0xffffffff
      0xffffffff00000000ull,       // -2^32: low word 0
      0xfffffffeffffffffull,
      0xffffffff7fffffffull,
      0x80000000ull,               // 2^31
      0x7fffffffull,
      0x7fffffff00000000ull,
      0x80000000ffffffffull,
      0x123456789abcdef0ull,
      0xfedcba9876543210ull,
      31,
      32,
      33,
      63,
      64,
      65,
      static_cast<uint64_t>(int64_t{-32}),
      static_cast<uint64_t>(int64_t{-64}),
      static_cast<uint64_t>(int64_t{-7}),
      10,
  };
  return edges;
}

using testing::TensorType;

ir::Type TT(const Dims& dims, ElementType t) { return ir::Type::Tensor(t, dims); }

std::string Name(ElementType t) { return std::string(ir::ElementTypeName(t)); }

// A random literal whose first elements are the 64-bit edge values (from `offset` on, cyclic).
ir::Literal WithEdges(ElementType t, const Dims& dims, std::mt19937_64& rng, size_t offset = 0) {
  ir::Literal l = testing::RandomLiteral(TT(dims, t), rng);
  const auto& edges = Edges64();
  for (int64_t i = 0; i < l.num_elements() && static_cast<size_t>(i) < edges.size(); ++i) {
    l.SetBits(i, edges[(static_cast<size_t>(i) + offset) % edges.size()]);
  }
  return l;
}

// Small integers in [lo, hi] (values; for unsigned types their absolute values).
ir::Literal SmallInts(ElementType t, const Dims& dims, std::mt19937_64& rng, int lo, int hi) {
  ir::Literal l = *ir::Literal::Create(TT(dims, t));
  (void)l.Expand();
  std::uniform_int_distribution<int> dist(lo, hi);
  for (int64_t i = 0; i < l.num_elements(); ++i) {
    if (ir::IsFloat(t)) {
      l.SetFloat(i, dist(rng));
    } else {
      l.SetInt(i, ir::IsUnsignedInteger(t) ? std::abs(dist(rng)) : dist(rng));
    }
  }
  return l;
}

ir::Literal Scalar(ElementType t, uint64_t bits) {
  ir::Literal l = *ir::Literal::Create(TT({}, t));
  (void)l.Expand();
  l.SetBits(0, bits);
  return l;
}

// Runs on both; every result bit-identical, nothing on the host. Returns the results.
std::optional<testing::BothResults> Check(const std::string& program, const std::vector<ir::Literal>& inputs,
                                          const std::string& what = "") {
  auto both = testing::RunOnBoth(program, inputs);
  EXPECT_TRUE(both.ok()) << what << ": " << both.status().ToString() << "\n" << program;
  if (!both.ok()) return std::nullopt;
  EXPECT_EQ(both->stats.host_evaluated_ops, 0u) << what;
  EXPECT_EQ(both->vulkan.size(), both->reference.size());
  for (size_t i = 0; i < both->vulkan.size() && i < both->reference.size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both->vulkan[i], both->reference[i], &why))
        << what << ": result " << i << ": " << why << "\n" << program;
  }
  return std::move(*both);
}

class Int64 : public ::testing::TestWithParam<ElementType> {
 protected:
  ElementType t() const { return GetParam(); }
  bool is_signed() const { return t() == ElementType::kS64; }
  std::string name() const { return Name(t()); }
  std::string cmp() const { return is_signed() ? "SIGNED" : "UNSIGNED"; }
  // The type's smallest and largest values, as constant text.
  std::string min_text() const { return is_signed() ? "-9223372036854775808" : "0"; }
  std::string max_text() const { return is_signed() ? "9223372036854775807" : "18446744073709551615"; }
};

// ---------------------------------------------------------------------------------------------
// 1. Element-wise ops: every pair of edge values (divisor 0 and -1, INT64_MIN / -1, every shift
// amount), then random values.

struct Op {
  std::string text;  // the op's line, result %rN
  std::string type;  // its result type
};

TEST_P(Int64, ElementwiseOpsFuseAndAgree) {
  const auto& edges = Edges64();
  const int64_t e = static_cast<int64_t>(edges.size());
  const int64_t n = e * e + 61;
  const std::string tensor = TensorType({n}, name());
  const std::string pred = TensorType({n}, "i1");
  std::mt19937_64 rng(25 + static_cast<int>(t()));
  std::vector<ir::Literal> inputs = {testing::RandomLiteral(TT({n}, t()), rng), testing::RandomLiteral(TT({n}, t()), rng),
                                     testing::RandomLiteral(TT({n}, t()), rng),
                                     testing::RandomLiteral(TT({n}, ElementType::kI1), rng)};
  for (int64_t i = 0; i < e * e; ++i) {
    inputs[0].SetBits(i, edges[static_cast<size_t>(i / e)]);
    inputs[1].SetBits(i, edges[static_cast<size_t>(i % e)]);
    inputs[2].SetBits(i, edges[static_cast<size_t>((i * 7 + i / e) % e)]);
  }

  std::vector<Op> ops;
  auto add = [&](const std::string& op, const std::vector<std::string>& args, const std::string& type,
                 const std::string& attrs = "") {
    std::vector<std::string> types;
    for (const std::string& a : args) types.push_back(a == "%p" ? pred : tensor);
    ops.push_back({fmt::format("    %r{} = \"stablehlo.{}\"({}){} : ({}) -> {}\n", ops.size(), op, fmt::join(args, ", "),
                               attrs.empty() ? "" : " {" + attrs + "}", fmt::join(types, ", "), type),
                   type});
  };
  for (const char* op : {"add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or", "xor",
                         "shift_left", "shift_right_logical", "shift_right_arithmetic", "power"}) {
    add(op, {"%a", "%b"}, tensor);
  }
  add("clamp", {"%c", "%a", "%b"}, tensor);
  for (const char* op : {"negate", "not", "popcnt", "count_leading_zeros"}) add(op, {"%a"}, tensor);
  if (is_signed()) {
    add("abs", {"%a"}, tensor);
    add("sign", {"%a"}, tensor);
  }
  for (const char* d : {"EQ", "NE", "LT", "LE", "GT", "GE"}) {
    add("compare", {"%a", "%b"}, pred,
        fmt::format("comparison_direction = #stablehlo<comparison_direction {}>, compare_type = "
                    "#stablehlo<comparison_type {}>",
                    d, cmp()));
  }
  add("select", {"%p", "%a", "%b"}, tensor);

  // Groups of ops per program (one multi-output kernel each).
  constexpr size_t kPerProgram = 8;
  for (size_t begin = 0; begin < ops.size(); begin += kPerProgram) {
    const size_t end = std::min(ops.size(), begin + kPerProgram);
    std::vector<std::string> names, types;
    std::string body;
    for (size_t i = begin; i < end; ++i) {
      names.push_back(fmt::format("%r{}", i));
      types.push_back(ops[i].type);
      body += ops[i].text;
    }
    const std::string program = fmt::format(
        "func.func @main(%a: {0}, %b: {0}, %c: {0}, %p: {1}) -> ({2}) {{\n{3}    func.return {4} : {2}\n}}\n", tensor,
        pred, fmt::join(types, ", "), body, fmt::join(names, ", "));
    Check(program, inputs, fmt::format("{} ops {}..{}", name(), begin, end));
  }

  // One chain of all of them, fused into one kernel: each intermediate has one user (the fusion
  // does not recompute an expensive producer for several consumers).
  const std::string chain = fmt::format(R"(
func.func @main(%a: {0}, %b: {0}, %c: {0}, %p: {1}) -> ({0}, {1}) {{
  %0 = stablehlo.add %a, %b : {0}
  %1 = stablehlo.subtract %0, %c : {0}
  %2 = stablehlo.multiply %1, %b : {0}
  %3 = stablehlo.divide %2, %c : {0}
  %4 = stablehlo.remainder %3, %b : {0}
  %5 = stablehlo.maximum %4, %a : {0}
  %6 = stablehlo.minimum %5, %c : {0}
  %7 = stablehlo.clamp %b, %6, %a : {0}
  %8 = stablehlo.negate %7 : {0}
  %9 = stablehlo.xor %8, %a : {0}
  %10 = stablehlo.shift_left %9, %b : {0}
  %11 = stablehlo.shift_right_logical %10, %c : {0}
  %12 = stablehlo.shift_right_arithmetic %11, %a : {0}
  %13 = stablehlo.popcnt %12 : {0}
  %14 = stablehlo.add %13, %a : {0}
  %15 = stablehlo.count_leading_zeros %14 : {0}
  %16 = stablehlo.add %15, %c : {0}
  %17 = stablehlo.power %16, %b : {0}
  %18 = stablehlo.or %17, %a : {0}
  %19 = stablehlo.not %18 : {0}
  %20 = stablehlo.and %19, %b : {0}
  %21 = stablehlo.compare LT, %a, %b, {2} : ({0}, {0}) -> {1}
  %22 = stablehlo.select %21, %20, %c : {1}, {0}
  %23 = stablehlo.compare GE, %22, %c, {2} : ({0}, {0}) -> {1}
  %24 = stablehlo.xor %23, %p : {1}
  func.return %22, %24 : {0}, {1}
}}
)",
                                        tensor, pred, cmp());
  auto both = Check(chain, inputs, name() + " chain");
  if (both) {
    EXPECT_EQ(both->stats.kernels_dispatched, 1u) << "the chain is one fused kernel";
  }
}

// Small exponents of power (negative ones: 1, -1 and 0 to the power of negatives), sign of
// every edge.
TEST_P(Int64, PowerWithSmallAndNegativeExponents) {
  std::mt19937_64 rng(4);
  const int64_t n = 240;
  const std::string tensor = TensorType({n}, name());
  std::vector<ir::Literal> inputs = {WithEdges(t(), {n}, rng), *ir::Literal::Create(TT({n}, t()))};
  (void)inputs[1].Expand();
  for (int64_t i = 0; i < n; ++i) inputs[1].SetInt(i, i % 10 == 9 ? -(i % 7) : i % 70);
  for (int64_t i = 200; i < n; ++i) inputs[0].SetInt(i, (i % 5) - 2);  // -2..2 to negative powers
  const std::string program = fmt::format(R"(
func.func @main(%a: {0}, %b: {0}) -> {0} {{
  %r = stablehlo.power %a, %b : {0}
  func.return %r : {0}
}}
)",
                                          tensor);
  Check(program, inputs, name() + " power");
}

// ---------------------------------------------------------------------------------------------
// 2. convert to and from every type but f64 and complex<f64>.

std::vector<ElementType> ConvertTypes() {
  std::vector<ElementType> types;
  for (int i = 0; i < ir::kNumElementTypes; ++i) {
    const auto type = static_cast<ElementType>(i);
    if (type == ElementType::kF64 || type == ElementType::kC128) continue;
    types.push_back(type);
  }
  return types;
}

TEST_P(Int64, ConvertsToEveryType) {
  const int64_t n = 97;
  std::mt19937_64 rng(77 + static_cast<int>(t()));
  ir::Literal input = WithEdges(t(), {n}, rng);
  // Values in the ranges of the narrow types and of floats' exact integers.
  for (int64_t i = 40; i < 70; ++i) input.SetInt(i, static_cast<int64_t>(i * 1234567) - 40000000);
  for (int64_t i = 70; i < 80; ++i) input.SetBits(i, (uint64_t{1} << (i - 16)) + static_cast<uint64_t>(i % 3) - 1);  // near powers of 2
  std::vector<std::string> types;
  for (ElementType to : ConvertTypes()) types.push_back(TensorType({n}, Name(to)));
  constexpr size_t kPerProgram = 8;
  for (size_t begin = 0; begin < types.size(); begin += kPerProgram) {
    const size_t end = std::min(types.size(), begin + kPerProgram);
    std::string body;
    std::vector<std::string> names, result_types;
    for (size_t i = begin; i < end; ++i) {
      body += fmt::format("  %r{} = stablehlo.convert %a : ({}) -> {}\n", i, TensorType({n}, name()), types[i]);
      names.push_back(fmt::format("%r{}", i));
      result_types.push_back(types[i]);
    }
    const std::string program =
        fmt::format("func.func @main(%a: {0}) -> ({1}) {{\n{2}  func.return {3} : {1}\n}}\n", TensorType({n}, name()),
                    fmt::join(result_types, ", "), body, fmt::join(names, ", "));
    Check(program, {input}, fmt::format("convert from {}", name()));
  }
}

TEST_P(Int64, ConvertsFromEveryType) {
  const int64_t n = 97;
  for (ElementType from : ConvertTypes()) {
    SCOPED_TRACE(Name(from));
    std::mt19937_64 rng(177 + static_cast<int>(from));
    ir::Literal input = testing::RandomLiteral(TT({n}, from), rng);
    if (ir::IsFloat(from)) {
      const double inf = std::numeric_limits<double>::infinity();
      const double values[] = {std::nan(""), inf, -inf, -0.0, 0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
                               9223372036854775808.0,             // 2^63
                               9223371487098961920.0,             // 2^63 - 2^39 (largest f32 below 2^63)
                               -9223372036854775808.0,            // -2^63
                               -9223373136366403584.0,            // below -2^63 in f32
                               18446744073709551616.0,            // 2^64
                               18446742974197923840.0,            // largest f32 below 2^64
                               4294967296.0, 4294967295.0, 4294967040.0, -4294967296.0, 2147483648.0, -2147483649.0,
                               1.0e30, -1.0e30, 3.4028234663852886e38, -3.4028234663852886e38, 1.0e-30, 123456789.0,
                               -123456789.0, 65504.0, -65504.0, 448.0, 57344.0, 1.0, -1.0};
      for (size_t i = 0; i < std::size(values); ++i) input.SetFloat(static_cast<int64_t>(i), values[i]);
    } else if (ir::IsComplex(from)) {
      const double values[] = {-0.0, 1.5, -2.5, 9223372036854775808.0, -9223372036854775808.0, 18446744073709551616.0,
                               4294967296.0, 1.0e30, std::nan(""), std::numeric_limits<double>::infinity()};
      for (size_t i = 0; i < std::size(values); ++i) input.SetComplex(static_cast<int64_t>(i), {values[i], 1.0});
    }
    const std::string program = fmt::format(R"(
func.func @main(%a: {0}) -> {1} {{
  %r = stablehlo.convert %a : ({0}) -> {1}
  func.return %r : {1}
}}
)",
                                            TensorType({n}, Name(from)), TensorType({n}, name()));
    Check(program, {input}, fmt::format("convert {} to {}", Name(from), name()));
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Reductions: along an axis and over 100000 elements (several stages); the wrapping sum and
// product are exact in any order.

TEST_P(Int64, ReducesSumMaxMinProduct) {
  std::mt19937_64 rng(3);
  struct Reducer {
    const char* op;
    std::string init;
  };
  const Reducer reducers[] = {{"stablehlo.add", "0"},
                              {"stablehlo.maximum", min_text()},
                              {"stablehlo.minimum", max_text()},
                              {"stablehlo.multiply", "1"}};
  for (const Dims& dims : {Dims{37, 129}, Dims{100000}, Dims{4, 25000}, Dims{3, 5, 7}}) {
    ir::Literal x = WithEdges(t(), dims, rng);
    // Odd values keep long products from vanishing.
    ir::Literal odd = WithEdges(t(), dims, rng, 3);
    for (int64_t i = 0; i < odd.num_elements(); ++i) odd.SetBits(i, odd.GetBits(i) | 1);
    std::vector<Dims> axes = {Dims{static_cast<int64_t>(dims.size()) - 1}};
    Dims all;
    for (size_t d = 0; d < dims.size(); ++d) all.push_back(static_cast<int64_t>(d));
    if (dims.size() > 1) axes.push_back(all);
    if (dims.size() == 3) axes.push_back(Dims{0, 2});
    for (const Dims& axis : axes) {
      Dims out;
      for (size_t d = 0; d < dims.size(); ++d) {
        if (std::find(axis.begin(), axis.end(), static_cast<int64_t>(d)) == axis.end()) out.push_back(dims[d]);
      }
      const std::string in_t = TensorType(dims, name()), out_t = TensorType(out, name()), s = TensorType({}, name());
      std::string body;
      std::vector<std::string> names, types;
      for (const Reducer& r : reducers) {
        for (const char* input : {"%x", "%y"}) {
          if (std::string(input) == "%y" && std::string(r.op) != "stablehlo.multiply") continue;
          const size_t k = names.size();
          body += fmt::format(
              "  %i{0} = stablehlo.constant dense<{1}> : {2}\n"
              "  %r{0} = \"stablehlo.reduce\"({3}, %i{0}) ({{\n  ^bb0(%a: {2}, %b: {2}):\n    %s = {4} %a, %b : {2}\n"
              "    stablehlo.return %s : {2}\n  }}) {{dimensions = array<i64: {5}>}} : ({6}, {2}) -> {7}\n",
              k, r.init, s, input, r.op, fmt::join(axis, ", "), in_t, out_t);
          names.push_back(fmt::format("%r{}", k));
          types.push_back(out_t);
        }
      }
      const std::string program =
          fmt::format("func.func @main(%x: {0}, %y: {0}) -> ({1}) {{\n{2}  func.return {3} : {1}\n}}\n", in_t,
                      fmt::join(types, ", "), body, fmt::join(names, ", "));
      Check(program, {x, odd}, fmt::format("{} reduce {} over [{}]", name(), in_t, fmt::join(axis, ", ")));
    }
  }
}

// JAX's argmax: (f32 value, i64 index from an iota) pairs, ties to the smaller index; and an
// i64 value with an i32 index.
TEST_P(Int64, VariadicArgmaxReduce) {
  std::mt19937_64 rng(5);
  for (const Dims& dims : {Dims{5, 1000}, Dims{1, 100000}, Dims{7, 3}}) {
    SCOPED_TRACE(dims[1]);
    // Index type the parameter; values f32 (small integers: many ties).
    const std::string program = fmt::format(R"(
func.func @main(%x: {0}) -> ({1}, {2}) {{
  %i = stablehlo.iota dim = 1 : {3}
  %v0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %i0 = stablehlo.constant dense<0> : tensor<{4}>
  %r:2 = "stablehlo.reduce"(%x, %i, %v0, %i0) ({{
    ^bb0(%av: tensor<f32>, %ai: tensor<{4}>, %bv: tensor<f32>, %bi: tensor<{4}>):
      %gt = stablehlo.compare GT, %av, %bv, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %nan = stablehlo.compare NE, %av, %av, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %gtn = stablehlo.or %gt, %nan : tensor<i1>
      %eq = stablehlo.compare EQ, %av, %bv, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare LT, %ai, %bi, {5} : (tensor<{4}>, tensor<{4}>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %take = stablehlo.or %gtn, %tie : tensor<i1>
      %v = stablehlo.select %take, %av, %bv : tensor<i1>, tensor<f32>
      %j = stablehlo.select %take, %ai, %bi : tensor<i1>, tensor<{4}>
      stablehlo.return %v, %j : tensor<f32>, tensor<{4}>
  }}) {{dimensions = array<i64: 1>}} : ({0}, {3}, tensor<f32>, tensor<{4}>) -> ({1}, {2})
  func.return %r#0, %r#1 : {1}, {2}
}}
)",
                                            TensorType(dims, "f32"), TensorType({dims[0]}, "f32"),
                                            TensorType({dims[0]}, name()), TensorType(dims, name()), name(), cmp());
    Check(program, {SmallInts(ElementType::kF32, dims, rng, -20, 20)}, name() + " argmax (f32, index)");

    // i64 / ui64 values (edges and many ties) with i32 indices.
    ir::Literal values = WithEdges(t(), dims, rng);
    for (int64_t i = static_cast<int64_t>(Edges64().size()); i < values.num_elements(); ++i) {
      if (rng() % 2) values.SetInt(i, static_cast<int64_t>(rng() % 5));
    }
    const std::string program2 = fmt::format(R"(
func.func @main(%x: {0}) -> ({1}, {2}) {{
  %i = stablehlo.iota dim = 1 : {3}
  %v0 = stablehlo.constant dense<{6}> : tensor<{4}>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = "stablehlo.reduce"(%x, %i, %v0, %i0) ({{
    ^bb0(%av: tensor<{4}>, %ai: tensor<i32>, %bv: tensor<{4}>, %bi: tensor<i32>):
      %gt = stablehlo.compare GT, %av, %bv, {5} : (tensor<{4}>, tensor<{4}>) -> tensor<i1>
      %eq = stablehlo.compare EQ, %av, %bv, {5} : (tensor<{4}>, tensor<{4}>) -> tensor<i1>
      %lt = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %take = stablehlo.or %gt, %tie : tensor<i1>
      %v = stablehlo.select %take, %av, %bv : tensor<i1>, tensor<{4}>
      %j = stablehlo.select %take, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %j : tensor<{4}>, tensor<i32>
  }}) {{dimensions = array<i64: 1>}} : ({0}, {3}, tensor<{4}>, tensor<i32>) -> ({1}, {2})
  func.return %r#0, %r#1 : {1}, {2}
}}
)",
                                             TensorType(dims, name()), TensorType({dims[0]}, name()),
                                             TensorType({dims[0]}, "i32"), TensorType(dims, "i32"), name(), cmp(),
                                             min_text());
    Check(program2, {values}, name() + " argmax (value, i32 index)");
  }
}

// ---------------------------------------------------------------------------------------------
// 4. reduce_window: JAX's cumsum (a window of the whole axis, padded in front) and a max pool.

TEST_P(Int64, ReduceWindowCumsumAndMaxPool) {
  std::mt19937_64 rng(11);
  for (const Dims& dims : {Dims{4, 50}, Dims{3, 333}}) {
    const int64_t len = dims[1];
    const std::string tt = TensorType(dims, name()), s = TensorType({}, name());
    const std::string program = fmt::format(R"(
func.func @main(%x: {0}) -> ({0}, {0}) {{
  %init = stablehlo.constant dense<0> : {1}
  %r = "stablehlo.reduce_window"(%x, %init) ({{
    ^bb0(%a: {1}, %b: {1}):
      %s = stablehlo.add %a, %b : {1}
      stablehlo.return %s : {1}
  }}) {{window_dimensions = array<i64: 1, {2}>, window_strides = array<i64: 1, 1>,
       padding = dense<[[0, 0], [{3}, 0]]> : tensor<2x2xi64>}} : ({0}, {1}) -> {0}
  %rev = "stablehlo.reduce_window"(%x, %init) ({{
    ^bb0(%a: {1}, %b: {1}):
      %s = stablehlo.add %a, %b : {1}
      stablehlo.return %s : {1}
  }}) {{window_dimensions = array<i64: {4}, 1>, window_strides = array<i64: 1, 1>,
       padding = dense<[[0, {5}], [0, 0]]> : tensor<2x2xi64>}} : ({0}, {1}) -> {0}
  func.return %r, %rev : {0}, {0}
}}
)",
                                            tt, s, len, len - 1, dims[0], dims[0] - 1);
    Check(program, {WithEdges(t(), dims, rng)}, name() + " cumsum " + tt);
  }
  const std::string s = TensorType({}, name());
  const std::string pool = fmt::format(R"(
func.func @main(%x: tensor<2x9x11x3x{0}>) -> tensor<2x5x6x3x{0}> {{
  %init = stablehlo.constant dense<{1}> : {2}
  %r = "stablehlo.reduce_window"(%x, %init) ({{
    ^bb0(%a: {2}, %b: {2}):
      %s = stablehlo.maximum %a, %b : {2}
      stablehlo.return %s : {2}
  }}) {{window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>,
       padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>}} : (tensor<2x9x11x3x{0}>, {2}) -> tensor<2x5x6x3x{0}>
  func.return %r : tensor<2x5x6x3x{0}>
}}
)",
                                       name(), min_text(), s);
  Check(pool, {WithEdges(t(), {2, 9, 11, 3}, rng)}, name() + " max pool");
}

// ---------------------------------------------------------------------------------------------
// 5. iota, fused with an add.

TEST_P(Int64, IotaFusedWithAdd) {
  std::mt19937_64 rng(13);
  const std::string program = fmt::format(R"(
func.func @main(%x: tensor<100x{0}>, %y: tensor<6x40x{0}>) -> (tensor<100x{0}>, tensor<6x40x{0}>, tensor<6x40x{0}>) {{
  %i = stablehlo.iota dim = 0 : tensor<100x{0}>
  %a = stablehlo.add %x, %i : tensor<100x{0}>
  %j = stablehlo.iota dim = 1 : tensor<6x40x{0}>
  %b = stablehlo.add %y, %j : tensor<6x40x{0}>
  %k = stablehlo.iota dim = 0 : tensor<6x40x{0}>
  %c = stablehlo.constant dense<4294967295> : tensor<6x40x{0}>
  %d = stablehlo.multiply %k, %c : tensor<6x40x{0}>
  %e = stablehlo.add %d, %j : tensor<6x40x{0}>
  func.return %a, %b, %e : tensor<100x{0}>, tensor<6x40x{0}>, tensor<6x40x{0}>
}}
)",
                                          name());
  Check(program, {WithEdges(t(), {100}, rng), WithEdges(t(), {6, 40}, rng, 5)}, name() + " iota");
  // Alone (materialized, no arithmetic on it).
  const std::string alone = fmt::format(R"(
func.func @main() -> (tensor<100x{0}>, tensor<6x40x{0}>) {{
  %i = stablehlo.iota dim = 0 : tensor<100x{0}>
  %j = stablehlo.iota dim = 1 : tensor<6x40x{0}>
  func.return %i, %j : tensor<100x{0}>, tensor<6x40x{0}>
}}
)",
                                        name());
  Check(alone, {}, name() + " iota alone");
}

// ---------------------------------------------------------------------------------------------
// 6. sort: keys ascending and descending (rows longer than a local block), and a stable sort of
// (key, f32 value) pairs with many equal keys.

TEST_P(Int64, SortsKeysAndStablePairs) {
  std::mt19937_64 rng(17);
  for (const Dims& dims : {Dims{3, 700}, Dims{5000}, Dims{33}}) {
    const std::string tt = TensorType(dims, name()), s = TensorType({}, name());
    const int64_t dim = static_cast<int64_t>(dims.size()) - 1;
    for (const char* dir : {"LT", "GT"}) {
      const std::string program = fmt::format(R"(
func.func @main(%x: {0}) -> {0} {{
  %s = "stablehlo.sort"(%x) ({{
  ^bb0(%a: {1}, %b: {1}):
    %r = stablehlo.compare {2}, %a, %b, {3} : ({1}, {1}) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }}) {{dimension = {4} : i64, is_stable = true}} : ({0}) -> {0}
  func.return %s : {0}
}}
)",
                                              tt, s, dir, cmp(), dim);
      Check(program, {WithEdges(t(), dims, rng)}, fmt::format("{} sort {} {}", name(), tt, dir));
    }
    // Stable (key, value) pairs: keys from a few edge values, so most are equal.
    ir::Literal keys = *ir::Literal::Create(TT(dims, t()));
    (void)keys.Expand();
    const uint64_t few[] = {0, 1, ~uint64_t{0}, kMin, kMin - 1, 0x100000000ull, 0xffffffffull, 0xffffffff00000000ull};
    for (int64_t i = 0; i < keys.num_elements(); ++i) keys.SetBits(i, few[rng() % std::size(few)]);
    ir::Literal values = *ir::Literal::Create(TT(dims, ElementType::kF32));
    (void)values.Expand();
    for (int64_t i = 0; i < values.num_elements(); ++i) values.SetFloat(i, static_cast<double>(i));
    const std::string vt = TensorType(dims, "f32");
    const std::string pairs = fmt::format(R"(
func.func @main(%x: {0}, %v: {1}) -> ({0}, {1}) {{
  %s:2 = "stablehlo.sort"(%x, %v) ({{
  ^bb0(%a: {2}, %b: {2}, %c: tensor<f32>, %d: tensor<f32>):
    %r = stablehlo.compare LT, %a, %b, {3} : ({2}, {2}) -> tensor<i1>
    stablehlo.return %r : tensor<i1>
  }}) {{dimension = {4} : i64, is_stable = true}} : ({0}, {1}) -> ({0}, {1})
  func.return %s#0, %s#1 : {0}, {1}
}}
)",
                                          tt, vt, s, cmp(), dim);
    Check(pairs, {keys, values}, fmt::format("{} stable pair sort {}", name(), tt));
  }
}

// ---------------------------------------------------------------------------------------------
// 7. Indexing with 64-bit indices: clamped (gather, dynamic_slice, dynamic_update_slice) or
// skipped (scatter) when out of range, negative, or above 2^32 (never wrapped to the low word).

// Index values that must clamp or be skipped, and in-range ones.
const std::vector<int64_t>& IndexEdges() {
  static const std::vector<int64_t> v = {0,
                                         1,
                                         3,
                                         7,
                                         8,
                                         -1,
                                         -7,
                                         int64_t{1} << 32,          // low word 0
                                         (int64_t{1} << 32) + 1,    // low word 1
                                         (int64_t{1} << 32) + 5,
                                         (int64_t{1} << 32) - 1,    // low word 0xffffffff
                                         -(int64_t{1} << 32),       // low word 0
                                         -(int64_t{1} << 32) + 2,   // low word 2
                                         std::numeric_limits<int64_t>::min(),
                                         std::numeric_limits<int64_t>::max(),
                                         int64_t{0x7fffffff00000003},
                                         2};
  return v;
}

TEST_P(Int64, GatherScatterAndDynamicSlicesWith64BitIndices) {
  std::mt19937_64 rng(19);
  const auto& idx = IndexEdges();
  const int64_t k = static_cast<int64_t>(idx.size());
  // Indices of the parameter type (ui64: the negative ones are huge).
  ir::Literal rows = *ir::Literal::Create(TT({k, 1}, t()));
  (void)rows.Expand();
  for (int64_t i = 0; i < k; ++i) rows.SetInt(i, idx[static_cast<size_t>(i)]);
  ir::Literal pairs = *ir::Literal::Create(TT({k, 2}, t()));
  (void)pairs.Expand();
  for (int64_t i = 0; i < k; ++i) {
    pairs.SetInt(2 * i, idx[static_cast<size_t>(i)]);
    pairs.SetInt(2 * i + 1, idx[static_cast<size_t>((i * 5 + 3) % k)]);
  }
  const std::string it1 = TensorType({k, 1}, name()), it2 = TensorType({k, 2}, name());

  // Gather rows of an i64 operand and of an f32 operand; and 2x2 windows at (row, column) pairs.
  const std::string gather = fmt::format(R"(
func.func @main(%a: tensor<8x4x{0}>, %f: tensor<8x4xf32>, %i: {1}, %j: {2}) -> (tensor<{3}x4x{0}>, tensor<{3}x4xf32>, tensor<{3}x2x2x{0}>) {{
  %g = "stablehlo.gather"(%a, %i) {{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}} : (tensor<8x4x{0}>, {1}) -> tensor<{3}x4x{0}>
  %h = "stablehlo.gather"(%f, %i) {{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
      start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}} : (tensor<8x4xf32>, {1}) -> tensor<{3}x4xf32>
  %w = "stablehlo.gather"(%a, %j) {{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [],
      start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 2, 2>}} : (tensor<8x4x{0}>, {2}) -> tensor<{3}x2x2x{0}>
  func.return %g, %h, %w : tensor<{3}x4x{0}>, tensor<{3}x4xf32>, tensor<{3}x2x2x{0}>
}}
)",
                                         name(), it1, it2, k);
  Check(gather,
        {WithEdges(t(), {8, 4}, rng), testing::RandomLiteral(TT({8, 4}, ElementType::kF32), rng), rows, pairs},
        name() + " gather");

  // Scatter-add of i64 updates (duplicates; out-of-range rows skipped), and of f32 updates with
  // i64 indices (a program apart: it needs no 64-bit arithmetic).
  const std::string scatter = fmt::format(R"(
func.func @main(%a: tensor<8x4x{0}>, %i: {1}, %u: tensor<{2}x4x{0}>) -> tensor<8x4x{0}> {{
  %r = "stablehlo.scatter"(%a, %i, %u) ({{
  ^bb0(%x: tensor<{0}>, %y: tensor<{0}>):
    %s = stablehlo.add %x, %y : tensor<{0}>
    stablehlo.return %s : tensor<{0}>
  }}) {{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}}
     : (tensor<8x4x{0}>, {1}, tensor<{2}x4x{0}>) -> tensor<8x4x{0}>
  func.return %r : tensor<8x4x{0}>
}}
)",
                                          name(), it1, k);
  Check(scatter, {WithEdges(t(), {8, 4}, rng), rows, WithEdges(t(), {k, 4}, rng, 7)}, name() + " scatter-add");
  const std::string scatter_f32 = fmt::format(R"(
func.func @main(%f: tensor<8x4xf32>, %i: {1}, %v: tensor<{2}x4xf32>) -> tensor<8x4xf32> {{
  %q = "stablehlo.scatter"(%f, %i, %v) ({{
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }}) {{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}}
     : (tensor<8x4xf32>, {1}, tensor<{2}x4xf32>) -> tensor<8x4xf32>
  func.return %q : tensor<8x4xf32>
}}
)",
                                              name(), it1, k);
  Check(scatter_f32,
        {SmallInts(ElementType::kF32, {8, 4}, rng, -50, 50), rows, SmallInts(ElementType::kF32, {k, 4}, rng, -50, 50)},
        name() + " f32 scatter-add with 64-bit indices");

  // dynamic_slice and dynamic_update_slice with scalar 64-bit starts.
  const std::string s = TensorType({}, name());
  const std::string dynamic = fmt::format(R"(
func.func @main(%a: tensor<8x6x{0}>, %u: tensor<3x2x{0}>, %i: {1}, %j: {1}, %f: tensor<8x6xf32>, %v: tensor<3x2xf32>)
    -> (tensor<3x2x{0}>, tensor<8x6x{0}>, tensor<3x2xf32>, tensor<8x6xf32>) {{
  %d = stablehlo.dynamic_slice %a, %i, %j, sizes = [3, 2] : (tensor<8x6x{0}>, {1}, {1}) -> tensor<3x2x{0}>
  %w = stablehlo.dynamic_update_slice %a, %u, %i, %j : (tensor<8x6x{0}>, tensor<3x2x{0}>, {1}, {1}) -> tensor<8x6x{0}>
  %g = stablehlo.dynamic_slice %f, %j, %i, sizes = [3, 2] : (tensor<8x6xf32>, {1}, {1}) -> tensor<3x2xf32>
  %h = stablehlo.dynamic_update_slice %f, %v, %j, %i : (tensor<8x6xf32>, tensor<3x2xf32>, {1}, {1}) -> tensor<8x6xf32>
  func.return %d, %w, %g, %h : tensor<3x2x{0}>, tensor<8x6x{0}>, tensor<3x2xf32>, tensor<8x6xf32>
}}
)",
                                          name(), s);
  const ir::Literal a = WithEdges(t(), {8, 6}, rng), u = WithEdges(t(), {3, 2}, rng, 11);
  const ir::Literal f = testing::RandomLiteral(TT({8, 6}, ElementType::kF32), rng),
                    v = testing::RandomLiteral(TT({3, 2}, ElementType::kF32), rng);
  for (int64_t n = 0; n < k; ++n) {
    const int64_t i = idx[static_cast<size_t>(n)], j = idx[static_cast<size_t>((n * 3 + 1) % k)];
    SCOPED_TRACE(fmt::format("start ({}, {})", i, j));
    Check(dynamic, {a, u, Scalar(t(), static_cast<uint64_t>(i)), Scalar(t(), static_cast<uint64_t>(j)), f, v},
          name() + " dynamic slices");
  }
}

// ---------------------------------------------------------------------------------------------
// 8. while: fori_loop with an i64 counter and bound (jax_enable_x64), adding to an i64
// accumulator; the counter crosses 2^32, and the bound is a constant or an argument.

TEST_P(Int64, ForiLoopWithA64BitCounter) {
  std::mt19937_64 rng(23);
  struct Bounds {
    uint64_t lo, hi;
  };
  for (Bounds b : {Bounds{0, 40}, Bounds{0xfffffff0ull, 0x100000010ull}, Bounds{0xfffffffffffffff8ull, 0xfffffffffffffffeull},
                   Bounds{kMin - 9, kMin - 1}}) {
    if (is_signed() ? static_cast<int64_t>(b.lo) >= static_cast<int64_t>(b.hi) : b.lo >= b.hi) continue;
    const std::string s = TensorType({}, name());
    for (bool constant_bound : {true, false}) {
      SCOPED_TRACE(fmt::format("{:#x}..{:#x} {}", b.lo, b.hi, constant_bound ? "constant" : "argument"));
      const std::string hi_text =
          is_signed() ? fmt::format("{}", static_cast<int64_t>(b.hi)) : fmt::format("{}", b.hi);
      const std::string bound = constant_bound ? fmt::format("%n = stablehlo.constant dense<{}> : {}", hi_text, s)
                                               : "%n = stablehlo.add %hi, %zero : " + s;
      const std::string program = fmt::format(R"(
func.func @main(%lo: {0}, %hi: {0}, %x: tensor<5x{1}>, %k: {0}) -> ({0}, tensor<5x{1}>, {0}) {{
  %zero = stablehlo.constant dense<0> : {0}
  {3}
  %r:4 = stablehlo.while(%i = %lo, %m = %n, %acc = %x, %s = %zero) : {0}, {0}, tensor<5x{1}>, {0}
  cond {{
    %lt = stablehlo.compare LT, %i, %m, {2} : ({0}, {0}) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }} do {{
    %t = stablehlo.multiply %i, %k : {0}
    %tb = stablehlo.broadcast_in_dim %t, dims = [] : ({0}) -> tensor<5x{1}>
    %acc2 = stablehlo.add %acc, %tb : tensor<5x{1}>
    %s2 = stablehlo.add %s, %i : {0}
    %one = stablehlo.constant dense<1> : {0}
    %i2 = stablehlo.add %i, %one : {0}
    stablehlo.return %i2, %m, %acc2, %s2 : {0}, {0}, tensor<5x{1}>, {0}
  }}
  return %r#0, %r#2, %r#3 : {0}, tensor<5x{1}>, {0}
}}
)",
                                              s, name(), cmp(), bound);
      Check(program,
            {Scalar(t(), b.lo), Scalar(t(), b.hi), WithEdges(t(), {5}, rng, 9), Scalar(t(), 0x100000001ull)},
            name() + " fori_loop");
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 9. rng_bit_generator with a tensor<2xui64> state (counters that carry across the words).

TEST(Int64RngTest, BitGeneratorWithUi64State) {
  for (const char* algorithm : {"THREE_FRY", "PHILOX"}) {
    for (const char* out : {"tensor<33xui64>", "tensor<7x5xui32>", "tensor<4x9xi64>", "tensor<1000xui32>"}) {
      for (auto [k0, k1] : {std::pair<uint64_t, uint64_t>{0x0123456789abcdefull, 0xfffffffffffffff0ull},
                            {42, 0xffffffffull}, {~uint64_t{0}, 0xfffffffeull}}) {
        SCOPED_TRACE(fmt::format("{} {} {:#x} {:#x}", algorithm, out, k0, k1));
        const std::string program = fmt::format(
            "func.func @main(%s: tensor<2xui64>) -> (tensor<2xui64>, {0}) {{\n"
            "  %ns, %o = stablehlo.rng_bit_generator %s, algorithm = {1} : (tensor<2xui64>) -> (tensor<2xui64>, {0})\n"
            "  func.return %ns, %o : tensor<2xui64>, {0}\n}}\n",
            out, algorithm);
        ir::Literal state = *ir::Literal::Create(TT({2}, ElementType::kU64));
        (void)state.Expand();
        state.SetBits(0, k0);
        state.SetBits(1, k1);
        Check(program, {state}, std::string("rng_bit_generator ") + algorithm);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 10. dot_general: wrapping integer products.

TEST_P(Int64, DotGeneralWraps) {
  std::mt19937_64 rng(29);
  const std::string program = fmt::format(R"(
func.func @main(%a: tensor<5x7x{0}>, %b: tensor<7x3x{0}>, %v: tensor<7x{0}>, %c: tensor<2x4x6x{0}>, %d: tensor<2x6x3x{0}>)
    -> (tensor<5x3x{0}>, tensor<5x{0}>, tensor<2x4x3x{0}>) {{
  %m = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<5x7x{0}>, tensor<7x3x{0}>) -> tensor<5x3x{0}>
  %mv = stablehlo.dot_general %a, %v, contracting_dims = [1] x [0] : (tensor<5x7x{0}>, tensor<7x{0}>) -> tensor<5x{0}>
  %bm = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x6x{0}>, tensor<2x6x3x{0}>) -> tensor<2x4x3x{0}>
  func.return %m, %mv, %bm : tensor<5x3x{0}>, tensor<5x{0}>, tensor<2x4x3x{0}>
}}
)",
                                          name());
  Check(program,
        {WithEdges(t(), {5, 7}, rng), WithEdges(t(), {7, 3}, rng, 13), WithEdges(t(), {7}, rng, 20),
         WithEdges(t(), {2, 4, 6}, rng, 2), WithEdges(t(), {2, 6, 3}, rng, 17)},
        name() + " dot_general");
  // Small values (exact sums, as index math has them).
  Check(program,
        {SmallInts(t(), {5, 7}, rng, -1000, 1000), SmallInts(t(), {7, 3}, rng, -1000, 1000),
         SmallInts(t(), {7}, rng, -9, 9), SmallInts(t(), {2, 4, 6}, rng, -99, 99), SmallInts(t(), {2, 6, 3}, rng, -99, 99)},
        name() + " dot_general small");
}

// ---------------------------------------------------------------------------------------------
// 11. bitcast_convert (to and from 32-bit word pairs, and to the other 64-bit types) and data
// movement of 64-bit tensors.

TEST_P(Int64, BitcastsAndDataMovement) {
  std::mt19937_64 rng(31);
  const std::string other = is_signed() ? "ui64" : "i64";
  const std::string bitcasts = fmt::format(R"(
func.func @main(%a: tensor<40x{0}>, %w: tensor<40x2xui32>, %v: tensor<40x2xi32>, %f: tensor<40x2xf32>)
    -> (tensor<40x2xui32>, tensor<40x2xi32>, tensor<40x{0}>, tensor<40x{0}>, tensor<40x{0}>, tensor<40x{1}>, tensor<40x{0}>, tensor<40x2xf32>) {{
  %0 = stablehlo.bitcast_convert %a : (tensor<40x{0}>) -> tensor<40x2xui32>
  %1 = stablehlo.bitcast_convert %a : (tensor<40x{0}>) -> tensor<40x2xi32>
  %2 = stablehlo.bitcast_convert %w : (tensor<40x2xui32>) -> tensor<40x{0}>
  %3 = stablehlo.bitcast_convert %v : (tensor<40x2xi32>) -> tensor<40x{0}>
  %4 = stablehlo.bitcast_convert %0 : (tensor<40x2xui32>) -> tensor<40x{0}>
  %5 = stablehlo.bitcast_convert %a : (tensor<40x{0}>) -> tensor<40x{1}>
  %6 = stablehlo.bitcast_convert %f : (tensor<40x2xf32>) -> tensor<40x{0}>
  %7 = stablehlo.bitcast_convert %a : (tensor<40x{0}>) -> tensor<40x2xf32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<40x2xui32>, tensor<40x2xi32>, tensor<40x{0}>, tensor<40x{0}>, tensor<40x{0}>, tensor<40x{1}>, tensor<40x{0}>, tensor<40x2xf32>
}}
)",
                                           name(), other);
  ir::Literal words = testing::RandomLiteral(TT({40, 2}, ElementType::kU32), rng);
  const uint32_t word_edges[] = {0, 0xffffffffu, 1, 0x80000000u, 0x7fffffffu, 0, 0xffffffffu, 0xffffffffu, 0, 0};
  for (size_t i = 0; i < std::size(word_edges); ++i) words.SetBits(static_cast<int64_t>(i), word_edges[i]);
  Check(bitcasts,
        {WithEdges(t(), {40}, rng), words, testing::RandomLiteral(TT({40, 2}, ElementType::kS32), rng),
         testing::RandomLiteral(TT({40, 2}, ElementType::kF32), rng)},
        name() + " bitcasts");

  // f64 only as a container of the bits (a round trip).
  const std::string f64 = fmt::format(R"(
func.func @main(%a: tensor<40x{0}>) -> tensor<40x{0}> {{
  %d = stablehlo.bitcast_convert %a : (tensor<40x{0}>) -> tensor<40xf64>
  %r = stablehlo.bitcast_convert %d : (tensor<40xf64>) -> tensor<40x{0}>
  func.return %r : tensor<40x{0}>
}}
)",
                                      name());
  Check(f64, {WithEdges(t(), {40}, rng)}, name() + " bitcast through f64");

  const std::string movement = fmt::format(R"(
func.func @main(%a: tensor<6x5x{0}>, %b: tensor<3x5x{0}>, %p: tensor<{0}>, %s: tensor<5x{0}>)
    -> (tensor<9x5x{0}>, tensor<5x6x{0}>, tensor<3x2x{0}>, tensor<13x6x{0}>, tensor<4x5x6x{0}>, tensor<6x5x{0}>, tensor<2x7x5x{0}>) {{
  %0 = "stablehlo.concatenate"(%a, %b) {{dimension = 0 : i64}} : (tensor<6x5x{0}>, tensor<3x5x{0}>) -> tensor<9x5x{0}>
  %1 = "stablehlo.transpose"(%a) {{permutation = array<i64: 1, 0>}} : (tensor<6x5x{0}>) -> tensor<5x6x{0}>
  %2 = "stablehlo.slice"(%a) {{start_indices = array<i64: 1, 0>, limit_indices = array<i64: 6, 4>, strides = array<i64: 2, 3>}} : (tensor<6x5x{0}>) -> tensor<3x2x{0}>
  %3 = "stablehlo.pad"(%a, %p) {{edge_padding_low = array<i64: 1, -1>, edge_padding_high = array<i64: 1, 2>, interior_padding = array<i64: 1, 0>}} : (tensor<6x5x{0}>, tensor<{0}>) -> tensor<13x6x{0}>
  %4 = "stablehlo.broadcast_in_dim"(%s) {{broadcast_dimensions = array<i64: 1>}} : (tensor<5x{0}>) -> tensor<4x5x6x{0}>
  %5 = "stablehlo.reverse"(%a) {{dimensions = array<i64: 0, 1>}} : (tensor<6x5x{0}>) -> tensor<6x5x{0}>
  %7 = "stablehlo.broadcast_in_dim"(%b) {{broadcast_dimensions = array<i64: 0, 2>}} : (tensor<3x5x{0}>) -> tensor<3x7x5x{0}>
  %8 = "stablehlo.slice"(%7) {{start_indices = array<i64: 1, 0, 0>, limit_indices = array<i64: 3, 7, 5>, strides = array<i64: 1, 1, 1>}} : (tensor<3x7x5x{0}>) -> tensor<2x7x5x{0}>
  func.return %0, %1, %2, %3, %4, %5, %8 : tensor<9x5x{0}>, tensor<5x6x{0}>, tensor<3x2x{0}>, tensor<13x6x{0}>, tensor<4x5x6x{0}>, tensor<6x5x{0}>, tensor<2x7x5x{0}>
}}
)",
                                           name());
  Check(movement,
        {WithEdges(t(), {6, 5}, rng), WithEdges(t(), {3, 5}, rng, 15), Scalar(t(), 0xffffffff00000000ull),
         WithEdges(t(), {5}, rng, 4)},
        name() + " data movement");
}

INSTANTIATE_TEST_SUITE_P(Types, Int64, ::testing::Values(ElementType::kS64, ElementType::kU64),
                         [](const ::testing::TestParamInfo<ElementType>& info) { return Name(info.param); });

}  // namespace
}  // namespace vkhlo
