#include "device/command_list.h"

#include <gtest/gtest.h>

#include <cstring>

#include "device/allocator.h"
#include "device/descriptor_cache.h"
#include "device/transfer.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::device {
namespace {

using testing::DeviceTest;
using testing::ShaderPipeline;

struct GridPush {
  uint32_t base[4];
  uint32_t groups[4];
  uint32_t count;
  uint32_t value;
};

struct CountPush {  // test/count_writes.comp
  uint32_t base[4];
  uint32_t groups[4];
  uint32_t count;
};

std::vector<uint32_t> ReadWords(Device& device, const Buffer& buffer, size_t words) {
  std::vector<uint32_t> out(words);
  Status s = device.transfers().Download(buffer, 0, std::as_writable_bytes(std::span(out)));
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

class DispatchTest : public DeviceTest {};

// A grid wider than maxComputeWorkGroupCount must be split, and every invocation must still run
// exactly once.
void ExpectEveryElementWrittenOnce(Device& device, GridSize grid) {
  ASSERT_OK_AND_ASSIGN(auto pipeline, ShaderPipeline(device, "count_writes", {}, 0));
  const uint64_t count = uint64_t{grid.x} * grid.y * grid.z * 64;
  ASSERT_OK_AND_ASSIGN(Buffer counters, device.allocator().Allocate(count * 4));
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(device));
  ASSERT_OK(list.FillBuffer(counters.view(0, count * 4), 0));
  CountPush push{{0, 0, 0, 0}, {grid.x, grid.y, grid.z, 0}, static_cast<uint32_t>(count)};
  ASSERT_OK(list.Dispatch(*pipeline, {{counters.view(0, count * 4), Access::kReadWrite}},
                          AsBytes(push), grid));
  const auto& max = device.capabilities().limits.max_workgroup_count;
  const uint32_t parts = ((grid.x + max[0] - 1) / max[0]) * ((grid.y + max[1] - 1) / max[1]) *
                         ((grid.z + max[2] - 1) / max[2]);
  EXPECT_EQ(list.dispatch_count(), parts);
  EXPECT_GT(parts, 1u);
  ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
  ASSERT_OK(done.Wait());
  std::vector<uint32_t> counts = ReadWords(device, counters, count);
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < count; ++i) wrong += counts[i] != 1;
  EXPECT_EQ(wrong, 0u) << "of " << count << " elements, first: counts[0]=" << counts[0];
}

TEST_F(DispatchTest, GridBeyondMaxWorkgroupCountInXIsSplit) {
  const uint32_t max_x = dev().capabilities().limits.max_workgroup_count[0];
  if (uint64_t{max_x} * 64 * 4 > (1ull << 30)) GTEST_SKIP() << "maxComputeWorkGroupCount[0] too large to exceed cheaply";
  ExpectEveryElementWrittenOnce(dev(), {max_x + 1000, 1, 1});
}

TEST_F(DispatchTest, GridBeyondMaxWorkgroupCountInYIsSplit) {
  const uint32_t max_y = dev().capabilities().limits.max_workgroup_count[1];
  if (uint64_t{max_y} * 64 * 4 * 2 > (1ull << 30)) GTEST_SKIP() << "maxComputeWorkGroupCount[1] too large to exceed cheaply";
  ExpectEveryElementWrittenOnce(dev(), {2, max_y + 5, 1});
}

TEST_F(DispatchTest, OversizedGridWithoutWorkgroupBaseIsAnError) {
  ASSERT_OK_AND_ASSIGN(auto pipeline, ShaderPipeline(dev(), "count_writes"));  // no base
  ASSERT_OK_AND_ASSIGN(Buffer b, dev().allocator().Allocate(256));
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
  CountPush push{};
  Status s = list.Dispatch(*pipeline, {{b.view(), Access::kReadWrite}}, AsBytes(push),
                           {dev().capabilities().limits.max_workgroup_count[0] + 1, 1, 1});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("maxComputeWorkGroupCount"), std::string::npos) << s.message();
}

