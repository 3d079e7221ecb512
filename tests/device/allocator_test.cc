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

}  // namespace
}  // namespace vkhlo::device
