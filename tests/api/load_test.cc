// The embedding API under load (issue 18), as a long-running service uses it: device memory
// filled until it runs out (a clear error, nothing leaked, the client still works), one
// executable run from 8 threads at once, and 300 distinct programs compiled in one client
// with its caches and resident memory bounded.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>

#include <fstream>
#include <thread>

#include "codegen/glsl_compiler.h"
#include "device/allocator.h"
#include "device/descriptor_cache.h"
#include "device/pipeline.h"
#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "tests/support/device_fixture.h"
#include "vkhlo/vkhlo.h"

namespace vkhlo {
namespace {

// A client of its own (tests here change limits or fill memory), with the validation handler.
Client MakeClient(uint64_t device_memory = 0, runtime::ClientCacheLimits limits = {}, uint64_t pipelines = 1024) {
  device::DeviceOptions options = testing::TestDeviceOptions();
  options.memory_budget_bytes = device_memory;
  options.pipeline_cache_entries = pipelines;
  auto client = runtime::CreateClient(std::move(options), limits);
  EXPECT_TRUE(client.ok()) << client.status().ToString();
  return std::move(*client);
}

device::AllocatorStats Memory(const Client& client) { return client.state()->device->allocator().stats(); }

std::vector<uint8_t> Int32Bytes(const std::vector<int32_t>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<int32_t> Int32Values(const std::vector<uint8_t>& bytes) {
  std::vector<int32_t> values(bytes.size() / 4);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

constexpr const char* kDoubleIt = R"(func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.add %x, %x : tensor<4xi32>
  func.return %0 : tensor<4xi32>
})";

// Checks that `client` still compiles and runs a small program correctly.
void ExpectClientWorks(const Client& client) {
  auto executable = client.Compile(kDoubleIt);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  auto x = client.BufferFromHost({"i32", {4}}, Int32Bytes({1, 2, 3, -4}));
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  auto results = executable->Execute({*x});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  auto bytes = (*results)[0].ToHost();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(Int32Values(*bytes), (std::vector<int32_t>{2, 4, 6, -8}));
}

TEST(DeviceMemoryTest, AllocatingUntilFullIsAClearErrorAndNothingLeaks) {
  // 256 MiB of device memory for this client, whatever the device has.
  const Client client = MakeClient(256ull << 20);
  ASSERT_EQ(client.state()->device->allocator().MemoryLimit(), 256ull << 20);
  const device::AllocatorStats before = Memory(client);
  const TensorType chunk{"f32", {4 << 20}};  // 16 MiB
  const std::vector<uint8_t> zeros(16u << 20);
  for (int round = 0; round < 2; ++round) {
    std::vector<Buffer> held;
    Status failure = OkStatus();
    while (held.size() < 64) {  // 1 GiB: far beyond the limit
      auto buffer = client.BufferFromHost(chunk, zeros);
      if (!buffer.ok()) {
        failure = buffer.status();
        break;
      }
      held.push_back(std::move(*buffer));
    }
    EXPECT_EQ(failure.code(), StatusCode::kResourceExhausted) << failure.ToString();
    EXPECT_NE(failure.message().find("out of device memory"), std::string::npos) << failure.message();
    EXPECT_GE(held.size(), 8u);   // the limit, less the staging ring and block rounding
    EXPECT_LT(held.size(), 16u);
    // A program whose result does not fit fails the same way, and leaves nothing behind.
    auto fill = client.Compile(R"(func.func @main() -> tensor<4194304xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4194304xf32>
  func.return %0 : tensor<4194304xf32>
})");
    ASSERT_TRUE(fill.ok()) << fill.status().ToString();
    auto filled = fill->Execute(std::vector<Buffer>{});
    EXPECT_EQ(filled.status().code(), StatusCode::kResourceExhausted) << filled.status().ToString();
    held.clear();
    // Everything handed out came back (the pool may keep freed blocks reserved, not in use).
    EXPECT_EQ(Memory(client).live_buffers, before.live_buffers) << "round " << round;
    EXPECT_EQ(Memory(client).bytes_in_use, before.bytes_in_use) << "round " << round;
    ExpectClientWorks(client);
  }
}

// Tensors beyond maxStorageBufferRange (bound by address or through windows) and the client's
// memory: a program whose signature cannot fit is refused at compile time with the sizes; one
// whose result does not fit beside what the caller holds fails at run time, every time, leaks
// nothing, and runs once the memory is free.
TEST(DeviceMemoryTest, TensorsBeyondTheRangeAndTheMemoryAreClearErrors) {
  const Client client = MakeClient(256ull << 20);
  const device::AllocatorStats before = Memory(client);
  for (int round = 0; round < 3; ++round) {
    auto too_big = client.Compile(R"(func.func @main() -> tensor<134217728xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<134217728xf32>
  func.return %0 : tensor<134217728xf32>
})");
    ASSERT_FALSE(too_big.ok());
    EXPECT_EQ(too_big.status().code(), StatusCode::kResourceExhausted) << too_big.status().ToString();
    EXPECT_NE(too_big.status().message().find("needs 536870912 bytes"), std::string::npos) << too_big.status().ToString();
  }
  // 40000000 f32 = 160 MB, beyond the 128 MiB range of lavapipe and of the mobile profile.
  auto fill = client.Compile(R"(func.func @main() -> tensor<40000000xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<40000000xf32>
  %1 = stablehlo.add %0, %0 : tensor<40000000xf32>
  func.return %1 : tensor<40000000xf32>
})");
  ASSERT_TRUE(fill.ok()) << fill.status().ToString();
  {
    const std::vector<uint8_t> zeros(128u << 20);
    auto held = client.BufferFromHost(TensorType{"f32", {32 << 20}}, zeros);
    ASSERT_TRUE(held.ok()) << held.status().ToString();
    for (int round = 0; round < 3; ++round) {
      auto result = fill->Execute(std::vector<Buffer>{});
      ASSERT_FALSE(result.ok());
      EXPECT_EQ(result.status().code(), StatusCode::kResourceExhausted) << result.status().ToString();
      EXPECT_NE(result.status().message().find("out of device memory"), std::string::npos) << result.status().ToString();
    }
  }
  EXPECT_EQ(Memory(client).live_buffers, before.live_buffers);
  EXPECT_EQ(Memory(client).bytes_in_use, before.bytes_in_use);
  auto result = fill->Execute(std::vector<Buffer>{});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  auto bytes = (*result)[0].ToHost();
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  ASSERT_EQ(bytes->size(), 160000000u);
  float last = 0;
  std::memcpy(&last, bytes->data() + bytes->size() - 4, 4);
  EXPECT_EQ(last, 2.0f * 39999999.0f);
  ExpectClientWorks(client);
}

