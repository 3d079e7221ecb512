// Issue 25: buffers beyond maxMemoryAllocationSize are split across several allocations
// (device/split_layout.h). lavapipe lets one allocation take its whole heap, so the test lowers
// the limit to 64 MiB (VKHLO_MAX_ALLOCATION_BYTES, applied where the profile masks the
// capabilities) and checks, on both transfer paths: the pieces and the allocator's stats, bytes
// through uploads and downloads at offsets across piece boundaries, copies between split and
// unsplit buffers, fills, the errors for uses that need one range, and running out of memory
// (a clear error, nothing left reserved, the allocator usable afterwards).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/split_layout.h"
#include "device/transfer.h"
#include "tests/support/byte_pattern.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::device {
namespace {

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kLimit = 64 * kMiB;

class SplitAllocationTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ::setenv("VKHLO_MAX_ALLOCATION_BYTES", "64M", 1);
    DeviceOptions options = testing::TestDeviceOptions();
    options.direct_host_transfers = GetParam();
    options.staging_ring_bytes = 8 * kMiB;
    device_ = testing::OpenTestDevice(std::move(options));
    ::unsetenv("VKHLO_MAX_ALLOCATION_BYTES");
    ASSERT_NE(device_, nullptr);
  }
  void TearDown() override {
    if (!device_) return;
    uint64_t messages = device_->instance().validation_message_count();
    device_.reset();
    EXPECT_EQ(messages, 0u);
  }
  Allocator& allocator() { return device_->allocator(); }
  TransferEngine& transfers() { return device_->transfers(); }
  std::unique_ptr<Device> device_;
};

TEST_P(SplitAllocationTest, TheLimitIsLoweredAndTheLayoutFollowsIt) {
  EXPECT_EQ(device_->capabilities().limits.max_memory_allocation_size, kLimit);
  const SplitLayout& layout = allocator().split_layout();
  EXPECT_EQ(layout.limit, kLimit);
  EXPECT_EQ(layout.piece_bytes, kLimit);  // below the 128 MiB storage range: windows = pieces
  EXPECT_EQ(layout.window_bytes, kLimit);
  EXPECT_EQ(layout.piece_bytes % allocator().alignment(), 0u);
}

TEST_P(SplitAllocationTest, PiecesStatsAndRoundTripsAcrossPieceBoundaries) {
  const uint64_t size = 200 * kMiB + 12;  // 64 + 64 + 64 + 8 MiB and 12 bytes
  const AllocatorStats before = allocator().stats();
  {
    ASSERT_OK_AND_ASSIGN(Buffer buffer, allocator().Allocate(size));
    ASSERT_TRUE(buffer.split());
    EXPECT_EQ(buffer.size(), size);
    EXPECT_EQ(buffer.mapped(), nullptr);
    ASSERT_EQ(buffer.pieces().size(), 4u);
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(buffer.pieces()[i].size(), kLimit);
    EXPECT_EQ(buffer.pieces()[3].size(), size - 3 * kLimit);
    const AllocatorStats during = allocator().stats();
    EXPECT_EQ(during.split_buffers, before.split_buffers + 1);
    EXPECT_EQ(during.total_split_buffers, before.total_split_buffers + 1);
    EXPECT_GE(during.blocks, before.blocks + 3);
    EXPECT_GE(during.bytes_in_use, before.bytes_in_use + size);

    std::vector<std::byte> in = testing::BytePattern(size, 7);
    std::vector<std::byte> out(size, std::byte{0xAB});
    ASSERT_OK(transfers().Upload(buffer, 0, in));
    ASSERT_OK(transfers().Download(buffer, 0, out));
    EXPECT_TRUE(in == out);
    // A range across the boundary of pieces 1 and 2, at odd offsets.
    const uint64_t at = 2 * kLimit - 1001, bytes = 5003;
    std::vector<std::byte> patch = testing::BytePattern(bytes, 9);
    ASSERT_OK(transfers().Upload(buffer, at, patch));
    std::memcpy(in.data() + at, patch.data(), bytes);
    std::vector<std::byte> window(3 * bytes);
    ASSERT_OK(transfers().Download(buffer, at - bytes, window));
    EXPECT_EQ(std::memcmp(window.data(), in.data() + at - bytes, window.size()), 0);
  }
  const AllocatorStats after = allocator().stats();
  EXPECT_EQ(after.split_buffers, before.split_buffers);
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_EQ(after.live_buffers, before.live_buffers);
}

