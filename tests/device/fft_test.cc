// FFT on the device (device/fft through VkFFT) against the reference interpreter: the
// conformance programs' fft ops, random shapes of all four kinds in both precisions (powers of
// two, odd sizes and primes that VkFFT runs with Bluestein's algorithm, batches, 1-3 dims),
// the plan cache, and the error paths. Also runs under VKHLO_PROFILE=mobile, where complex<f64>
// must fail with a clear error.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "codegen/library/fft_lowering.h"
#include "device/allocator.h"
#include "device/fft/fft_plan.h"
#include "device/transfer.h"
#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::device::fft {
namespace {

using testing::DeviceTest;

FftDescriptor DescriptorOf(const codegen::FftLowering& l) {
  FftDescriptor d;
  switch (l.type) {
    case codegen::FftType::kFft: d.kind = FftKind::kFft; break;
    case codegen::FftType::kIfft: d.kind = FftKind::kIfft; break;
    case codegen::FftType::kRfft: d.kind = FftKind::kRfft; break;
    case codegen::FftType::kIrfft: d.kind = FftKind::kIrfft; break;
  }
  d.precision = l.double_precision ? FftPrecision::kF64 : FftPrecision::kF32;
  d.lengths = l.lengths;
  d.batch = l.batch;
  return d;
}

ir::Operation* FindFft(const ir::Module& module) {
  ir::Operation* found = nullptr;
  ir::WalkOps(module, [&](ir::Operation& op) {
    if (op.code() == ir::OpCode::kFft && found == nullptr) found = &op;
  });
  return found;
}

// Largest |a - b| over the elements, relative to the largest |b| (at least 1): the error of an
// FFT is spread over all outputs in proportion to the input's norm.
double RelativeError(const ir::Literal& got, const ir::Literal& want) {
  const bool f64 = want.type().element_type() == ir::ElementType::kF64 ||
                   want.type().element_type() == ir::ElementType::kC128;
  auto values = [&](const ir::Literal& l) {
    std::vector<double> v;
    auto raw = l.raw();
    if (f64) {
      v.resize(raw.size() / 8);
      std::memcpy(v.data(), raw.data(), raw.size());
    } else {
      std::vector<float> f(raw.size() / 4);
      std::memcpy(f.data(), raw.data(), raw.size());
      v.assign(f.begin(), f.end());
    }
    return v;
  };
  std::vector<double> g = values(got), w = values(want);
  if (g.size() != w.size()) return INFINITY;
  double scale = 1, error = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    scale = std::max(scale, std::abs(w[i]));
    error = std::max(error, std::abs(g[i] - w[i]));
  }
  if (std::any_of(g.begin(), g.end(), [](double x) { return !std::isfinite(x); })) return INFINITY;
  return error / scale;
}

// Tolerance for a transform of N points: a few units of the precision per stage, generous
// enough for Bluestein's algorithm (three transforms of a padded length).
double Tolerance(const FftDescriptor& d) {
  double n = 1;
  for (uint64_t len : d.lengths) n *= static_cast<double>(len);
  const double eps = d.precision == FftPrecision::kF64 ? 2.2e-16 : 1.2e-7;
  return eps * 32 * (std::log2(n + 1) + 4);
}

struct RandomCase {
  std::string kind;               // FFT, IFFT, RFFT, IRFFT
  std::vector<int64_t> batch;     // leading dims
  std::vector<int64_t> lengths;   // fft_length
};

class FftTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!device_) return;
    auto cache = FftPlanCache::Create(dev());
    ASSERT_TRUE(cache.ok()) << cache.status().ToString();
    cache_ = std::move(cache).value();
  }
  void TearDown() override {
    cache_.reset();
    DeviceTest::TearDown();
  }
  bool has_f64() { return dev().capabilities().features.shader_float64; }

  StatusOr<Buffer> Upload(const ir::Literal& literal) {
    VKHLO_ASSIGN_OR_RETURN(Buffer buffer, dev().allocator().Allocate(literal.raw().size()));
    if (!literal.raw().empty()) {
      VKHLO_RETURN_IF_ERROR(
          dev().transfers().Upload(buffer, 0, std::as_bytes(std::span(literal.raw()))));
    }
    return buffer;
  }

  // Runs `op` (a stablehlo.fft) on the device with `operand` and returns the result.
  StatusOr<ir::Literal> RunOnDevice(const ir::Operation& op, const ir::Literal& operand) {
    VKHLO_ASSIGN_OR_RETURN(codegen::FftLowering lowering, codegen::LowerFft(op));
    const FftDescriptor d = DescriptorOf(lowering);
    EXPECT_EQ(d.input_bytes(), lowering.input_bytes);
    EXPECT_EQ(d.output_bytes(), lowering.output_bytes);
    VKHLO_ASSIGN_OR_RETURN(ir::Literal result, ir::Literal::Create(op.result(0)->type()));
    ir::Literal input = operand;
    VKHLO_RETURN_IF_ERROR(input.Expand());
    VKHLO_ASSIGN_OR_RETURN(Buffer in, Upload(input));
    VKHLO_ASSIGN_OR_RETURN(Buffer out, dev().allocator().Allocate(d.output_bytes()));
    VKHLO_ASSIGN_OR_RETURN(CommandList list, CommandList::Begin(dev()));
    VKHLO_RETURN_IF_ERROR(cache_->Record(list, d, in.view(), out.view()));
    VKHLO_ASSIGN_OR_RETURN(Submission done, list.Submit());
    VKHLO_RETURN_IF_ERROR(done.Wait());
    VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> bytes, result.mutable_raw());
    if (!bytes.empty()) {
      VKHLO_RETURN_IF_ERROR(dev().transfers().Download(out, 0, std::as_writable_bytes(bytes)));
    }
    return result;
  }

  std::unique_ptr<FftPlanCache> cache_;

 public:
  // Device vs interpreter on one op and operand; on a device without shaderFloat64, a
  // complex<f64> transform must fail with FAILED_PRECONDITION naming the feature instead.
  void ExpectMatchesInterpreter(const ir::Operation& op, const ir::Literal& operand,
                                const std::string& what) {
    SCOPED_TRACE(what);
    ASSERT_OK_AND_ASSIGN(codegen::FftLowering lowering, codegen::LowerFft(op));
    const FftDescriptor d = DescriptorOf(lowering);
    StatusOr<ir::Literal> got = RunOnDevice(op, operand);
    if (d.precision == FftPrecision::kF64 && !has_f64()) {  // even when empty: a type error
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().code(), StatusCode::kFailedPrecondition);
      EXPECT_NE(got.status().message().find("shaderFloat64"), std::string::npos)
          << got.status().ToString();
      return;
    }
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_OK_AND_ASSIGN(interp::InterpValues want,
                         interp::EvaluateOp(op, {interp::InterpValue::Tensor(operand)}));
    ir::Literal expected = want[0].literal();
    ASSERT_OK(expected.Expand());
    const double error = RelativeError(*got, expected);
    EXPECT_LE(error, Tolerance(d)) << d.ToString();
  }

  void RunRandomCases(const std::vector<RandomCase>& cases, bool f64, uint64_t seed);
};

// A random operand for `type` (uniform in [-1, 1] per real component).
ir::Literal RandomLiteral(const ir::Type& type, std::mt19937_64& rng) {
  auto literal = ir::Literal::Create(type);
  EXPECT_TRUE(literal.ok());
  auto raw = literal->mutable_raw();
  EXPECT_TRUE(raw.ok());
  std::uniform_real_distribution<double> dist(-1, 1);
  const bool f64 = type.element_type() == ir::ElementType::kF64 ||
                   type.element_type() == ir::ElementType::kC128;
  if (f64) {
    for (size_t i = 0; i + 8 <= raw->size(); i += 8) {
      double v = dist(rng);
      std::memcpy(raw->data() + i, &v, 8);
    }
  } else {
    for (size_t i = 0; i + 4 <= raw->size(); i += 4) {
      float v = static_cast<float>(dist(rng));
      std::memcpy(raw->data() + i, &v, 4);
    }
  }
  return std::move(literal).value();
}

std::string TensorType(const std::vector<int64_t>& dims, std::string_view element) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s + std::string(element) + ">";
}

// "func.func @main(%x: ...) { %r = stablehlo.fft %x, type = ..., length = [...] ... }"
std::string FftProgram(const RandomCase& c, bool f64) {
  std::vector<int64_t> real_dims = c.batch;
  real_dims.insert(real_dims.end(), c.lengths.begin(), c.lengths.end());
  std::vector<int64_t> complex_dims = real_dims;
  if (c.kind == "RFFT" || c.kind == "IRFFT") {
    complex_dims.back() = real_dims.back() == 0 ? 0 : real_dims.back() / 2 + 1;
  }
  const std::string real = TensorType(real_dims, f64 ? "f64" : "f32");
  const std::string complex = TensorType(complex_dims, f64 ? "complex<f64>" : "complex<f32>");
  const std::string in = c.kind == "RFFT" ? real : complex;
  const std::string out = c.kind == "IRFFT" ? real : complex;
  std::string lengths;
  for (int64_t n : c.lengths) lengths += (lengths.empty() ? "" : ", ") + std::to_string(n);
  return fmt::format(
      "func.func @main(%x: {0}) -> {1} {{\n"
      "  %r = stablehlo.fft %x, type = {2}, length = [{3}] : ({0}) -> {1}\n"
      "  func.return %r : {1}\n"
      "}}\n",
      in, out, c.kind, lengths);
}

