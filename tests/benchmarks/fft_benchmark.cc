// FFT benchmarks, side by side in one run (complex<f32>, forward, unnormalized):
//   BM_FftPlan      vkhlo's device FFT (device/fft: plan cache, command list, barriers), out of
//                   place (input -> output, as stablehlo.fft runs) and in place
//   BM_VkfftDirect  VkFFT called directly on the same VkDevice and queue: one application
//                   created with VkFFT's own defaults (in place, exact buffer size), recorded into
//                   a raw command buffer, submitted with a fence, as VkFFT's samples do
//   BM_Fftw         FFTW (fftwf, FFTW_MEASURE) on the CPU, one thread, out of place (also
//                   shape 3: 3 x 2^23 points; shape 4: the prime 2^24 + 43)
//   BM_PlanOverDirect  the two alternating in one loop: their ratio, robust to machine load
//   BM_StagedOverDirect  the staged form (fft_staged.h: the runtime-only library's, with kernels
//                   a plan carries, copies in and out) and the plan path alternating: their ratio
//   BM_FftAboveOverBelowRange  a batched FFT just below and just above maxStorageBufferRange
//                   alternating in one loop: their bandwidths and ratio (fft_split.h)
// Shapes: 2^20 points (1-D) and 1024x1024 (2-D). Each iteration is one transform, submitted and
// waited for (wall clock). The lines to compare are the same shape's `real_time`; flop counts
// use the usual 5 N log2 N.
// Run: build/bin/vkhlo-fft-bench [--benchmark_filter=...].
#include <benchmark/benchmark.h>
#include <fftw3.h>
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/device.h"
#include "device/fft/fft_plan.h"
#include "device/fft/fft_staged.h"
#include "device/queue.h"
#include "device/transfer.h"
#include "device/vk_status.h"

// VkFFT itself, through the same glslang compatibility shim as device/fft (see there).
#include "device/fft/vkfft_include.h"

namespace vkhlo::device::fft {
namespace {

using C = std::complex<float>;

Device& SharedDevice() {
  static std::unique_ptr<Device> device;
  if (!device) {
    auto options = DeviceOptions::FromEnvironment();
    if (!options.ok()) std::abort();
    auto opened = Device::Create(*options);
    if (!opened.ok()) {
      std::fprintf(stderr, "cannot open a Vulkan device: %s\n", opened.status().ToString().c_str());
      std::exit(1);
    }
    device = std::move(opened).value();
  }
  return *device;
}

FftPlanCache& SharedCache() {
  static std::unique_ptr<FftPlanCache> cache;
  if (!cache) {
    auto created = FftPlanCache::Create(SharedDevice());
    if (!created.ok()) std::abort();
    cache = std::move(created).value();
  }
  return *cache;
}

// state.range(0): 1 = 2^20 points, 2 = 1024x1024.
// Shape 1: 2^20 points; 2: 1024x1024; 3 (FFTW only): 3 x 2^23 points, one transform beyond
// lavapipe's maxStorageBufferRange, the baseline for the program the compile splits
// (passes/split_large_ffts.cc; vkhlo-bench on it, docs/benchmarks.md).
std::vector<uint64_t> Lengths(const benchmark::State& state) {
  if (state.range(0) == 3) return {3u << 23};
  if (state.range(0) == 4) return {(1u << 24) + 43};  // prime
  return state.range(0) == 1 ? std::vector<uint64_t>{1u << 20} : std::vector<uint64_t>{1024, 1024};
}

std::vector<C> RandomData(size_t n) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<C> v(n);
  for (C& c : v) c = C(dist(rng), dist(rng));
  return v;
}

void SetCounters(benchmark::State& state, uint64_t n) {
  state.counters["GFLOP"] = benchmark::Counter(
      5.0 * double(n) * std::log2(double(n)) * double(state.iterations()) * 1e-9,
      benchmark::Counter::kIsRate);
  const int64_t shape = state.range(0);
  state.SetLabel(shape == 1 ? "2^20" : shape == 2 ? "1024x1024" : shape == 3 ? "3x2^23" : "2^24+43");
}

#define SKIP_IF_ERROR(expr)                          \
  do {                                               \
    ::vkhlo::Status s_ = (expr);                     \
    if (!s_.ok()) {                                  \
      state.SkipWithError(s_.ToString().c_str());    \
      return;                                        \
    }                                                \
  } while (0)

// vkhlo's FFT of `d` on fresh buffers: one transform per Run(), submitted and waited for.
class PlanRunner {
 public:
  Status Init(const FftDescriptor& d, bool in_place) {
    Device& device = SharedDevice();
    d_ = d;
    VKHLO_ASSIGN_OR_RETURN(input_, device.allocator().Allocate(d.input_bytes()));
    VKHLO_ASSIGN_OR_RETURN(output_, device.allocator().Allocate(d.output_bytes()));
    const std::vector<C> data = RandomData(d.complex_elements());
    VKHLO_RETURN_IF_ERROR(device.transfers().Upload(input_, 0, std::as_bytes(std::span(data))));
    in_ = TensorOf(input_, d.input_bytes());
    out_ = in_place ? in_ : TensorOf(output_, d.output_bytes());
    return Run();  // plans and compiles outside the timing
  }
  Status Run() {
    VKHLO_ASSIGN_OR_RETURN(CommandList list, CommandList::Begin(SharedDevice()));
    if (staged_kernels_.empty()) {
      VKHLO_RETURN_IF_ERROR(SharedCache().Record(list, d_, in_, out_));
    } else {
      VKHLO_RETURN_IF_ERROR(SharedCache().RecordStaged(list, d_, target_, staged_kernels_, staged_id_, in_.view, out_.view));
    }
    VKHLO_ASSIGN_OR_RETURN(Submission done, list.Submit());
    return done.Wait();
  }
  // Runs the staged form from here on, with kernels compiled for the generic target.
  Status Stage() {
    target_ = GenericTargetOf(SharedDevice());
    VKHLO_ASSIGN_OR_RETURN(staged_kernels_, SharedCache().StagedKernels(d_, target_));
    staged_id_ = KernelsId(staged_kernels_);
    return Run();  // loads them outside the timing
  }

