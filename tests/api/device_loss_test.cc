// Driver failures through the device layer's own failure path (issue 18): a test makes the next
// Vulkan call report VK_ERROR_DEVICE_LOST (device::Device::FailNextCallForTesting), and every
// later call of the embedding API returns UNAVAILABLE instead of ending the process; the client
// is destroyed cleanly and a new one works. A transient failure (out of device memory) fails
// one call and leaves the device usable.
#include <gtest/gtest.h>

#include <cstring>

#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "tests/support/device_fixture.h"
#include "vkhlo/vkhlo.h"

namespace vkhlo {
namespace {

constexpr const char* kTriple = R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<3.0> : tensor<4xf32>
  %0 = stablehlo.multiply %x, %c : tensor<4xf32>
  func.return %0 : tensor<4xf32>
})";

constexpr const char* kNegate = R"(func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
})";

Client MakeClient() {
  auto client = runtime::CreateClient(testing::TestDeviceOptions());
  EXPECT_TRUE(client.ok()) << client.status().ToString();
  return std::move(*client);
}

std::vector<uint8_t> Floats(std::vector<float> values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// Runs kTriple on {1, 2, 3, 4} and checks the result.
Status RunTriple(const Client& client, const Executable& executable) {
  VKHLO_ASSIGN_OR_RETURN(Buffer x, client.BufferFromHost({"f32", {4}}, Floats({1, 2, 3, 4})));
  VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, executable.Execute({x}));
  VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, results.at(0).ToHost());
  if (bytes != Floats({3, 6, 9, 12})) return InternalError("wrong result");
  return OkStatus();
}

void ExpectLost(const Status& status, const char* call) {
  EXPECT_EQ(status.code(), StatusCode::kUnavailable) << call << ": " << status.ToString();
  EXPECT_NE(status.message().find("lost"), std::string::npos) << call << ": " << status.message();
}

TEST(DeviceLossTest, EveryCallAfterALossReturnsAnError) {
  std::optional<Client> client = MakeClient();
  auto executable = client->Compile(kTriple);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  ASSERT_TRUE(RunTriple(*client, *executable).ok());
  auto kept = client->BufferFromHost({"f32", {4}}, Floats({1, 2, 3, 4}));
  ASSERT_TRUE(kept.ok());

  // The next Vulkan call the run makes (a descriptor set, a submission, a wait) reports the loss.
  client->state()->device->FailNextCallForTesting(VK_ERROR_DEVICE_LOST);
  ExpectLost(RunTriple(*client, *executable), "the run that lost the device");
  EXPECT_TRUE(client->state()->device->lost());

  // From then on: errors, never a crash or a hang.
  ExpectLost(RunTriple(*client, *executable), "Execute");
  ExpectLost(executable->Execute({*kept}).status(), "Execute on a buffer made before");
  ExpectLost(kept->ToHost().status(), "ToHost");
  ExpectLost(client->BufferFromHost({"f32", {4}}, Floats({1, 2, 3, 4})).status(), "BufferFromHost");
  ExpectLost(client->BufferFromHost({"f32", {0}}, {}).status(), "BufferFromHost of nothing");
  ExpectLost(client->Compile(kTriple).status(), "Compile (every kernel cached)");
  ExpectLost(client->Compile(kNegate).status(), "Compile (a new kernel)");
  ExpectLost(client->TransferToDevice(LiteralUtil::CreateR1<float>({1, 2})).status(), "TransferToDevice");
  XlaBuilder b("add_one");
  Add(Parameter(&b, 0, ShapeUtil::MakeShape(F32, {2}), "x"), ConstantR0<float>(&b, 1));
  auto computation = b.Build();
  ASSERT_TRUE(computation.ok());
  const Literal x = LiteralUtil::CreateR1<float>({1, 2});
  ExpectLost(client->ExecuteAndTransfer(*computation, {&x}).status(), "ExecuteAndTransfer");

  // Buffers, executables and the client go away cleanly; a new client opens a new device.
  kept = Buffer();
  executable = StatusOr<Executable>(Executable());
  client.reset();
  const Client fresh = MakeClient();
  auto again = fresh.Compile(kTriple);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(RunTriple(fresh, *again).ok());
}

// The loss reported by a submission while another thread's work is in flight: both see errors.
TEST(DeviceLossTest, LossDuringConcurrentExecutionsIsAnErrorEverywhere) {
  std::optional<Client> client = MakeClient();
  auto executable = client->Compile(kTriple);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  std::vector<Status> last(4, OkStatus());
  std::vector<std::thread> threads;
  for (size_t t = 0; t < last.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < 50; ++run) {
        last[t] = RunTriple(*client, *executable);
        if (!last[t].ok()) break;
      }
    });
  }
  client->state()->device->FailNextCallForTesting(VK_ERROR_DEVICE_LOST);
  for (std::thread& thread : threads) thread.join();
  if (client->state()->device->lost()) {  // unless every thread finished before the hook fired
    for (const Status& status : last) {
      if (!status.ok()) ExpectLost(status, "a concurrent run");
    }
    ExpectLost(RunTriple(*client, *executable), "a run after the loss");
  }
  executable = StatusOr<Executable>(Executable());
  client.reset();  // destroyed cleanly whatever was in flight
}

TEST(DeviceFailureTest, OutOfDeviceMemoryFailsOneCallOnly) {
  const Client client = MakeClient();
  auto executable = client.Compile(kTriple);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  client.state()->device->FailNextCallForTesting(VK_ERROR_OUT_OF_DEVICE_MEMORY);
  const Status failed = RunTriple(client, *executable);
  EXPECT_EQ(failed.code(), StatusCode::kResourceExhausted) << failed.ToString();
  EXPECT_NE(failed.message().find("VK_ERROR_OUT_OF_DEVICE_MEMORY"), std::string::npos) << failed.message();
  EXPECT_FALSE(client.state()->device->lost());
  EXPECT_TRUE(RunTriple(client, *executable).ok());
}

}  // namespace
}  // namespace vkhlo
