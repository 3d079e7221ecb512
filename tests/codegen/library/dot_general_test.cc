// dot_general through the library kernels on the device vs the interpreter: random shapes with
// odd sizes, random dimension numbers (batching and contracting dims anywhere, several of
// each), every supported element type, every variant (forced), fused epilogues.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <tuple>

#include "interp/interpreter.h"
#include "codegen/library/epilogue_match.h"
#include "tests/codegen/library/library_test_util.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::testing {
namespace {

using codegen::library::Epilogue;
using codegen::library::PlanOptions;

std::string Dims(const std::vector<int64_t>& d) {
  std::string s;
  for (size_t i = 0; i < d.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", d[i]);
  return s;
}

std::string TensorType(const std::vector<int64_t>& dims, const std::string& element) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += fmt::format("{}x", d);
  return s + element + ">";
}

// A random dot_general: `nb` batching, `nm` lhs free, `nn` rhs free, `nk` contracting dims,
// each operand's dims in a random order.
struct DotCase {
  std::string mlir;
  std::vector<int64_t> lhs_dims, rhs_dims, result_dims;
  int64_t k = 1;
};

DotCase MakeDot(std::mt19937_64& rng, const std::vector<int64_t>& sizes, int nb, int nm, int nn, int nk,
                const std::string& lt, const std::string& rt, const std::string& ot) {
  auto pick = [&] { return sizes[rng() % sizes.size()]; };
  std::vector<int64_t> b(nb), m(nm), n(nn), k(nk);
  for (auto& x : b) x = pick();
  for (auto& x : m) x = pick();
  for (auto& x : n) x = pick();
  for (auto& x : k) x = pick();
  // Operand dim slots: kinds 0 batch, 1 free, 2 contracting.
  auto layout = [&](const std::vector<int64_t>& free) {
    std::vector<std::pair<int, int>> slots;  // (kind, index)
    for (int i = 0; i < nb; ++i) slots.push_back({0, i});
    for (size_t i = 0; i < free.size(); ++i) slots.push_back({1, static_cast<int>(i)});
    for (int i = 0; i < nk; ++i) slots.push_back({2, i});
    std::shuffle(slots.begin(), slots.end(), rng);
    return slots;
  };
  DotCase c;
  std::vector<int64_t> lb(nb), lc(nk), rb(nb), rc(nk);
  auto ls = layout(m), rs = layout(n);
  for (size_t d = 0; d < ls.size(); ++d) {
    auto [kind, i] = ls[d];
    c.lhs_dims.push_back(kind == 0 ? b[i] : kind == 1 ? m[i] : k[i]);
    if (kind == 0) lb[i] = static_cast<int64_t>(d);
    if (kind == 2) lc[i] = static_cast<int64_t>(d);
  }
  for (size_t d = 0; d < rs.size(); ++d) {
    auto [kind, i] = rs[d];
    c.rhs_dims.push_back(kind == 0 ? b[i] : kind == 1 ? n[i] : k[i]);
    if (kind == 0) rb[i] = static_cast<int64_t>(d);
    if (kind == 2) rc[i] = static_cast<int64_t>(d);
  }
  // The result: batch dims in batching order, then each operand's free dims in its own order.
  c.result_dims = b;
  for (size_t d = 0; d < ls.size(); ++d) {
    if (ls[d].first == 1) c.result_dims.push_back(c.lhs_dims[d]);
  }
  for (size_t d = 0; d < rs.size(); ++d) {
    if (rs[d].first == 1) c.result_dims.push_back(c.rhs_dims[d]);
  }
  for (int64_t x : k) c.k *= x;
  const std::string lty = TensorType(c.lhs_dims, lt), rty = TensorType(c.rhs_dims, rt), oty = TensorType(c.result_dims, ot);
  c.mlir = fmt::format(
      "func.func @main(%a: {0}, %b: {1}) -> {2} {{\n"
      "  %0 = stablehlo.dot_general %a, %b, batching_dims = [{3}] x [{4}], contracting_dims = [{5}] x [{6}] : ({0}, {1}) -> {2}\n"
      "  func.return %0 : {2}\n}}\n",
      lty, rty, oty, Dims(lb), Dims(rb), Dims(lc), Dims(rc));
  return c;
}

class DotGeneralTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (device_) target_ = TargetFromDevice(*device_);
  }

  // Runs the case through `options` (a forced config or the choice) and compares.
  // `mlir`: a product, + a bias of `channels`, relu. Runs it with that epilogue fused (both ops
  // absorbed) against the interpreter, products of `k` terms; `fused` gets the plan.
  void CheckBiasRelu(const std::string& mlir, int64_t channels, int64_t k, codegen::library::LibraryPlan* fused) {
    ASSERT_OK_AND_ASSIGN(ParsedOp with_bias, ParseOp(mlir, ir::OpCode::kDotGeneral));
    std::vector<ir::Literal> operands = {RandomLiteral(with_bias.op->operand(0)->type(), rng_),
                                         RandomLiteral(with_bias.op->operand(1)->type(), rng_)};
    std::vector<ir::Literal> bias = {RandomLiteral(ir::Type::Tensor(ir::ElementType::kF32, {channels}), rng_)};
    interp::InterpValues values = {interp::InterpValue::Tensor(operands[0]), interp::InterpValue::Tensor(operands[1]),
                                   interp::InterpValue::Tensor(bias[0])};
    ASSERT_OK_AND_ASSIGN(interp::RunResult expected, interp::RunFunction(*with_bias.module, "main", values));
    const codegen::library::FusedEpilogue e = codegen::library::MatchEpilogue(*with_bias.op->parent_block(), *with_bias.op);
    ASSERT_EQ(e.fused.size(), 2u);
    ASSERT_OK_AND_ASSIGN(*fused, codegen::library::PlanDotGeneral(*with_bias.op, target_, e.epilogue));
    ASSERT_OK_AND_ASSIGN(ir::Literal actual, RunPlan(dev(), TestCompiler(), target_, *fused, operands, bias));
    EXPECT_EQ(Compare(expected.outputs[0].literal(), actual, k), "");
  }

  void Check(const DotCase& c, const PlanOptions& options, const Epilogue& epilogue = {},
             const std::vector<ir::Literal>& epilogue_inputs = {}, const ir::Literal* expected_override = nullptr) {
    SCOPED_TRACE(c.mlir + "config " + (options.force_config.empty() ? "chosen" : options.force_config) +
                 (options.force_split_k ? fmt::format(" split {}", options.force_split_k) : ""));
    ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(c.mlir, ir::OpCode::kDotGeneral));
    std::vector<ir::Literal> operands = {RandomLiteral(parsed.op->operand(0)->type(), rng_),
                                         RandomLiteral(parsed.op->operand(1)->type(), rng_)};
    ASSERT_OK_AND_ASSIGN(ir::Literal expected, Reference(*parsed.op, operands));
    ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanDotGeneral(*parsed.op, target_, epilogue, options));
    SCOPED_TRACE(plan.summary);
    ASSERT_OK_AND_ASSIGN(ir::Literal actual, RunPlan(dev(), TestCompiler(), target_, plan, operands, epilogue_inputs));
    (void)expected_override;
    EXPECT_EQ(Compare(expected, actual, c.k), "");
  }

  void TearDown() override {
    const auto st = TestCompiler().stats();
    std::printf("compiler: %llu compiles, %llu memory hits, %llu disk hits; glslang %.0f ms, spirv-val %.0f ms, spirv-opt %.0f ms\n",
                (unsigned long long)st.compiles, (unsigned long long)st.memory_hits, (unsigned long long)st.disk_hits,
                st.compile_ms, st.validate_ms, st.optimize_ms);
    DeviceTest::TearDown();
  }

  codegen::TargetInfo target_;
  std::mt19937_64 rng_{12345};
};

