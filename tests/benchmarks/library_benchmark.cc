// Library-kernel benchmarks, each beside its CPU baseline in the same run (interleaved, so a
// busy machine slows both alike):
//   sgemm      1024^3 and 2048^3 dot_general vs OpenBLAS cblas_sgemm
//   batched    256 x (64x64x64) vs cblas_sgemm per matrix
//   gemv       4096x4096 by 4096 vs cblas_sgemv (GFLOP/s and GB/s)
//   conv3x3    56x56, 64->64 features, batch 8, NHWC/HWIO, stride 1, SAME vs im2col + cblas_sgemm
//   depthwise  3x3 over 112x112x32 (batch 1, NHWC), GB/s of input + output
//   small conv 3x3 SAME, batch 8, few channels (HxW/Ci/Co as arguments) vs im2col + cblas_sgemm
//   skinny     M x K @ K x N with M <= 64 (a recurrent step, a small batch) vs cblas_sgemm
//   transposed A^T B contracting the leading dimension of both (a weight gradient) vs cblas_sgemm
// Counters: GFLOPS (vkhlo), blas_GFLOPS, ratio = GFLOPS / blas_GFLOPS, GBps where it matters,
// cpu_GFLOPS (vkhlo's GFLOP per CPU-second of the process).
// Run: build/bin/vkhlo-library-bench [--benchmark_filter=...]; VKHLO_BENCH_MATMUL_CONFIG=<name> forces a
// configuration of tile_config.cc's tables for the dot_general benchmarks (for tuning),
// VKHLO_BENCH_CONV_CONFIG=<name or "direct"> for the convolution ones.
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <thread>
#include <time.h>
#include <vector>

#include "codegen/glsl_compiler.h"
#include "codegen/library/library_kernel.h"
#include "device/allocator.h"
#include "device/command_list.h"
#include "device/device.h"
#include "device/transfer.h"
#include "frontend/parser.h"
#include "ir/walk.h"
#include "runtime/target_from_device.h"