 private:
  VkfftTarget target_;
  std::vector<uint32_t> staged_kernels_;
  uint64_t staged_id_ = 0;
  FftDescriptor d_;
  Buffer input_, output_;
  FftTensor in_, out_;
};

// VkFFT with its defaults: one in-place application on a buffer of exactly the data's size,
// recorded into a raw command buffer and submitted with a fence.
class DirectVkfft {
 public:
  ~DirectVkfft() {
    Device& device = SharedDevice();
    if (initialized_) deleteVkFFT(&app_);
    if (fence_ != VK_NULL_HANDLE) vkDestroyFence(device.handle(), fence_, nullptr);
    if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device.handle(), pool_, nullptr);
  }
  Status Init(const std::vector<uint64_t>& lengths) {
    Device& device = SharedDevice();
    uint64_t n = 1;
    for (uint64_t l : lengths) n *= l;
    dev_ = device.handle();
    physical_ = device.physical_device();
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = device.queue().family_index();
    VKHLO_VK_RETURN_IF_ERROR(vkCreateCommandPool(dev_, &pool_info, nullptr, &pool_));
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VKHLO_VK_RETURN_IF_ERROR(vkCreateFence(dev_, &fence_info, nullptr, &fence_));
    VKHLO_ASSIGN_OR_RETURN(buffer_, device.allocator().Allocate(n * sizeof(C)));
    const std::vector<C> data = RandomData(n);
    VKHLO_RETURN_IF_ERROR(device.transfers().Upload(buffer_, 0, std::as_bytes(std::span(data))));
    // VkFFT binds from offset 0 of the VkBuffer: bind up to the end of the data.
    vk_buffer_ = buffer_.vk_buffer();
    bound_ = buffer_.offset() + n * sizeof(C);
    VkFFTConfiguration c = {};
    c.FFTdim = lengths.size();
    c.size[0] = lengths.back();
    c.size[1] = lengths.size() > 1 ? lengths[0] : 1;
    c.size[2] = 1;
    c.physicalDevice = &physical_;
    c.device = &dev_;
    c.queue = &queue_;
    c.commandPool = &pool_;
    c.fence = &fence_;
    c.buffer = &vk_buffer_;
    c.bufferSize = &bound_;
    c.bufferOffset = buffer_.offset();
    VkFFTResult init = VKFFT_SUCCESS;
    VKHLO_RETURN_IF_ERROR(device.queue().WithExclusiveQueue([&](VkQueue q) {
      queue_ = q;
      init = initializeVkFFT(&app_, c);
      return OkStatus();
    }));
    if (init != VKFFT_SUCCESS) return InternalError("initializeVkFFT failed: " + std::to_string(init));
    initialized_ = true;
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VKHLO_VK_RETURN_IF_ERROR(vkAllocateCommandBuffers(dev_, &alloc, &cb_));
    return Run();
  }
  Status Run() {
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKHLO_VK_RETURN_IF_ERROR(vkBeginCommandBuffer(cb_, &begin));
    VkFFTLaunchParams params = {};
    params.commandBuffer = &cb_;
    VkFFTResult r = VkFFTAppend(&app_, -1, &params);
    VKHLO_VK_RETURN_IF_ERROR(vkEndCommandBuffer(cb_));
    if (r != VKFFT_SUCCESS) return InternalError("VkFFTAppend failed: " + std::to_string(r));
    return SharedDevice().queue().WithExclusiveQueue([&](VkQueue q) -> Status {
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &cb_;
      VKHLO_VK_RETURN_IF_ERROR(vkQueueSubmit(q, 1, &submit, fence_));
      VKHLO_VK_RETURN_IF_ERROR(vkWaitForFences(dev_, 1, &fence_, VK_TRUE, UINT64_MAX));
      return VkResultToStatus(vkResetFences(dev_, 1, &fence_), "vkResetFences");
    });
  }

