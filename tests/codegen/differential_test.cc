// Differential tests: every element-wise op x every element type it accepts, on random inputs
// full of edge values (NaN, infinities, signed zeros, denormals, integer extremes, shift amounts
// around the width), run on the Vulkan device and by the interpreter. Exact ops must agree bit
// for bit (any NaN matches any NaN); transcendental ones within a few ulps.
//
// One program per element type holds every op that applies, so the fusion turns it into one
// multi-output kernel (or a few, within the binding limit).
//
// The mobile run (VKHLO_PROFILE=mobile: no shaderInt64, no shaderFloat64) checks the emulated
// 64-bit integers the same way, and that every program computing in f64 is refused with the
// missing-feature error instead of running.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>

#include "interp/checks.h"
#include "ir/element_type.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

using ir::ElementType;

constexpr int64_t kN = 67;  // odd: partial words of packed types
constexpr size_t kOpsPerProgram = 8;

enum class Class { kBool, kSigned, kUnsigned, kFloat, kComplex };
Class ClassOf(ElementType t) {
  if (ir::IsBoolean(t)) return Class::kBool;
  if (ir::IsSignedInteger(t)) return Class::kSigned;
  if (ir::IsUnsignedInteger(t)) return Class::kUnsigned;
  if (ir::IsComplex(t)) return Class::kComplex;
  return Class::kFloat;
}
bool IsInt(Class c) { return c == Class::kSigned || c == Class::kUnsigned; }

struct Result {
  std::string line;      // the op's description for messages
  int max_ulp = 0;       // 0: exact
  std::string text;      // the op's line of the program
  std::string type;      // its result type
};

class ProgramBuilder {
 public:
  explicit ProgramBuilder(ElementType t) : type_(t), tensor_(Tensor(t)) {}

  static std::string Tensor(ElementType t, const std::string& dims = std::to_string(kN)) {
    return fmt::format("tensor<{}x{}>", dims, ir::ElementTypeName(t));
  }

  // %r = "op"(args) {attrs} : (types) -> result
  void Add(const std::string& op, const std::vector<std::string>& args, const std::string& result_type,
           const std::string& attrs = "", int max_ulp = 0) {
    std::vector<std::string> types;
    for (const std::string& a : args) types.push_back(a == "%p" ? Tensor(ElementType::kI1) : tensor_);
    std::string text = fmt::format("    %r{} = \"{}\"({}){} : ({}) -> {}\n", results_.size(), op, fmt::join(args, ", "),
                                   attrs.empty() ? "" : " {" + attrs + "}", fmt::join(types, ", "), result_type);
    results_.push_back(Result{fmt::format("{} {}{}", op, attrs, max_ulp ? " (inexact)" : ""), max_ulp, text, result_type});
  }

  // The program computing results [begin, end).
  std::string Text(size_t begin = 0, size_t end = SIZE_MAX) const {
    end = std::min(end, results_.size());
    std::vector<std::string> names, types;
    std::string body;
    for (size_t i = begin; i < end; ++i) {
      names.push_back(fmt::format("%r{}", i));
      types.push_back(results_[i].type);
      body += results_[i].text;
    }
    return fmt::format(
        "func.func @main(%a: {0}, %b: {0}, %c: {0}, %p: {1}) -> ({2}) {{\n{3}    func.return {4} : {2}\n}}\n", tensor_,
        Tensor(ElementType::kI1), fmt::join(types, ", "), body, fmt::join(names, ", "));
  }
  const std::vector<Result>& results() const { return results_; }
  const std::string& tensor() const { return tensor_; }

 private:
  ElementType type_;
  std::string tensor_;
  std::vector<Result> results_;
};

std::string CompareType(ElementType t) {
  switch (ClassOf(t)) {
    case Class::kSigned: return "SIGNED";
    case Class::kBool:
    case Class::kUnsigned: return "UNSIGNED";
    default: return "FLOAT";
  }
}

// Ulps allowed for transcendental functions: the interpreter rounds a double result once; the
// library's f32/f64 functions are within a few ulps; narrow types compute in f32 and round, so
// they may land one ulp off at a tie.
int InexactUlps(ElementType t) { return t == ElementType::kF32 || t == ElementType::kF64 ? 4 : 1; }

