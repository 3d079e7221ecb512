// What an execution holds in device memory: a value's own buffer (an FFT's result, here) is
// dropped after the last step that reads it, and straight-line code closes its submission once
// the buffers it made reach 256 MiB, so dead buffers are freed as the program goes
// (execute.cc, LoadedPlan::values_dead_after). A chain of 40 FFTs over 32 MiB tensors held all
// 1280 MiB of its results until the end of its one submission before; now its peak is 544 MiB
// (lavapipe), about what two submissions make.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "device/allocator.h"
#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "tests/support/device_fixture.h"
#include "tests/support/runtime_test_util.h"

namespace vkhlo {
namespace {

// 40 FFTs of length 2 in a row over complex<f32>[2^21, 2] (32 MiB each): F_2 applied twice is
// 2 I, so the result is 2^20 x, exactly for small integers.
std::string ChainProgram(int64_t rows, int links) {
  const std::string type = fmt::format("tensor<{}x2xcomplex<f32>>", rows);
  std::string body;
  std::string last = "%x";
  for (int i = 0; i < links; ++i) {
    body += fmt::format("  %f{0} = stablehlo.fft {1}, type = FFT, length = [2] : ({2}) -> {2}\n", i, last, type);
    last = fmt::format("%f{}", i);
  }
  return fmt::format("func.func @main(%x: {0}) -> {0} {{\n{1}  func.return {2} : {0}\n}}\n", type, body, last);
}

TEST(ExecutionMemoryTest, DeadFftResultsAreFreedAsTheProgramGoes) {
  constexpr int64_t kRows = int64_t{1} << 21;
  constexpr int kLinks = 40;
  constexpr uint64_t kTensorBytes = uint64_t{kRows} * 2 * 8;
  auto created = runtime::CreateClient(testing::TestDeviceOptions());
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const Client client = std::move(*created);
  auto exe = client.Compile(ChainProgram(kRows, kLinks));
  ASSERT_TRUE(exe.ok()) << exe.status().ToString();
  std::vector<float> x(static_cast<size_t>(kRows) * 4);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i % 15) - 7);
  auto input = client.BufferFromHost(
      TensorType{"complex<f32>", {kRows, 2}},
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(x.data()), x.size() * sizeof(float)));
  ASSERT_TRUE(input.ok()) << input.status().ToString();
  device::Allocator& allocator = client.state()->device->allocator();
  const uint64_t before = allocator.stats().bytes_in_use;
  auto out = exe->Execute({*input});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const uint64_t peak = allocator.stats().peak_bytes_in_use - before;
  // All 40 results alive at once would be 1280 MiB; two submissions' worth (each closed past
  // 256 MiB, one in flight while the next is recorded) and the live pair stay under 800 MiB.
  EXPECT_LT(peak, 25 * kTensorBytes) << "peak " << (peak >> 20) << " MiB above the input";
  EXPECT_GE(exe->last_stats().command_buffers, 2u);
  std::vector<float> y = testing::Download<float>((*out)[0]);
  ASSERT_EQ(y.size(), x.size());
  int64_t bad = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (y[i] != x[i] * 1048576.0f && bad++ < 5) ADD_FAILURE() << "element " << i << ": " << y[i] << " want " << x[i] * 1048576.0f;
  }
}

}  // namespace
}  // namespace vkhlo