// The fft ops of the conformance programs, each on its own operand.
TEST_F(FftTest, ConformancePrograms) {
  const std::string dir = VKHLO_CONFORMANCE_DIR;
  int ops = 0;
  for (const char* file : {"/interpret/fft.mlir", "/jax/fft_complex128_14_15_0_17.mlir"}) {
    std::ifstream stream(dir + file);
    ASSERT_TRUE(stream) << dir + file;
    std::stringstream buffer;
    buffer << stream.rdbuf();
    const std::string text = buffer.str();
    for (const frontend::SourceChunk& chunk : frontend::SplitInputFile(text)) {
      frontend::ParseOptions options;
      options.source_name = file;
      options.first_line = chunk.first_line;
      ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(chunk.text, options));
      ir::Operation* fft = FindFft(*module);
      if (fft == nullptr) continue;
      // The operand: a constant, or what a called function (JAX's @inputs) returns.
      const ir::Operation* producer = fft->operand(0)->defining_op();
      ASSERT_NE(producer, nullptr);
      interp::InterpValues operand;
      if (producer->code() == ir::OpCode::kConstant) {
        ASSERT_OK_AND_ASSIGN(operand, interp::EvaluateOp(*producer, {}));
      } else {
        ASSERT_EQ(producer->code(), ir::OpCode::kCall);
        const ir::Attribute* callee = producer->attribute("callee");
        const ir::SymbolRef* symbol = callee ? callee->as<ir::SymbolRef>() : nullptr;
        ASSERT_NE(symbol, nullptr);
        ASSERT_OK_AND_ASSIGN(interp::RunResult run, interp::RunFunction(*module, symbol->name, {}));
        operand = run.outputs;
      }
      ASSERT_EQ(operand.size(), 1u);
      ExpectMatchesInterpreter(*fft, operand[0].literal(),
                               fmt::format("{}:{}", file, fft->location().line));
      ops++;
    }
  }
  EXPECT_EQ(ops, 13);
}

void FftTest::RunRandomCases(const std::vector<RandomCase>& cases, bool f64, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (const RandomCase& c : cases) {
    const std::string program = FftProgram(c, f64);
    auto module = frontend::ParseModule(program);
    ASSERT_TRUE(module.ok()) << module.status().ToString() << "\n" << program;
    ir::Operation* fft = FindFft(**module);
    ASSERT_NE(fft, nullptr);
    ir::Literal operand = RandomLiteral(fft->operand(0)->type(), rng);
    ExpectMatchesInterpreter(*fft, operand, program);
  }
}

// Every kind over 1 to 3 dims: powers of two, odd sizes, primes (Bluestein), batches.
std::vector<RandomCase> ShapeCases(const std::string& kind) {
  return {
      {kind, {}, {8}},          {kind, {3}, {5}},        {kind, {2}, {7}},
      {kind, {}, {97}},         {kind, {2}, {100}},      {kind, {}, {1000}},
      {kind, {4}, {1024}},      {kind, {}, {3, 5}},      {kind, {3}, {7, 100}},
      {kind, {}, {16, 97}},     {kind, {}, {3, 5, 7}},   {kind, {2}, {4, 4, 4}},
      {kind, {}, {2, 3, 97}},   {kind, {2, 3}, {6}},
  };
}

// Lengths of 1 and 2, a single element, zero-sized batches and lengths.
TEST_F(FftTest, EdgeSizes) {
  for (const char* kind : {"FFT", "IFFT", "RFFT", "IRFFT"}) {
    RunRandomCases({{kind, {}, {1}}, {kind, {3}, {1}}, {kind, {}, {2}}, {kind, {2}, {1, 5}},
                    {kind, {}, {5, 1}}, {kind, {}, {1, 1, 1}}, {kind, {0}, {4}},
                    {kind, {2}, {0}}, {kind, {}, {3, 0}}},
                   false, 3);
  }
}

TEST_F(FftTest, RandomComplex64) {
  for (const char* kind : {"FFT", "IFFT", "RFFT", "IRFFT"}) RunRandomCases(ShapeCases(kind), false, 1);
}

TEST_F(FftTest, RandomComplex128) {
  for (const char* kind : {"FFT", "IFFT", "RFFT", "IRFFT"}) RunRandomCases(ShapeCases(kind), true, 2);
}

}  // namespace
}  // namespace vkhlo::device::fft
