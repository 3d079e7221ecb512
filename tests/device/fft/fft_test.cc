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
#include "device/fft/fft_staged.h"
#include "device/transfer.h"
#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "tests/support/device_fixture.h"
#include "tests/support/fft_programs.h"
#include "tests/support/program_text.h"

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

// Tolerance for a transform of N points: a few units of the precision per stage. On lavapipe
// the largest error seen over these cases, Bluestein's included, is 0.2 of it (f64 [1000]).
double Tolerance(const FftDescriptor& d) {
  double n = 1;
  for (uint64_t len : d.lengths) n *= static_cast<double>(len);
  const double eps = d.precision == FftPrecision::kF64 ? 2.2e-16 : 1.2e-7;
  return eps * 4 * (std::log2(n + 1) + 4);
}

using RandomCase = testing::FftCase;

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

using testing::FftProgram;

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
      {kind, {}, {8}},          {kind, {}, {3}},         {kind, {3}, {5}},        {kind, {2}, {7}},
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

// ---- The plan cache, buffer placement and hazards (complex<f32> FFT/IFFT of 64 points). ----

using C = std::complex<float>;

// Direct DFT in double: the reference for the placement tests.
std::vector<C> Dft(const std::vector<C>& x, size_t n, bool inverse) {
  std::vector<C> y(x.size());
  for (size_t b = 0; b < x.size() / n; ++b) {
    for (size_t k = 0; k < n; ++k) {
      std::complex<double> sum = 0;
      for (size_t j = 0; j < n; ++j) {
        const double angle = (inverse ? 2 : -2) * M_PI * static_cast<double>((j * k) % n) / n;
        sum += std::complex<double>(x[b * n + j]) * std::polar(1.0, angle);
      }
      y[b * n + k] = C(inverse ? sum / static_cast<double>(n) : sum);
    }
  }
  return y;
}

std::vector<C> RandomComplex(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<C> v(count);
  for (C& c : v) c = C(dist(rng), dist(rng));
  return v;
}

double MaxError(const std::vector<C>& got, const std::vector<C>& want) {
  double e = 0;
  for (size_t i = 0; i < want.size(); ++i) e = std::max<double>(e, std::abs(got[i] - want[i]));
  return e;
}

constexpr size_t kN = 64, kBatch = 4, kCount = kN * kBatch, kBytes = kCount * sizeof(C);
const FftDescriptor kForward{FftKind::kFft, FftPrecision::kF32, {kN}, kBatch};
const FftDescriptor kInverse{FftKind::kIfft, FftPrecision::kF32, {kN}, kBatch};

class FftPlacementTest : public FftTest {
 protected:
  void Put(const Buffer& buffer, uint64_t offset, const std::vector<C>& data) {
    ASSERT_OK(dev().transfers().Upload(buffer, offset, std::as_bytes(std::span(data))));
  }
  std::vector<C> Get(const Buffer& buffer, uint64_t offset) {
    std::vector<C> data(kCount);
    EXPECT_OK(dev().transfers().Download(buffer, offset, std::as_writable_bytes(std::span(data))));
    return data;
  }
  Status RecordAndWait(const FftDescriptor& d, const BufferView& in, const BufferView& out) {
    VKHLO_ASSIGN_OR_RETURN(CommandList list, CommandList::Begin(dev()));
    VKHLO_RETURN_IF_ERROR(cache_->Record(list, d, in, out));
    VKHLO_ASSIGN_OR_RETURN(Submission done, list.Submit());
    return done.Wait();
  }
};