namespace vkhlo {
namespace {

using Clock = std::chrono::steady_clock;
namespace library = codegen::library;

struct Env {
  std::unique_ptr<device::Device> device;
  codegen::TargetInfo target;
  std::unique_ptr<codegen::GlslCompiler> compiler;
};

Env& SharedEnv() {
  static Env env = [] {
    Env e;
    auto device = device::Device::CreateFromEnvironment();
    if (!device.ok()) {
      std::fprintf(stderr, "cannot open a Vulkan device: %s\n", device.status().ToString().c_str());
      std::exit(1);
    }
    e.device = std::move(device).value();
    e.target = runtime::TargetFromDevice(*e.device);  // what the runtime would plan for
    e.compiler = std::make_unique<codegen::GlslCompiler>("");
    return e;
  }();
  return env;
}

// A planned, compiled op with its buffers, ready to dispatch repeatedly.
struct Prepared {
  std::unique_ptr<ir::Module> module;
  library::LibraryPlan plan;
  std::vector<device::Buffer> operands, scratch;
  device::Buffer result;
  std::vector<std::shared_ptr<const device::Pipeline>> pipelines;
};

Status Run(Prepared& p);

StatusOr<std::unique_ptr<Prepared>> Prepare(const std::string& mlir, const std::vector<std::vector<float>>& inputs) {
  Env& env = SharedEnv();
  auto p = std::make_unique<Prepared>();
  VKHLO_ASSIGN_OR_RETURN(p->module, frontend::ParseModule(mlir));
  const ir::Operation* op = nullptr;
  ir::WalkOps(*p->module, [&](ir::Operation& o) {
    if (!op && (o.code() == ir::OpCode::kDotGeneral || o.code() == ir::OpCode::kConvolution)) op = &o;
  });
  if (op == nullptr) return NotFoundError("no op");
  if (op->code() == ir::OpCode::kDotGeneral) {
    library::PlanOptions options;
    if (const char* forced = std::getenv("VKHLO_BENCH_MATMUL_CONFIG")) options.force_config = forced;
    VKHLO_ASSIGN_OR_RETURN(p->plan, library::PlanDotGeneral(*op, env.target, {}, options));
  } else {
    library::PlanOptions options;
    if (const char* forced = std::getenv("VKHLO_BENCH_CONV_CONFIG")) options.force_config = forced;
    VKHLO_ASSIGN_OR_RETURN(p->plan, library::PlanConvolution(*op, env.target, {}, options));
  }
  VKHLO_RETURN_IF_ERROR(library::CompilePlan(p->plan, *env.compiler, env.target));
  for (const auto& in : inputs) {
    VKHLO_ASSIGN_OR_RETURN(device::Buffer b, env.device->allocator().Allocate(in.size() * 4 + 32));
    VKHLO_RETURN_IF_ERROR(env.device->transfers().Upload(b, 0, std::as_bytes(std::span(in))));
    p->operands.push_back(std::move(b));
  }
  for (uint64_t bytes : p->plan.scratch_bytes) {
    VKHLO_ASSIGN_OR_RETURN(device::Buffer b, env.device->allocator().Allocate(bytes + 32));
    p->scratch.push_back(std::move(b));
  }
  VKHLO_ASSIGN_OR_RETURN(p->result, env.device->allocator().Allocate(p->plan.result_bytes + 32));
  for (const auto& d : p->plan.dispatches) {
    device::ComputePipelineDesc desc;
    desc.name = d.name;
    desc.spirv = *d.spirv;
    desc.workgroup_base_offset = 0;
    desc.required_subgroup_size = d.required_subgroup_size;
    VKHLO_ASSIGN_OR_RETURN(auto pipeline, env.device->pipelines().GetOrCreate(desc));
    p->pipelines.push_back(std::move(pipeline));
  }
  // lavapipe compiles a pipeline's machine code on its first dispatch: do that untimed.
  VKHLO_RETURN_IF_ERROR(Run(*p));
  return p;
}

Status Run(Prepared& p) {
  Env& env = SharedEnv();
  // VKHLO_BENCH_DISPATCH_TIMES=1 prints each dispatch's GPU time (pack kernels vs product).
  static const bool times = std::getenv("VKHLO_BENCH_DISPATCH_TIMES") != nullptr;
  VKHLO_ASSIGN_OR_RETURN(device::CommandList list,
                         device::CommandList::Begin(*env.device, device::CommandListOptions{.timestamps = times}));
  for (size_t i = 0; i < p.plan.dispatches.size(); ++i) {
    const auto& d = p.plan.dispatches[i];
    std::vector<device::Binding> bindings;
    for (const auto& ref : d.bindings) {
      // The benchmarked plans have no epilogue inputs nor constant tables (float problems).
      if (ref.role == library::BufferRole::kEpilogueInput || ref.role == library::BufferRole::kConstant) {
        return InvalidArgumentError(d.name + ": the benchmark binds no epilogue inputs or constant tables");
      }
      const device::Buffer* b = ref.role == library::BufferRole::kOperand  ? &p.operands[ref.index]
                                : ref.role == library::BufferRole::kScratch ? &p.scratch[ref.index]
                                                                            : &p.result;
      bindings.push_back({b->view(), ref.written ? device::Access::kReadWrite : device::Access::kRead});
    }
    const uint32_t base[4] = {0, 0, 0, 0};
    VKHLO_RETURN_IF_ERROR(list.Dispatch(*p.pipelines[i], bindings, device::AsBytes(base), {d.grid[0], d.grid[1], d.grid[2]}));
  }
  VKHLO_ASSIGN_OR_RETURN(device::Submission s, list.Submit());
  VKHLO_RETURN_IF_ERROR(s.Wait());
  if (times) {
    VKHLO_ASSIGN_OR_RETURN(auto timings, s.Timings());
    for (const auto& t : timings) std::fprintf(stderr, "  %s %.2f ms", t.label.c_str(), t.milliseconds);
    std::fprintf(stderr, "\n");
  }
  return OkStatus();
}

std::vector<float> Random(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Times `gpu` (the benchmark's iterations), then `cpu` as many times (at least 3) in a block:
// OpenBLAS's threads spin for a while after each call, which would steal the CPU that lavapipe
// runs on if the two alternated. Reports GFLOPS for both and their ratio.
template <typename Gpu, typename Cpu>
void Compare(benchmark::State& state, double flops, double bytes, Gpu gpu, Cpu cpu) {
  double gpu_s = 0;
  int64_t n = 0;
  const double cpu0 = ProcessCpuSeconds();
  for (auto _ : state) {
    const auto t0 = Clock::now();
    Status s = gpu();
    const double g = Seconds(t0);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      return;
    }
    state.SetIterationTime(g);
    gpu_s += g;
    ++n;
  }
  const double gpu_cpu_s = ProcessCpuSeconds() - cpu0;
  const int64_t cpu_runs = std::max<int64_t>(n, 3);
  cpu();  // warm-up (thread start, page faults)
  const auto t0 = Clock::now();
  for (int64_t i = 0; i < cpu_runs; ++i) cpu();
  const double cpu_s = Seconds(t0) / static_cast<double>(cpu_runs);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let the BLAS threads go idle
  const double gpu_avg = gpu_s / static_cast<double>(n);
  // The machine this runs on is shared: other tenants slow one side of a single comparison by
  // up to 2x. Rounds of (vkhlo, pause, OpenBLAS, pause) give a ratio per round; the median of
  // those is the figure to quote (ratio_median, with ratio_min and ratio_max beside it).
  std::vector<double> ratios;
  for (int round = 0; round < 5; ++round) {
    auto median_of_3 = [](auto&& run) -> StatusOr<double> {
      std::vector<double> t;
      for (int i = 0; i < 3; ++i) {
        const auto t0 = Clock::now();
        VKHLO_RETURN_IF_ERROR(run());
        t.push_back(Seconds(t0));
      }
      std::sort(t.begin(), t.end());
      return t[1];
    };
    auto g = median_of_3(gpu);
    if (!g.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cpu();  // wakes OpenBLAS's threads, which slept through the pause
    auto c = median_of_3([&] { cpu(); return OkStatus(); });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ratios.push_back(*c / *g);
  }
  std::sort(ratios.begin(), ratios.end());
  if (!ratios.empty()) {
    state.counters["ratio_median"] = ratios[ratios.size() / 2];
    state.counters["ratio_min"] = ratios.front();
    state.counters["ratio_max"] = ratios.back();
  }
  state.counters["GFLOPS"] = flops / gpu_avg / 1e9;
  state.counters["blas_GFLOPS"] = flops / cpu_s / 1e9;
  state.counters["ratio"] = cpu_s / gpu_avg;
  // GFLOP per CPU-second of the whole process (lavapipe's threads) while vkhlo ran: less
  // sensitive than wall time to other processes on a shared machine.
  state.counters["cpu_GFLOPS"] = flops * static_cast<double>(n) / gpu_cpu_s / 1e9;
  if (bytes > 0) state.counters["GBps"] = bytes / gpu_avg / 1e9;
}

void BM_Sgemm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string t = fmt::format("tensor<{0}x{0}xf32>", n);
  const std::string mlir = fmt::format(
      "func.func @main(%a: {0}, %b: {0}) -> {0} {{\n  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
      "({0}, {0}) -> {0}\n  func.return %0 : {0}\n}}\n", t);
  auto a = Random(size_t(n) * n, 1), b = Random(size_t(n) * n, 2);
  std::vector<float> c(size_t(n) * n);
  auto prepared = Prepare(mlir, {a, b});
  if (!prepared.ok()) return state.SkipWithError(prepared.status().ToString().c_str());
  state.SetLabel((*prepared)->plan.config.name);
  Compare(state, 2.0 * n * n * n, 0, [&] { return Run(**prepared); },
          [&] { cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a.data(), n, b.data(), n, 0, c.data(), n); });
}

void BM_BatchedSgemm(benchmark::State& state) {
  const int batch = 256, n = 64;
  const std::string t = fmt::format("tensor<{}x{}x{}xf32>", batch, n, n);
  const std::string mlir = fmt::format(
      "func.func @main(%a: {0}, %b: {0}) -> {0} {{\n  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], "
      "contracting_dims = [2] x [1] : ({0}, {0}) -> {0}\n  func.return %0 : {0}\n}}\n", t);
  auto a = Random(size_t(batch) * n * n, 3), b = Random(size_t(batch) * n * n, 4);
  std::vector<float> c(size_t(batch) * n * n);
  auto prepared = Prepare(mlir, {a, b});
  if (!prepared.ok()) return state.SkipWithError(prepared.status().ToString().c_str());
  state.SetLabel((*prepared)->plan.config.name);
  Compare(state, 2.0 * batch * n * n * n, 0, [&] { return Run(**prepared); }, [&] {
    for (int i = 0; i < batch; ++i) {
      const size_t o = size_t(i) * n * n;
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a.data() + o, n, b.data() + o, n, 0, c.data() + o, n);
    }
  });
}

void BM_Gemv(benchmark::State& state) {
  const int n = 4096;
  const std::string mlir = fmt::format(
      "func.func @main(%a: tensor<{0}x{0}xf32>, %x: tensor<{0}xf32>) -> tensor<{0}xf32> {{\n  %0 = stablehlo.dot_general %a, %x, "
      "contracting_dims = [1] x [0] : (tensor<{0}x{0}xf32>, tensor<{0}xf32>) -> tensor<{0}xf32>\n  func.return %0 : "
      "tensor<{0}xf32>\n}}\n", n);
  auto a = Random(size_t(n) * n, 5), x = Random(n, 6);
  std::vector<float> y(n);
  auto prepared = Prepare(mlir, {a, x});
  if (!prepared.ok()) return state.SkipWithError(prepared.status().ToString().c_str());
  state.SetLabel((*prepared)->plan.config.name);
  Compare(state, 2.0 * n * n, 4.0 * n * n, [&] { return Run(**prepared); },
          [&] { cblas_sgemv(CblasRowMajor, CblasNoTrans, n, n, 1, a.data(), n, x.data(), 1, 0, y.data(), 1); });
}

// A 3x3 SAME convolution (NHWC / HWIO, stride 1) against im2col + cblas_sgemm.
void Conv3x3(benchmark::State& state, int batch, int h, int w, int ci, int co) {
  const std::string mlir = fmt::format(
      "func.func @main(%x: tensor<{0}x{1}x{2}x{3}xf32>, %k: tensor<3x3x{3}x{4}xf32>) -> tensor<{0}x{1}x{2}x{4}xf32> {{\n"
      "  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [1, 1], "
      "pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : "
      "(tensor<{0}x{1}x{2}x{3}xf32>, tensor<3x3x{3}x{4}xf32>) -> tensor<{0}x{1}x{2}x{4}xf32>\n"
      "  func.return %0 : tensor<{0}x{1}x{2}x{4}xf32>\n}}\n",
      batch, h, w, ci, co);
  auto x = Random(size_t(batch) * h * w * ci, 7), k = Random(size_t(9) * ci * co, 8);
  std::vector<float> cols(size_t(batch) * h * w * 9 * ci), y(size_t(batch) * h * w * co);
  auto prepared = Prepare(mlir, {x, k});
  if (!prepared.ok()) return state.SkipWithError(prepared.status().ToString().c_str());
  state.SetLabel((*prepared)->plan.config.name);
  const int m = batch * h * w, kk = 9 * ci;
  Compare(state, 2.0 * m * co * kk, 0, [&] { return Run(**prepared); }, [&] {
    // im2col (rows: output positions, columns: (ky, kx, ci)) then one sgemm with the HWIO kernel.
    for (int b = 0; b < batch; ++b) {
      for (int oy = 0; oy < h; ++oy) {
        for (int ox = 0; ox < w; ++ox) {
          float* row = cols.data() + ((size_t(b) * h + oy) * w + ox) * kk;
          for (int ky = 0; ky < 3; ++ky) {
            for (int kx = 0; kx < 3; ++kx) {
              const int iy = oy + ky - 1, ix = ox + kx - 1;
              float* dst = row + (ky * 3 + kx) * ci;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w) {
                std::memset(dst, 0, ci * sizeof(float));
              } else {
                std::memcpy(dst, x.data() + ((size_t(b) * h + iy) * w + ix) * ci, ci * sizeof(float));
              }
            }
          }
        }
      }
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, co, kk, 1, cols.data(), kk, k.data(), co, 0, y.data(), co);
  });
}

