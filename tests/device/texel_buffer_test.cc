// Storage texel buffers: kernels declaring `uniform imageBuffer` bindings get VkBufferViews made
// by the descriptor cache from ordinary BufferViews (offsets inside larger buffers included),
// cached with their sets, destroyed with them, and checked against the texel limits.
#include <gtest/gtest.h>

#include <cstring>

#include "device/allocator.h"
#include "device/command_list.h"
#include "device/descriptor_cache.h"
#include "device/transfer.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::device {
namespace {

using testing::DeviceTest;
using testing::ShaderPipeline;

struct Push {
  uint32_t count;
};

class TexelBufferTest : public DeviceTest {
 protected:
  uint64_t TexelAlignment() { return dev().capabilities().limits.min_texel_buffer_offset_alignment; }
  static uint64_t RoundUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
};

// A recognizable nonzero float for every word of the operand buffer.
float WordValue(size_t w) { return 1.0f + 0.25f * static_cast<float>(w); }

TEST_F(TexelBufferTest, ReadsViewsAtOffsetsInsideABufferAndReusesTheSet) {
  ASSERT_OK_AND_ASSIGN(auto pipeline, ShaderPipeline(dev(), "texel_read"));
  ASSERT_EQ(pipeline->bindings()[0].kind, BindingKind::kStorageTexelBuffer);
  // Both views are suballocations of one buffer, the first at a nonzero offset; the rgba32f view
  // ends with a partial texel, which it does not hold (whole texels only).
  const uint64_t align = TexelAlignment();
  const uint64_t quads_offset = align, quads_texels = 8, quads_bytes = quads_texels * 16 + 8;
  const uint64_t scalars_offset = RoundUp(quads_offset + quads_bytes + 64, align), scalars_texels = 6;
  const uint64_t total = scalars_offset + scalars_texels * 4 + 256;
  std::vector<float> data(total / 4);
  for (size_t w = 0; w < data.size(); ++w) data[w] = WordValue(w);
  ASSERT_OK_AND_ASSIGN(Buffer operands, dev().allocator().Allocate(total));
  ASSERT_OK(dev().transfers().Upload(operands, 0, std::as_bytes(std::span(data))));
  const uint32_t count = 10;  // past the end of both views
  ASSERT_OK_AND_ASSIGN(Buffer out, dev().allocator().Allocate(count * 2 * 16));

  const DescriptorCacheStats before = dev().descriptors().stats();
  std::vector<Binding> bindings = {{operands.view(quads_offset, quads_bytes), Access::kRead},
                                   {operands.view(scalars_offset, scalars_texels * 4), Access::kRead},
                                   {out.view(), Access::kWrite}};
  for (int round = 0; round < 2; ++round) {  // the second dispatch finds the set in the cache
    ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
    ASSERT_OK(list.FillBuffer(out.view(), 0xFFFFFFFFu));  // NaNs: every result must be written
    ASSERT_OK(list.Dispatch(*pipeline, bindings, AsBytes(Push{count}), {1, 1, 1}));
    ASSERT_OK_AND_ASSIGN(Submission done, list.Submit());
    ASSERT_OK(done.Wait());

    std::vector<float> result(count * 2 * 4);
    ASSERT_OK(dev().transfers().Download(out, 0, std::as_writable_bytes(std::span(result))));
    // llvmpipe bounds-checks every texel access; elsewhere reads past a view are undefined
    // without robustBufferAccess, which vkhlo does not enable.
    const bool bounds_checked = dev().capabilities().type == DeviceType::kCpu;
    for (uint32_t i = 0; i < count; ++i) {
      const float* quad = &result[i * 8];
      const float* scalar = &result[i * 8 + 4];
      for (int c = 0; c < 4; ++c) {
        if (i < quads_texels) {
          EXPECT_EQ(quad[c], WordValue(quads_offset / 4 + i * 4 + c)) << "quad " << i << "." << c;
        } else if (bounds_checked) {
          EXPECT_EQ(quad[c], 0.0f) << "quad " << i << "." << c << " is past the view";
        }
      }
      if (i < scalars_texels) {
        EXPECT_EQ(scalar[0], WordValue(scalars_offset / 4 + i)) << "scalar " << i;
        EXPECT_EQ(scalar[1], 0.0f);
        EXPECT_EQ(scalar[2], 0.0f);
        EXPECT_EQ(scalar[3], 1.0f);  // a one-component format reads as (x, 0, 0, 1)
      } else if (bounds_checked) {
        EXPECT_EQ(scalar[0], 0.0f) << "scalar " << i << " is past the view";
      }
    }
  }
  const DescriptorCacheStats after = dev().descriptors().stats();
  EXPECT_EQ(after.misses - before.misses, 1u);
  EXPECT_EQ(after.hits - before.hits, 1u);
  EXPECT_EQ(after.live_texel_views - before.live_texel_views, 2u);

  // Forgetting the operand buffer (as the allocator does before destroying its block) frees the
  // set and destroys its views.
  dev().descriptors().ForgetBuffer(operands.vk_buffer());
  const DescriptorCacheStats forgotten = dev().descriptors().stats();
  EXPECT_EQ(forgotten.live_texel_views, before.live_texel_views);
  EXPECT_EQ(forgotten.live_sets, after.live_sets - 1);
}

TEST_F(TexelBufferTest, EvictionDestroysViews) {
  ASSERT_OK_AND_ASSIGN(auto pipeline, ShaderPipeline(dev(), "texel_read"));
  const uint64_t align = TexelAlignment();
  ASSERT_OK_AND_ASSIGN(Buffer operands, dev().allocator().Allocate(align * 16));
  ASSERT_OK_AND_ASSIGN(Buffer out, dev().allocator().Allocate(256));
  {
    DescriptorCache cache(dev(), /*capacity=*/4);
    for (uint64_t i = 0; i < 12; ++i) {
      std::vector<BufferView> views = {operands.view(i * align, 16), operands.view(0, 4 * (i + 1)),
                                       out.view()};
      ASSERT_OK_AND_ASSIGN(VkDescriptorSet set, cache.Acquire(*pipeline, views));
      cache.Release(set, 0);  // never submitted: evictable at once
      const DescriptorCacheStats stats = cache.stats();
      EXPECT_LE(stats.live_sets, 4u);
      EXPECT_EQ(stats.live_texel_views, 2 * stats.live_sets);
    }
    EXPECT_EQ(cache.stats().misses, 12u);
  }  // the destructor destroys the views still cached (validation reports any it leaks)
}

TEST_F(TexelBufferTest, MisalignedOrTooLargeViewsAreErrors) {
  ASSERT_OK_AND_ASSIGN(auto pipeline, ShaderPipeline(dev(), "texel_read"));
  const DeviceLimits& limits = dev().capabilities().limits;
  ASSERT_OK_AND_ASSIGN(Buffer out, dev().allocator().Allocate(256));
  const uint64_t live = dev().descriptors().stats().live_texel_views;
  auto dispatch = [&](BufferView quads, BufferView scalars) {
    auto list = CommandList::Begin(dev());
    EXPECT_TRUE(list.ok()) << list.status().ToString();
    if (!list.ok()) return list.status();
    return list->Dispatch(*pipeline, {{quads, Access::kRead}, {scalars, Access::kRead}, {out.view(), Access::kWrite}},
                          AsBytes(Push{1}), {1, 1, 1});
  };
  ASSERT_OK_AND_ASSIGN(Buffer small, dev().allocator().Allocate(1024));
  if (limits.min_texel_buffer_offset_alignment > 4) {
    Status s = dispatch(small.view(0, 16), small.view(4, 16));
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
    EXPECT_NE(s.message().find("'texel_read', texel buffer binding 1"), std::string::npos) << s.ToString();
    EXPECT_NE(s.message().find("minTexelBufferOffsetAlignment"), std::string::npos) << s.ToString();
  }
  Status empty = dispatch(small.view(0, 8), small.view(0, 4));  // less than one rgba32f texel
  EXPECT_EQ(empty.code(), StatusCode::kInvalidArgument) << empty.ToString();
  // One texel too many (cheap under the mobile profile's 65536; skipped where it is not).
  const uint64_t too_many = limits.max_texel_buffer_elements + 1;
  uint64_t made = 0;  // views of successful dispatches, cached with their sets
  if (too_many * 4 <= (64u << 20)) {
    ASSERT_OK_AND_ASSIGN(Buffer big, dev().allocator().Allocate(too_many * 4));
    Status s = dispatch(small.view(0, 16), big.view(0, too_many * 4));
    EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.ToString();
    EXPECT_NE(s.message().find("maxTexelBufferElements"), std::string::npos) << s.ToString();
    // The maximum itself is fine.
    EXPECT_OK(dispatch(small.view(0, 16), big.view(0, (too_many - 1) * 4)));
    made = 2;
  }
  // Failed acquisitions leave no views behind (binding 0's was made before binding 1 failed).
  EXPECT_EQ(dev().descriptors().stats().live_texel_views, live + made);
}

TEST(TexelViewRangeTest, ChecksAlignmentCountAndRoundsDown) {
  DeviceLimits limits;
  limits.min_texel_buffer_offset_alignment = 64;
  limits.max_texel_buffer_elements = 100;
  ShaderBinding quads{0, 3, BindingKind::kStorageTexelBuffer, VK_FORMAT_R32G32B32A32_SFLOAT, 16};
  auto ok = TexelViewRange(limits, "k", 3, quads, {VK_NULL_HANDLE, 128, 16 * 10 + 12});
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(*ok, 160u);
  auto misaligned = TexelViewRange(limits, "k", 3, quads, {VK_NULL_HANDLE, 32, 160});
  EXPECT_EQ(misaligned.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(misaligned.status().message().find("'k', texel buffer binding 3"), std::string::npos);
  auto too_many = TexelViewRange(limits, "k", 3, quads, {VK_NULL_HANDLE, 0, 16 * 101});
  EXPECT_EQ(too_many.status().code(), StatusCode::kResourceExhausted);
  auto at_limit = TexelViewRange(limits, "k", 3, quads, {VK_NULL_HANDLE, 0, 16 * 100 + 15});
  EXPECT_TRUE(at_limit.ok());
  auto empty = TexelViewRange(limits, "k", 3, quads, {VK_NULL_HANDLE, 0, 15});
  EXPECT_EQ(empty.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace vkhlo::device
