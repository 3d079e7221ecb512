#include "tests/support/device_fixture.h"

#include "tests/device/shaders/test_shaders.h"

namespace vkhlo::testing {

device::DeviceOptions TestDeviceOptions() {
  auto options = device::DeviceOptions::FromEnvironment();
  EXPECT_TRUE(options.ok()) << options.status().ToString();
  device::DeviceOptions result = options.ok() ? *options : device::DeviceOptions{};
  result.instance.validation_handler = [](device::ValidationSeverity severity,
                                          const std::string& message) {
    ADD_FAILURE() << "Vulkan validation "
                  << (severity == device::ValidationSeverity::kError ? "error" : "warning") << ": "
                  << message;
  };
  return result;
}

std::unique_ptr<device::Device> OpenTestDevice(device::DeviceOptions options) {
  auto device = device::Device::Create(std::move(options));
  EXPECT_TRUE(device.ok()) << device.status().ToString();
  return device.ok() ? std::move(device).value() : nullptr;
}

StatusOr<std::shared_ptr<const device::Pipeline>> ShaderPipeline(
    device::Device& device, std::string_view name,
    std::vector<device::SpecializationValue> specialization,
    std::optional<uint32_t> workgroup_base_offset) {
  const shaders::EmbeddedShader* shader = FindTestShader(name);
  if (shader == nullptr) return NotFoundError("no embedded shader " + std::string(name));
  device::ComputePipelineDesc desc;
  desc.name = std::string(name);
  desc.spirv = shader->spirv;
  desc.specialization = std::move(specialization);
  desc.workgroup_base_offset = workgroup_base_offset;
  return device.pipelines().GetOrCreate(desc);
}

void DeviceTest::SetUp() {
  device_ = OpenTestDevice();
  ASSERT_NE(device_, nullptr);
}

void DeviceTest::TearDown() {
  if (!device_) return;
  const uint64_t messages = device_->instance().validation_message_count();
  device_.reset();
  EXPECT_EQ(messages, 0u) << "validation layer messages during the test";
}

}  // namespace vkhlo::testing