// The staging ring (32 MiB by default) is one host mapping: on a device whose largest
// allocation is smaller (a GPU without host-visible device memory, where every transfer goes
// through it) it shrinks to that size instead of becoming a split buffer without a mapping, and
// a staging buffer beyond the limit is an error, not a split.
TEST(SplitAllocationStagingTest, TheRingStaysOneMappedAllocation) {
  ::setenv("VKHLO_MAX_ALLOCATION_BYTES", "4M", 1);
  DeviceOptions options = testing::TestDeviceOptions();
  options.direct_host_transfers = false;
  std::unique_ptr<Device> device = testing::OpenTestDevice(std::move(options));
  ::unsetenv("VKHLO_MAX_ALLOCATION_BYTES");
  ASSERT_NE(device, nullptr);
  const uint64_t size = 10 * kMiB + 20;  // three pieces, several trips through the ring
  ASSERT_OK_AND_ASSIGN(Buffer buffer, device->allocator().Allocate(size));
  ASSERT_TRUE(buffer.split());
  std::vector<std::byte> in = testing::BytePattern(size, 11), out(size, std::byte{0});
  ASSERT_OK(device->transfers().Upload(buffer, 0, in));
  ASSERT_OK(device->transfers().Download(buffer, 0, out));
  EXPECT_TRUE(in == out);
  auto staging = device->allocator().Allocate(5 * kMiB, MemoryKind::kStaging);
  ASSERT_FALSE(staging.ok());
  EXPECT_EQ(staging.status().code(), StatusCode::kResourceExhausted) << staging.status().ToString();
  EXPECT_NE(staging.status().message().find("staging buffers are not split"), std::string::npos)
      << staging.status().ToString();
  EXPECT_EQ(device->instance().validation_message_count(), 0u);
}

TEST_P(SplitAllocationTest, CopiesAndFillsGoPieceByPiece) {
  const uint64_t size = 150 * kMiB + 64;
  ASSERT_OK_AND_ASSIGN(Buffer a, allocator().Allocate(size));
  ASSERT_OK_AND_ASSIGN(Buffer b, allocator().Allocate(size + 33 * kMiB));  // pieces at other offsets
  ASSERT_OK_AND_ASSIGN(Buffer small, allocator().Allocate(3 * kMiB));
  ASSERT_TRUE(a.split() && b.split());
  ASSERT_FALSE(small.split());
  std::vector<std::byte> in = testing::BytePattern(size, 3);
  ASSERT_OK(transfers().Upload(a, 0, in));
  std::vector<std::byte> s = testing::BytePattern(small.size(), 5);
  ASSERT_OK(transfers().Upload(small, 0, s));

  // a -> b shifted by 32 MiB + 16 (every piece boundary falls elsewhere on each side), then an
  // unsplit buffer into b across its boundary at 64 MiB, then a fill across the one at 128 MiB.
  const uint64_t shift = 32 * kMiB + 16;
  const uint64_t fill_at = 2 * kLimit - 4096, fill_bytes = 8192;
  {
    ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(*device_));
    ASSERT_OK(list.CopyBuffer(a.view(0, size), b.view(shift, size)));
    ASSERT_OK(list.CopyBuffer(small.view(0, small.size()), b.view(kLimit - kMiB, small.size())));
    ASSERT_OK(list.FillBuffer(b.view(fill_at, fill_bytes), 0x01020304u));
    ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
    ASSERT_OK(done.Wait());
  }
  std::vector<std::byte> want(b.size(), std::byte{0});
  std::vector<std::byte> got(b.size());
  ASSERT_OK(transfers().Download(b, 0, got));
  std::memcpy(want.data(), got.data(), shift);  // not written
  std::memcpy(want.data() + shift, in.data(), size);
  std::memcpy(want.data() + kLimit - kMiB, s.data(), s.size());
  for (uint64_t i = 0; i < fill_bytes; i += 4) {
    const uint32_t word = 0x01020304u;
    std::memcpy(want.data() + fill_at + i, &word, 4);
  }
  if (shift + size < b.size()) std::memcpy(want.data() + shift + size, got.data() + shift + size, b.size() - shift - size);
  size_t first_bad = want.size();
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] != got[i]) {
      first_bad = i;
      break;
    }
  }
  EXPECT_EQ(first_bad, want.size()) << "first wrong byte";
}

