// Codegen and runtime benchmarks, each beside its baseline in the same run:
//   BM_HostMemcpy/64MiB         the memory bandwidth baseline (real time, as the kernels are)
//   BM_HandWrittenAdd/0,1       hand-written c = a + b over 16M f32, scalar / vec4 loads
//   BM_Chain8Fused/Unfused      8 element-wise ops over 16M f32 (x, y -> z): one kernel vs eight;
//                               bytes_per_second counts what the fused kernel must move (read x
//                               and y, write z: 192 MiB), so the two are directly comparable
//   BM_Chain8KernelOnly         the fused chain's generated kernel dispatched like the hand-written
//                               one (buffers allocated once): the kernel alone, without Execute's
//                               per-run costs (allocating the result, recording, submitting)
//   BM_Execute1Op               end-to-end Execute latency of a 1-op program on 4 elements
//   BM_DispatchOverhead         per-dispatch cost: an unfused chain of 64 tiny ops, per op
//   BM_ReduceRows               reduce(add) of 4096x4096 f32 over its rows (one workgroup tree per row)
//   BM_ReduceAll                reduce(add) of 16M f32 to a scalar (two passes through scratch)
//   BM_ReduceColumns            reduce(add) of 4096x4096 f32 over its outer dimension (column sums);
//                               all three count the 64 MiB read, to compare with BM_HostMemcpy
//   BM_Chain8AtRange/0,1        the 8-op chain on 128 MiB tensors (the range on lavapipe: descriptors) and
//                               128 MiB + 4 KiB (beyond it: device addresses), issue 25
//   BM_ReduceRowsAtRange/0,1    row sums of 8192x4096 / 8193x4096 f32, the same two paths
//   BM_DusLoop/1,0              a while loop writing one 16 KiB row per iteration into a carried
//                               16 MiB f32 buffer (dynamic_update_slice), 64 iterations: in place
//                               (/1: only the rows are written) vs the fused elemental update (/0:
//                               the whole buffer per iteration); time per loop
//   BM_CompileCold/Warm         compiling the 8-op chain: fresh caches (first glslang use in the
//                               process included on the first iteration) vs warm caches
// Run: build/bin/vkhlo-codegen-bench [--benchmark_filter=...].
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <filesystem>
#include <vector>

#include "tests/benchmarks/bench_client.h"
#include "codegen/glsl_compiler.h"
#include "device/allocator.h"
#include "device/command_list.h"
#include "device/device.h"
#include "device/pipeline.h"
#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "vkhlo/runtime.h"

namespace vkhlo {
namespace {

using bench::SharedClient;
using bench::Upload;

constexpr int64_t kChainElements = 16 << 20;

std::string ChainProgram(int64_t n) {
  return fmt::format(R"(
func.func @main(%x: tensor<{0}xf32>, %y: tensor<{0}xf32>) -> tensor<{0}xf32> {{
  %0 = stablehlo.multiply %x, %y : tensor<{0}xf32>
  %1 = stablehlo.add %0, %x : tensor<{0}xf32>
  %2 = stablehlo.maximum %1, %y : tensor<{0}xf32>
  %3 = stablehlo.subtract %2, %x : tensor<{0}xf32>
  %4 = stablehlo.abs %3 : tensor<{0}xf32>
  %5 = stablehlo.multiply %4, %y : tensor<{0}xf32>
  %6 = stablehlo.negate %5 : tensor<{0}xf32>
  %7 = stablehlo.minimum %6, %x : tensor<{0}xf32>
  return %7 : tensor<{0}xf32>
}}
)",
                     n);
}

Buffer Filled(int64_t n, float value) {
  std::vector<float> host(static_cast<size_t>(n), value);
  auto b = SharedClient().BufferFromHost(
      {"f32", {n}}, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(host.data()), host.size() * 4));
  if (!b.ok()) std::abort();
  return *b;
}

void BM_HostMemcpy(benchmark::State& state) {
  const size_t n = 64u << 20;
  std::vector<std::byte> src(n, std::byte{1}), dst(n);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n));
}

// Hand-written `c = a + b` over 16M f32 (scalar and vec4 loads), dispatched straight through the
// device layer: what a loop kernel can hope for on this device, measured in the same run.
constexpr const char* kHandAdd[2] = {R"(#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Push { uvec4 base; } pc;
void main() { uint i = (gl_WorkGroupID.x + pc.base.x) * 256u + gl_LocalInvocationID.x; c[i] = a[i] + b[i]; }
)",
                                     R"(#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer C { vec4 c[]; };
layout(push_constant) uniform Push { uvec4 base; } pc;
void main() { uint i = (gl_WorkGroupID.x + pc.base.x) * 256u + gl_LocalInvocationID.x; c[i] = a[i] + b[i]; }
)"};