TEST_F(DispatchTest, PushAndSpecializationConstantsReachTheShader) {
  ASSERT_OK_AND_ASSIGN(auto pipeline,
                       ShaderPipeline(dev(), "constants_probe",
                                      {SpecUint(0, 123456), SpecFloat(1, -2.75f), SpecUint(2, 32),
                                       SpecInt(3, -77)}));
  EXPECT_EQ(pipeline->workgroup_size()[0], 32u);
  ASSERT_OK_AND_ASSIGN(Buffer out, dev().allocator().Allocate(7 * 4));
  struct {
    uint32_t a;
    float b;
    int32_t c;
  } push{0xDEADBEEF, 3.5f, -9};
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
  ASSERT_OK(list.Dispatch(*pipeline, {{out.view(), Access::kWrite}}, AsBytes(push), {1, 1, 1}));
  ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
  ASSERT_OK(done.Wait());
  std::vector<uint32_t> words = ReadWords(dev(), out, 7);
  float spec_float, push_float;
  std::memcpy(&spec_float, &words[1], 4);
  std::memcpy(&push_float, &words[4], 4);
  EXPECT_EQ(words[0], 123456u);
  EXPECT_EQ(spec_float, -2.75f);
  EXPECT_EQ(static_cast<int32_t>(words[2]), -77);
  EXPECT_EQ(words[3], 0xDEADBEEFu);
  EXPECT_EQ(push_float, 3.5f);
  EXPECT_EQ(static_cast<int32_t>(words[5]), -9);
  EXPECT_EQ(words[6], 32u);
}

TEST_F(DispatchTest, BarriersOnlyBetweenDependentCommands) {
  ASSERT_OK_AND_ASSIGN(auto fill, ShaderPipeline(dev(), "util/fill_u32", {SpecUint(0, 64)}, 0));
  ASSERT_OK_AND_ASSIGN(Buffer a, dev().allocator().Allocate(1024));
  ASSERT_OK_AND_ASSIGN(Buffer b, dev().allocator().Allocate(1024));
  ASSERT_OK_AND_ASSIGN(Buffer c, dev().allocator().Allocate(1024));
  GridPush push{{0}, {4, 1, 1, 0}, 256, 7};
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
  // Independent writes: no barrier.
  ASSERT_OK(list.Dispatch(*fill, {{a.view(), Access::kWrite}}, AsBytes(push), {4, 1, 1}));
  ASSERT_OK(list.Dispatch(*fill, {{b.view(), Access::kWrite}}, AsBytes(push), {4, 1, 1}));
  EXPECT_EQ(list.barrier_count(), 0u);
  // Reading what was written: one barrier.
  ASSERT_OK(list.CopyBuffer(a.view(0, 1024), c.view(0, 1024)));
  EXPECT_EQ(list.barrier_count(), 1u);
  // Overwriting what the copy read (write after read): one more (execution only).
  push.value = 9;
  ASSERT_OK(list.Dispatch(*fill, {{a.view(), Access::kWrite}}, AsBytes(push), {4, 1, 1}));
  EXPECT_EQ(list.barrier_count(), 2u);
  ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
  ASSERT_OK(done.Wait());
  EXPECT_EQ(ReadWords(dev(), c, 256), std::vector<uint32_t>(256, 7));
  EXPECT_EQ(ReadWords(dev(), a, 256), std::vector<uint32_t>(256, 9));
  EXPECT_EQ(ReadWords(dev(), b, 256), std::vector<uint32_t>(256, 7));
}

TEST_F(DispatchTest, ChainedSubmissionsSeeEachOthersWrites) {
  ASSERT_OK_AND_ASSIGN(auto fill, ShaderPipeline(dev(), "util/fill_u32", {SpecUint(0, 64)}, 0));
  ASSERT_OK_AND_ASSIGN(Buffer a, dev().allocator().Allocate(4096));
  ASSERT_OK_AND_ASSIGN(Buffer b, dev().allocator().Allocate(4096));
  GridPush push{{0}, {16, 1, 1, 0}, 1024, 42};
  ASSERT_OK_AND_ASSIGN(CommandList first, CommandList::Begin(dev()));
  ASSERT_OK(first.Dispatch(*fill, {{a.view(), Access::kWrite}}, AsBytes(push), {16, 1, 1}));
  ASSERT_OK_AND_ASSIGN(Submission s1, first.Submit());
  ASSERT_OK_AND_ASSIGN(CommandList second, CommandList::Begin(dev()));
  ASSERT_OK(second.CopyBuffer(a.view(0, 4096), b.view(0, 4096)));
  ASSERT_OK_AND_ASSIGN(Submission s2, second.Submit());
  EXPECT_GT(s2.value(), s1.value());
  ASSERT_OK(s2.Wait());
  EXPECT_EQ(ReadWords(dev(), b, 1024), std::vector<uint32_t>(1024, 42));
}