TEST(DeviceMemoryTest, ClientOptionsAndTheEnvironmentSetTheLimits) {
  auto client = Client::Create({.validation = false, .device_memory_limit = 128ull << 20, .pipeline_cache_entries = 7,
                                .spirv_cache_bytes = 12345, .executable_cache_entries = 3});
  ASSERT_TRUE(client.ok()) << client.status().ToString();
  const runtime::ClientState& state = *(*client)->state();
  EXPECT_EQ(state.device->allocator().MemoryLimit(), 128ull << 20);
  EXPECT_EQ(state.device->options().pipeline_cache_entries, 7u);
  EXPECT_EQ(state.executable_cache_entries, 3u);
  ASSERT_EQ(setenv("VKHLO_DEVICE_MEMORY_LIMIT", "96M", 1), 0);
  auto from_environment = Client::Create({.validation = false});
  ASSERT_EQ(setenv("VKHLO_DEVICE_MEMORY_LIMIT", "lots", 1), 0);
  auto malformed = Client::Create({.validation = false});
  ASSERT_EQ(unsetenv("VKHLO_DEVICE_MEMORY_LIMIT"), 0);
  ASSERT_TRUE(from_environment.ok()) << from_environment.status().ToString();
  EXPECT_EQ((*from_environment)->state()->device->allocator().MemoryLimit(), 96ull << 20);
  ASSERT_FALSE(malformed.ok());
  EXPECT_NE(malformed.status().message().find("VKHLO_DEVICE_MEMORY_LIMIT='lots'"), std::string::npos)
      << malformed.status().ToString();
}