void BM_Conv3x3(benchmark::State& state) { Conv3x3(state, 8, 56, 56, 64, 64); }

// Small-channel convolutions: args (height = width, input features, output features), batch 8.
void BM_SmallConv3x3(benchmark::State& state) {
  const int hw = static_cast<int>(state.range(0));
  Conv3x3(state, 8, hw, hw, static_cast<int>(state.range(1)), static_cast<int>(state.range(2)));
}

// A dot_general (lhs, rhs types, dimension numbers) against `blas`.
void Matmul(benchmark::State& state, const std::string& lhs, const std::string& rhs, const std::string& out,
            const std::string& dims, size_t lhs_n, size_t rhs_n, double flops, const std::function<void(const float*, const float*)>& blas) {
  const std::string mlir = fmt::format(
      "func.func @main(%a: {0}, %b: {1}) -> {2} {{\n  %0 = stablehlo.dot_general %a, %b, {3} : ({0}, {1}) -> {2}\n"
      "  func.return %0 : {2}\n}}\n", lhs, rhs, out, dims);
  auto a = Random(lhs_n, 11), b = Random(rhs_n, 12);
  auto prepared = Prepare(mlir, {a, b});
  if (!prepared.ok()) return state.SkipWithError(prepared.status().ToString().c_str());
  state.SetLabel((*prepared)->plan.config.name);
  Compare(state, flops, 0, [&] { return Run(**prepared); }, [&] { blas(a.data(), b.data()); });
}

