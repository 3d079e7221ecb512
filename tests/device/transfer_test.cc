#include "device/transfer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "device/allocator.h"
#include "tests/support/byte_pattern.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::device {
namespace {

// Both transfer paths: direct (through the mapping, where memory is host-visible) and staged.
class TransferTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    DeviceOptions options = testing::TestDeviceOptions();
    options.direct_host_transfers = GetParam();
    options.staging_ring_bytes = 8ull << 20;  // small, so big transfers wrap it many times
    device_ = testing::OpenTestDevice(std::move(options));
    ASSERT_NE(device_, nullptr);
  }
  void TearDown() override {
    if (!device_) return;
    uint64_t messages = device_->instance().validation_message_count();
    device_.reset();
    EXPECT_EQ(messages, 0u);
  }
  std::unique_ptr<Device> device_;
};

TEST_P(TransferTest, RoundTripsFromZeroBytesTo300MiB) {
  TransferEngine& transfers = device_->transfers();
  for (size_t size : {size_t{0}, size_t{1}, size_t{3}, size_t{4096}, size_t{1} << 20,
                      (size_t{8} << 20) + 7, size_t{300} << 20}) {
    SCOPED_TRACE(size);
    ASSERT_OK_AND_ASSIGN(Buffer buffer, device_->allocator().Allocate(size));
    std::vector<std::byte> in = testing::BytePattern(size, static_cast<uint32_t>(size));
    std::vector<std::byte> out(size, std::byte{0xAB});
    ASSERT_OK(transfers.Upload(buffer, 0, in));
    ASSERT_OK(transfers.Download(buffer, 0, out));
    EXPECT_TRUE(in == out);
  }
  const TransferStats stats = transfers.stats();
  if (GetParam() && device_->allocator().IsHostVisible(MemoryKind::kDevice)) {
    EXPECT_GT(stats.direct_copies, 0u);
  } else {
    EXPECT_GT(stats.staged_chunks, 70u);  // 300 MiB through quarter-ring chunks of 2 MiB
  }
}

TEST_P(TransferTest, OffsetsAndPartialRanges) {
  TransferEngine& transfers = device_->transfers();
  ASSERT_OK_AND_ASSIGN(Buffer buffer, device_->allocator().Allocate(1000));
  std::vector<std::byte> zeros(1000, std::byte{0});
  ASSERT_OK(transfers.Upload(buffer, 0, zeros));
  std::vector<std::byte> piece = testing::BytePattern(101, 7);
  ASSERT_OK(transfers.Upload(buffer, 333, piece));
  std::vector<std::byte> all(1000);
  ASSERT_OK(transfers.Download(buffer, 0, all));
  for (size_t i = 0; i < 1000; ++i) {
    std::byte expected = (i >= 333 && i < 434) ? piece[i - 333] : std::byte{0};
    ASSERT_EQ(all[i], expected) << "byte " << i;
  }
  std::vector<std::byte> middle(101);
  ASSERT_OK(transfers.Download(buffer, 333, middle));
  EXPECT_TRUE(middle == piece);
}

TEST_P(TransferTest, OutOfRangeIsAnError) {
  ASSERT_OK_AND_ASSIGN(Buffer buffer, device_->allocator().Allocate(64));
  std::vector<std::byte> data(65);
  Status up = device_->transfers().Upload(buffer, 0, data);
  EXPECT_EQ(up.code(), StatusCode::kOutOfRange) << up.ToString();
  Status down = device_->transfers().Download(buffer, 60, std::span(data).first(8));
  EXPECT_EQ(down.code(), StatusCode::kOutOfRange) << down.ToString();
}

TEST_P(TransferTest, ManyAsyncDownloadsInFlight) {
  TransferEngine& transfers = device_->transfers();
  constexpr int kBuffers = 12;
  constexpr size_t kSize = 3 << 20;  // together more than the 8 MiB ring
  std::vector<Buffer> buffers;
  std::vector<std::vector<std::byte>> inputs, outputs(kBuffers, std::vector<std::byte>(kSize));
  for (int i = 0; i < kBuffers; ++i) {
    ASSERT_OK_AND_ASSIGN(Buffer b, device_->allocator().Allocate(kSize));
    inputs.push_back(testing::BytePattern(kSize, i));
    ASSERT_OK_AND_ASSIGN(TransferHandle up, transfers.UploadAsync(b, 0, inputs.back()));
    buffers.push_back(std::move(b));
  }
  std::vector<TransferHandle> downloads;
  for (int i = 0; i < kBuffers; ++i) {
    ASSERT_OK_AND_ASSIGN(TransferHandle h, transfers.DownloadAsync(buffers[i], 0, outputs[i]));
    downloads.push_back(std::move(h));
  }
  for (int i = kBuffers - 1; i >= 0; --i) {  // completion in any order
    ASSERT_OK(downloads[i].Wait());
    EXPECT_TRUE(outputs[i] == inputs[i]) << "buffer " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, TransferTest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "Direct" : "Staged"; });

}  // namespace
}  // namespace vkhlo::device