ProgramBuilder ElementwiseProgram(ElementType t) {
  ProgramBuilder p(t);
  const Class c = ClassOf(t);
  const std::string& same = p.tensor();
  const std::string pred = ProgramBuilder::Tensor(ElementType::kI1);
  auto unary = [&](const char* op) { p.Add(op, {"%a"}, same); };
  auto binary = [&](const char* op) { p.Add(op, {"%a", "%b"}, same); };
  if (c != Class::kBool) {
    binary("stablehlo.subtract");
    unary("stablehlo.negate");
  }
  if (c != Class::kComplex) {
    binary("stablehlo.multiply");
    binary("stablehlo.maximum");
    binary("stablehlo.minimum");
    p.Add("stablehlo.clamp", {"%a", "%b", "%c"}, same);
  }
  binary("stablehlo.add");
  if (c == Class::kBool || IsInt(c)) {
    binary("stablehlo.and");
    binary("stablehlo.or");
    binary("stablehlo.xor");
    unary("stablehlo.not");
  }
  if (c == Class::kSigned || c == Class::kFloat) {
    unary("stablehlo.abs");
    unary("stablehlo.sign");
  }
  if (IsInt(c) || c == Class::kFloat) {
    binary("stablehlo.divide");
    binary("stablehlo.remainder");
  }
  if (IsInt(c)) {
    unary("stablehlo.popcnt");
    unary("stablehlo.count_leading_zeros");
    binary("stablehlo.shift_left");
    binary("stablehlo.shift_right_logical");
    binary("stablehlo.shift_right_arithmetic");
    binary("stablehlo.power");
  }
  if (c == Class::kFloat) {
    for (const char* op : {"stablehlo.floor", "stablehlo.ceil", "stablehlo.round_nearest_even",
                           "stablehlo.round_nearest_afz", "stablehlo.sqrt"}) {
      unary(op);
    }
    p.Add("stablehlo.is_finite", {"%a"}, pred);
  }
  // Transcendentals compute in f32 and round once to the element type, so the narrow formats
  // differ only in their codec, which the exact ops cover for every format. The library's
  // functions are big kernels for the driver to compile (lavapipe's pipeline cache saves
  // nothing), so they run for f32, f16 and bf16 here; f64 and the other formats meet them in the
  // conformance programs.
  if (c == Class::kFloat && (t == ElementType::kF32 || t == ElementType::kF16 || t == ElementType::kBF16)) {
    for (const char* op : {"stablehlo.exponential", "stablehlo.exponential_minus_one", "stablehlo.log",
                           "stablehlo.log_plus_one", "stablehlo.logistic", "stablehlo.sine", "stablehlo.cosine",
                           "stablehlo.tan", "stablehlo.tanh", "stablehlo.rsqrt", "stablehlo.cbrt"}) {
      p.Add(op, {"%a"}, same, "", InexactUlps(t));
    }
    p.Add("stablehlo.power", {"%a", "%b"}, same, "", InexactUlps(t));
    p.Add("stablehlo.atan2", {"%a", "%b"}, same, "", InexactUlps(t));
  }
  if (c == Class::kFloat) {
    for (auto [e, m] : {std::pair{5, 10}, {8, 7}, {4, 3}, {2, 1}, {8, 23}}) {
      p.Add("stablehlo.reduce_precision", {"%a"}, same, fmt::format("exponent_bits = {} : i32, mantissa_bits = {} : i32", e, m));
    }
  }
  if (c == Class::kComplex) {
    const std::string part = ProgramBuilder::Tensor(ir::ComplexPartType(t));
    p.Add("stablehlo.real", {"%a"}, part);
    p.Add("stablehlo.imag", {"%a"}, part);
  }
  std::vector<std::string> directions = {"EQ", "NE"};
  if (c != Class::kComplex) directions = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  for (const std::string& d : directions) {
    p.Add("stablehlo.compare", {"%a", "%b"}, pred,
          fmt::format("comparison_direction = #stablehlo<comparison_direction {}>, compare_type = "
                      "#stablehlo<comparison_type {}>",
                      d, CompareType(t)));
    if (c == Class::kFloat) {
      p.Add("stablehlo.compare", {"%a", "%b"}, pred,
            fmt::format("comparison_direction = #stablehlo<comparison_direction {}>, compare_type = "
                        "#stablehlo<comparison_type TOTALORDER>",
                        d));
    }
  }
  p.Add("stablehlo.select", {"%p", "%a", "%b"}, same);
  return p;
}