void BM_HandWrittenAdd(benchmark::State& state) {
  const bool vec4 = state.range(0) != 0;
  device::Device& dev = *SharedClient().state()->device;
  codegen::GlslCompiler compiler("");
  auto spirv = compiler.Compile(kHandAdd[vec4 ? 1 : 0]);
  if (!spirv.ok()) std::abort();
  device::ComputePipelineDesc desc;
  desc.name = vec4 ? "hand_add_vec4" : "hand_add_scalar";
  desc.spirv = **spirv;
  desc.workgroup_base_offset = 0;
  auto pipeline = dev.pipelines().GetOrCreate(desc);
  const uint64_t bytes = kChainElements * 4;
  auto a = dev.allocator().Allocate(bytes), b = dev.allocator().Allocate(bytes), c = dev.allocator().Allocate(bytes);
  if (!pipeline.ok() || !a.ok() || !b.ok() || !c.ok()) std::abort();
  const uint32_t groups = static_cast<uint32_t>(kChainElements / (vec4 ? 4 : 1) / 256);
  for (auto _ : state) {
    auto list = device::CommandList::Begin(dev);
    const uint32_t zero[4] = {0, 0, 0, 0};
    Status s = list->Dispatch(**pipeline, {{a->view(), device::Access::kRead}, {b->view(), device::Access::kRead},
                                           {c->view(), device::Access::kWrite}},
                              device::AsBytes(zero), {groups, 1, 1});
    auto done = list->Submit();
    if (!s.ok() || !done.ok() || !done->Wait().ok()) std::abort();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes) * 3);
}

// Dispatches GLSL `source` (bindings a, b -> c over 16M f32) `groups` workgroups at a time.
void DispatchAbc(benchmark::State& state, const std::string& name, const std::string& source, uint32_t groups) {
  device::Device& dev = *SharedClient().state()->device;
  codegen::GlslCompiler compiler("");
  auto spirv = compiler.Compile(source);
  if (!spirv.ok()) {
    state.SkipWithError(spirv.status().ToString().c_str());
    return;
  }
  device::ComputePipelineDesc desc;
  desc.name = name;
  desc.spirv = **spirv;
  desc.workgroup_base_offset = 0;
  auto pipeline = dev.pipelines().GetOrCreate(desc);
  const uint64_t bytes = kChainElements * 4;
  auto a = dev.allocator().Allocate(bytes), b = dev.allocator().Allocate(bytes), c = dev.allocator().Allocate(bytes);
  if (!pipeline.ok() || !a.ok() || !b.ok() || !c.ok()) std::abort();
  for (auto _ : state) {
    auto list = device::CommandList::Begin(dev);
    const uint32_t zero[4] = {0, 0, 0, 0};
    Status s = list->Dispatch(**pipeline, {{a->view(), device::Access::kRead}, {b->view(), device::Access::kRead},
                                           {c->view(), device::Access::kWrite}},
                              device::AsBytes(zero), {groups, 1, 1});
    auto done = list->Submit();
    if (!s.ok() || !done.ok() || !done->Wait().ok()) std::abort();
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes) * 3);
}

void BM_Chain8KernelOnly(benchmark::State& state) {
  const std::string dir = fmt::format("/tmp/vkhlo-bench-kernels-{}", getpid());
  CompileOptions options;
  options.dump_kernels_dir = dir;
  auto exe = SharedClient().Compile(ChainProgram(kChainElements), options);
  std::ifstream file(dir + "/main.fusion_0.comp");
  std::stringstream glsl;
  glsl << file.rdbuf();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  // "// vkhlo loop kernel fusion_0 of @main: N elements, P per invocation, workgroup W..."
  const std::string text = glsl.str();
  const size_t at = text.find(" elements, ");
  unsigned per = 0, wg = 0;
  if (!exe.ok() || at == std::string::npos ||
      std::sscanf(text.c_str() + at, " elements, %u per invocation, workgroup %u", &per, &wg) != 2) {
    state.SkipWithError("cannot read the generated kernel");
    return;
  }
  DispatchAbc(state, "chain8_kernel", text, static_cast<uint32_t>((kChainElements / per + wg - 1) / wg));
}

void RunChain(benchmark::State& state, const CompileOptions& options, int64_t n = kChainElements) {
  auto exe = SharedClient().Compile(ChainProgram(n), options);
  if (!exe.ok()) {
    state.SkipWithError(exe.status().ToString().c_str());
    return;
  }
  Buffer x = Filled(n, 1.5f), y = Filled(n, -2.0f);
  for (auto _ : state) {
    auto results = exe->Execute({x, y});
    if (!results.ok()) {
      state.SkipWithError(results.status().ToString().c_str());
      return;
    }
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * n * 4 * 3);
  state.counters["kernels"] = static_cast<double>(exe->last_stats().kernels_dispatched);
  state.counters["address_bindings"] = static_cast<double>(exe->last_stats().address_bindings);
}

