#include "device/pipeline.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/descriptor_cache.h"
#include "device/transfer.h"
#include "embedded_shaders.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::device {
namespace {

using testing::ShaderPipeline;

class PipelineCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() /
                 ("vkhlo-pipeline-cache-" + std::to_string(::getpid()) + "-" +
                  ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::unique_ptr<Device> Open(Profile profile = Profile::kNative) {
    DeviceOptions options = testing::TestDeviceOptions();
    options.cache_directory = directory_.string();
    options.profile = profile;
    return testing::OpenTestDevice(std::move(options));
  }

  std::filesystem::path directory_;
};

TEST_F(PipelineCacheTest, SecondCreationIsACacheHit) {
  auto device = Open();
  ASSERT_NE(device, nullptr);
  ASSERT_OK_AND_ASSIGN(auto first, ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, 64)}, 0));
  ASSERT_OK_AND_ASSIGN(auto second, ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, 64)}, 0));
  EXPECT_EQ(first.get(), second.get());
  // Different specialization: a different pipeline.
  ASSERT_OK_AND_ASSIGN(auto other, ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, 32)}, 0));
  EXPECT_NE(first.get(), other.get());
  PipelineCacheStats stats = device->pipelines().stats();
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.misses, 2u);
}

// The cache holds at most pipeline_cache_entries pipelines. An evicted pipeline stays valid for
// whoever holds it; when its last holder drops it, the descriptor sets cached for its layout go
// too (a later layout may get the same handle), and later pipelines dispatch correctly.
TEST_F(PipelineCacheTest, EvictsLeastRecentlyUsedBeyondItsCapacity) {
  DeviceOptions options = testing::TestDeviceOptions();
  options.cache_directory = directory_.string();
  options.pipeline_cache_entries = 2;
  auto device = testing::OpenTestDevice(std::move(options));
  ASSERT_NE(device, nullptr);
  ASSERT_OK_AND_ASSIGN(Buffer out, device->allocator().Allocate(256));
  struct FillPush {
    uint32_t base[4];
    uint32_t groups[4];
    uint32_t count;
    uint32_t value;
  };
  // Fills 64 words with `value` through a fill_u32 pipeline of `workgroup` invocations.
  const auto fill = [&](const Pipeline& pipeline, uint32_t workgroup, uint32_t value) {
    ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(*device));
    const uint32_t groups = 64 / workgroup;
    FillPush push{{0}, {groups, 1, 1, 0}, 64, value};
    ASSERT_OK(list.Dispatch(pipeline, {{out.view(), Access::kWrite}}, AsBytes(push), {groups, 1, 1}));
    ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
    ASSERT_OK(done.Wait());
    std::vector<uint32_t> words(64);
    ASSERT_OK(device->transfers().Download(out, 0, std::as_writable_bytes(std::span(words))));
    EXPECT_EQ(words, std::vector<uint32_t>(64, value));
  };
  ASSERT_OK_AND_ASSIGN(auto first, ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, 64)}, 0));
  fill(*first, 64, 1);
  for (uint32_t size : {32u, 16u, 8u}) {
    ASSERT_OK_AND_ASSIGN(auto other, ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, size)}, 0));
    fill(*other, size, size);
  }
  EXPECT_EQ(device->pipelines().stats().entries, 2u);
  EXPECT_EQ(device->pipelines().stats().evictions, 2u);
  fill(*first, 64, 7);  // evicted from the cache, alive for its holder
  ASSERT_OK_AND_ASSIGN(auto recreated, ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, 64)}, 0));
  EXPECT_NE(recreated.get(), first.get());  // it was no longer cached: made again
  const uint64_t live_sets = device->descriptors().stats().live_sets;
  first.reset();  // its one cached set (for `out`) goes with it
  EXPECT_EQ(device->descriptors().stats().live_sets, live_sets - 1);
  fill(*recreated, 64, 9);
}