TEST_F(FftPlacementTest, PlansAreCachedPerDescriptor) {
  ASSERT_OK_AND_ASSIGN(FftPlan * a, cache_->GetOrCreate(kForward));
  ASSERT_OK_AND_ASSIGN(FftPlan * b, cache_->GetOrCreate(kForward));
  ASSERT_OK_AND_ASSIGN(FftPlan * c, cache_->GetOrCreate(kInverse));
  FftDescriptor other_batch = kForward;
  other_batch.batch = 5;
  ASSERT_OK_AND_ASSIGN(FftPlan * d, cache_->GetOrCreate(other_batch));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, d);
  EXPECT_EQ(a->descriptor(), kForward);
  EXPECT_EQ(cache_->stats().plans, 3u);

  // Buffers in one block share one VkFFT application; it is compiled once.
  ASSERT_OK_AND_ASSIGN(Buffer x, dev().allocator().Allocate(kBytes));
  ASSERT_OK_AND_ASSIGN(Buffer y, dev().allocator().Allocate(kBytes));
  ASSERT_OK_AND_ASSIGN(Buffer z, dev().allocator().Allocate(kBytes));
  ASSERT_EQ(x.vk_buffer(), y.vk_buffer());
  const std::vector<C> input = RandomComplex(kCount, 7);
  Put(x, 0, input);
  ASSERT_OK(RecordAndWait(kForward, x.view(), y.view()));
  ASSERT_OK(RecordAndWait(kForward, y.view(), z.view()));
  EXPECT_LE(MaxError(Get(y, 0), Dft(input, kN, false)), 1e-4);
  EXPECT_LE(MaxError(Get(z, 0), Dft(Dft(input, kN, false), kN, false)), 1e-2);
  FftCacheStats stats = cache_->stats();
  EXPECT_EQ(stats.compiles, 1u);
  EXPECT_EQ(stats.applications, 1u);
  EXPECT_EQ(stats.records, 2u);
}

TEST_F(FftPlacementTest, OffsetsWithinBuffersAndInPlace) {
  ASSERT_OK_AND_ASSIGN(Buffer big, dev().allocator().Allocate(4 * kBytes + 4096));
  const std::vector<C> a = RandomComplex(kCount, 1), b = RandomComplex(kCount, 2);
  // Offsets that are multiples of the element size but not of the storage alignment.
  const uint64_t a_in = 8, a_out = kBytes + 24, b_in = 2 * kBytes + 40, b_out = 3 * kBytes + 56;
  Put(big, a_in, a);
  Put(big, b_in, b);
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
  ASSERT_OK(cache_->Record(list, kForward, big.view(a_in, kBytes), big.view(a_out, kBytes)));
  ASSERT_OK(cache_->Record(list, kInverse, big.view(b_in, kBytes), big.view(b_out, kBytes)));
  // In place, on the result of the first transform: the list must order it after it.
  ASSERT_OK(cache_->Record(list, kInverse, big.view(a_out, kBytes), big.view(a_out, kBytes)));
  ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
  ASSERT_OK(done.Wait());
  EXPECT_LE(MaxError(Get(big, a_out), a), 1e-5);  // IFFT(FFT(a)) = a
  EXPECT_LE(MaxError(Get(big, b_out), Dft(b, kN, true)), 1e-5);
  EXPECT_EQ(Get(big, a_in), a);  // out of place leaves the input alone
  EXPECT_EQ(Get(big, b_in), b);
  // One VkBuffer: one application per direction out of place, one in place.
  EXPECT_EQ(cache_->stats().applications, 3u);
}

