// Indexing benchmarks, each beside its baseline in the same run:
//   BM_HostMemcpy/128MiB   memcpy of the gathered bytes (the bandwidth baseline)
//   BM_GatherRows          an embedding lookup: 64K random rows of 512 f32 out of a 64K-row table
//                          (gather elemental, one loop kernel); bytes_per_second counts the rows
//                          read and written (256 MiB), comparable to memcpy's (read + write)
//   BM_ScatterAddHost      serial host loop: 512K row updates of 64 f32 added into 64K rows
//   BM_ScatterAdd/f32      the same on the device (the deterministic row path: bucket the
//                          updates by row, then one invocation per result element)
//   BM_ScatterAdd/s32      the same with s32 (the atomic path: copy, then one invocation per
//                          update element)
// Run: build/bin/vkhlo-indexing-bench [--benchmark_filter=...].
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "tests/benchmarks/bench_client.h"
#include "vkhlo/runtime.h"

namespace vkhlo {
namespace {

using bench::SharedClient;
using bench::Upload;

constexpr int64_t kTableRows = 64 << 10, kRowFloats = 512;
// 512K updates (not 1M): 1M x 64 f32 is 256 MiB, beyond lavapipe's maxStorageBufferRange (128 MiB).
constexpr int64_t kScatterRows = 64 << 10, kScatterWidth = 64, kUpdates = 1 << 19;

std::vector<int32_t> RandomRows(int64_t count, int64_t rows) {
  std::mt19937 rng(1);
  std::vector<int32_t> v(static_cast<size_t>(count));
  for (int32_t& x : v) x = static_cast<int32_t>(rng() % static_cast<uint32_t>(rows));
  return v;
}

void BM_HostMemcpy(benchmark::State& state) {
  const size_t n = static_cast<size_t>(kTableRows * kRowFloats * 4);
  std::vector<std::byte> src(n, std::byte{1}), dst(n);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n) * 2);
}

void BM_GatherRows(benchmark::State& state) {
  const std::string program = fmt::format(R"(
func.func @main(%table: tensor<{0}x{1}xf32>, %ids: tensor<{0}x1xi32>) -> tensor<{0}x{1}xf32> {{
  %g = "stablehlo.gather"(%table, %ids) {{dimension_numbers = #stablehlo.gather<offset_dims = [1],
      collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
      slice_sizes = array<i64: 1, {1}>}} : (tensor<{0}x{1}xf32>, tensor<{0}x1xi32>) -> tensor<{0}x{1}xf32>
  func.return %g : tensor<{0}x{1}xf32>
}}
)", kTableRows, kRowFloats);
  auto exe = SharedClient().Compile(program);
  if (!exe.ok()) {
    state.SkipWithError(exe.status().ToString().c_str());
    return;
  }
  Buffer table = Upload(std::vector<float>(static_cast<size_t>(kTableRows * kRowFloats), 1.5f), "f32", {kTableRows, kRowFloats});
  Buffer ids = Upload(RandomRows(kTableRows, kTableRows), "i32", {kTableRows, 1});
  for (auto _ : state) {
    auto results = exe->Execute({table, ids});
    if (!results.ok()) {
      state.SkipWithError(results.status().ToString().c_str());
      return;
    }
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * kTableRows * kRowFloats * 4 * 2);
}

void BM_ScatterAddHost(benchmark::State& state) {
  std::vector<float> result(static_cast<size_t>(kScatterRows * kScatterWidth), 0.0f);
  std::vector<float> updates(static_cast<size_t>(kUpdates * kScatterWidth), 0.25f);
  const std::vector<int32_t> rows = RandomRows(kUpdates, kScatterRows);
  for (auto _ : state) {
    for (int64_t u = 0; u < kUpdates; ++u) {
      float* dst = result.data() + rows[static_cast<size_t>(u)] * kScatterWidth;
      const float* src = updates.data() + u * kScatterWidth;
      for (int64_t k = 0; k < kScatterWidth; ++k) dst[k] += src[k];
    }
    benchmark::DoNotOptimize(result.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kUpdates * kScatterWidth);
}

void BM_ScatterAdd(benchmark::State& state) {
  const bool f32 = state.range(0) == 0;
  const char* t = f32 ? "f32" : "i32";
  const std::string program = fmt::format(R"(
func.func @main(%acc: tensor<{0}x{1}x{3}>, %ids: tensor<{2}x1xi32>, %u: tensor<{2}x{1}x{3}>) -> tensor<{0}x{1}x{3}> {{
  %r = "stablehlo.scatter"(%acc, %ids, %u) ({{
  ^bb0(%x: tensor<{3}>, %y: tensor<{3}>):
    %s = stablehlo.add %x, %y : tensor<{3}>
    stablehlo.return %s : tensor<{3}>
  }}) {{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}}
     : (tensor<{0}x{1}x{3}>, tensor<{2}x1xi32>, tensor<{2}x{1}x{3}>) -> tensor<{0}x{1}x{3}>
  func.return %r : tensor<{0}x{1}x{3}>
}}
)", kScatterRows, kScatterWidth, kUpdates, t);
  auto exe = SharedClient().Compile(program);
  if (!exe.ok()) {
    state.SkipWithError(exe.status().ToString().c_str());
    return;
  }
  // The accumulator starts at zero (the same bits in f32 and s32); every update is 3 (3.0f).
  Buffer acc = Upload(std::vector<int32_t>(static_cast<size_t>(kScatterRows * kScatterWidth), 0), f32 ? "f32" : "i32",
                      {kScatterRows, kScatterWidth});
  Buffer ids = Upload(RandomRows(kUpdates, kScatterRows), "i32", {kUpdates, 1});
  const int32_t three = f32 ? 0x40400000 : 3;
  Buffer updates = Upload(std::vector<int32_t>(static_cast<size_t>(kUpdates * kScatterWidth), three), f32 ? "f32" : "i32",
                          {kUpdates, kScatterWidth});
  for (auto _ : state) {
    auto results = exe->Execute({acc, ids, updates});
    if (!results.ok()) {
      state.SkipWithError(results.status().ToString().c_str());
      return;
    }
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * kUpdates * kScatterWidth);
  state.SetLabel(f32 ? "f32 rows" : "s32 atomics");
}

BENCHMARK(BM_HostMemcpy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GatherRows)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ScatterAddHost)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ScatterAdd)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace vkhlo

BENCHMARK_MAIN();