// Whether `status` is the refusal of a device without shaderFloat64 (the mobile profile): f64 and
// complex<f64> arithmetic is not emulated, and that must be a clear error, never a wrong answer.
bool IsFloat64Refusal(const Status& status) {
  return status.message().find("needs shaderFloat64, which") != std::string::npos;
}
bool NeedsFloat64(ElementType t) { return t == ElementType::kF64 || t == ElementType::kC128; }

void ExpectAgreement(const ProgramBuilder& program, size_t begin, const testing::BothResults& both,
                     const std::string& what) {
  ASSERT_EQ(both.vulkan.size(), both.reference.size());
  for (size_t i = 0; i < both.vulkan.size(); ++i) {
    const Result& r = program.results()[begin + i];
    std::string why;
    EXPECT_TRUE(testing::SameBits(both.vulkan[i], both.reference[i], &why, r.max_ulp))
        << what << ": " << r.line << ": " << why;
  }
}

std::vector<ElementType> AllTypes() {
  std::vector<ElementType> types;
  for (int i = 0; i < ir::kNumElementTypes; ++i) types.push_back(static_cast<ElementType>(i));
  return types;
}

// Complex ops beyond add/subtract/negate/compare/select/real/imag need the GLSL library's
// complex part; they are covered by the conformance programs.
class Elementwise : public ::testing::TestWithParam<ElementType> {};

TEST_P(Elementwise, AgreesWithTheInterpreter) {
  const ElementType t = GetParam();
  ProgramBuilder program = ElementwiseProgram(t);
  std::mt19937_64 rng(1234 + static_cast<int>(t));
  const ir::Type type = ir::Type::Tensor(t, {kN});
  std::vector<ir::Literal> inputs = {testing::RandomLiteral(type, rng), testing::RandomLiteral(type, rng),
                                     testing::RandomLiteral(type, rng),
                                     testing::RandomLiteral(ir::Type::Tensor(ElementType::kI1, {kN}), rng)};
  // Groups of a few ops per program: one kernel with every op of a narrow float type (each
  // rounding through the codec) takes the driver far longer to compile than the same code in
  // several kernels.
  for (size_t begin = 0; begin < program.results().size(); begin += kOpsPerProgram) {
    const std::string text = program.Text(begin, begin + kOpsPerProgram);
    auto both = testing::RunOnBoth(text, inputs);
    if (!both.ok() && NeedsFloat64(t) && IsFloat64Refusal(both.status())) continue;
    ASSERT_TRUE(both.ok()) << both.status().ToString() << "\n" << text;
    ExpectAgreement(program, begin, *both, std::string(ir::ElementTypeName(t)));
    EXPECT_EQ(both->stats.host_evaluated_ops, 0u);
  }
}

// convert from this type to every type, in one program.
TEST_P(Elementwise, ConvertsToEveryTypeLikeTheInterpreter) {
  const ElementType from = GetParam();
  // Conversions to f64 and complex<f64> last, in a chunk of their own: a device without
  // shaderFloat64 refuses just those (and every one from an f64 type).
  ProgramBuilder program(from);
  std::vector<ElementType> targets;
  for (ElementType to : AllTypes()) {
    if (!NeedsFloat64(to)) targets.push_back(to);
  }
  size_t f64_begin = targets.size();
  f64_begin += (kOpsPerProgram - f64_begin % kOpsPerProgram) % kOpsPerProgram;
  while (targets.size() < f64_begin) targets.push_back(from);  // fills the chunk: identity conversions
  targets.push_back(ElementType::kF64);
  targets.push_back(ElementType::kC128);
  for (ElementType to : targets) program.Add("stablehlo.convert", {"%a"}, ProgramBuilder::Tensor(to));
  std::mt19937_64 rng(99 + static_cast<int>(from));
  const ir::Type type = ir::Type::Tensor(from, {kN});
  std::vector<ir::Literal> inputs = {testing::RandomLiteral(type, rng), testing::RandomLiteral(type, rng),
                                     testing::RandomLiteral(type, rng),
                                     testing::RandomLiteral(ir::Type::Tensor(ElementType::kI1, {kN}), rng)};
  for (size_t begin = 0; begin < program.results().size(); begin += kOpsPerProgram) {
    auto both = testing::RunOnBoth(program.Text(begin, begin + kOpsPerProgram), inputs);
    if (!both.ok() && (NeedsFloat64(from) || begin == f64_begin) && IsFloat64Refusal(both.status())) continue;
    ASSERT_TRUE(both.ok()) << both.status().ToString();
    ExpectAgreement(program, begin, *both, fmt::format("convert from {}", ir::ElementTypeName(from)));
  }
}