TEST_F(DotGeneralTest, PlainMatmulF32EveryVariant) {
  std::mt19937_64 rng(1);
  const DotCase c = MakeDot(rng, {33}, 0, 1, 1, 1, "f32", "f32", "f32");
  Check(c, {});
  for (const char* config : {"cpu.regtile_16x16", "cpu.regtile_8x16", "cpu.regtile_4x8", "generic.shared_32x32",
                             "generic.dot_per_output_64"}) {
    Check(c, {.force_config = config});
  }
  Check(c, {.force_config = "cpu.regtile_4x8", .force_split_k = 3});
  Check(c, {.force_config = "generic.shared_32x32", .force_split_k = 2});
}

TEST_F(DotGeneralTest, RandomDimensionNumbersF32) {
  std::mt19937_64 rng(2);
  const std::vector<int64_t> sizes = {1, 3, 7, 33, 100};
  int cases = 0;
  while (cases < 24) {
    const int nb = static_cast<int>(rng() % 3), nm = static_cast<int>(rng() % 3), nn = static_cast<int>(rng() % 3),
              nk = static_cast<int>(rng() % 3);
    DotCase c = MakeDot(rng, sizes, nb, nm, nn, nk, "f32", "f32", "f32");
    int64_t work = c.k;
    for (int64_t d : c.result_dims) work *= d;
    if (work > 2000000) continue;
    ++cases;
    const char* configs[] = {"", "cpu.regtile_8x16", "cpu.regtile_4x8", "generic.shared_32x32"};
    Check(c, {.force_config = configs[cases % 4]});
  }
}

struct TypeCase {
  const char* lhs;
  const char* rhs;
  const char* result;
};

