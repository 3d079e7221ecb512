// stablehlo.fft in the runtime-only library (issue 22; device/fft/fft_staged.h): linked against
// vkhlo_runtime_only alone, which has no glslang, this loads plans vkhlo-compile (the full
// library) wrote — carrying VkFFT's kernels — and checks their transforms against a DFT on the
// host. Kernels that do not fit the transform are refused, never run past.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "plan/plan_reader.h"
#include "plan/plan_writer.h"
#include "vkhlo/runtime.h"

namespace vkhlo {
namespace {

namespace fs = std::filesystem;
using C = std::complex<double>;

// The plan vkhlo-compile writes for tests/runtime/programs/NAME.mlir (under this process's
// VKHLO_PROFILE, so mobile runs get mobile's kernels).
std::vector<uint8_t> CompiledPlan(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("vkhlo_fft_runtime_only_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path out = dir / (name + ".vkx");
  const std::string command = std::string(VKHLO_COMPILE_TOOL) + " " + VKHLO_SOURCE_DIR + "/tests/runtime/programs/" +
                              name + ".mlir -o " + out.string() + " > /dev/null";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(out, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove_all(dir);
  return bytes;
}

// The DFT of `x` (row-major, `dims`) along its last `axes` dimensions; `sign` -1 forward.
std::vector<C> Dft(std::vector<C> x, const std::vector<int64_t>& dims, size_t axes, int sign) {
  for (size_t a = dims.size() - axes; a < dims.size(); ++a) {
    int64_t inner = 1;
    for (size_t i = a + 1; i < dims.size(); ++i) inner *= dims[i];
    const int64_t n = dims[a], outer = static_cast<int64_t>(x.size()) / (n * inner);
    std::vector<C> y(x.size());
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        for (int64_t k = 0; k < n; ++k) {
          C sum = 0;
          for (int64_t j = 0; j < n; ++j) {
            sum += x[static_cast<size_t>((o * n + j) * inner + i)] * std::polar(1.0, sign * 2 * M_PI * double(j * k % n) / double(n));
          }
          y[static_cast<size_t>((o * n + k) * inner + i)] = sum;
        }
      }
    }
    x = std::move(y);
  }
  return x;
}

std::vector<C> RandomComplex(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<C> v(n);
  for (C& c : v) c = C(u(rng), u(rng));
  return v;
}

std::vector<uint8_t> ComplexBytes(const std::vector<C>& v) {
  std::vector<float> f;
  for (const C& c : v) {
    f.push_back(static_cast<float>(c.real()));
    f.push_back(static_cast<float>(c.imag()));
  }
  const auto* p = reinterpret_cast<const uint8_t*>(f.data());
  return std::vector<uint8_t>(p, p + f.size() * 4);
}

std::vector<float> Floats(const std::vector<uint8_t>& bytes) {
  std::vector<float> f(bytes.size() / 4);
  std::memcpy(f.data(), bytes.data(), bytes.size());
  return f;
}

class FftRuntimeOnly : public ::testing::Test {
 protected:
  void SetUp() override {
    auto client = Client::Create();
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = std::move(*client);
  }

  // Runs `plan` on `input` and returns its one result's bytes.
  StatusOr<std::vector<uint8_t>> Run(const std::vector<uint8_t>& plan, const TensorType& type,
                                     const std::vector<uint8_t>& input) {
    VKHLO_ASSIGN_OR_RETURN(Executable executable, client_->LoadExecutable(plan));
    VKHLO_ASSIGN_OR_RETURN(Buffer argument, client_->BufferFromHost(type, input));
    VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, executable.Execute({&argument}));
    if (results.size() != 1) return InternalError("one result expected");
    return results[0].ToHost();
  }

  void ExpectComplexNear(const std::vector<uint8_t>& got, const std::vector<C>& want) {
    const std::vector<float> f = Floats(got);
    ASSERT_EQ(f.size(), 2 * want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_NEAR(f[2 * i], want[i].real(), 1e-3) << "element " << i;
      EXPECT_NEAR(f[2 * i + 1], want[i].imag(), 1e-3) << "element " << i;
    }
  }