 private:
  VkFFTApplication app_ = {};
  bool initialized_ = false;
  VkDevice dev_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkCommandBuffer cb_ = VK_NULL_HANDLE;
  Buffer buffer_;
  VkBuffer vk_buffer_ = VK_NULL_HANDLE;
  uint64_t bound_ = 0;
};

// state.range(1): 0 out of place, 1 in place.
void BM_FftPlan(benchmark::State& state) {
  PlanRunner plan;
  SKIP_IF_ERROR(plan.Init(FftDescriptor{FftKind::kFft, FftPrecision::kF32, Lengths(state), 1},
                          state.range(1) == 1));
  for (auto _ : state) SKIP_IF_ERROR(plan.Run());
  uint64_t n = 1;
  for (uint64_t l : Lengths(state)) n *= l;
  SetCounters(state, n);
}

void BM_VkfftDirect(benchmark::State& state) {
  DirectVkfft direct;
  SKIP_IF_ERROR(direct.Init(Lengths(state)));
  for (auto _ : state) SKIP_IF_ERROR(direct.Run());
  uint64_t n = 1;
  for (uint64_t l : Lengths(state)) n *= l;
  SetCounters(state, n);
}

// The overhead ratio, robust to a loaded machine: vkhlo (out of place, as stablehlo.fft runs)
// and VkFFT direct alternate within each iteration; counters are their mean times and
// plan/direct. The iteration time is the pair's.
void BM_PlanOverDirect(benchmark::State& state) {
  PlanRunner plan;
  DirectVkfft direct;
  SKIP_IF_ERROR(plan.Init(FftDescriptor{FftKind::kFft, FftPrecision::kF32, Lengths(state), 1},
                          false));
  SKIP_IF_ERROR(direct.Init(Lengths(state)));
  double plan_s = 0, direct_s = 0;
  using Clock = std::chrono::steady_clock;
  for (auto _ : state) {
    auto t0 = Clock::now();
    SKIP_IF_ERROR(plan.Run());
    auto t1 = Clock::now();
    SKIP_IF_ERROR(direct.Run());
    auto t2 = Clock::now();
    plan_s += std::chrono::duration<double>(t1 - t0).count();
    direct_s += std::chrono::duration<double>(t2 - t1).count();
  }
  const double runs = double(state.iterations());
  state.counters["plan_ms"] = plan_s / runs * 1e3;
  state.counters["direct_ms"] = direct_s / runs * 1e3;
  state.counters["plan/direct"] = plan_s / direct_s;
  state.SetLabel(state.range(0) == 1 ? "2^20" : "1024x1024");
}

// The staged form's cost (the runtime-only library's FFT: copies in and out around VkFFT on
// buffers of its own) against the plan path, alternating within each iteration, out of place.
void BM_StagedOverDirect(benchmark::State& state) {
  const FftDescriptor d{FftKind::kFft, FftPrecision::kF32, Lengths(state), 1};
  PlanRunner plan, staged;
  SKIP_IF_ERROR(plan.Init(d, false));
  SKIP_IF_ERROR(staged.Init(d, false));
  SKIP_IF_ERROR(staged.Stage());
  double plan_s = 0, staged_s = 0;
  using Clock = std::chrono::steady_clock;
  for (auto _ : state) {
    auto t0 = Clock::now();
    SKIP_IF_ERROR(plan.Run());
    auto t1 = Clock::now();
    SKIP_IF_ERROR(staged.Run());
    auto t2 = Clock::now();
    plan_s += std::chrono::duration<double>(t1 - t0).count();
    staged_s += std::chrono::duration<double>(t2 - t1).count();
  }
  const double runs = double(state.iterations());
  state.counters["plan_ms"] = plan_s / runs * 1e3;
  state.counters["staged_ms"] = staged_s / runs * 1e3;
  state.counters["staged/plan"] = staged_s / plan_s;
  state.SetLabel(state.range(0) == 1 ? "2^20" : "1024x1024");
}

