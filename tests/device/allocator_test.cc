#include "device/allocator.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/support/device_fixture.h"

namespace vkhlo::device {
namespace {

using testing::DeviceTest;

class AllocatorTest : public DeviceTest {};

TEST_F(AllocatorTest, OffsetsHonorTheStorageBufferAlignment) {
  const uint64_t alignment = dev().capabilities().limits.min_storage_buffer_offset_alignment;
  std::vector<Buffer> buffers;
  for (uint64_t size : {1, 3, 17, 100, 4096, 65537}) {
    ASSERT_OK_AND_ASSIGN(Buffer b, dev().allocator().Allocate(size));
    EXPECT_EQ(b.size(), size);
    EXPECT_EQ(b.offset() % alignment, 0u) << "size " << size;
    EXPECT_GE(b.view().size, size);
    buffers.push_back(std::move(b));
  }
  // Live buffers never overlap.
  for (size_t i = 0; i < buffers.size(); ++i) {
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      const BufferView a = buffers[i].view(), b = buffers[j].view();
      if (a.buffer != b.buffer) continue;
      EXPECT_TRUE(a.offset + a.size <= b.offset || b.offset + b.size <= a.offset);
    }
  }
}

TEST_F(AllocatorTest, ZeroSizeBuffersAreValidAndBindable) {
  ASSERT_OK_AND_ASSIGN(Buffer b, dev().allocator().Allocate(0));
  EXPECT_EQ(b.size(), 0u);
  EXPECT_GT(b.view().size, 0u);
}

TEST_F(AllocatorTest, TenThousandAllocateFreeCyclesDoNotGrowMemory) {
  Allocator& allocator = dev().allocator();
  std::mt19937 rng(42);
  std::uniform_int_distribution<uint64_t> size(1, 4u << 20);
  // Warm up so the working set's blocks exist, then check that cycling never adds more.
  std::vector<Buffer> live(8);
  for (auto& b : live) {
    ASSERT_OK_AND_ASSIGN(b, allocator.Allocate(size(rng)));
  }
  const AllocatorStats before = allocator.stats();
  for (int i = 0; i < 10000; ++i) {
    Buffer& slot = live[i % live.size()];
    slot.Reset();
    ASSERT_OK_AND_ASSIGN(slot, allocator.Allocate(size(rng)));
  }
  const AllocatorStats after = allocator.stats();
  EXPECT_EQ(after.live_buffers, before.live_buffers);
  EXPECT_LE(after.bytes_reserved, before.bytes_reserved + (64ull << 20))
      << "fragmentation may add at most one block";
  live.clear();
  const AllocatorStats freed = allocator.stats();
  EXPECT_EQ(freed.live_buffers, 1u);  // the staging ring
  EXPECT_LE(freed.blocks, 2u) << "one staging block and one kept-empty block per memory type";
}

TEST_F(AllocatorTest, StatsTrackUseAndPeak) {
  Allocator& allocator = dev().allocator();
  const AllocatorStats base = allocator.stats();
  {
    ASSERT_OK_AND_ASSIGN(Buffer a, allocator.Allocate(1 << 20));
    ASSERT_OK_AND_ASSIGN(Buffer b, allocator.Allocate(1 << 20));
    EXPECT_EQ(allocator.stats().bytes_in_use, base.bytes_in_use + (2 << 20));
  }
  const AllocatorStats after = allocator.stats();
  EXPECT_EQ(after.bytes_in_use, base.bytes_in_use);
  EXPECT_GE(after.peak_bytes_in_use, base.bytes_in_use + (2 << 20));
}

TEST_F(AllocatorTest, OutOfMemoryIsAnErrorNotACrash) {
  Allocator& allocator = dev().allocator();
  uint64_t heap = 0;
  for (const MemoryHeap& h : dev().capabilities().memory_heaps) heap = std::max(heap, h.size);
  auto huge = allocator.Allocate(heap * 4);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.status().code(), StatusCode::kResourceExhausted);
  EXPECT_FALSE(huge.status().message().empty());

  // Filling the heap with (uncommitted) reservations fails cleanly, and frees completely.
  const AllocatorStats before = allocator.stats();
  std::vector<Buffer> buffers;
  Status last;
  const uint64_t chunk = std::min<uint64_t>(heap / 4, dev().capabilities().limits.max_memory_allocation_size);
  for (int i = 0; i < 64 && last.ok(); ++i) {
    auto b = allocator.Allocate(chunk);
    if (b.ok()) buffers.push_back(std::move(b).value()); else last = b.status();
  }
  EXPECT_EQ(last.code(), StatusCode::kResourceExhausted) << last.ToString();
  EXPECT_NE(last.message().find("heap"), std::string::npos) << last.message();
  buffers.clear();
  EXPECT_EQ(allocator.stats().bytes_reserved, before.bytes_reserved);
  // And the device still works.
  ASSERT_OK_AND_ASSIGN(Buffer ok, allocator.Allocate(1024));
}