// The staged form (fft_staged.h): kernels compiled for the generic target, then loaded from those
// words, give the direct path's results bit for bit, in one list with other work; cut kernels
// are refused.
TEST_F(FftPlacementTest, StagedKernelsMatchTheDirectPath) {
  const VkfftTarget target = GenericTargetOf(dev());
  ASSERT_OK_AND_ASSIGN(std::vector<uint32_t> kernels, cache_->StagedKernels(kForward, target));
  ASSERT_FALSE(kernels.empty());
  ASSERT_OK_AND_ASSIGN(Buffer big, dev().allocator().Allocate(3 * kBytes + 64));
  const std::vector<C> a = RandomComplex(kCount, 11);
  Put(big, 8, a);
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
  ASSERT_OK(cache_->Record(list, kForward, big.view(8, kBytes), big.view(kBytes + 16, kBytes)));
  ASSERT_OK(cache_->RecordStaged(list, kForward, target, kernels, KernelsId(kernels), big.view(8, kBytes), big.view(2 * kBytes + 24, kBytes)));
  ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
  ASSERT_OK(done.Wait());
  EXPECT_EQ(Get(big, 2 * kBytes + 24), Get(big, kBytes + 16));
  EXPECT_LE(MaxError(Get(big, kBytes + 16), Dft(a, kN, false)), 1e-4);

  // Fewer words than VkFFT reads: refused, and nothing recorded.
  std::vector<uint32_t> cut(kernels.begin(), kernels.begin() + 1 + kernels[0] / 4);
  if (cut.size() < kernels.size()) {
    ASSERT_OK_AND_ASSIGN(CommandList other, CommandList::Begin(dev()));
    const Status refused = cache_->RecordStaged(other, kInverse, target, cut, KernelsId(cut), big.view(8, kBytes), big.view(kBytes + 16, kBytes));
    EXPECT_EQ(refused.code(), StatusCode::kInvalidArgument) << refused.ToString();
  }
  // Limits beyond the device's: refused before VkFFT sees them.
  VkfftTarget greedy = target;
  greedy.max_shared_memory_bytes += 1;
  ASSERT_OK_AND_ASSIGN(CommandList third, CommandList::Begin(dev()));
  EXPECT_EQ(cache_->RecordStaged(third, kForward, greedy, kernels, KernelsId(kernels), big.view(8, kBytes), big.view(kBytes + 16, kBytes)).code(),
            StatusCode::kFailedPrecondition);
}

TEST_F(FftPlacementTest, ChainsInOneListAndListsInFlight) {
  ASSERT_OK_AND_ASSIGN(Buffer x, dev().allocator().Allocate(kBytes));
  ASSERT_OK_AND_ASSIGN(Buffer y, dev().allocator().Allocate(kBytes));
  ASSERT_OK_AND_ASSIGN(Buffer z, dev().allocator().Allocate(kBytes));
  ASSERT_OK_AND_ASSIGN(Buffer w, dev().allocator().Allocate(kBytes));
  const std::vector<C> input = RandomComplex(kCount, 3);
  Put(x, 0, input);
  // x -FFT-> y -IFFT-> z, then x -FFT-> y again (write after read of y): one list.
  ASSERT_OK_AND_ASSIGN(CommandList first, CommandList::Begin(dev()));
  ASSERT_OK(cache_->Record(first, kForward, x.view(), y.view()));
  ASSERT_OK(cache_->Record(first, kInverse, y.view(), z.view()));
  ASSERT_OK(cache_->Record(first, kForward, z.view(), y.view()));
  EXPECT_GE(first.barrier_count(), 2u);
  ASSERT_OK_AND_ASSIGN(Submission first_done, first.Submit());
  // A second list with the same plans, submitted before the first has finished.
  ASSERT_OK_AND_ASSIGN(CommandList second, CommandList::Begin(dev()));
  ASSERT_OK(cache_->Record(second, kInverse, y.view(), w.view()));
  ASSERT_OK_AND_ASSIGN(Submission second_done, second.Submit());
  ASSERT_OK(second_done.Wait());
  ASSERT_OK(first_done.Wait());
  EXPECT_LE(MaxError(Get(z, 0), input), 1e-5);
  EXPECT_LE(MaxError(Get(y, 0), Dft(input, kN, false)), 1e-4);
  EXPECT_LE(MaxError(Get(w, 0), input), 1e-5);
}