TEST_F(PipelineCacheTest, PersistsToDiskAndReloads) {
  std::string path;
  {
    auto device = Open();
    ASSERT_NE(device, nullptr);
    EXPECT_EQ(device->pipelines().stats().disk_bytes_loaded, 0u);
    ASSERT_OK(ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, 64)}, 0).status());
    path = device->pipelines().disk_path();
    EXPECT_EQ(path.rfind(directory_.string(), 0), 0u) << path;
  }  // closing the device saves the cache
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  EXPECT_GE(std::filesystem::file_size(path), 32u);  // at least the Vulkan cache header

  auto device = Open();
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->pipelines().stats().disk_bytes_loaded, std::filesystem::file_size(path));
  ASSERT_OK(ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, 64)}, 0).status());
}

TEST_F(PipelineCacheTest, DamagedCacheFileIsIgnored) {
  std::string path;
  {
    auto device = Open();
    ASSERT_NE(device, nullptr);
    path = device->pipelines().disk_path();
  }
  std::filesystem::create_directories(directory_);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << "this is not a pipeline cache";
  }
  auto device = Open();
  ASSERT_NE(device, nullptr);
  EXPECT_EQ(device->pipelines().stats().disk_bytes_loaded, 0u);
  ASSERT_OK(ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, 64)}, 0).status());
}

TEST_F(PipelineCacheTest, LimitsAreCheckedAtCreationWithTheLimitNamed) {
  auto device = Open();
  ASSERT_NE(device, nullptr);
  const DeviceLimits& limits = device->capabilities().limits;
  // Shared memory: 4 bytes over the limit.
  auto shared = ShaderPipeline(*device, "shared_memory_probe",
                               {SpecUint(0, limits.max_shared_memory_bytes / 4 + 1)});
  ASSERT_FALSE(shared.ok());
  EXPECT_EQ(shared.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(shared.status().message().find("maxComputeSharedMemorySize"), std::string::npos)
      << shared.status().message();
  // Workgroup size.
  auto wide = ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, limits.max_workgroup_size[0] + 1)}, 0);
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.status().message().find("maxComputeWorkGroupSize[0]"), std::string::npos)
      << wide.status().message();
  // A workgroup base that does not fit in the push constants.
  auto base = ShaderPipeline(*device, "util/fill_u32", {SpecUint(0, 64)}, 36);
  EXPECT_EQ(base.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(PipelineCacheTest, MobileProfileLimitsApplyToPipelines) {
  auto native = Open(Profile::kNative);
  ASSERT_NE(native, nullptr);
  const uint32_t words = 6 * 1024;  // 24 KiB: above mobile's 16 KiB
  if (native->capabilities().limits.max_shared_memory_bytes < words * 4) GTEST_SKIP() << "device has < 24 KiB shared memory";
  EXPECT_OK(ShaderPipeline(*native, "shared_memory_probe", {SpecUint(0, words)}).status());
  native.reset();

  auto mobile = Open(Profile::kMobile);
  ASSERT_NE(mobile, nullptr);
  auto shared = ShaderPipeline(*mobile, "shared_memory_probe", {SpecUint(0, words)});
  ASSERT_FALSE(shared.ok());
  EXPECT_NE(shared.status().message().find("profile mobile"), std::string::npos) << shared.status().message();
  auto wide = ShaderPipeline(*mobile, "util/fill_u32", {SpecUint(0, 256)}, 0);
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.status().message().find("maxComputeWorkGroup"), std::string::npos) << wide.status().message();
  EXPECT_OK(ShaderPipeline(*mobile, "util/fill_u32", {SpecUint(0, 128)}, 0).status());
}

// A kernel that declares a capability whose feature the (masked) device lacks is refused with the
// feature named, before the driver sees it: the mobile profile has no shaderFloat64.
TEST_F(PipelineCacheTest, CapabilitiesNeedTheirFeatures) {
  auto native = Open(Profile::kNative);
  ASSERT_NE(native, nullptr);
  if (native->capabilities().features.shader_float64) {
    EXPECT_OK(ShaderPipeline(*native, "float64_probe", {}).status());
  }
  native.reset();

  auto mobile = Open(Profile::kMobile);
  ASSERT_NE(mobile, nullptr);
  ASSERT_FALSE(mobile->capabilities().features.shader_float64);
  auto refused = ShaderPipeline(*mobile, "float64_probe", {});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status().message().find("Float64, which needs shaderFloat64"), std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("profile mobile"), std::string::npos) << refused.status().message();
}

}  // namespace
}  // namespace vkhlo::device