// Issue 25: the chain on 128 MiB tensors (Arg 0: exactly maxStorageBufferRange on lavapipe, bound
// through descriptors) beside 128 MiB + 4 KiB ones (Arg 1: beyond it, reached by device address).
void BM_Chain8AtRange(benchmark::State& state) {
  RunChain(state, CompileOptions{}, (int64_t{32} << 20) + (state.range(0) ? 1024 : 0));
}

void BM_Chain8Fused(benchmark::State& state) {
  CompileOptions options;
  options.elements_per_invocation = static_cast<uint32_t>(state.range(0));
  RunChain(state, options);
}

void BM_Chain8Unfused(benchmark::State& state) {
  CompileOptions options;
  options.fuse = false;
  RunChain(state, options);
}

void BM_Execute1Op(benchmark::State& state) {
  auto exe = SharedClient().Compile(R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
})");
  if (!exe.ok()) {
    state.SkipWithError(exe.status().ToString().c_str());
    return;
  }
  Buffer x = Filled(4, 1.0f), y = Filled(4, 2.0f);
  for (auto _ : state) {
    auto results = exe->Execute({x, y});
    if (!results.ok()) state.SkipWithError(results.status().ToString().c_str());
  }
}

// An unfused chain of `ops` additions on 4 elements (x + c, nothing for canonicalize to fold):
// each op a dispatch, all in one command buffer. Per op: the dispatch overhead plus the barrier
// between dependent dispatches.
void BM_DispatchOverhead(benchmark::State& state) {
  const int ops = static_cast<int>(state.range(0));
  std::string body;
  for (int i = 0; i < ops; ++i) {
    body += fmt::format("  %v{} = stablehlo.add %v{}, %c : tensor<4xf32>\n", i + 1, i);
  }
  const std::string text = fmt::format(
      "func.func @main(%v0: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {{\n{}  return %v{} : tensor<4xf32>\n}}\n",
      body, ops);
  CompileOptions options;
  options.fuse = false;
  auto exe = SharedClient().Compile(text, options);
  if (!exe.ok()) {
    state.SkipWithError(exe.status().ToString().c_str());
    return;
  }
  Buffer x = Filled(4, 1.0f), c = Filled(4, 0.5f);
  for (auto _ : state) {
    auto results = exe->Execute({x, c});
    if (!results.ok()) state.SkipWithError(results.status().ToString().c_str());
  }
  state.counters["kernels"] = static_cast<double>(exe->last_stats().kernels_dispatched);
  // Seconds per op (shown with an SI prefix: "27u" is 27 us).
  state.counters["s_per_op"] =
      benchmark::Counter(static_cast<double>(ops), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Compiling the 8-op chain with empty caches: a new client (new in-memory caches) on a fresh
// cache directory every iteration. The first iteration also pays for glslang's process set-up.
void BM_CompileCold(benchmark::State& state) {
  int round = 0;
  double spirv_ms = 0, pipeline_ms = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const std::string dir = fmt::format("/tmp/vkhlo-bench-cache-{}-{}", getpid(), round++);
    auto options = device::DeviceOptions::FromEnvironment();
    if (!options.ok()) std::abort();
    options->cache_directory = dir;
    auto client = runtime::CreateClient(*options);
    if (!client.ok()) std::abort();
    state.ResumeTiming();
    auto exe = client->Compile(ChainProgram(1024));
    if (!exe.ok()) {
      state.SkipWithError(exe.status().ToString().c_str());
      return;
    }
    spirv_ms += exe->compile_stats().spirv_ms;
    pipeline_ms += exe->compile_stats().pipeline_ms;
    state.PauseTiming();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    state.ResumeTiming();
  }
  state.counters["spirv_ms"] = spirv_ms / static_cast<double>(state.iterations());
  state.counters["pipeline_ms"] = pipeline_ms / static_cast<double>(state.iterations());
}

// The same program compiled again by one client: SPIR-V and pipelines come from its caches.
void BM_CompileWarm(benchmark::State& state) {
  const Client& client = SharedClient();
  if (!client.Compile(ChainProgram(1024)).ok()) std::abort();
  for (auto _ : state) {
    auto exe = client.Compile(ChainProgram(1024));
    if (!exe.ok()) state.SkipWithError(exe.status().ToString().c_str());
  }
}

// A sum over `dimensions` of a 16M-element f32 input of `dims`: bytes_per_second counts the
// input read once (64 MiB), the figure to hold against BM_HostMemcpy/64MiB.
void RunReduce(benchmark::State& state, const std::vector<int64_t>& shape, const std::string& dims, const std::string& out,
               const std::string& dimensions) {
  int64_t elements = 1;
  for (int64_t d : shape) elements *= d;
  const std::string text = fmt::format(R"(
func.func @main(%x: tensor<{0}xf32>) -> tensor<{1}f32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [{2}] : (tensor<{0}xf32>, tensor<f32>) -> tensor<{1}f32>
  return %r : tensor<{1}f32>
}}
)",
                                       dims, out, dimensions);
  auto exe = SharedClient().Compile(text);
  if (!exe.ok()) {
    state.SkipWithError(exe.status().ToString().c_str());
    return;
  }
  std::vector<float> host(static_cast<size_t>(elements), 0.5f);
  auto x = SharedClient().BufferFromHost(
      {"f32", shape}, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(host.data()), host.size() * 4));
  if (!x.ok()) std::abort();
  for (auto _ : state) {
    auto results = exe->Execute({*x});
    if (!results.ok()) {
      state.SkipWithError(results.status().ToString().c_str());
      return;
    }
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * elements * 4);
  state.counters["kernels"] = static_cast<double>(exe->last_stats().kernels_dispatched);
  state.counters["address_bindings"] = static_cast<double>(exe->last_stats().address_bindings);
}