// x (16 x i32), n: n times x = x * 3 + 1 (wrapping), then the sum: control flow, element-wise
// kernels and a reduction, run by 8 threads at once on the same executable.
constexpr const char* kLoopAndSum = R"(func.func @main(%x: tensor<16xi32>, %n: tensor<i32>) -> (tensor<16xi32>, tensor<i32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<16xi32>
  %ones = stablehlo.constant dense<1> : tensor<16xi32>
  %r:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<16xi32>
  cond {
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %m = stablehlo.multiply %v, %three : tensor<16xi32>
    %a = stablehlo.add %m, %ones : tensor<16xi32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %a : tensor<i32>, tensor<16xi32>
  }
  %s = stablehlo.reduce(%r#1 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
  func.return %r#1, %s : tensor<16xi32>, tensor<i32>
})";

TEST(ConcurrencyTest, EightThreadsRunOneExecutable200TimesEach) {
  const Client client = MakeClient();
  auto executable = client.Compile(kLoopAndSum);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  constexpr int kThreads = 8, kRuns = 200;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < kRuns && failures[static_cast<size_t>(t)].empty(); ++run) {
        std::vector<int32_t> x(16);
        for (int k = 0; k < 16; ++k) x[static_cast<size_t>(k)] = t * 100000 + run * 100 + k;
        const int32_t n = run % 4;
        std::vector<uint32_t> expected(x.begin(), x.end());
        uint32_t sum = 0;
        for (uint32_t& e : expected) {
          for (int i = 0; i < n; ++i) e = e * 3 + 1;
          sum += e;
        }
        auto xs = client.BufferFromHost({"i32", {16}}, Int32Bytes(x));
        auto ns = client.BufferFromHost({"i32", {}}, Int32Bytes({n}));
        if (!xs.ok() || !ns.ok()) {
          failures[static_cast<size_t>(t)] = "transfer failed";
          break;
        }
        auto results = executable->Execute({*xs, *ns});
        if (!results.ok() || results->size() != 2) {
          failures[static_cast<size_t>(t)] = results.ok() ? "wrong result count" : results.status().ToString();
          break;
        }
        auto values = (*results)[0].ToHost();
        auto total = (*results)[1].ToHost();
        const std::vector<int32_t> want(expected.begin(), expected.end());
        if (!values.ok() || !total.ok() || Int32Values(*values) != want ||
            Int32Values(*total) != std::vector<int32_t>{static_cast<int32_t>(sum)}) {
          failures[static_cast<size_t>(t)] = fmt::format("run {}: wrong result", run);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[static_cast<size_t>(t)], "") << "thread " << t;
}

uint64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// Program `i`: its own constants, so its kernels are new to every cache.
std::string DistinctProgram(int i) {
  return fmt::format(R"(func.func @main(%x: tensor<8xf32>) -> tensor<f32> {{
  %c = stablehlo.constant dense<{0}.0> : tensor<8xf32>
  %d = stablehlo.constant dense<{0}.5> : tensor<8xf32>
  %m = stablehlo.multiply %x, %c : tensor<8xf32>
  %a = stablehlo.add %m, %d : tensor<8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  func.return %s : tensor<f32>
}})", i);
}