// Skinny products M x K @ K x N: args (M, K, N).
void BM_SkinnyMatmul(benchmark::State& state) {
  const int m = static_cast<int>(state.range(0)), k = static_cast<int>(state.range(1)), n = static_cast<int>(state.range(2));
  std::vector<float> c(size_t(m) * n);
  Matmul(state, fmt::format("tensor<{}x{}xf32>", m, k), fmt::format("tensor<{}x{}xf32>", k, n),
         fmt::format("tensor<{}x{}xf32>", m, n), "contracting_dims = [1] x [0]", size_t(m) * k, size_t(k) * n,
         2.0 * m * n * k, [&](const float* a, const float* b) {
           cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1, a, k, b, n, 0, c.data(), n);
         });
}

// A^T B with both operands K x M / K x N (contracting their leading dimension): args (K, M, N).
void BM_TransposedMatmul(benchmark::State& state) {
  const int k = static_cast<int>(state.range(0)), m = static_cast<int>(state.range(1)), n = static_cast<int>(state.range(2));
  std::vector<float> c(size_t(m) * n);
  Matmul(state, fmt::format("tensor<{}x{}xf32>", k, m), fmt::format("tensor<{}x{}xf32>", k, n),
         fmt::format("tensor<{}x{}xf32>", m, n), "contracting_dims = [0] x [0]", size_t(k) * m, size_t(k) * n,
         2.0 * m * n * k, [&](const float* a, const float* b) {
           cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m, n, k, 1, a, m, b, n, 0, c.data(), n);
         });
}