// Every supported element type combination, through the chosen kernel and the shared-memory
// one; on a device without the type's feature, the plan is a clear error instead.
TEST_F(DotGeneralTest, ElementTypes) {
  const TypeCase cases[] = {
      {"f32", "f32", "f32"},         {"f64", "f64", "f64"},       {"f32", "f32", "f64"},
      {"bf16", "bf16", "f32"},       {"bf16", "bf16", "bf16"},     {"f16", "f16", "f16"},
      {"f16", "f16", "f32"},         {"i32", "i32", "i32"},        {"i8", "i8", "i32"},
      {"ui8", "ui8", "ui32"},        {"i16", "i16", "i16"},        {"ui32", "ui32", "ui32"},
      {"i64", "i64", "i64"},         {"ui64", "ui64", "ui64"},     {"i1", "i1", "i1"},
      {"i8", "i8", "i8"},            {"complex<f32>", "complex<f32>", "complex<f32>"},
      {"complex<f64>", "complex<f64>", "complex<f64>"},
      // Integers into a float result (JAX's preferred_element_type): converted, then summed.
      {"i64", "i64", "f64"},         {"ui64", "ui64", "f64"},      {"ui64", "ui64", "f32"},
      {"i32", "i32", "f32"},
  };
  std::vector<TypeCase> all(std::begin(cases), std::end(cases));
  // f8 formats decode through the GLSL library's codecs (shaders/library/hlo_float_codec.glsl).
  all.push_back({"f8E4M3FN", "f8E4M3FN", "f32"});
  all.push_back({"f8E5M2", "f8E5M2", "bf16"});
  all.push_back({"f8E4M3FNUZ", "f8E4M3FNUZ", "f8E4M3FNUZ"});
  for (const TypeCase& t : all) {
    std::mt19937_64 rng(std::hash<std::string>()(t.lhs) ^ std::hash<std::string>()(t.result));
    const DotCase c = MakeDot(rng, {3, 7, 33}, 1, 1, 1, 1, t.lhs, t.rhs, t.result);
    const std::string types = std::string(t.lhs) + t.rhs + t.result;
    const bool needs_f64 = types.find("f64") != std::string::npos;
    // (64-bit integers are emulated as uvec2 pairs without shaderInt64: hlo_i64.glsl.)
    if (needs_f64 && !target_.shader_float64) {
      ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(c.mlir, ir::OpCode::kDotGeneral));
      auto plan = codegen::library::PlanDotGeneral(*parsed.op, target_);
      ASSERT_FALSE(plan.ok()) << types;
      EXPECT_EQ(plan.status().code(), StatusCode::kUnimplemented);
      EXPECT_NE(plan.status().message().find("shaderFloat64"), std::string::npos) << plan.status().ToString();
      EXPECT_NE(plan.status().message().find("stablehlo.dot_general"), std::string::npos);
      continue;
    }
    // Small forced tiles keep the kernels (and the driver's compile time) small.
    Check(c, {.force_config = "cpu.regtile_4x8"});
    Check(c, {.force_config = "generic.shared_32x32"});
  }
}

// A literal of `type` whose integer elements are drawn from the 64-bit word-boundary values
// (INT64_MIN, INT64_MAX, -1, 0, 1, 2^32, 2^32 - 1, 2^31, ...) and random 64-bit values, so that
// products and sums wrap and carry across the words of an emulated pair.
ir::Literal EdgeLiteral(const ir::Type& type, std::mt19937_64& rng) {
  static const int64_t kEdges[] = {INT64_MIN,
                                   INT64_MAX,
                                   -1,
                                   0,
                                   1,
                                   int64_t{1} << 32,
                                   (int64_t{1} << 32) - 1,
                                   -(int64_t{1} << 32),
                                   int64_t{1} << 31,
                                   (int64_t{1} << 31) - 1,
                                   -(int64_t{1} << 31),
                                   int64_t{0x7fffffff00000000},
                                   3};
  auto literal = ir::Literal::Create(type);
  EXPECT_TRUE(literal.ok());
  for (int64_t i = 0; i < type.num_elements(); ++i) {
    const uint64_t r = rng();
    literal->SetInt(i, r % 3 == 0 ? static_cast<int64_t>(rng()) : kEdges[r % std::size(kEdges)]);
  }
  return std::move(*literal);
}