// bitcast_convert to every type of the same width, and to and from narrower types.
TEST_P(Elementwise, BitcastsLikeTheInterpreter) {
  const ElementType from = GetParam();
  const int width = ir::BitWidth(from);
  ProgramBuilder program(from);
  for (ElementType to : AllTypes()) {
    if (ir::BitWidth(to) == width && (width > 1 || to == from) && ir::IsComplex(to) == ir::IsComplex(from)) {
      program.Add("stablehlo.bitcast_convert", {"%a"}, ProgramBuilder::Tensor(to));
    }
  }
  for (ElementType to : {ElementType::kU8, ElementType::kS16, ElementType::kF32, ElementType::kS4, ElementType::kI1}) {
    const int narrow = ir::BitWidth(to);
    if (narrow < width && width % narrow == 0 && width <= 64 && !ir::IsComplex(from)) {
      program.Add("stablehlo.bitcast_convert", {"%a"},
                  ProgramBuilder::Tensor(to, fmt::format("{}x{}", kN, width / narrow)));
    }
  }
  std::mt19937_64 rng(7 + static_cast<int>(from));
  const ir::Type type = ir::Type::Tensor(from, {kN});
  std::vector<ir::Literal> inputs = {testing::RandomLiteral(type, rng), testing::RandomLiteral(type, rng),
                                     testing::RandomLiteral(type, rng),
                                     testing::RandomLiteral(ir::Type::Tensor(ElementType::kI1, {kN}), rng)};
  auto both = testing::RunOnBoth(program.Text(), inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  ExpectAgreement(program, 0, *both, fmt::format("bitcast from {}", ir::ElementTypeName(from)));
}

INSTANTIATE_TEST_SUITE_P(Types, Elementwise, ::testing::ValuesIn(AllTypes()),
                         [](const ::testing::TestParamInfo<ElementType>& info) {
                           std::string name(ir::ElementTypeName(info.param));
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

// Widening bitcasts: i8[N, 4] -> f32[N], ui16[N, 4] -> f64, f32[N, 2] -> i64.
TEST(Bitcast, WideningAssemblesLittleEndian) {
  const std::string text = R"(
func.func @main(%a: tensor<5x4xui8>, %b: tensor<5x4xui16>, %c: tensor<5x2xf32>, %d: tensor<5x8xi1>) -> (tensor<5xf32>, tensor<5xf64>, tensor<5xi64>, tensor<5xui8>) {
  %0 = stablehlo.bitcast_convert %a : (tensor<5x4xui8>) -> tensor<5xf32>
  %1 = stablehlo.bitcast_convert %b : (tensor<5x4xui16>) -> tensor<5xf64>
  %2 = stablehlo.bitcast_convert %c : (tensor<5x2xf32>) -> tensor<5xi64>
  %3 = stablehlo.bitcast_convert %d : (tensor<5x8xi1>) -> tensor<5xui8>
  func.return %0, %1, %2, %3 : tensor<5xf32>, tensor<5xf64>, tensor<5xi64>, tensor<5xui8>
})";
  std::mt19937_64 rng(5);
  std::vector<ir::Literal> inputs = {testing::RandomLiteral(ir::Type::Tensor(ElementType::kU8, {5, 4}), rng),
                                     testing::RandomLiteral(ir::Type::Tensor(ElementType::kU16, {5, 4}), rng),
                                     testing::RandomLiteral(ir::Type::Tensor(ElementType::kF32, {5, 2}), rng),
                                     testing::RandomLiteral(ir::Type::Tensor(ElementType::kI1, {5, 8}), rng)};
  auto both = testing::RunOnBoth(text, inputs);
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  for (size_t i = 0; i < both->vulkan.size(); ++i) {
    std::string why;
    EXPECT_TRUE(testing::SameBits(both->vulkan[i], both->reference[i], &why)) << "result " << i << ": " << why;
  }
}

}  // namespace
}  // namespace vkhlo
