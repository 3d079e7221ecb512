// The device-layer hooks libraries like VkFFT use: CommandList::RecordExternal (barriers as for
// a dispatch around commands a library records itself), Queue::WithExclusiveQueue, and the
// allocator's VkBufferBytes and block-destroyed listeners.
#include <gtest/gtest.h>

#include <vector>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/queue.h"
#include "device/transfer.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::device {
namespace {

using testing::DeviceTest;

class ExternalRecordingTest : public DeviceTest {};

TEST_F(ExternalRecordingTest, RecordedCommandsGetBarriersLikeDispatches) {
  ASSERT_OK_AND_ASSIGN(Buffer a, dev().allocator().Allocate(4096));
  ASSERT_OK_AND_ASSIGN(Buffer b, dev().allocator().Allocate(4096));
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
  const Binding writes_a[] = {{a.view(0, 4096), Access::kWrite}};
  int calls = 0;
  ASSERT_OK(list.RecordExternal("fill a", writes_a, [&](VkCommandBuffer cb) {
    calls++;
    vkCmdFillBuffer(cb, a.vk_buffer(), a.offset(), 4096, 0x01020304u);
    return OkStatus();
  }));
  EXPECT_EQ(list.barrier_count(), 0u);
  // Reading what the library wrote needs a barrier.
  ASSERT_OK(list.CopyBuffer(a.view(0, 4096), b.view(0, 4096)));
  EXPECT_EQ(list.barrier_count(), 1u);
  // A library error comes back with the label as context; the list stays usable.
  Status failed = list.RecordExternal("broken", writes_a,
                                      [](VkCommandBuffer) { return InternalError("no"); });
  EXPECT_EQ(failed.code(), StatusCode::kInternal);
  EXPECT_NE(failed.message().find("broken"), std::string::npos) << failed.ToString();
  ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
  ASSERT_OK(done.Wait());
  std::vector<uint32_t> words(1024);
  ASSERT_OK(dev().transfers().Download(b, 0, std::as_writable_bytes(std::span(words))));
  EXPECT_EQ(calls, 1);
  for (uint32_t w : words) ASSERT_EQ(w, 0x01020304u);
}

TEST_F(ExternalRecordingTest, ExclusiveQueueAndBlockQueries) {
  VkQueue seen = VK_NULL_HANDLE;
  ASSERT_OK(dev().queue().WithExclusiveQueue([&](VkQueue q) {
    seen = q;
    return OkStatus();
  }));
  EXPECT_NE(seen, VK_NULL_HANDLE);

  std::vector<VkBuffer> destroyed;
  const uint64_t id =
      dev().allocator().AddBlockDestroyedListener([&](VkBuffer b) { destroyed.push_back(b); });
  const uint64_t block = DeviceOptions{}.memory_block_bytes;
  VkBuffer dedicated = VK_NULL_HANDLE;
  {
    // Over half a block: a dedicated block of its own size, destroyed with the buffer.
    ASSERT_OK_AND_ASSIGN(Buffer big, dev().allocator().Allocate(block / 2 + 4096));
    dedicated = big.vk_buffer();
    std::optional<uint64_t> bytes = dev().allocator().VkBufferBytes(dedicated);
    ASSERT_TRUE(bytes.has_value());
    EXPECT_GE(*bytes, block / 2 + 4096);
    ASSERT_OK_AND_ASSIGN(Buffer small, dev().allocator().Allocate(256));
    std::optional<uint64_t> shared = dev().allocator().VkBufferBytes(small.vk_buffer());
    ASSERT_TRUE(shared.has_value());
    EXPECT_LE(*shared, block);  // a shared block (smaller on small heaps)
    EXPECT_GE(*shared, 256u);
  }
  EXPECT_EQ(destroyed, std::vector<VkBuffer>{dedicated});
  dev().allocator().RemoveBlockDestroyedListener(id);
  EXPECT_FALSE(dev().allocator().VkBufferBytes(VK_NULL_HANDLE).has_value());
}

}  // namespace
}  // namespace vkhlo::device