TEST_F(DispatchTest, TimestampsTimeEachDispatch) {
  if (dev().capabilities().limits.timestamp_valid_bits == 0) GTEST_SKIP() << "queue has no timestamps";
  ASSERT_OK_AND_ASSIGN(auto fill, ShaderPipeline(dev(), "util/fill_u32", {SpecUint(0, 64)}, 0));
  ASSERT_OK_AND_ASSIGN(Buffer a, dev().allocator().Allocate(1 << 20));
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev(), {.timestamps = true}));
  GridPush push{{0}, {4096, 1, 1, 0}, 1 << 18, 1};
  for (int i = 0; i < 300; ++i) {  // more than one query pool's worth
    ASSERT_OK(list.Dispatch(*fill, {{a.view(), Access::kWrite}}, AsBytes(push), {4096, 1, 1}));
  }
  ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
  ASSERT_OK_AND_ASSIGN(std::vector<DispatchTiming> timings, done.Timings());
  ASSERT_EQ(timings.size(), 300u);
  for (const DispatchTiming& t : timings) {
    EXPECT_EQ(t.label, "util/fill_u32");
    EXPECT_GE(t.milliseconds, 0.0);
    EXPECT_LT(t.milliseconds, 60e3);
  }
  // Starts are offsets from the first (the dispatches write one buffer, so they run in order).
  EXPECT_EQ(timings[0].start_milliseconds, 0.0);
  for (size_t i = 1; i < timings.size(); ++i) EXPECT_GE(timings[i].start_milliseconds, timings[i - 1].start_milliseconds);
}

TEST_F(DispatchTest, MisuseIsReportedNotRecorded) {
  ASSERT_OK_AND_ASSIGN(auto fill, ShaderPipeline(dev(), "util/fill_u32", {SpecUint(0, 64)}, 0));
  ASSERT_OK_AND_ASSIGN(Buffer a, dev().allocator().Allocate(64));
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
  GridPush push{};
  Status wrong_count = list.Dispatch(*fill, {}, AsBytes(push), {1, 1, 1});
  EXPECT_EQ(wrong_count.code(), StatusCode::kInvalidArgument);
  std::vector<std::byte> too_much(fill->push_constant_bytes() + 4);
  EXPECT_FALSE(list.Dispatch(*fill, {{a.view(), Access::kWrite}}, too_much, {1, 1, 1}).ok());
  EXPECT_FALSE(list.FillBuffer(a.view(2, 8), 0).ok());
  EXPECT_OK(list.Dispatch(*fill, {{a.view(), Access::kWrite}}, AsBytes(push), {0, 1, 1}));
  EXPECT_EQ(list.dispatch_count(), 0u);
  ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
  EXPECT_OK(done.Wait());
  EXPECT_FALSE(list.Submit().ok());  // already submitted
}

TEST_F(DispatchTest, SteadyStateReusesDescriptorSets) {
  ASSERT_OK_AND_ASSIGN(auto fill, ShaderPipeline(dev(), "util/fill_u32", {SpecUint(0, 64)}, 0));
  ASSERT_OK_AND_ASSIGN(Buffer a, dev().allocator().Allocate(4096));
  GridPush push{{0}, {16, 1, 1, 0}, 1024, 3};
  for (int round = 0; round < 5; ++round) {
    ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
    for (int i = 0; i < 10; ++i) {
      ASSERT_OK(list.Dispatch(*fill, {{a.view(), Access::kWrite}}, AsBytes(push), {16, 1, 1}));
    }
    ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
    ASSERT_OK(done.Wait());
  }
  DescriptorCacheStats stats = dev().descriptors().stats();
  EXPECT_EQ(stats.misses, 1u);
  EXPECT_EQ(stats.hits, 49u);
}

}  // namespace
}  // namespace vkhlo::device