// 64-bit integer products (i64, ui64, i32 x i32 -> i64) and convolutions with wrapping
// products and carries across the 32-bit words: exact against the interpreter on every variant,
// including split-K (partial sums through scratch) and fused epilogues. Without shaderInt64
// (VKHLO_PROFILE=mobile) they run on uvec2 pairs and the kernels never mention a 64-bit type.
TEST_F(DotGeneralTest, Int64WrappingEdgeValues) {
  auto check_glsl = [&](const codegen::library::LibraryPlan& plan) {
    if (target_.shader_int64) return;
    for (const auto& d : plan.dispatches) {
      for (const char* word : {"int64_t", "uint64_t", "GL_ARB_gpu_shader_int64", "u64vec", "i64vec",
                               "GL_EXT_shader_explicit_arithmetic_types_int64"}) {
        EXPECT_EQ(d.glsl.find(word), std::string::npos) << word << " in " << d.name << ":\n" << d.glsl;
      }
    }
  };
  auto run = [&](const std::string& mlir, ir::OpCode code, const PlanOptions& options, const Epilogue& epilogue = {},
                 int extra_inputs = 0) {
    SCOPED_TRACE(mlir + "config " + (options.force_config.empty() ? "chosen" : options.force_config) +
                 (options.force_split_k ? fmt::format(" split {}", options.force_split_k) : ""));
    ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(mlir, code));
    const ir::Operation& op = *parsed.op;
    std::vector<ir::Literal> operands = {EdgeLiteral(op.operand(0)->type(), rng_), EdgeLiteral(op.operand(1)->type(), rng_)};
    std::vector<ir::Literal> inputs;
    const ir::Block& fn = *parsed.op->parent_block();
    for (int i = 0; i < extra_inputs; ++i) inputs.push_back(EdgeLiteral(fn.argument(2 + i)->type(), rng_));
    ir::Literal expected;
    if (extra_inputs == 0) {
      ASSERT_OK_AND_ASSIGN(expected, Reference(op, operands));
    } else {
      interp::InterpValues values = {interp::InterpValue::Tensor(operands[0]), interp::InterpValue::Tensor(operands[1])};
      for (const auto& in : inputs) values.push_back(interp::InterpValue::Tensor(in));
      ASSERT_OK_AND_ASSIGN(interp::RunResult result, interp::RunFunction(*parsed.module, "main", values));
      expected = result.outputs[0].literal();
    }
    auto plan_or = code == ir::OpCode::kConvolution ? codegen::library::PlanConvolution(op, target_, epilogue, options)
                                                    : codegen::library::PlanDotGeneral(op, target_, epilogue, options);
    ASSERT_OK_AND_ASSIGN(auto plan, std::move(plan_or));
    SCOPED_TRACE(plan.summary);
    if (!target_.shader_int64) {
      EXPECT_NE(plan.summary.find("acc=i64pair"), std::string::npos);
    }
    check_glsl(plan);
    ASSERT_OK_AND_ASSIGN(ir::Literal actual, RunPlan(dev(), TestCompiler(), target_, plan, operands, inputs));
    EXPECT_EQ(Compare(expected, actual, 1), "");
  };
  // The chain after the op as MatchEpilogue finds it (what fusion absorbs), fused into the
  // kernel, against the interpreter running the whole function; `ops` ops must be absorbed.
  auto run_fused = [&](const std::string& mlir, size_t ops) {
    SCOPED_TRACE(mlir);
    ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(mlir, ir::OpCode::kDotGeneral));
    const ir::Block& block = *parsed.op->parent_block();
    std::vector<ir::Literal> args;
    interp::InterpValues values;
    for (size_t i = 0; i < block.num_arguments(); ++i) {
      args.push_back(EdgeLiteral(block.argument(i)->type(), rng_));
      values.push_back(interp::InterpValue::Tensor(args.back()));
    }
    ASSERT_OK_AND_ASSIGN(interp::RunResult expected, interp::RunFunction(*parsed.module, "main", values));
    const codegen::library::FusedEpilogue match = codegen::library::MatchEpilogue(block, *parsed.op);
    ASSERT_EQ(match.fused.size(), ops);
    std::vector<ir::Literal> inputs;
    for (const ir::Value* v : match.inputs) {
      ASSERT_TRUE(v->is_block_argument());
      inputs.push_back(args[static_cast<size_t>(v->index())]);
    }
    const std::vector<ir::Literal> operands = {args[0], args[1]};
    for (const char* config : {"cpu.regtile_4x8", "generic.shared_32x32"}) {
      ASSERT_OK_AND_ASSIGN(auto plan,
                           codegen::library::PlanDotGeneral(*parsed.op, target_, match.epilogue, {.force_config = config}));
      check_glsl(plan);
      ASSERT_OK_AND_ASSIGN(ir::Literal actual, RunPlan(dev(), TestCompiler(), target_, plan, operands, inputs));
      EXPECT_EQ(Compare(expected.outputs[0].literal(), actual, 1), "") << config;
    }
  };
  // Converts after 64-bit (and into 64-bit) products: ui64 reads as unsigned, ui32 widens
  // with zeros, i32 with its sign, floats saturate into 64 bits.
  for (const auto& [in, out] : {std::pair{"i64", "f32"}, std::pair{"ui64", "f32"}, std::pair{"i64", "i32"},
                                std::pair{"ui64", "i1"}, std::pair{"ui32", "ui64"}, std::pair{"i32", "i64"},
                                std::pair{"ui32", "i64"}, std::pair{"i64", "ui64"}}) {
    run_fused(fmt::format(R"(func.func @main(%a: tensor<5x9x{0}>, %b: tensor<9x7x{0}>) -> tensor<5x7x{1}> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<5x9x{0}>, tensor<9x7x{0}>) -> tensor<5x7x{0}>
  %1 = stablehlo.convert %0 : (tensor<5x7x{0}>) -> tensor<5x7x{1}>
  func.return %1 : tensor<5x7x{1}>
}})", in, out), 1);
  }
  for (const char* t : {"i64", "ui64"}) {
    const std::string ty = t;
    const std::string mlir = fmt::format(R"(func.func @main(%a: tensor<2x9x37x{0}>, %b: tensor<2x37x11x{0}>) -> tensor<2x9x11x{0}> {{
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x9x37x{0}>, tensor<2x37x11x{0}>) -> tensor<2x9x11x{0}>
  func.return %0 : tensor<2x9x11x{0}>
}})", ty);
    run(mlir, ir::OpCode::kDotGeneral, {});
    run(mlir, ir::OpCode::kDotGeneral, {.force_config = "cpu.regtile_4x8"});
    run(mlir, ir::OpCode::kDotGeneral, {.force_config = "generic.shared_32x32"});
    run(mlir, ir::OpCode::kDotGeneral, {.force_config = "generic.dot_per_output_64"});
    run(mlir, ir::OpCode::kDotGeneral, {.force_config = "cpu.regtile_4x8", .force_split_k = 3});
    run(mlir, ir::OpCode::kDotGeneral, {.force_config = "generic.shared_32x32", .force_split_k = 2});
    // A fused epilogue in the 64-bit type: bias add (broadcast), subtract, maximum, minimum,
    // multiply, each wrapping or ordered (signed or unsigned) as the unfused ops.
    const std::string fused = fmt::format(R"(func.func @main(%a: tensor<9x37x{0}>, %b: tensor<37x11x{0}>, %bias: tensor<11x{0}>, %c: tensor<9x11x{0}>) -> tensor<9x11x{0}> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<9x37x{0}>, tensor<37x11x{0}>) -> tensor<9x11x{0}>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<11x{0}>) -> tensor<9x11x{0}>
  %2 = stablehlo.add %0, %1 : tensor<9x11x{0}>
  %3 = stablehlo.subtract %2, %c : tensor<9x11x{0}>
  %4 = stablehlo.maximum %3, %c : tensor<9x11x{0}>
  %5 = stablehlo.minimum %4, %1 : tensor<9x11x{0}>
  %6 = stablehlo.multiply %5, %c : tensor<9x11x{0}>
  func.return %6 : tensor<9x11x{0}>
}})", ty);
    run_fused(fused, 5);
    // 64-bit integers into f32 (a float result): ui64 converts as unsigned.
    const std::string to_f32 = fmt::format(R"(func.func @main(%a: tensor<5x7x{0}>, %b: tensor<7x6x{0}>) -> tensor<5x6xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<5x7x{0}>, tensor<7x6x{0}>) -> tensor<5x6xf32>
  func.return %0 : tensor<5x6xf32>
}})", ty);
    {
      SCOPED_TRACE(to_f32);
      ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(to_f32, ir::OpCode::kDotGeneral));
      std::vector<ir::Literal> operands = {EdgeLiteral(parsed.op->operand(0)->type(), rng_),
                                           EdgeLiteral(parsed.op->operand(1)->type(), rng_)};
      ASSERT_OK_AND_ASSIGN(ir::Literal expected, Reference(*parsed.op, operands));
      ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanDotGeneral(*parsed.op, target_, {}, {.force_config = "cpu.regtile_4x8"}));
      check_glsl(plan);
      ASSERT_OK_AND_ASSIGN(ir::Literal actual, RunPlan(dev(), TestCompiler(), target_, plan, operands));
      EXPECT_EQ(Compare(expected, actual, 7, 1e38), "");
    }
  }
  // Mixed widths: i32 x i32 -> i64 (sign-extended before the product), ui32 x ui32 -> ui64
  // (zero-extended), i8 x i16 -> i64.
  for (const auto& [lt, rt, ot] : {std::tuple{"i32", "i32", "i64"}, std::tuple{"ui32", "ui32", "ui64"},
                                   std::tuple{"i8", "i16", "i64"}, std::tuple{"i1", "i1", "i64"}}) {
    std::mt19937_64 rng(std::hash<std::string>()(std::string(lt) + ot));
    const DotCase c = MakeDot(rng, {3, 8, 33}, 1, 1, 1, 1, lt, rt, ot);
    ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(c.mlir, ir::OpCode::kDotGeneral));
    if (!Reference(*parsed.op, {RandomLiteral(parsed.op->operand(0)->type(), rng_),
                                RandomLiteral(parsed.op->operand(1)->type(), rng_)})
             .ok()) {
      std::printf("%s x %s -> %s: the interpreter does not take it, skipped\n", lt, rt, ot);
      continue;
    }
    Check(c, {.force_config = "cpu.regtile_4x8"});
    Check(c, {.force_config = "generic.shared_32x32", .force_split_k = 2});
  }
  // Convolution: implicit GEMM (padding, dilation, feature groups) and the direct kernel.
  for (const char* t : {"i64", "ui64"}) {
    const std::string conv = fmt::format(R"(func.func @main(%x: tensor<2x7x6x4x{0}>, %k: tensor<3x2x2x6x{0}>) -> tensor<2x4x5x6x{0}> {{
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [2, 1], pad = [[1, 2], [1, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 2]}} {{batch_group_count = 1 : i64, feature_group_count = 2 : i64}} : (tensor<2x7x6x4x{0}>, tensor<3x2x2x6x{0}>) -> tensor<2x4x5x6x{0}>
  func.return %0 : tensor<2x4x5x6x{0}>
}})", t);
    run(conv, ir::OpCode::kConvolution, {});
    run(conv, ir::OpCode::kConvolution, {.force_config = "cpu.regtile_4x8"});
    run(conv, ir::OpCode::kConvolution, {.force_config = "generic.shared_32x32", .force_split_k = 2});
    run(conv, ir::OpCode::kConvolution, {.force_config = "direct"});
    const std::string depthwise = fmt::format(R"(func.func @main(%x: tensor<1x6x6x8x{0}>, %k: tensor<3x3x1x8x{0}>) -> tensor<1x6x6x8x{0}> {{
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [1, 1], pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 8 : i64}} : (tensor<1x6x6x8x{0}>, tensor<3x3x1x8x{0}>) -> tensor<1x6x6x8x{0}>
  func.return %0 : tensor<1x6x6x8x{0}>
}})", t);
    run(depthwise, ir::OpCode::kConvolution, {});
  }
}

