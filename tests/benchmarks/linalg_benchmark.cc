// cholesky and triangular_solve on the device (codegen/linalg) beside OpenBLAS's LAPACK on the
// CPU, interleaved in one run so that a busy machine slows both alike:
//   cholesky n x n f32 (lower)                       vs spotrf_          (n^3 / 3 flops)
//   triangular_solve n x n lower a, b of n x 512     vs cblas_strsm      (n^2 * 512 flops)
//   batched cholesky 4096 x (16 x 16)                vs spotrf_ per matrix
// Each figure is the best of `--repeat` runs (default 3). Prints GFLOP/s of both and their ratio.
// Run: build/bin/vkhlo-linalg-bench [n ...] (default 1024 2048 4096); `uptime` beside the figures.
#include <cblas.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "vkhlo/runtime.h"

extern "C" void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, size_t uplo_len);

namespace vkhlo {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kRhs = 512;

double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// CPU seconds of the whole process (lavapipe's and OpenBLAS's threads included): the work
// done, which a busy machine does not inflate as it does wall time.
double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Symmetric, diagonally dominant (so positive definite), `batch` matrices of n x n; with
// `triangular` the upper triangle is zero.
std::vector<float> Matrix(int64_t batch, int64_t n, bool triangular, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> a(static_cast<size_t>(batch * n * n), 0.0f);
  for (int64_t b = 0; b < batch; ++b) {
    float* m = a.data() + b * n * n;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < i; ++j) {
        m[i * n + j] = u(rng);
        if (!triangular) m[j * n + i] = m[i * n + j];
      }
      m[i * n + i] = static_cast<float>(n) + 1.0f;
    }
  }
  return a;
}

struct Timed {
  double device = 1e30, cpu = 1e30;
  double device_cpu = 1e30, cpu_cpu = 1e30;  // CPU seconds of each
  double max_diff = 0;  // largest |device - cpu| over the result (a sanity check, not a test)
};