TEST(ManyProgramsTest, ThreeHundredProgramsKeepCachesAndMemoryBounded) {
  runtime::ClientCacheLimits limits;
  limits.spirv_cache_bytes = 256 << 10;  // the 300 programs' SPIR-V takes about 800 KiB
  const Client client = MakeClient(0, limits, /*pipelines=*/32);
  const runtime::ClientState& state = *client.state();
  const std::vector<float> ones(8, 1.0f);
  std::vector<uint8_t> bytes(32);
  std::memcpy(bytes.data(), ones.data(), 32);
  auto x = client.BufferFromHost({"f32", {8}}, bytes);
  ASSERT_TRUE(x.ok()) << x.status().ToString();
  const uint64_t buffers_before = Memory(client).live_buffers;
  uint64_t resident_at_100 = 0;
  for (int i = 0; i < 300; ++i) {
    auto executable = client.Compile(DistinctProgram(i));
    ASSERT_TRUE(executable.ok()) << i << ": " << executable.status().ToString();
    auto results = executable->Execute({*x});
    ASSERT_TRUE(results.ok()) << i << ": " << results.status().ToString();
    auto sum = (*results)[0].ToHost();
    ASSERT_TRUE(sum.ok());
    float value = 0;
    std::memcpy(&value, sum->data(), 4);
    EXPECT_EQ(value, 8 * (i + (i + 0.5f))) << "program " << i;
    if (i == 99) resident_at_100 = ResidentBytes();
  }
  const uint64_t resident_at_300 = ResidentBytes();
  const device::PipelineCacheStats pipelines = state.device->pipelines().stats();
  const codegen::GlslCompilerStats spirv = state.compiler->stats();
  EXPECT_LE(pipelines.entries, 32u);
  EXPECT_GT(pipelines.evictions, 0u);
  EXPECT_LE(spirv.memory_bytes, 256u << 10);
  EXPECT_GT(spirv.memory_evictions, 0u);
  EXPECT_LE(state.device->descriptors().stats().live_sets, 4096u);
  EXPECT_EQ(Memory(client).live_buffers, buffers_before);  // every executable's buffers went with it
  // The last 200 programs cost no memory beyond what the first 100 settled at (allocator
  // arenas, glslang's pools). Measured on lavapipe: +1 MiB with these limits, +54 MiB with
  // caches unbounded (a pipeline holds about 270 KiB of JIT code).
  EXPECT_LT(resident_at_300, resident_at_100 + (16ull << 20))
      << "resident " << (resident_at_100 >> 20) << " MiB after 100 programs, " << (resident_at_300 >> 20)
      << " MiB after 300";
  std::printf("resident memory: %llu MiB after 100 programs, %llu MiB after 300; pipelines cached %llu, evicted %llu\n",
              static_cast<unsigned long long>(resident_at_100 >> 20), static_cast<unsigned long long>(resident_at_300 >> 20),
              static_cast<unsigned long long>(pipelines.entries), static_cast<unsigned long long>(pipelines.evictions));
}

// ExecuteAndTransfer's cache holds at most executable_cache_entries executables, even while
// every computation is alive; evicted ones compile again when asked for.
TEST(ManyProgramsTest, ExecuteAndTransferCacheIsBounded) {
  runtime::ClientCacheLimits limits;
  limits.executable_cache_entries = 4;
  const Client client = MakeClient(0, limits);
  std::vector<XlaComputation> computations;
  for (int i = 0; i < 10; ++i) {
    XlaBuilder b(fmt::format("scale_{}", i));
    Mul(Parameter(&b, 0, ShapeUtil::MakeShape(F32, {2}), "x"), ConstantR0<float>(&b, static_cast<float>(i)));
    auto built = b.Build();
    ASSERT_TRUE(built.ok()) << built.status().ToString();
    computations.push_back(std::move(*built));
  }
  const Literal x = LiteralUtil::CreateR1<float>({1, 2});
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 10; ++i) {
      auto result = client.ExecuteAndTransfer(computations[static_cast<size_t>(i)], {&x});
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      EXPECT_EQ(*result, LiteralUtil::CreateR1<float>({1.0f * i, 2.0f * i}));
      EXPECT_LE(client.cached_executables(), 4u);
    }
  }
  EXPECT_EQ(client.computations_compiled(), 20u);  // every second pass compiles again: LRU of 4
  auto again = client.ExecuteAndTransfer(computations[9], {&x});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(client.computations_compiled(), 20u);  // the most recent one is still cached
}

}  // namespace
}  // namespace vkhlo