// Split-K and the matrix-vector kernels on shapes that choose them, and forced elsewhere.
TEST_F(DotGeneralTest, SplitKAndMatrixVector) {
  std::mt19937_64 rng(3);
  DotCase tall = MakeDot(rng, {3}, 0, 1, 1, 1, "f32", "f32", "f32");
  tall.mlir = R"(func.func @main(%a: tensor<5x3000xf32>, %b: tensor<3000x3xf32>) -> tensor<5x3xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<5x3000xf32>, tensor<3000x3xf32>) -> tensor<5x3xf32>
  func.return %0 : tensor<5x3xf32>
})";
  tall.k = 3000;
  Check(tall, {});
  Check(tall, {.force_config = "generic.shared_32x32", .force_split_k = 4});
  Check(tall, {.force_config = "cpu.regtile_4x8", .force_split_k = 5});
  DotCase mv = tall;
  mv.mlir = R"(func.func @main(%a: tensor<2x100x333xf32>, %b: tensor<2x333xf32>) -> tensor<2x100xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x100x333xf32>, tensor<2x333xf32>) -> tensor<2x100xf32>
  func.return %0 : tensor<2x100xf32>
})";
  mv.k = 333;
  Check(mv, {});
  Check(mv, {.force_config = "generic.dot_per_output_64"});
  Check(mv, {.force_config = "cpu.regtile_8x1"});
  DotCase vm = tall;
  vm.mlir = R"(func.func @main(%a: tensor<64xi32>, %b: tensor<64x41xi32>) -> tensor<41xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<64xi32>, tensor<64x41xi32>) -> tensor<41xi32>
  func.return %0 : tensor<41xi32>
})";
  vm.k = 64;
  Check(vm, {});
  Check(vm, {.force_config = "cpu.regtile_1x8"});
  Check(vm, {.force_config = "generic.dot_per_output_64"});
}