void BM_DusLoop(benchmark::State& state) {
  constexpr int64_t kRows = 1024, kCols = 4096, kIterations = 64;
  CompileOptions options;
  options.in_place_updates = state.range(0) != 0;
  auto exe = SharedClient().Compile(fmt::format(R"(
func.func @main(%buf: tensor<{0}x{1}xf32>, %row: tensor<1x{1}xf32>) -> tensor<{0}x{1}xf32> {{
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r0, %r1 = stablehlo.while(%i = %zero, %b = %buf) : tensor<i32>, tensor<{0}x{1}xf32>
  cond {{
    %n = stablehlo.constant dense<{2}> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }} do {{
    %z = stablehlo.constant dense<0> : tensor<i32>
    %nb = stablehlo.dynamic_update_slice %b, %row, %i, %z : (tensor<{0}x{1}xf32>, tensor<1x{1}xf32>, tensor<i32>, tensor<i32>) -> tensor<{0}x{1}xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %nb : tensor<i32>, tensor<{0}x{1}xf32>
  }}
  return %r1 : tensor<{0}x{1}xf32>
}}
)",
                                                kRows, kCols, kIterations),
                                    options);
  if (!exe.ok()) {
    state.SkipWithError(exe.status().ToString().c_str());
    return;
  }
  auto buf = SharedClient().BufferFromHost({"f32", {kRows, kCols}}, std::vector<uint8_t>(kRows * kCols * 4, 0));
  if (!buf.ok()) std::abort();
  auto row = SharedClient().BufferFromHost({"f32", {1, kCols}}, std::vector<uint8_t>(kCols * 4, 0));
  if (!row.ok()) std::abort();
  for (auto _ : state) {
    auto results = exe->Execute({*buf, *row});
    if (!results.ok()) {
      state.SkipWithError(results.status().ToString().c_str());
      return;
    }
  }
  state.counters["in_place"] = static_cast<double>(exe->last_stats().in_place_updates);
  state.counters["MiB_written"] = static_cast<double>(exe->last_stats().bytes_written) / (1 << 20);
}

void BM_ReduceRows(benchmark::State& state) { RunReduce(state, {4096, 4096}, "4096x4096", "4096x", "1"); }
void BM_ReduceAll(benchmark::State& state) { RunReduce(state, {kChainElements}, "16777216", "", "0"); }
void BM_ReduceColumns(benchmark::State& state) { RunReduce(state, {4096, 4096}, "4096x4096", "4096x", "0"); }
// Issue 25: row sums of 8192x4096 f32 (exactly maxStorageBufferRange on lavapipe; Arg 0) beside
// 8193x4096 (beyond it, by device address; Arg 1).
void BM_ReduceRowsAtRange(benchmark::State& state) {
  const int64_t rows = state.range(0) ? 8193 : 8192;
  RunReduce(state, {rows, 4096}, fmt::format("{}x4096", rows), fmt::format("{}x", rows), "1");
}

BENCHMARK(BM_HostMemcpy)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_HandWrittenAdd)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_Chain8Fused)->Arg(1)->Arg(4)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_Chain8KernelOnly)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_Chain8Unfused)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_ReduceRows)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_ReduceAll)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_ReduceColumns)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_Chain8AtRange)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_ReduceRowsAtRange)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_DusLoop)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_Execute1Op)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_DispatchOverhead)->Arg(1)->Arg(64)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_CompileCold)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);
BENCHMARK(BM_CompileWarm)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace vkhlo

BENCHMARK_MAIN();