TEST_F(FftPlacementTest, Errors) {
  ASSERT_OK_AND_ASSIGN(Buffer x, dev().allocator().Allocate(4 * kBytes));
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
  auto code = [](const Status& s) { return s.code(); };
  // Too small, misaligned, overlapping.
  EXPECT_EQ(code(cache_->Record(list, kForward, x.view(0, kBytes - 8), x.view(kBytes, kBytes))),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(cache_->Record(list, kForward, x.view(4, kBytes), x.view(2 * kBytes, kBytes))),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(cache_->Record(list, kForward, x.view(0, kBytes), x.view(kBytes / 2, kBytes))),
            StatusCode::kInvalidArgument);
  // Real transforms are never in place.
  const FftDescriptor rfft{FftKind::kRfft, FftPrecision::kF32, {kN}, 1};
  Status in_place = cache_->Record(list, rfft, x.view(0, kBytes), x.view(0, kBytes));
  EXPECT_EQ(in_place.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(in_place.message().find("out of place"), std::string::npos) << in_place.ToString();
  // More than three transformed dimensions.
  const FftDescriptor four{FftKind::kFft, FftPrecision::kF32, {2, 2, 2, 2}, 1};
  EXPECT_EQ(code(cache_->GetOrCreate(four).status()), StatusCode::kInvalidArgument);
  // complex<f64> needs shaderFloat64.
  const FftDescriptor c128{FftKind::kFft, FftPrecision::kF64, {kN}, 1};
  auto plan = cache_->GetOrCreate(c128);
  EXPECT_EQ(plan.ok(), has_f64());
  if (!plan.ok()) {
    EXPECT_EQ(plan.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(plan.status().message().find("shaderFloat64"), std::string::npos);
    EXPECT_NE(plan.status().message().find("mobile"), std::string::npos);
  }
}

// Blocks of 1 MiB: buffers land in different VkBuffers of one size (one compile, one VkFFT
// application each), and a freed dedicated block drops its applications.
class FftSmallBlocksTest : public FftPlacementTest {
 protected:
  void SetUp() override {
    device::DeviceOptions options = testing::TestDeviceOptions();
    options.memory_block_bytes = 1 << 20;
    device_ = testing::OpenTestDevice(options);
    ASSERT_NE(device_, nullptr);
    ASSERT_OK_AND_ASSIGN(cache_, FftPlanCache::Create(dev()));
  }
};

TEST_F(FftSmallBlocksTest, ApplicationsPerBufferPairShareCompiledKernels) {
  // Fill blocks with buffers until two inputs sit in different blocks.
  std::vector<Buffer> buffers;
  for (int i = 0; i < 16; ++i) {
    ASSERT_OK_AND_ASSIGN(Buffer b, dev().allocator().Allocate(256 << 10));
    buffers.push_back(std::move(b));
  }
  const Buffer& first = buffers.front();
  const Buffer* other = nullptr;
  for (const Buffer& b : buffers) {
    if (b.vk_buffer() != first.vk_buffer()) other = &b;
  }
  ASSERT_NE(other, nullptr);
  const std::vector<C> input = RandomComplex(kCount, 4);
  Put(first, 0, input);
  Put(*other, 0, input);
  ASSERT_OK(RecordAndWait(kForward, first.view(0, kBytes), first.view(kBytes, kBytes)));
  ASSERT_OK(RecordAndWait(kForward, other->view(0, kBytes), other->view(kBytes, kBytes)));
  EXPECT_LE(MaxError(Get(first, kBytes), Dft(input, kN, false)), 1e-4);
  EXPECT_LE(MaxError(Get(*other, kBytes), Dft(input, kN, false)), 1e-4);
  FftCacheStats stats = cache_->stats();
  EXPECT_EQ(stats.compiles, 1u);
  EXPECT_EQ(stats.applications, 2u);
}

TEST_F(FftSmallBlocksTest, DestroyedBlocksDropTheirApplications) {
  const std::vector<C> input = RandomComplex(kCount, 5);
  for (int round = 0; round < 3; ++round) {
    // Over half a block: a dedicated block, destroyed when the buffer is freed.
    ASSERT_OK_AND_ASSIGN(Buffer big, dev().allocator().Allocate(600 << 10));
    Put(big, 0, input);
    ASSERT_OK(RecordAndWait(kForward, big.view(0, kBytes), big.view(kBytes, kBytes)));
    EXPECT_LE(MaxError(Get(big, kBytes), Dft(input, kN, false)), 1e-4) << "round " << round;
  }
  // Each round's application was dropped when its block went (the last one on the next use).
  ASSERT_OK_AND_ASSIGN(Buffer small, dev().allocator().Allocate(kBytes * 2));
  ASSERT_OK(RecordAndWait(kForward, small.view(0, kBytes), small.view(kBytes, kBytes)));
  FftCacheStats stats = cache_->stats();
  EXPECT_EQ(stats.applications, 4u);
  EXPECT_EQ(stats.live_applications, 1u);
  EXPECT_LE(stats.compiles, 2u);  // the dedicated blocks all have one size
}

// ---- Beyond maxStorageBufferRange (fft_split.h): complex<f32> [8193 x 2048], 128 MiB + 16 KiB.

class FftBeyondTheRangeTest : public FftTest {
 protected:
  static constexpr size_t kLength = 2048, kRows = 8193, kElements = kLength * kRows;
  static constexpr uint64_t kBigBytes = kElements * sizeof(C);
  const FftDescriptor forward_{FftKind::kFft, FftPrecision::kF32, {kLength}, kRows};

  std::vector<C> Rows(const Buffer& buffer, size_t first, size_t count) {
    std::vector<C> data(count * kLength);
    EXPECT_OK(dev().transfers().Download(buffer, first * kLength * sizeof(C),
                                         std::as_writable_bytes(std::span(data))));
    return data;
  }
};

// Out of place and in place (its last launch has fewer transforms: a second compile), against a
// direct DFT on rows at both ends and in the middle; the view-only API refuses (no memory to
// window); freeing the tensors drops their windows and the applications bound to them.
TEST_F(FftBeyondTheRangeTest, OutOfPlaceInPlaceAndWindowsFreedWithTheirBlocks) {
  if (dev().capabilities().limits.max_storage_buffer_range >= kBigBytes) {
    GTEST_SKIP() << "maxStorageBufferRange holds the whole tensor";
  }
  const std::vector<C> input = RandomComplex(kElements, 21);
  {
    ASSERT_OK_AND_ASSIGN(Buffer x, dev().allocator().Allocate(kBigBytes));
    ASSERT_OK_AND_ASSIGN(Buffer y, dev().allocator().Allocate(kBigBytes));
    ASSERT_OK(dev().transfers().Upload(x, 0, std::as_bytes(std::span(input))));

    ASSERT_OK_AND_ASSIGN(CommandList refused, CommandList::Begin(dev()));
    Status view_only = cache_->Record(refused, forward_, x.view(), y.view());
    EXPECT_EQ(view_only.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(view_only.message().find("FftTensor"), std::string::npos) << view_only.ToString();

    ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
    ASSERT_OK(cache_->Record(list, forward_, TensorOf(x, kBigBytes), TensorOf(y, kBigBytes)));
    ASSERT_OK(cache_->Record(list, forward_, TensorOf(x, kBigBytes), TensorOf(x, kBigBytes)));
    ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
    ASSERT_OK(done.Wait());
    const FftCacheStats stats = cache_->stats();
    EXPECT_EQ(stats.split_records, 2u);
    EXPECT_GE(stats.split_launches, 4u);
    EXPECT_EQ(stats.compiles, 3u);  // out of place: one; in place: two (a shorter last launch)
    EXPECT_GT(stats.live_windows, 0u);
    for (size_t first : {size_t{0}, kRows / 2, kRows - 2}) {
      const std::vector<C> rows(input.begin() + first * kLength, input.begin() + (first + 2) * kLength);
      const std::vector<C> want = Dft(rows, kLength, false);
      EXPECT_LE(MaxError(Rows(y, first, 2), want), 2e-4) << "out of place, rows from " << first;
      EXPECT_LE(MaxError(Rows(x, first, 2), want), 2e-4) << "in place, rows from " << first;
    }
  }
  // The blocks are gone (or pooled): the next record forgets their windows and applications.
  ASSERT_OK_AND_ASSIGN(Buffer small, dev().allocator().Allocate(kBytes * 2));
  ASSERT_OK_AND_ASSIGN(CommandList last, CommandList::Begin(dev()));
  ASSERT_OK(cache_->Record(last, kForward, small.view(0, kBytes), small.view(kBytes, kBytes)));
  const FftCacheStats after = cache_->stats();
  EXPECT_EQ(after.live_windows, 0u);
  EXPECT_EQ(after.live_applications, 1u);
}

// ---- codegen::LowerFft: the IR side, no device needed. ----

StatusOr<codegen::FftLowering> Lower(const std::string& program) {
  VKHLO_ASSIGN_OR_RETURN(auto module, frontend::ParseModule(program));
  ir::Operation* fft = FindFft(*module);
  if (fft == nullptr) return NotFoundError("no fft");
  return codegen::LowerFft(*fft);
}

TEST(FftLoweringTest, ReadsTypeLengthsAndBatch) {
  ASSERT_OK_AND_ASSIGN(codegen::FftLowering l, Lower(FftProgram({"IRFFT", {2, 3}, {4, 6}}, true)));
  EXPECT_EQ(l.type, codegen::FftType::kIrfft);
  EXPECT_TRUE(l.double_precision);
  EXPECT_EQ(l.lengths, (std::vector<uint64_t>{4, 6}));
  EXPECT_EQ(l.batch, 6u);
  EXPECT_EQ(l.input_bytes, 6u * 4 * 4 * 16);  // [2, 3, 4, 4] complex<f64>
  EXPECT_EQ(l.output_bytes, 6u * 4 * 6 * 8);  // [2, 3, 4, 6] f64
  ASSERT_OK_AND_ASSIGN(l, Lower(FftProgram({"RFFT", {}, {5}}, false)));
  EXPECT_EQ(l.type, codegen::FftType::kRfft);
  EXPECT_FALSE(l.double_precision);
  EXPECT_EQ(l.batch, 1u);
  EXPECT_EQ(l.input_bytes, 5u * 4);
  EXPECT_EQ(l.output_bytes, 3u * 8);
}

TEST(FftLoweringTest, RejectsWhatTheDeviceCannotRun) {
  // An f16 real side cannot pair with complex<f32> (the spec wants one float semantics).
  auto f16 = Lower(
      "func.func @main(%x: tensor<8xf16>) -> tensor<5xcomplex<f32>> {\n"
      "  %r = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<8xf16>) -> tensor<5xcomplex<f32>>\n"
      "  func.return %r : tensor<5xcomplex<f32>>\n}\n");
  ASSERT_FALSE(f16.ok());
  EXPECT_EQ(f16.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(f16.status().message().find("2:3: error: 'stablehlo.fft'"), std::string::npos)
      << f16.status().ToString();
  // Built in memory, bypassing the verifier: a wrong result shape.
  ASSERT_OK_AND_ASSIGN(auto module, frontend::ParseModule(FftProgram({"FFT", {2}, {8}}, false)));
  ir::Operation* fft = FindFft(*module);
  fft->result(0)->set_type(ir::Type::Tensor(ir::ElementType::kC64, {2, 7}));
  auto wrong = codegen::LowerFft(*fft);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().message().find("'stablehlo.fft'"), std::string::npos);
}

}  // namespace
}  // namespace vkhlo::device::fft