// The packed kernel of CPU drivers (panels read as texel buffers) around its tile edges (rows
// by 8, columns by 4 per lane, K by the subgroup size), with random dimension numbers
// (transposed and batched operands), f16/bf16 inputs and a fused epilogue; on devices it does
// not fit (no rgba32f texel buffers or shuffles, another subgroup size) it is not offered.
// The CPU table's packed entry for this device's SIMD width (its subgroup size), or why the
// device cannot run it (PackedFits: no rgba32f storage texel buffers, no subgroup shuffles, or
// a subgroup size with no table entry).
StatusOr<std::string> PackedConfigFor(const codegen::TargetInfo& target) {
  const codegen::library::TileConfig* packed = nullptr;
  for (const auto& c : codegen::library::ConfigTable(codegen::library::DeviceClass::kCpu)) {
    if (packed == nullptr && c.variant == codegen::library::MatmulVariant::kPacked && c.wg_x == target.subgroup_size) {
      packed = &c;
    }
  }
  const std::string config = packed != nullptr ? packed->name : fmt::format("a packed entry of {} lanes", target.subgroup_size);
  std::string why = "no such table entry";
  if (packed == nullptr || !codegen::library::ConfigFits(*packed, codegen::library::AccKind::kF32, target, &why)) {
    return UnimplementedError(
        fmt::format("{} does not fit {} (profile {}): {}", config, target.device_name, target.profile, why));
  }
  return config;
}

