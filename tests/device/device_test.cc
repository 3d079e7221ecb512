#include "device/device.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/llvmpipe_width.h"
#include "device/queue.h"
#include "device/transfer.h"
#include "support/env.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::device {
namespace {

using testing::DeviceTest;
using testing::OpenTestDevice;
using testing::TestDeviceOptions;

TEST_F(DeviceTest, OpensWithComputeQueueAndReason) {
  const DeviceCapabilities& caps = dev().capabilities();
  EXPECT_FALSE(caps.name.empty());
  EXPECT_GE(caps.api_version, static_cast<uint32_t>(VK_API_VERSION_1_1));
  EXPECT_GE(caps.compute_queue_family, 0);
  EXPECT_FALSE(dev().selection_reason().empty());
  EXPECT_GT(caps.limits.max_workgroup_invocations, 0u);
  EXPECT_FALSE(caps.memory_heaps.empty());
  EXPECT_OK(dev().CheckAlive());
  EXPECT_OK(dev().WaitIdle());
}

TEST(DeviceEnvironmentTest, ValidationIsOnInTheTestRun) {
  // ctest sets VKHLO_VALIDATION=1 for every test; make sure that took effect.
  if (!GetEnvFlag("VKHLO_VALIDATION")) GTEST_SKIP() << "run outside ctest without VKHLO_VALIDATION=1";
  auto device = OpenTestDevice();
  ASSERT_NE(device, nullptr);
  EXPECT_TRUE(device->instance().validation_enabled());
}

TEST(DeviceEnvironmentTest, ValidationMessagesReachTheHandler) {
  if (!GetEnvFlag("VKHLO_VALIDATION")) GTEST_SKIP() << "needs VKHLO_VALIDATION=1";
  DeviceOptions options = TestDeviceOptions();
  int messages = 0;
  options.instance.validation_handler = [&messages](ValidationSeverity, const std::string&) { ++messages; };
  auto device = OpenTestDevice(std::move(options));
  ASSERT_NE(device, nullptr);
  // Deliberately invalid: a buffer of size 0 (VUID-VkBufferCreateInfo-size-00912).
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 0;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  if (vkCreateBuffer(device->handle(), &info, nullptr, &buffer) == VK_SUCCESS && buffer != VK_NULL_HANDLE) {
    vkDestroyBuffer(device->handle(), buffer, nullptr);
  }
  EXPECT_GT(messages, 0) << "the validation layer did not report an invalid call";
}

TEST(DeviceEnvironmentTest, MobileProfileMasksTheOpenedDevice) {
  DeviceOptions options = TestDeviceOptions();
  options.profile = Profile::kMobile;
  auto device = OpenTestDevice(std::move(options));
  ASSERT_NE(device, nullptr);
  const DeviceCapabilities& caps = device->capabilities();
  EXPECT_EQ(caps.profile, "mobile");
  EXPECT_FALSE(caps.features.shader_float64);
  EXPECT_FALSE(caps.features.shader_int64);
  EXPECT_FALSE(caps.features.shader_float16);
  EXPECT_FALSE(caps.features.storage_buffer_8bit);
  EXPECT_FALSE(caps.features.storage_buffer_16bit);
  EXPECT_LE(caps.limits.max_shared_memory_bytes, 16u * 1024);
  EXPECT_LE(caps.limits.max_workgroup_invocations, 128u);
  EXPECT_LE(caps.limits.max_storage_buffer_range, 128ull << 20);
  EXPECT_FALSE(device->queue().uses_timeline_semaphore());  // the fence path
  // Memory still works through the masked limits: a buffer over maxStorageBufferRange.
  auto big = device->allocator().Allocate(caps.limits.max_storage_buffer_range + 4096);
  EXPECT_TRUE(big.ok()) << big.status().ToString();
}

// The llvmpipe width vkhlo chose before its instance (device/llvmpipe_width.h) is the one an
// llvmpipe device runs: 16-lane subgroups where it set 512 bits; the mobile runs turn it off
// (tests/CMakeLists.txt), so both widths stay tested on an AVX-512 host.
TEST(DeviceEnvironmentTest, LlvmpipeWidthIsTheChosenOne) {
  auto device = OpenTestDevice();
  ASSERT_NE(device, nullptr);
  const std::string what = PreferWideLlvmpipeVectors();
  const char* width = std::getenv("LP_NATIVE_VECTOR_WIDTH");
  const bool llvmpipe = device->capabilities().name.find("llvmpipe") != std::string::npos;
  if (what.rfind("LP_NATIVE_VECTOR_WIDTH=512", 0) == 0) {
    ASSERT_NE(width, nullptr);
    EXPECT_STREQ(width, "512");
    if (llvmpipe) {
      EXPECT_EQ(device->capabilities().subgroup.size, 16u);
    }
  } else if (GetEnv("VKHLO_LLVMPIPE_WIDE") == std::optional<std::string>("0") && !GetEnv("LP_NATIVE_VECTOR_WIDTH")) {
    EXPECT_NE(what.find("VKHLO_LLVMPIPE_WIDE is off"), std::string::npos) << what;
    EXPECT_EQ(width, nullptr);
    if (llvmpipe) {
      EXPECT_LT(device->capabilities().subgroup.size, 16u);
    }
  }
}

TEST(DeviceEnvironmentTest, BadDeviceRequestIsAClearError) {
  DeviceOptions options = TestDeviceOptions();
  options.device_request = "no-such-gpu-anywhere";
  auto device = Device::Create(std::move(options));
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().code(), StatusCode::kNotFound);
  EXPECT_NE(device.status().message().find("no-such-gpu-anywhere"), std::string::npos);

  DeviceOptions by_index = TestDeviceOptions();
  by_index.device_request = "0";
  auto first = Device::Create(std::move(by_index));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_NE((*first)->selection_reason().find("VKHLO_DEVICE=0"), std::string::npos);
}

TEST_F(DeviceTest, LostDeviceReturnsErrorsFromThenOn) {
  ASSERT_OK_AND_ASSIGN(Buffer survivor, dev().allocator().Allocate(1024));
  dev().SimulateDeviceLossForTesting();
  EXPECT_EQ(dev().CheckAlive().code(), StatusCode::kUnavailable);
  EXPECT_EQ(dev().allocator().Allocate(64).status().code(), StatusCode::kUnavailable);
  std::vector<std::byte> bytes(1024);
  EXPECT_EQ(dev().transfers().Upload(survivor, 0, bytes).code(), StatusCode::kUnavailable);
  EXPECT_EQ(dev().transfers().Download(survivor, 0, bytes).code(), StatusCode::kUnavailable);
  EXPECT_EQ(CommandList::Begin(dev()).status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(testing::ShaderPipeline(dev(), "util/fill_u32").status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(dev().WaitIdle().code(), StatusCode::kUnavailable);
  EXPECT_NE(dev().CheckAlive().message().find("lost"), std::string::npos);
  // Buffers and the device itself are still released cleanly (in TearDown).
}

}  // namespace
}  // namespace vkhlo::device