TEST_P(SplitAllocationTest, UsesThatNeedOneRangeAreErrors) {
  ASSERT_OK_AND_ASSIGN(Buffer a, allocator().Allocate(100 * kMiB));
  ASSERT_TRUE(a.split());
  // Inside one piece: that piece's range.
  ASSERT_OK_AND_ASSIGN(BufferView inside, WithinOnePiece(a.view(kLimit + 256, 4096), "test"));
  EXPECT_EQ(inside.buffer, a.pieces()[1].vk_buffer());
  EXPECT_EQ(inside.offset, a.pieces()[1].offset() + 256);
  EXPECT_EQ(inside.pieces, nullptr);
  // Across two: an error that says so.
  auto across = WithinOnePiece(a.view(kLimit - 256, 4096), "binding 3");
  ASSERT_FALSE(across.ok());
  EXPECT_NE(across.status().message().find("binding 3"), std::string::npos) << across.status().ToString();
  EXPECT_NE(across.status().message().find("split across 2 allocations"), std::string::npos) << across.status().ToString();
  // External recordings (VkFFT) address VkBuffers themselves: any split view is refused.
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(*device_));
  const Binding accesses[] = {{a.view(0, 4096), Access::kRead}};
  Status external = list.RecordExternal("fft", accesses, [](VkCommandBuffer) { return OkStatus(); });
  EXPECT_EQ(external.code(), StatusCode::kInvalidArgument) << external.ToString();
  EXPECT_NE(external.message().find("maxMemoryAllocationSize"), std::string::npos) << external.ToString();
}

TEST_P(SplitAllocationTest, OutOfMemoryIsAClearErrorAndNothingLeaks) {
  const uint64_t heap = allocator().MemoryLimit();
  const AllocatorStats before = allocator().stats();
  // More than the heap: refused at once.
  auto too_big = allocator().Allocate(heap + kMiB);
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.status().code(), StatusCode::kResourceExhausted) << too_big.status().ToString();
  // Within the heap but not beside what is held: some pieces fit, then one does not.
  {
    ASSERT_OK_AND_ASSIGN(Buffer held, allocator().Allocate(heap / 2 + 10 * kMiB));
    const AllocatorStats holding = allocator().stats();
    auto second = allocator().Allocate(heap / 2 + 10 * kMiB);
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.status().code(), StatusCode::kResourceExhausted) << second.status().ToString();
    EXPECT_NE(second.status().message().find("pieces"), std::string::npos) << second.status().ToString();
    allocator().Trim();
    const AllocatorStats failed = allocator().stats();
    EXPECT_EQ(failed.bytes_in_use, holding.bytes_in_use);
    EXPECT_EQ(failed.live_buffers, holding.live_buffers);
    EXPECT_EQ(failed.split_buffers, holding.split_buffers);
  }
  // Usable afterwards: a split buffer round-trips.
  ASSERT_OK_AND_ASSIGN(Buffer again, allocator().Allocate(130 * kMiB));
  std::vector<std::byte> in = testing::BytePattern(again.size(), 11), out(again.size());
  ASSERT_OK(transfers().Upload(again, 0, in));
  ASSERT_OK(transfers().Download(again, 0, out));
  EXPECT_TRUE(in == out);
  again.Reset();
  EXPECT_EQ(allocator().stats().bytes_in_use, before.bytes_in_use);
}

INSTANTIATE_TEST_SUITE_P(BothPaths, SplitAllocationTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Direct" : "Staged"; });

}  // namespace
}  // namespace vkhlo::device