TEST_F(DotGeneralTest, PackedPanels) {
  StatusOr<std::string> packed = PackedConfigFor(target_);
  if (!packed.ok()) GTEST_SKIP() << packed.status().message();
  const std::string config = *packed;
  std::mt19937_64 rng(7);
  const std::vector<int64_t> sizes = {1, 3, 7, 9, 33, 100};
  int cases = 0;
  while (cases < 16) {
    const int nb = static_cast<int>(rng() % 2), nm = 1 + static_cast<int>(rng() % 2), nn = 1 + static_cast<int>(rng() % 2),
              nk = 1 + static_cast<int>(rng() % 2);
    const char* types[][3] = {{"f32", "f32", "f32"}, {"f16", "f16", "f32"}, {"bf16", "bf16", "bf16"}, {"f16", "f16", "f16"}};
    const auto& ty = types[cases % 4];
    DotCase c = MakeDot(rng, sizes, nb, nm, nn, nk, ty[0], ty[1], ty[2]);
    int64_t work = c.k;
    for (int64_t d : c.result_dims) work *= d;
    if (work > 3000000) continue;
    ++cases;
    Check(c, {.force_config = config});
  }
  // A size that is a multiple of every tile edge, one that misses each by one, and the chosen
  // kernel on a shape large enough to pick the packed one by itself.
  for (int64_t n : {64, 65, 63}) {
    DotCase c;
    c.mlir = fmt::format(R"(func.func @main(%a: tensor<{0}x{1}xf32>, %b: tensor<{1}x{2}xf32>) -> tensor<{0}x{2}xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<{0}x{1}xf32>, tensor<{1}x{2}xf32>) -> tensor<{0}x{2}xf32>
  func.return %0 : tensor<{0}x{2}xf32>
}})", n + 1, n - 1, n);
    c.k = n - 1;
    Check(c, {.force_config = config});
  }
  // Every pack path: operands whose panel texels are operand texels (A stored [K, M], B [K, N])
  // are copied, those with 4 contiguous k (A [M, K], B [N, K]) transposed in 4x4 blocks; f16
  // operands are read element by element.
  for (int layout = 0; layout < 4; ++layout) {
    for (const char* type : {"f32", "f16"}) {
      const bool a_km = layout & 1, b_nk = layout & 2;
      const std::string at = fmt::format("tensor<2x{}x{}x{}>", a_km ? 44 : 36, a_km ? 36 : 44, type);
      const std::string bt = fmt::format("tensor<2x{}x{}x{}>", b_nk ? 40 : 44, b_nk ? 44 : 40, type);
      DotCase c;
      c.mlir = fmt::format(R"(func.func @main(%a: {0}, %b: {1}) -> tensor<2x36x40xf32> {{
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [{2}] x [{3}] : ({0}, {1}) -> tensor<2x36x40xf32>
  func.return %0 : tensor<2x36x40xf32>
}})", at, bt, a_km ? 1 : 2, b_nk ? 2 : 1);
      c.k = 44;
      Check(c, {.force_config = config});
      ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(c.mlir, ir::OpCode::kDotGeneral));
      ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanDotGeneral(*parsed.op, target_, {}, {.force_config = config}));
      ASSERT_EQ(plan.dispatches.size(), 3u);
      const bool f32 = std::string(type) == "f32";
      for (int x = 0; x < 2; ++x) {
        const std::string& glsl = plan.dispatches[static_cast<size_t>(x)].glsl;
        EXPECT_EQ(glsl.find("rgba32f) readonly uniform imageBuffer") != std::string::npos, f32) << glsl;
        const bool transposed = x == 0 ? !a_km : b_nk;
        EXPECT_EQ(glsl.find("vec4 t3") != std::string::npos, f32 && transposed) << glsl;
      }
      // An f32 result of 40 columns: each lane stores its 4 columns of a row as one vector.
      EXPECT_NE(plan.dispatches[2].glsl.find("store_c4(b, m0"), std::string::npos) << plan.dispatches[2].glsl;
    }
  }
  DotCase big;
  big.mlir = R"(func.func @main(%a: tensor<2x130x257xf32>, %b: tensor<2x257x100xf32>) -> tensor<2x130x100xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x130x257xf32>, tensor<2x257x100xf32>) -> tensor<2x130x100xf32>
  func.return %0 : tensor<2x130x100xf32>
})";
  big.k = 257;
  ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(big.mlir, ir::OpCode::kDotGeneral));
  ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanDotGeneral(*parsed.op, target_));
  EXPECT_EQ(plan.config.variant, codegen::library::MatmulVariant::kPacked) << plan.summary;
  Check(big, {});
  codegen::library::LibraryPlan fused;
  CheckBiasRelu(R"(func.func @main(%a: tensor<2x130x257xf32>, %b: tensor<2x257x100xf32>, %bias: tensor<100xf32>) -> tensor<2x130x100xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x130x257xf32>, tensor<2x257x100xf32>) -> tensor<2x130x100xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [2] : (tensor<100xf32>) -> tensor<2x130x100xf32>
  %2 = stablehlo.add %0, %1 : tensor<2x130x100xf32>
  %3 = stablehlo.constant dense<0.0> : tensor<2x130x100xf32>
  %4 = stablehlo.maximum %2, %3 : tensor<2x130x100xf32>
  func.return %4 : tensor<2x130x100xf32>
})", 100, 257, &fused);
  EXPECT_EQ(fused.config.variant, codegen::library::MatmulVariant::kPacked) << fused.summary;
  EXPECT_EQ(fused.dispatches.size(), 3u) << "two packs and the product with the epilogue fused";
}