  std::unique_ptr<Client> client_;
};

TEST_F(FftRuntimeOnly, TwoDimensionalComplexFft) {
  const std::vector<uint8_t> plan = CompiledPlan("fft_c2c_2d");
  const std::vector<C> x = RandomComplex(2 * 8 * 6, 1);
  auto got = Run(plan, TensorType{"complex<f32>", {2, 8, 6}}, ComplexBytes(x));
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ExpectComplexNear(*got, Dft(x, {2, 8, 6}, 2, -1));
}

// 8193 x 2048 complex<f32> (128 MiB + 16 KiB) on `client`: the staged form in runs of rows,
// each copied in, transformed and copied out; the last run moved back to end at the batch's
// end. Rows of the first run, of the seam and of the moved-back run checked against a DFT.
void ExpectBatchBeyond128MiBRunsInRuns(Client& client, bool split_allocations) {
  constexpr int64_t rows = 8193, n = 2048;
  const std::vector<uint8_t> plan = CompiledPlan("fft_beyond_range");
  ASSERT_FALSE(plan.empty());
  std::vector<float> x(static_cast<size_t>(2 * rows * n));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& v : x) v = u(rng);
  const auto* p = reinterpret_cast<const uint8_t*>(x.data());
  auto executable = client.LoadExecutable(plan);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  auto argument = client.BufferFromHost(TensorType{"complex<f32>", {rows, n}}, std::vector<uint8_t>(p, p + x.size() * 4));
  ASSERT_TRUE(argument.ok()) << argument.status().ToString();
  auto results = executable->Execute({&*argument});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  EXPECT_GE(executable->last_stats().fft_split_launches, 2u);
  EXPECT_EQ(executable->last_stats().fft_staged_transforms, split_allocations ? 1u : 0u);
  auto bytes = (*results)[0].ToHost();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  const std::vector<float> f = Floats(*bytes);
  ASSERT_EQ(f.size(), x.size());
  for (int64_t row : {int64_t{0}, int64_t{4095}, int64_t{4096}, int64_t{4097}, rows - 2, rows - 1}) {
    std::vector<C> in(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) in[i] = C(x[2 * (row * n + i)], x[2 * (row * n + i) + 1]);
    const std::vector<C> want = Dft(in, {n}, 1, -1);
    double err = 0;
    for (int64_t i = 0; i < n; ++i) {
      err = std::max(err, std::abs(C(f[2 * (row * n + i)], f[2 * (row * n + i) + 1]) - want[i]));
    }
    EXPECT_LT(err, 1e-3) << "row " << row;
  }
}

TEST_F(FftRuntimeOnly, BatchBeyond128MiBRunsInRuns) { ExpectBatchBeyond128MiBRunsInRuns(*client_, false); }

// The same on a client whose allocations hold at most 48 MiB: operand and result are split in
// three pieces, which the runs' copies cross (rows of 16 KiB; a run of 4097 rows straddles them).
TEST_F(FftRuntimeOnly, BatchBeyond128MiBOnTensorsSplitAcrossAllocations) {
  ::setenv("VKHLO_MAX_ALLOCATION_BYTES", "48M", 1);
  auto client = Client::Create();
  ::unsetenv("VKHLO_MAX_ALLOCATION_BYTES");
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  ExpectBatchBeyond128MiBRunsInRuns(**client, true);
}

TEST_F(FftRuntimeOnly, PrimeLengthThroughBluestein) {
  const std::vector<uint8_t> plan = CompiledPlan("fft_prime");
  const std::vector<C> x = RandomComplex(17, 2);
  auto got = Run(plan, TensorType{"complex<f32>", {17}}, ComplexBytes(x));
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ExpectComplexNear(*got, Dft(x, {17}, 1, -1));
}

TEST_F(FftRuntimeOnly, InverseFftOverAUnitAxis) {
  const std::vector<uint8_t> plan = CompiledPlan("fft_unit_axis");
  const std::vector<C> x = RandomComplex(4 * 8, 3);
  auto got = Run(plan, TensorType{"complex<f32>", {4, 1, 8}}, ComplexBytes(x));
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  std::vector<C> want = Dft(x, {4, 8}, 1, +1);
  for (C& c : want) c /= 8.0;
  ExpectComplexNear(*got, want);
}

