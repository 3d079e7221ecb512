// Device-layer benchmarks, each beside its baseline in the same run:
//   transfers   upload/download bandwidth (direct mapping and staging ring) vs host memcpy
//   dispatch    per-dispatch cost in a chain of 1,000 trivial dispatches in one submission
//   round trip  one submit-and-wait of an empty command list
// Run: build/bin/vkhlo-device-bench [--benchmark_filter=...]. Bandwidth is bytes_per_second.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <vector>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/device.h"
#include "device/transfer.h"
#include "embedded_shaders.h"

namespace vkhlo::device {
namespace {

// One device per transfer path, opened on first use and kept for the whole run.
Device& SharedDevice(bool direct) {
  static std::unique_ptr<Device> devices[2];
  std::unique_ptr<Device>& slot = devices[direct ? 1 : 0];
  if (!slot) {
    auto options = DeviceOptions::FromEnvironment();
    if (!options.ok()) std::abort();
    options->direct_host_transfers = direct;
    auto device = Device::Create(*options);
    if (!device.ok()) {
      std::fprintf(stderr, "cannot open a Vulkan device: %s\n", device.status().ToString().c_str());
      std::exit(1);
    }
    slot = std::move(device).value();
  }
  return *slot;
}

void BM_HostMemcpy(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<std::byte> src(n, std::byte{1}), dst(n);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n));
}

template <bool kDirect, bool kUpload>
void BM_Transfer(benchmark::State& state) {
  Device& device = SharedDevice(kDirect);
  const size_t n = static_cast<size_t>(state.range(0));
  auto buffer = device.allocator().Allocate(n);
  if (!buffer.ok()) {
    state.SkipWithError(buffer.status().ToString().c_str());
    return;
  }
  std::vector<std::byte> host(n, std::byte{1});
  for (auto _ : state) {
    Status s = kUpload ? device.transfers().Upload(*buffer, 0, host)
                       : device.transfers().Download(*buffer, 0, host);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      return;
    }
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n));
}

struct FillPush {
  uint32_t base[4];
  uint32_t groups[4];
  uint32_t count;
  uint32_t value;
};

void BM_DispatchChain1000(benchmark::State& state) {
  Device& device = SharedDevice(true);
  ComputePipelineDesc desc;
  desc.name = "util/fill_u32";
  desc.spirv = shaders::FindShader("util/fill_u32")->spirv;
  desc.specialization = {SpecUint(0, 64)};
  desc.workgroup_base_offset = 0;
  auto pipeline = device.pipelines().GetOrCreate(desc);
  auto buffer = device.allocator().Allocate(16 * 256);
  if (!pipeline.ok() || !buffer.ok()) {
    state.SkipWithError("setup failed");
    return;
  }
  const bool dependent = state.range(0) != 0;
  FillPush push{{0}, {1, 1, 1, 0}, 64, 1};
  for (auto _ : state) {
    auto list = CommandList::Begin(device);
    if (!list.ok()) {
      state.SkipWithError(list.status().ToString().c_str());
      return;
    }
    for (int i = 0; i < 1000; ++i) {
      // Dependent: every dispatch rewrites the same range (a barrier before each); otherwise
      // 16 disjoint 256-byte slices in turn (a barrier every 16 dispatches).
      BufferView view = buffer->view(dependent ? 0 : (i % 16) * 256, 256);
      Status s = list->Dispatch(**pipeline, {{view, Access::kWrite}}, AsBytes(push), {1, 1, 1});
      if (!s.ok()) {
        state.SkipWithError(s.ToString().c_str());
        return;
      }
    }
    auto done = list->Submit();
    if (!done.ok() || !done->Wait().ok()) {
      state.SkipWithError("submit failed");
      return;
    }
  }
  // Seconds per dispatch (printed with an SI suffix: 12.3u = 12.3 microseconds).
  state.counters["per_dispatch"] = benchmark::Counter(
      1000, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_SubmitWaitRoundTrip(benchmark::State& state) {
  Device& device = SharedDevice(true);
  for (auto _ : state) {
    auto list = CommandList::Begin(device);
    auto done = list.ok() ? list->Submit() : StatusOr<Submission>(list.status());
    if (!done.ok() || !done->Wait().ok()) {
      state.SkipWithError("submit failed");
      return;
    }
  }
}

constexpr int64_t kKiB = 1024, kMiB = 1024 * 1024;

BENCHMARK(BM_HostMemcpy)->Arg(64 * kKiB)->Arg(4 * kMiB)->Arg(64 * kMiB)->UseRealTime();
BENCHMARK(BM_Transfer<true, true>)->Name("BM_UploadDirect")->Arg(64 * kKiB)->Arg(4 * kMiB)->Arg(64 * kMiB)->UseRealTime();
BENCHMARK(BM_Transfer<true, false>)->Name("BM_DownloadDirect")->Arg(64 * kKiB)->Arg(4 * kMiB)->Arg(64 * kMiB)->UseRealTime();
BENCHMARK(BM_Transfer<false, true>)->Name("BM_UploadStaged")->Arg(64 * kKiB)->Arg(4 * kMiB)->Arg(64 * kMiB)->UseRealTime();
BENCHMARK(BM_Transfer<false, false>)->Name("BM_DownloadStaged")->Arg(64 * kKiB)->Arg(4 * kMiB)->Arg(64 * kMiB)->UseRealTime();
BENCHMARK(BM_DispatchChain1000)->ArgName("dependent")->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SubmitWaitRoundTrip)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace vkhlo::device

BENCHMARK_MAIN();