// A product of few row tiles (a small batch through a big weight) reads B through a texel
// view of B itself: no B panels, no copy (TileConfig::direct_b). Columns past N (N not a
// multiple of a panel) read valid texels of the row and are never stored; batches, an epilogue.
TEST_F(DotGeneralTest, PackedReadsBInPlaceForFewRowTiles) {
  StatusOr<std::string> packed = PackedConfigFor(target_);
  if (!packed.ok()) GTEST_SKIP() << packed.status().message();
  struct Shape {
    int64_t batch, m, k, n;
  };
  for (const Shape& s : {Shape{1, 24, 64, 1000}, Shape{3, 30, 80, 520}, Shape{1, 64, 256, 1024}}) {
    const std::string batch = s.batch > 1 ? fmt::format("{}x", s.batch) : "";
    DotCase c;
    c.mlir = fmt::format(R"(func.func @main(%a: tensor<{0}{1}x{2}xf32>, %b: tensor<{0}{2}x{3}xf32>) -> tensor<{0}{1}x{3}xf32> {{
  %0 = stablehlo.dot_general %a, %b, {4}contracting_dims = [{5}] x [{6}] : (tensor<{0}{1}x{2}xf32>, tensor<{0}{2}x{3}xf32>) -> tensor<{0}{1}x{3}xf32>
  func.return %0 : tensor<{0}{1}x{3}xf32>
}})", batch, s.m, s.k, s.n, s.batch > 1 ? "batching_dims = [0] x [0], " : "", s.batch > 1 ? 2 : 1, s.batch > 1 ? 1 : 0);
    c.k = s.k;
    ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(c.mlir, ir::OpCode::kDotGeneral));
    ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanDotGeneral(*parsed.op, target_));
    EXPECT_TRUE(plan.config.direct_b) << plan.summary;
    ASSERT_EQ(plan.dispatches.size(), 2u) << "A's pack and the product: " << plan.summary;
    EXPECT_EQ(plan.scratch_bytes.size(), 1u);
    Check(c, {});
  }
  // With a bias and relu fused: the epilogue reads its inputs beside B's view.
  codegen::library::LibraryPlan fused;
  CheckBiasRelu(R"(func.func @main(%a: tensor<20x128xf32>, %b: tensor<128x700xf32>, %bias: tensor<700xf32>) -> tensor<20x700xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<20x128xf32>, tensor<128x700xf32>) -> tensor<20x700xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<700xf32>) -> tensor<20x700xf32>
  %2 = stablehlo.add %0, %1 : tensor<20x700xf32>
  %3 = stablehlo.constant dense<0.0> : tensor<20x700xf32>
  %4 = stablehlo.maximum %2, %3 : tensor<20x700xf32>
  func.return %4 : tensor<20x700xf32>
})", 700, 128, &fused);
  EXPECT_TRUE(fused.config.direct_b) << fused.summary;
}

// K = 0 (an empty contraction) gives zeros; empty results give no dispatch.
TEST_F(DotGeneralTest, EmptyShapes) {
  DotCase c;
  c.mlir = R"(func.func @main(%a: tensor<3x0xf32>, %b: tensor<0x5xf32>) -> tensor<3x5xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x0xf32>, tensor<0x5xf32>) -> tensor<3x5xf32>
  func.return %0 : tensor<3x5xf32>
})";
  c.k = 0;
  Check(c, {});
  ASSERT_OK_AND_ASSIGN(ParsedOp parsed, ParseOp(R"(func.func @main(%a: tensor<0x4xf32>, %b: tensor<4x5xf32>) -> tensor<0x5xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<0x4xf32>, tensor<4x5xf32>) -> tensor<0x5xf32>
  func.return %0 : tensor<0x5xf32>
})", ir::OpCode::kDotGeneral));
  ASSERT_OK_AND_ASSIGN(auto plan, codegen::library::PlanDotGeneral(*parsed.op, target_));
  EXPECT_TRUE(plan.dispatches.empty());
}

}  // namespace
}  // namespace vkhlo::testing