TEST_F(FftRuntimeOnly, InverseRealFft) {
  const std::vector<uint8_t> plan = CompiledPlan("fft_irfft");
  std::vector<C> x = RandomComplex(3 * 9, 4);
  std::vector<C> full(3 * 16);
  for (int b = 0; b < 3; ++b) {
    // The spec's IRFFT ignores the imaginary parts of the DC and Nyquist terms.
    x[b * 9] = x[b * 9].real();
    x[b * 9 + 8] = x[b * 9 + 8].real();
    for (int k = 0; k < 16; ++k) full[b * 16 + k] = k <= 8 ? x[b * 9 + k] : std::conj(x[b * 9 + 16 - k]);
  }
  auto got = Run(plan, TensorType{"complex<f32>", {3, 9}}, ComplexBytes(x));
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  const std::vector<C> want = Dft(full, {3, 16}, 1, +1);
  const std::vector<float> f = Floats(*got);
  ASSERT_EQ(f.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(f[i], want[i].real() / 16.0, 1e-3) << "element " << i;
}

// A plan whose kernels are cut short or damaged is refused with a clear error, the client usable.
TEST_F(FftRuntimeOnly, KernelsThatDoNotFitAreRefused) {
  const std::vector<uint8_t> bytes = CompiledPlan("fft_c2c_2d");
  auto plan = plan::ReadPlan(bytes);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->fft_kernels.size(), 1u);
  const std::vector<uint32_t> words = plan->fft_kernels[0].words;
  ASSERT_GT(words.size(), 10u);
  const std::vector<C> x = RandomComplex(2 * 8 * 6, 5);
  const TensorType type{"complex<f32>", {2, 8, 6}};
  auto run_with = [&](std::vector<uint32_t> kernels) {
    plan::Plan damaged = *plan;
    damaged.fft_kernels[0].words = std::move(kernels);
    return Run(plan::WritePlan(damaged), type, ComplexBytes(x)).status();
  };
  // The first module alone (a 2-D transform has a kernel per axis): VkFFT asks for more and
  // reads the inert ones appended after it.
  const std::vector<uint32_t> first(words.begin(), words.begin() + 1 + words[0] / 4);
  ASSERT_LT(first.size(), words.size());
  const Status cut = run_with(first);
  EXPECT_EQ(cut.code(), StatusCode::kInvalidArgument) << cut.ToString();
  EXPECT_NE(cut.message().find("VkFFT read"), std::string::npos) << cut.message();
  // A byte count past the end, and a module that is not SPIR-V.
  std::vector<uint32_t> long_count = words;
  long_count[0] = static_cast<uint32_t>(words.size() * 8);
  EXPECT_EQ(run_with(long_count).code(), StatusCode::kInvalidArgument);
  std::vector<uint32_t> not_spirv = words;
  not_spirv[1] = 0x12345678;
  EXPECT_EQ(run_with(not_spirv).code(), StatusCode::kInvalidArgument);
  // Another VkFFT's kernels.
  plan::Plan other = *plan;
  other.fft_kernels[0].vkfft_version += 1;
  EXPECT_EQ(Run(plan::WritePlan(other), type, ComplexBytes(x)).status().code(), StatusCode::kFailedPrecondition);
  // None at all.
  plan::Plan none = *plan;
  none.fft_kernels.clear();
  const Status missing = Run(plan::WritePlan(none), type, ComplexBytes(x)).status();
  EXPECT_EQ(missing.code(), StatusCode::kUnimplemented);
  EXPECT_NE(missing.message().find("carries no VkFFT kernels"), std::string::npos) << missing.message();
  // The client still runs the plan as written.
  auto good = Run(bytes, type, ComplexBytes(x));
  ASSERT_TRUE(good.ok()) << good.status().ToString();
  ExpectComplexNear(*good, Dft(x, {2, 8, 6}, 2, -1));
}

}  // namespace
}  // namespace vkhlo
