// FFT benchmarks, side by side in one run (complex<f32>, forward, unnormalized):
//   BM_FftPlan      vkhlo's device FFT (device/fft: plan cache, command list, barriers), out of
//                   place (input -> output, as stablehlo.fft runs) and in place
//   BM_VkfftDirect  VkFFT called directly on the same VkDevice and queue: one application
//                   created with VkFFT's own defaults (in place, exact buffer size), recorded into
//                   a raw command buffer, submitted with a fence, as VkFFT's samples do
//   BM_Fftw         FFTW (fftwf, FFTW_MEASURE) on the CPU, one thread, out of place
// Shapes: 2^20 points (1-D) and 1024x1024 (2-D). Each iteration is one transform, submitted and
// waited for (wall clock). The lines to compare are the same shape's `real_time`; flop counts
// use the usual 5 N log2 N.
// Run: build/bin/vkhlo-fft-bench [--benchmark_filter=...].
#include <benchmark/benchmark.h>
#include <fftw3.h>

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
#include "device/queue.h"
#include "device/transfer.h"
#include "device/vk_status.h"

// VkFFT itself, through the same glslang compatibility shim as device/fft (see there).
#define VKFFT_BACKEND 0
#include "device/fft/vkfft_glslang_compat.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wformat-truncation"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <vkFFT.h>
#pragma GCC diagnostic pop
#include "device/fft/vkfft_glslang_compat_end.h"

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
std::vector<uint64_t> Lengths(const benchmark::State& state) {
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
  state.SetLabel(state.range(0) == 1 ? "2^20" : "1024x1024");
}

#define SKIP_IF_ERROR(expr)                          \
  do {                                               \
    ::vkhlo::Status s_ = (expr);                     \
    if (!s_.ok()) {                                  \
      state.SkipWithError(s_.ToString().c_str());    \
      return;                                        \
    }                                                \
  } while (0)

// state.range(1): 0 out of place, 1 in place.
void BM_FftPlan(benchmark::State& state) {
  Device& device = SharedDevice();
  FftDescriptor d{FftKind::kFft, FftPrecision::kF32, Lengths(state), 1};
  const uint64_t n = d.complex_elements(), bytes = d.input_bytes();
  const bool in_place = state.range(1) == 1;
  auto input = device.allocator().Allocate(bytes);
  auto output = device.allocator().Allocate(bytes);
  SKIP_IF_ERROR(input.status());
  SKIP_IF_ERROR(output.status());
  const std::vector<C> data = RandomData(n);
  SKIP_IF_ERROR(device.transfers().Upload(*input, 0, std::as_bytes(std::span(data))));
  const BufferView in = input->view(), out = in_place ? input->view() : output->view();
  auto run = [&]() -> Status {
    VKHLO_ASSIGN_OR_RETURN(CommandList list, CommandList::Begin(device));
    VKHLO_RETURN_IF_ERROR(SharedCache().Record(list, d, in, out));
    VKHLO_ASSIGN_OR_RETURN(Submission done, list.Submit());
    return done.Wait();
  };
  SKIP_IF_ERROR(run());  // plan and compile outside the timing
  for (auto _ : state) SKIP_IF_ERROR(run());
  SetCounters(state, n);
}

// VkFFT with its defaults: one in-place application on a buffer of exactly the data's size.
void BM_VkfftDirect(benchmark::State& state) {
  Device& device = SharedDevice();
  const std::vector<uint64_t> lengths = Lengths(state);
  uint64_t n = 1;
  for (uint64_t l : lengths) n *= l;
  uint64_t bytes = n * sizeof(C);
  VkDevice dev = device.handle();
  VkPhysicalDevice physical = device.physical_device();
  VkCommandPool pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = device.queue().family_index();
  vkCreateCommandPool(dev, &pool_info, nullptr, &pool);
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  vkCreateFence(dev, &fence_info, nullptr, &fence);

  auto buffer = device.allocator().Allocate(bytes);
  SKIP_IF_ERROR(buffer.status());
  const std::vector<C> data = RandomData(n);
  SKIP_IF_ERROR(device.transfers().Upload(*buffer, 0, std::as_bytes(std::span(data))));
  // VkFFT binds from offset 0 of the VkBuffer: give it the block up to the end of the data.
  VkBuffer vk_buffer = buffer->vk_buffer();
  uint64_t bound = buffer->offset() + bytes;

  VkFFTApplication app = {};
  VkFFTConfiguration c = {};
  c.FFTdim = lengths.size();
  c.size[0] = lengths.back();
  c.size[1] = lengths.size() > 1 ? lengths[0] : 1;
  c.size[2] = 1;
  c.physicalDevice = &physical;
  c.device = &dev;
  c.commandPool = &pool;
  c.fence = &fence;
  c.buffer = &vk_buffer;
  c.bufferSize = &bound;
  c.bufferOffset = buffer->offset();
  VkQueue queue = VK_NULL_HANDLE;
  c.queue = &queue;
  VkFFTResult init = VKFFT_SUCCESS;
  SKIP_IF_ERROR(device.queue().WithExclusiveQueue([&](VkQueue q) {
    queue = q;
    init = initializeVkFFT(&app, c);
    return OkStatus();
  }));
  if (init != VKFFT_SUCCESS) {
    state.SkipWithError(("initializeVkFFT failed: " + std::to_string(init)).c_str());
    return;
  }
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  vkAllocateCommandBuffers(dev, &alloc, &cb);
  auto run = [&]() -> Status {
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cb, &begin);
    VkFFTLaunchParams params = {};
    params.commandBuffer = &cb;
    VkFFTResult r = VkFFTAppend(&app, -1, &params);
    vkEndCommandBuffer(cb);
    if (r != VKFFT_SUCCESS) return InternalError("VkFFTAppend failed: " + std::to_string(r));
    return device.queue().WithExclusiveQueue([&](VkQueue q) -> Status {
      VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
      submit.commandBufferCount = 1;
      submit.pCommandBuffers = &cb;
      VKHLO_VK_RETURN_IF_ERROR(vkQueueSubmit(q, 1, &submit, fence));
      VKHLO_VK_RETURN_IF_ERROR(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
      VKHLO_VK_RETURN_IF_ERROR(vkResetFences(dev, 1, &fence));
      return OkStatus();
    });
  };
  Status first = run();
  if (first.ok()) {
    for (auto _ : state) {
      Status s = run();
      if (!s.ok()) {
        state.SkipWithError(s.ToString().c_str());
        break;
      }
    }
    SetCounters(state, n);
  } else {
    state.SkipWithError(first.ToString().c_str());
  }
  deleteVkFFT(&app);
  vkDestroyFence(dev, fence, nullptr);
  vkDestroyCommandPool(dev, pool, nullptr);
}

void BM_Fftw(benchmark::State& state) {
  const std::vector<uint64_t> lengths = Lengths(state);
  uint64_t n = 1;
  for (uint64_t l : lengths) n *= l;
  fftwf_complex* in = fftwf_alloc_complex(n);
  fftwf_complex* out = fftwf_alloc_complex(n);
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
BENCHMARK(BM_Fftw)->ArgName("shape")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

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
