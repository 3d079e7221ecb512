// Device choice and capability profiles on made-up device lists: no GPU needed.
#include <gtest/gtest.h>

#include "device/physical_device.h"
#include "device/profile.h"

namespace vkhlo::device {
namespace {

PhysicalDevice Fake(int index, std::string name, DeviceType type, uint64_t vram = 1ull << 30) {
  PhysicalDevice d;
  d.index = index;
  d.capabilities.name = std::move(name);
  d.capabilities.type = type;
  d.capabilities.api_version = VK_API_VERSION_1_3;
  d.capabilities.compute_queue_family = 0;
  d.capabilities.memory_heaps = {MemoryHeap{vram, true}};
  return d;
}

TEST(ChooseDeviceTest, PrefersDiscreteThenIntegratedThenVirtualThenCpu) {
  std::vector<PhysicalDevice> devices = {Fake(0, "llvmpipe", DeviceType::kCpu),
                                         Fake(1, "Intel UHD", DeviceType::kIntegratedGpu),
                                         Fake(2, "virtio", DeviceType::kVirtualGpu),
                                         Fake(3, "Radeon RX", DeviceType::kDiscreteGpu)};
  auto choice = ChooseDevice(devices, std::nullopt);
  ASSERT_TRUE(choice.ok()) << choice.status().ToString();
  EXPECT_EQ(choice->index, 3);
  EXPECT_NE(choice->reason.find("discrete"), std::string::npos) << choice->reason;

  devices.pop_back();
  EXPECT_EQ(ChooseDevice(devices, std::nullopt)->index, 1);
  devices.erase(devices.begin() + 1);
  EXPECT_EQ(ChooseDevice(devices, std::nullopt)->index, 2);
}

TEST(ChooseDeviceTest, TiesGoToMoreDeviceMemory) {
  std::vector<PhysicalDevice> devices = {Fake(0, "small", DeviceType::kDiscreteGpu, 4ull << 30),
                                         Fake(1, "big", DeviceType::kDiscreteGpu, 24ull << 30)};
  EXPECT_EQ(ChooseDevice(devices, std::nullopt)->index, 1);
}

TEST(ChooseDeviceTest, RequestByIndexOrNameSubstring) {
  std::vector<PhysicalDevice> devices = {Fake(0, "llvmpipe (LLVM 15)", DeviceType::kCpu),
                                         Fake(1, "NVIDIA H100", DeviceType::kDiscreteGpu)};
  EXPECT_EQ(ChooseDevice(devices, "0")->index, 0);
  EXPECT_EQ(ChooseDevice(devices, "LLVMPIPE")->index, 0);
  EXPECT_EQ(ChooseDevice(devices, "h100")->index, 1);
  auto reason = ChooseDevice(devices, "0")->reason;
  EXPECT_NE(reason.find("VKHLO_DEVICE"), std::string::npos);
}

TEST(ChooseDeviceTest, BadRequestsSayWhatExists) {
  std::vector<PhysicalDevice> devices = {Fake(0, "llvmpipe", DeviceType::kCpu)};
  auto out_of_range = ChooseDevice(devices, "5");
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_NE(out_of_range.status().message().find("0: llvmpipe"), std::string::npos)
      << out_of_range.status().message();
  auto no_match = ChooseDevice(devices, "radeon");
  ASSERT_FALSE(no_match.ok());
  EXPECT_EQ(no_match.status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(ChooseDevice({}, std::nullopt).ok());
}

TEST(ChooseDeviceTest, SkipsUnusableDevices) {
  std::vector<PhysicalDevice> devices = {Fake(0, "old", DeviceType::kDiscreteGpu),
                                         Fake(1, "cpu", DeviceType::kCpu)};
  devices[0].capabilities.api_version = VK_API_VERSION_1_0;
  auto choice = ChooseDevice(devices, std::nullopt);
  ASSERT_TRUE(choice.ok());
  EXPECT_EQ(choice->index, 1);
  EXPECT_NE(choice->reason.find("skipped old"), std::string::npos) << choice->reason;
  EXPECT_FALSE(ChooseDevice(devices, "0").ok());  // asked for, but unusable
}

DeviceCapabilities Strong() {
  DeviceCapabilities c = Fake(0, "strong", DeviceType::kDiscreteGpu).capabilities;
  DeviceFeatures& f = c.features;
  f.shader_float64 = f.shader_int64 = f.shader_int16 = f.shader_float16 = f.shader_int8 = true;
  f.storage_buffer_8bit = f.storage_buffer_16bit = f.shader_buffer_int64_atomics = true;
  f.shader_buffer_float32_atomic_add = f.cooperative_matrix = f.subgroup_size_control = true;
  f.timeline_semaphore = true;
  c.cooperative_matrix_shapes.push_back(CooperativeMatrixShape{16, 16, 16});
  c.limits.max_shared_memory_bytes = 64 * 1024;
  c.limits.max_workgroup_invocations = 1024;
  c.limits.max_workgroup_size = {1024, 1024, 64};
  c.limits.max_storage_buffer_range = 4ull << 30;
  c.limits.max_push_constants_bytes = 256;
  c.limits.min_storage_buffer_offset_alignment = 16;
  c.subgroup = {32, 16, 64, kSubgroupBasic | kSubgroupShuffle | kSubgroupArithmetic | kSubgroupQuad, true, true};
  return c;
}

TEST(ProfileTest, NativeChangesNothingButTheName) {
  DeviceCapabilities c = ApplyProfile(Strong(), Profile::kNative);
  EXPECT_EQ(c.profile, "native");
  EXPECT_TRUE(c.features.shader_float64);
  EXPECT_EQ(c.limits.max_shared_memory_bytes, 64u * 1024);
}

TEST(ProfileTest, MobileMasksFeaturesAndLimits) {
  DeviceCapabilities c = ApplyProfile(Strong(), Profile::kMobile);
  EXPECT_EQ(c.profile, "mobile");
  EXPECT_FALSE(c.features.shader_float64);
  EXPECT_FALSE(c.features.shader_int64);
  EXPECT_FALSE(c.features.shader_float16);
  EXPECT_FALSE(c.features.storage_buffer_8bit);
  EXPECT_FALSE(c.features.storage_buffer_16bit);
  EXPECT_FALSE(c.features.cooperative_matrix);
  EXPECT_TRUE(c.cooperative_matrix_shapes.empty());
  EXPECT_FALSE(c.features.timeline_semaphore);  // many Vulkan 1.1 phones: fences instead
  EXPECT_EQ(c.limits.max_shared_memory_bytes, 16u * 1024);
  EXPECT_EQ(c.limits.max_workgroup_invocations, 128u);
  EXPECT_EQ(c.limits.max_workgroup_size[0], 128u);
  EXPECT_EQ(c.limits.max_storage_buffer_range, 128ull << 20);
  EXPECT_EQ(c.limits.min_storage_buffer_offset_alignment, 256u);
  EXPECT_EQ(c.subgroup.size, 32u);  // a hardware fact, kept
  EXPECT_EQ(c.subgroup.min_size, 32u);
  EXPECT_EQ(c.subgroup.supported_operations & (kSubgroupShuffle | kSubgroupQuad), 0u);
  EXPECT_NE(c.subgroup.supported_operations & kSubgroupArithmetic, 0u);
}

TEST(ProfileTest, MobileNeverRaisesALimit) {
  DeviceCapabilities weak = Strong();
  weak.limits.max_shared_memory_bytes = 8 * 1024;
  weak.limits.max_workgroup_invocations = 64;
  DeviceCapabilities c = ApplyProfile(weak, Profile::kMobile);
  EXPECT_EQ(c.limits.max_shared_memory_bytes, 8u * 1024);
  EXPECT_EQ(c.limits.max_workgroup_invocations, 64u);
}

TEST(ProfileTest, ParsesNamesAndRejectsUnknown) {
  EXPECT_EQ(*ParseProfile("mobile"), Profile::kMobile);
  EXPECT_EQ(*ParseProfile("native"), Profile::kNative);
  auto bad = ParseProfile("phone");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("native, mobile"), std::string::npos);
}

}  // namespace
}  // namespace vkhlo::device