// Tensors beyond maxStorageBufferRange (fft_split.h), robust to a loaded machine: a batched
// complex<f32> FFT of length 2048 just below the range (8191 rows, one launch) and just above it
// (8193 rows, 128 MiB + 16 KiB: split into launches over windows) alternate within each
// iteration, out of place. Counters: each one's bandwidth (bytes read + written per second) and
// above/below, the ratio of the bandwidths.
void BM_FftAboveOverBelowRange(benchmark::State& state) {
  constexpr uint64_t kLength = 2048;
  const DeviceLimits& limits = SharedDevice().capabilities().limits;
  const uint64_t range = limits.max_storage_buffer_range;
  if (limits.max_memory_allocation_size != 0 && range + (1u << 20) > limits.max_memory_allocation_size) {
    state.SkipWithError(fmt::format("maxStorageBufferRange = {} leaves no room above it within one allocation "
                                    "(maxMemoryAllocationSize = {}): try VKHLO_PROFILE=mobile",
                                    range, limits.max_memory_allocation_size).c_str());
    return;
  }
  const uint64_t rows_below = range / (kLength * sizeof(C)) - 1;
  PlanRunner below, above;
  const FftDescriptor d_below{FftKind::kFft, FftPrecision::kF32, {kLength}, rows_below};
  const FftDescriptor d_above{FftKind::kFft, FftPrecision::kF32, {kLength}, rows_below + 2};
  SKIP_IF_ERROR(below.Init(d_below, false));
  SKIP_IF_ERROR(above.Init(d_above, false));
  double below_s = 0, above_s = 0;
  using Clock = std::chrono::steady_clock;
  for (auto _ : state) {
    auto t0 = Clock::now();
    SKIP_IF_ERROR(below.Run());
    auto t1 = Clock::now();
    SKIP_IF_ERROR(above.Run());
    auto t2 = Clock::now();
    below_s += std::chrono::duration<double>(t1 - t0).count();
    above_s += std::chrono::duration<double>(t2 - t1).count();
  }
  const double runs = double(state.iterations());
  const double below_gbps = 2.0 * d_below.input_bytes() * runs / below_s * 1e-9;
  const double above_gbps = 2.0 * d_above.input_bytes() * runs / above_s * 1e-9;
  state.counters["below_ms"] = below_s / runs * 1e3;
  state.counters["above_ms"] = above_s / runs * 1e3;
  state.counters["below_GB/s"] = below_gbps;
  state.counters["above_GB/s"] = above_gbps;
  state.counters["above/below"] = above_gbps / below_gbps;
  state.SetLabel(fmt::format("{}x{} vs {}x{}", rows_below, kLength, rows_below + 2, kLength));
}

void BM_Fftw(benchmark::State& state) {
  const std::vector<uint64_t> lengths = Lengths(state);
  uint64_t n = 1;
  for (uint64_t l : lengths) n *= l;
  fftwf_complex* in = fftwf_alloc_complex(n);
  fftwf_complex* out = fftwf_alloc_complex(n);
  // FFTW_MEASURE tries plans for many minutes at 3 x 2^23 points (and the prime): bounded there
  // (FFTW then keeps the best plan found so far).
  fftwf_set_timelimit(state.range(0) >= 3 ? 30.0 : FFTW_NO_TIMELIMIT);
  fftwf_plan plan =
      lengths.size() == 1
          ? fftwf_plan_dft_1d(int(n), in, out, FFTW_FORWARD, FFTW_MEASURE)
          : fftwf_plan_dft_2d(int(lengths[0]), int(lengths[1]), in, out, FFTW_FORWARD, FFTW_MEASURE);
  const std::vector<C> data = RandomData(n);
  std::memcpy(in, data.data(), n * sizeof(C));  // after planning: MEASURE overwrites `in`
  for (auto _ : state) {
    fftwf_execute(plan);
    benchmark::DoNotOptimize(out);
  }
  SetCounters(state, n);
  fftwf_destroy_plan(plan);
  fftwf_free(in);
  fftwf_free(out);
}

BENCHMARK(BM_FftPlan)->ArgNames({"shape", "in_place"})->Args({1, 0})->Args({1, 1})->Args({2, 0})->Args({2, 1})
    ->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VkfftDirect)->ArgName("shape")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Fftw)->ArgName("shape")->Arg(1)->Arg(2)->Arg(3)->Arg(4)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlanOverDirect)->ArgName("shape")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StagedOverDirect)->ArgName("shape")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FftAboveOverBelowRange)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vkhlo::device::fft

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  // The cache and device are function statics: destroyed in reverse order of creation (the
  // cache, created after the device, goes first).
  return 0;
}