int Run(int argc, char** argv) {
  std::vector<int64_t> sizes;
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--repeat=", 9) == 0) {
      repeat = std::max(1, std::atoi(argv[i] + 9));
    } else {
      sizes.push_back(std::atoll(argv[i]));
    }
  }
  if (sizes.empty()) sizes = {1024, 2048, 4096};
  auto client = Client::Create();
  if (!client.ok()) {
    std::fprintf(stderr, "cannot open a Vulkan device: %s\n", client.status().ToString().c_str());
    return 1;
  }
  auto upload = [&](const std::vector<float>& host, std::vector<int64_t> dims) {
    return (*client)->BufferFromHost(
        {"f32", std::move(dims)}, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(host.data()), host.size() * 4));
  };
  // One program, its inputs, and a CPU baseline: the best time of each over `repeat` rounds.
  auto measure = [&](const std::string& program, const std::vector<std::pair<std::vector<float>, std::vector<int64_t>>>& inputs,
                     auto cpu, const std::vector<float>& cpu_result, bool lower_only) -> StatusOr<Timed> {
    VKHLO_ASSIGN_OR_RETURN(auto exe, (*client)->Compile(program));
    std::vector<Buffer> args;
    for (const auto& [host, dims] : inputs) {
      VKHLO_ASSIGN_OR_RETURN(Buffer b, upload(host, dims));
      args.push_back(std::move(b));
    }
    Timed t;
    for (int r = 0; r <= repeat; ++r) {  // round 0 warms up (pipelines, page faults)
      auto start = Clock::now();
      double cpu_start = CpuSeconds();
      VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, exe.Execute(args));
      VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, results[0].ToHost());  // waits for the work
      if (r > 0) t.device = std::min(t.device, Seconds(start));
      if (r > 0) t.device_cpu = std::min(t.device_cpu, CpuSeconds() - cpu_start);
      start = Clock::now();
      cpu_start = CpuSeconds();
      cpu();
      if (r > 0) t.cpu = std::min(t.cpu, Seconds(start));
      if (r > 0) t.cpu_cpu = std::min(t.cpu_cpu, CpuSeconds() - cpu_start);
      if (r == repeat) {
        const float* d = reinterpret_cast<const float*>(bytes.data());
        const int64_t n = inputs[0].second.back();
        for (size_t i = 0; i < cpu_result.size(); ++i) {
          // spotrf leaves the other triangle as it was: compare the factor's triangle only.
          if (lower_only && static_cast<int64_t>(i) % n > (static_cast<int64_t>(i) / n) % n) continue;
          t.max_diff = std::max(t.max_diff, static_cast<double>(std::abs(d[i] - cpu_result[i])));
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // let OpenBLAS's threads go idle
    }
    return t;
  };
  auto report = [](const std::string& name, double flops, const StatusOr<Timed>& t, const char* baseline) {
    if (!t.ok()) {
      std::printf("%-34s error: %s\n", name.c_str(), t.status().ToString().c_str());
      return;
    }
    const double g = flops / t->device * 1e-9, c = flops / t->cpu * 1e-9;
    // Per CPU-second: GFLOP / (CPU seconds), the figure a loaded machine skews least.
    const double gc = flops / t->device_cpu * 1e-9, cc = flops / t->cpu_cpu * 1e-9;
    std::printf("%-34s %7.3f s %7.2f GFLOP/s (%6.2f per CPU-s) | %-11s %7.3f s %7.2f GFLOP/s (%6.2f per CPU-s) | "
                "ratio %.3f (per CPU-s %.3f) | max diff %.2g\n",
                name.c_str(), t->device, g, gc, baseline, t->cpu, c, cc, g / c, gc / cc, t->max_diff);
    std::fflush(stdout);
  };

  for (int64_t n : sizes) {
    const int ni = static_cast<int>(n);
    {
      const std::string type = fmt::format("tensor<{0}x{0}xf32>", n);
      const std::string program = fmt::format(
          "func.func @main(%a: {0}) -> {0} {{\n"
          "  %l = \"stablehlo.cholesky\"(%a) {{lower = true}} : ({0}) -> {0}\n"
          "  func.return %l : {0}\n}}\n",
          type);
      const std::vector<float> a = Matrix(1, n, false, 1);
      std::vector<float> work;
      auto t = measure(program, {{a, {n, n}}}, [&] {
        work = a;
        int info = 0;
        // Row-major lower is column-major upper.
        spotrf_("U", &ni, work.data(), &ni, &info, 1);
      }, work, true);
      report(fmt::format("cholesky {}x{}", n, n), static_cast<double>(n) * n * n / 3, t, "spotrf");
    }
    {
      const std::string at = fmt::format("tensor<{0}x{0}xf32>", n), bt = fmt::format("tensor<{0}x{1}xf32>", n, kRhs);
      const std::string program = fmt::format(
          "func.func @main(%a: {0}, %b: {1}) -> {1} {{\n"
          "  %x = \"stablehlo.triangular_solve\"(%a, %b) {{left_side = true, lower = true, unit_diagonal = false,"
          " transpose_a = #stablehlo<transpose NO_TRANSPOSE>}} : ({0}, {1}) -> {1}\n"
          "  func.return %x : {1}\n}}\n",
          at, bt);
      const std::vector<float> a = Matrix(1, n, true, 2);
      std::vector<float> b(static_cast<size_t>(n * kRhs));
      std::mt19937 rng(3);
      for (float& v : b) v = std::uniform_real_distribution<float>(-1, 1)(rng);
      std::vector<float> work;
      auto t = measure(program, {{a, {n, n}}, {b, {n, kRhs}}}, [&] {
        work = b;
        cblas_strsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, ni, static_cast<int>(kRhs), 1.0f,
                    a.data(), ni, work.data(), static_cast<int>(kRhs));
      }, work, false);
      report(fmt::format("triangular_solve {}x{} by {}x{}", n, n, n, kRhs), static_cast<double>(n) * n * kRhs, t, "cblas_strsm");
    }
  }
  {
    constexpr int64_t kBatch = 4096, kN = 16;
    const std::string type = fmt::format("tensor<{}x{}x{}xf32>", kBatch, kN, kN);
    const std::string program = fmt::format(
        "func.func @main(%a: {0}) -> {0} {{\n"
        "  %l = \"stablehlo.cholesky\"(%a) {{lower = true}} : ({0}) -> {0}\n"
        "  func.return %l : {0}\n}}\n",
        type);
    const std::vector<float> a = Matrix(kBatch, kN, false, 4);
    std::vector<float> work;
    auto t = measure(program, {{a, {kBatch, kN, kN}}}, [&] {
      work = a;
      const int n = static_cast<int>(kN);
      for (int64_t b = 0; b < kBatch; ++b) {
        int info = 0;
        spotrf_("U", &n, work.data() + b * kN * kN, &n, &info, 1);
      }
    }, work, true);
    report(fmt::format("cholesky {} x {}x{}", kBatch, kN, kN), static_cast<double>(kBatch) * kN * kN * kN / 3, t,
           "spotrf loop");
  }
  return 0;
}

}  // namespace
}  // namespace vkhlo

int main(int argc, char** argv) { return vkhlo::Run(argc, argv); }