TEST_F(AllocatorTest, BuffersLargerThanMaxStorageBufferRange) {
  const uint64_t range = dev().capabilities().limits.max_storage_buffer_range;
  const uint64_t size = std::min<uint64_t>(range + (1 << 20), dev().capabilities().limits.max_memory_allocation_size);
  if (size <= range) GTEST_SKIP() << "device cannot allocate more than maxStorageBufferRange at once";
  ASSERT_OK_AND_ASSIGN(Buffer b, dev().allocator().Allocate(size));
  EXPECT_EQ(b.size(), size);
}


// ---- The pool of freed dedicated blocks ----

class AllocatorPoolTest : public ::testing::Test {
 protected:
  void Open(uint64_t budget, uint64_t pool) {
    device::DeviceOptions options = testing::TestDeviceOptions();
    options.memory_budget_bytes = budget;
    options.free_block_pool_bytes = pool;
    device_ = testing::OpenTestDevice(options);
    ASSERT_NE(device_, nullptr);
  }
  Allocator& allocator() { return device_->allocator(); }
  std::unique_ptr<Device> device_;
};

TEST_F(AllocatorPoolTest, FreedLargeBlocksAreReusedAndListenersHearOfEachRelease) {
  Open(0, 256ull << 20);
  std::vector<VkBuffer> released;
  const uint64_t id = allocator().AddBlockDestroyedListener([&](VkBuffer b) { released.push_back(b); });
  const uint64_t big = (40ull << 20) + 12345;  // over half a 64 MiB block: dedicated; bucket (40, 42] MiB
  VkBuffer first = VK_NULL_HANDLE;
  const AllocatorStats before = allocator().stats();
  for (int round = 0; round < 5; ++round) {
    // Nearby sizes share a bucket.
    ASSERT_OK_AND_ASSIGN(Buffer b, allocator().Allocate(big + uint64_t(round) * 4096));
    if (round == 0) first = b.vk_buffer();
    EXPECT_EQ(b.vk_buffer(), first) << "round " << round;
    EXPECT_EQ(b.offset(), 0u);
    ASSERT_TRUE(allocator().VkBufferBytes(b.vk_buffer()).has_value());
  }
  AllocatorStats after = allocator().stats();
  EXPECT_EQ(after.pool_hits - before.pool_hits, 4u);
  EXPECT_EQ(after.blocks, before.blocks + 1);
  EXPECT_EQ(after.pooled_blocks, 1u);
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  // Every release told the listeners, pooled or not; a pooled block is not in use.
  EXPECT_EQ(released, std::vector<VkBuffer>(5, first));
  EXPECT_FALSE(allocator().VkBufferBytes(first).has_value());
  allocator().Trim();
  after = allocator().stats();
  EXPECT_EQ(after.pooled_blocks, 0u);
  EXPECT_EQ(after.bytes_reserved, before.bytes_reserved);
  EXPECT_EQ(released.size(), 5u) << "a pooled block's destruction is not announced twice";
  allocator().RemoveBlockDestroyedListener(id);
}

TEST_F(AllocatorPoolTest, PoolIsBoundedOldestFirst) {
  Open(0, 120ull << 20);
  std::vector<Buffer> live;
  for (uint64_t mib : {40, 48, 56}) {
    ASSERT_OK_AND_ASSIGN(Buffer b, allocator().Allocate(mib << 20));
    live.push_back(std::move(b));
  }
  const VkBuffer newest = live.back().vk_buffer();
  live.clear();  // frees 40, 48, 56 in turn: pooling 56 pushes out 40
  const AllocatorStats stats = allocator().stats();
  EXPECT_EQ(stats.pooled_bytes, 104ull << 20);
  EXPECT_EQ(stats.pooled_blocks, 2u);
  ASSERT_OK_AND_ASSIGN(Buffer again, allocator().Allocate(56ull << 20));
  EXPECT_EQ(again.vk_buffer(), newest);
}

TEST_F(AllocatorPoolTest, FullBudgetTrimsThePoolBeforeFailing) {
  Open(512ull << 20, 128ull << 20);  // the pool: at most a quarter of the budget
  {
    ASSERT_OK_AND_ASSIGN(Buffer a, allocator().Allocate(60ull << 20));
    ASSERT_OK_AND_ASSIGN(Buffer b, allocator().Allocate(60ull << 20));
  }
  const AllocatorStats pooled = allocator().stats();
  EXPECT_EQ(pooled.pooled_blocks, 2u);
  // Fits only once the pool is released.
  const uint64_t room = (512ull << 20) - (pooled.bytes_reserved - pooled.pooled_bytes);
  ASSERT_OK_AND_ASSIGN(Buffer big, allocator().Allocate(room - (16ull << 20)));
  AllocatorStats after = allocator().stats();
  EXPECT_EQ(after.pooled_blocks, 0u);
  EXPECT_EQ(after.pool_trims, pooled.pool_trims + 1);
  // Beyond the budget: a clear error, not a crash.
  auto more = allocator().Allocate(64ull << 20);
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(more.status().message().find("budget"), std::string::npos) << more.status().ToString();
}

}  // namespace
}  // namespace vkhlo::device