void BM_Depthwise3x3(benchmark::State& state) {
  const int h = 112, w = 112, c = 32;
  const std::string mlir = fmt::format(
      "func.func @main(%x: tensor<1x{0}x{1}x{2}xf32>, %k: tensor<3x3x1x{2}xf32>) -> tensor<1x{0}x{1}x{2}xf32> {{\n"
      "  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [1, 1], "
      "pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = {2} : i64}} : "
      "(tensor<1x{0}x{1}x{2}xf32>, tensor<3x3x1x{2}xf32>) -> tensor<1x{0}x{1}x{2}xf32>\n"
      "  func.return %0 : tensor<1x{0}x{1}x{2}xf32>\n}}\n",
      h, w, c);
  auto x = Random(size_t(h) * w * c, 9), k = Random(size_t(9) * c, 10);
  std::vector<float> y(size_t(h) * w * c);
  auto prepared = Prepare(mlir, {x, k});
  if (!prepared.ok()) return state.SkipWithError(prepared.status().ToString().c_str());
  state.SetLabel((*prepared)->plan.config.name);
  // Baseline: the same loop nest on the CPU, single-threaded (no BLAS has depthwise).
  Compare(state, 2.0 * h * w * c * 9, 2.0 * h * w * c * 4, [&] { return Run(**prepared); }, [&] {
    for (int oy = 0; oy < h; ++oy) {
      for (int ox = 0; ox < w; ++ox) {
        float* out = y.data() + (size_t(oy) * w + ox) * c;
        for (int ch = 0; ch < c; ++ch) out[ch] = 0;
        for (int ky = 0; ky < 3; ++ky) {
          const int iy = oy + ky - 1;
          if (iy < 0 || iy >= h) continue;
          for (int kx = 0; kx < 3; ++kx) {
            const int ix = ox + kx - 1;
            if (ix < 0 || ix >= w) continue;
            const float* in = x.data() + (size_t(iy) * w + ix) * c;
            const float* kr = k.data() + (ky * 3 + kx) * c;
            for (int ch = 0; ch < c; ++ch) out[ch] += in[ch] * kr[ch];
          }
        }
      }
    }
    benchmark::DoNotOptimize(y.data());
  });
}

BENCHMARK(BM_Sgemm)->Arg(1024)->Arg(2048)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_BatchedSgemm)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_Gemv)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_Conv3x3)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Depthwise3x3)->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_SmallConv3x3)
    ->Args({32, 16, 16})
    ->Args({16, 32, 32})
    ->Args({8, 64, 64})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->MinTime(1.0);
BENCHMARK(BM_SkinnyMatmul)->Args({16, 256, 1024})->Args({64, 1024, 1024})->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_TransposedMatmul)->Args({64, 1024, 1024})->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace
}  // namespace vkhlo

BENCHMARK_MAIN();
