// Shared set-up for tests that need a Vulkan device.
//
// The device comes from the environment (ctest sets VKHLO_VALIDATION=1), with a validation
// handler that fails the running test on every validation warning or error, so a test that
// makes the layer speak fails itself.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "device/device.h"
#include "device/pipeline.h"

namespace vkhlo::testing {

// DeviceOptions from the environment, with the failing validation handler installed.
device::DeviceOptions TestDeviceOptions();

// Opens a device with `options`; fails the test (and returns null) if it cannot.
std::unique_ptr<device::Device> OpenTestDevice(device::DeviceOptions options = TestDeviceOptions());

// The pipeline for an embedded shader: a probe (tests/device/shaders/<name>.comp) or the
// product's (shaders/<name>.comp).
StatusOr<std::shared_ptr<const device::Pipeline>> ShaderPipeline(
    device::Device& device, std::string_view name,
    std::vector<device::SpecializationValue> specialization = {},
    std::optional<uint32_t> workgroup_base_offset = std::nullopt);

class DeviceTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  device::Device& dev() { return *device_; }

  std::unique_ptr<device::Device> device_;
};

}  // namespace vkhlo::testing

#define ASSERT_OK(expr)                                 \
  do {                                                  \
    ::vkhlo::Status assert_ok_status_ = (expr);         \
    ASSERT_TRUE(assert_ok_status_.ok()) << assert_ok_status_.ToString(); \
  } while (0)

#define EXPECT_OK(expr)                                 \
  do {                                                  \
    ::vkhlo::Status expect_ok_status_ = (expr);         \
    EXPECT_TRUE(expect_ok_status_.ok()) << expect_ok_status_.ToString(); \
  } while (0)

// `lhs = value`, or fails the test with the status.
#define ASSERT_OK_AND_ASSIGN(lhs, expr) \
  ASSERT_OK_AND_ASSIGN_IMPL_(VKHLO_STATUS_CONCAT_(assert_statusor_, __LINE__), lhs, expr)
#define ASSERT_OK_AND_ASSIGN_IMPL_(tmp, lhs, expr)           \
  auto tmp = (expr);                                         \
  ASSERT_TRUE(tmp.ok()) << tmp.status().ToString();          \
  lhs = std::move(tmp).value()
