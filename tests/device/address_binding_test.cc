// Bindings reached through device addresses (issue 25): a pipeline's address bindings get an
// AddressTable slot holding the view's address; views beyond maxStorageBufferRange are accepted
// there and refused elsewhere; slots are reused per address; reads, writes and loops over the
// view give what a plain binding gives. Windows (several descriptors of one view, the path
// without bufferDeviceAddress) are cut by the command list and read and write alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "codegen/big_bindings.h"
#include "codegen/glsl_compiler.h"
#include "device/address_table.h"
#include "device/allocator.h"
#include "device/command_list.h"
#include "device/pipeline.h"
#include "device/transfer.h"
#include "tests/support/device_fixture.h"

namespace vkhlo::device {
namespace {

using testing::DeviceTest;

// Sums words [lo, hi) of `in0` per workgroup with a strided loop over 16 invocations (the shape
// of a reduction's first pass), writes the sums to `out` and doubles every word of `in0`'s
// second view `io`.
constexpr const char* kStrided = R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer Buffer0 { uint in0[]; };
layout(set = 0, binding = 1) restrict buffer Buffer1 { uint out1[]; };
layout(push_constant) uniform Push { uint n; uint per_group; } pc;
shared uint partial[16];
void main() {
  uint g = gl_WorkGroupID.x;
  uint t = gl_LocalInvocationID.x;
  uint lo = g * pc.per_group;
  uint hi = min(lo + pc.per_group, pc.n);
  uint acc = 0u;
  if (lo + t < hi) {
    acc = in0[lo + t];
    for (uint r = lo + t + 16u; r < hi; r += 16u) acc += in0[r];
  }
  partial[t] = acc;
  barrier();
  if (t == 0u) {
    uint s = 0u;
    for (uint i = 0u; i < 16u; ++i) s += partial[i];
    out1[g] = s;
  }
}
)";

class AddressBindingTest : public DeviceTest {
 protected:
  StatusOr<std::shared_ptr<const Pipeline>> Build(const std::string& glsl, std::set<uint32_t> addressed) {
    VKHLO_ASSIGN_OR_RETURN(codegen::AddressedGlsl rewritten, codegen::BindThroughAddresses(glsl, addressed));
    codegen::GlslCompiler compiler("");
    VKHLO_ASSIGN_OR_RETURN(std::shared_ptr<const codegen::SpirvWords> spirv,
                           compiler.Compile(rewritten.glsl, {.name = "strided"}));
    ComputePipelineDesc desc;
    desc.name = addressed.empty() ? "strided" : "strided.addressed";
    desc.spirv = *spirv;
    desc.address_bindings.assign(rewritten.rewritten.begin(), rewritten.rewritten.end());
    return dev().pipelines().GetOrCreate(desc);
  }

  // The per-group sums of `words` through a pipeline.
  std::vector<uint32_t> Sums(const Pipeline& pipeline, const std::vector<uint32_t>& words, uint32_t groups) {
    auto in = dev().allocator().Allocate(words.size() * 4);
    EXPECT_TRUE(in.ok());
    auto out = dev().allocator().Allocate(groups * 4);
    EXPECT_TRUE(out.ok());
    EXPECT_OK(dev().transfers().Upload(*in, 0, std::as_bytes(std::span(words))));
    auto list = CommandList::Begin(dev());
    EXPECT_TRUE(list.ok());
    const uint32_t n = static_cast<uint32_t>(words.size());
    const uint32_t push[2] = {n, (n + groups - 1) / groups};
    EXPECT_OK(list->Dispatch(pipeline, {{in->view(0, words.size() * 4), Access::kRead}, {out->view(), Access::kReadWrite}},
                             AsBytes(push), {groups, 1, 1}));
    auto done = list->Submit();
    EXPECT_TRUE(done.ok());
    EXPECT_OK(done->Wait());
    std::vector<uint32_t> sums(groups);
    EXPECT_OK(dev().transfers().Download(*out, 0, std::as_writable_bytes(std::span(sums))));
    return sums;
  }
};

// Without bufferDeviceAddress (the mobile profile) the tests below check instead that addresses
// and pipelines binding by address are refused with the missing feature named.
void ExpectAddressesRefused(Device& device, const StatusOr<std::shared_ptr<const Pipeline>>& pipeline) {
  ASSERT_OK_AND_ASSIGN(Buffer a, device.allocator().Allocate(4096));
  auto slot = device.addresses().Slot(a.view());
  ASSERT_FALSE(slot.ok());
  EXPECT_NE(slot.status().message().find("lacks bufferDeviceAddress"), std::string::npos) << slot.status().ToString();
  ASSERT_FALSE(pipeline.ok());
  EXPECT_NE(pipeline.status().message().find("bufferDeviceAddress"), std::string::npos) << pipeline.status().ToString();
}

TEST_F(AddressBindingTest, StridedLoopReadsLikeAPlainBinding) {
  if (!dev().capabilities().features.buffer_device_address) return ExpectAddressesRefused(dev(), Build(kStrided, {0}));
  ASSERT_OK_AND_ASSIGN(auto plain, Build(kStrided, {}));
  ASSERT_OK_AND_ASSIGN(auto addressed, Build(kStrided, {0}));
  EXPECT_TRUE(addressed->bindings()[0].device_address);
  EXPECT_FALSE(addressed->bindings()[1].device_address);
  for (uint32_t n : {1000u, 1048577u * 4 + 3}) {
    std::vector<uint32_t> words(n);
    std::iota(words.begin(), words.end(), 1u);
    EXPECT_EQ(Sums(*addressed, words, 4), Sums(*plain, words, 4)) << n;
  }
}

TEST_F(AddressBindingTest, SlotsAreReusedPerAddress) {
  if (!dev().capabilities().features.buffer_device_address) return ExpectAddressesRefused(dev(), Build(kStrided, {0}));
  ASSERT_OK_AND_ASSIGN(Buffer a, dev().allocator().Allocate(4096));
  ASSERT_OK_AND_ASSIGN(Buffer b, dev().allocator().Allocate(4096));
  ASSERT_OK_AND_ASSIGN(BufferView sa, dev().addresses().Slot(a.view()));
  ASSERT_OK_AND_ASSIGN(BufferView sb, dev().addresses().Slot(b.view()));
  ASSERT_OK_AND_ASSIGN(BufferView sa2, dev().addresses().Slot(a.view()));
  EXPECT_EQ(sa.buffer, sa2.buffer);
  EXPECT_EQ(sa.offset, sa2.offset);
  EXPECT_NE(sa.offset, sb.offset);
  ASSERT_OK_AND_ASSIGN(uint64_t address, dev().addresses().AddressOf(a.view(16, 16)));
  ASSERT_OK_AND_ASSIGN(uint64_t base, dev().addresses().AddressOf(a.view()));
  EXPECT_EQ(address, base + 16);
}

// Several descriptors ("windows", codegen::BindThroughWindows), the path without
// bufferDeviceAddress, on every device: small windows, so that a few KiB span several.
TEST_F(AddressBindingTest, WindowsReadAndWriteLikeAPlainBinding) {
  const uint64_t align = std::max<uint64_t>(16, dev().capabilities().limits.min_storage_buffer_offset_alignment);
  const uint64_t s = 4 * align;  // window bytes
  const uint32_t n = static_cast<uint32_t>(s / 4 * 3 + 5), groups = static_cast<uint32_t>(s / 4 + 7);
  ASSERT_OK_AND_ASSIGN(auto plain, Build(kStrided, {}));
  // in0: 4 windows; out1: 2.
  ASSERT_OK_AND_ASSIGN(codegen::WindowedGlsl rewritten,
                       codegen::BindThroughWindows(kStrided, {{0, uint64_t{n} * 4}, {1, uint64_t{groups} * 4}}, s));
  ASSERT_EQ(rewritten.windowed.size(), 2u);
  EXPECT_EQ(rewritten.windowed[0].window_bindings, (std::vector<uint32_t>{0, 2, 3, 4}));
  EXPECT_EQ(rewritten.windowed[1].window_bindings, (std::vector<uint32_t>{1, 5}));
  codegen::GlslCompiler compiler("");
  ASSERT_OK_AND_ASSIGN(std::shared_ptr<const codegen::SpirvWords> spirv,
                       compiler.Compile(rewritten.glsl, {.name = "strided.windows"}));
  ComputePipelineDesc desc;
  desc.name = "strided.windows";
  desc.spirv = *spirv;
  for (const codegen::WindowedBinding& w : rewritten.windowed) {
    desc.window_bindings.push_back({w.binding, w.window_bytes, w.window_bindings});
  }
  ASSERT_OK_AND_ASSIGN(auto windowed, dev().pipelines().GetOrCreate(desc));
  EXPECT_EQ(windowed->binding_count(), 2u);  // the caller's
  EXPECT_EQ(windowed->bindings().size(), 6u);
  ASSERT_EQ(windowed->windowed().size(), 2u);
  std::vector<uint32_t> words(n);
  std::iota(words.begin(), words.end(), 1u);
  EXPECT_EQ(Sums(*windowed, words, groups), Sums(*plain, words, groups));
  // A view needing more windows than the shader declares is refused.
  ASSERT_OK_AND_ASSIGN(Buffer big, dev().allocator().Allocate(s * 5));
  ASSERT_OK_AND_ASSIGN(Buffer out, dev().allocator().Allocate(groups * 4));
  ASSERT_OK_AND_ASSIGN(CommandList list, CommandList::Begin(dev()));
  const uint32_t push[2] = {n, 1};
  Status refused = list.Dispatch(*windowed, {{big.view(), Access::kRead}, {out.view(), Access::kReadWrite}},
                                 AsBytes(push), {1, 1, 1});
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("windows"), std::string::npos) << refused.ToString();
  EXPECT_EQ(list.windowed_binding_count(), 0u);
}

}  // namespace
}  // namespace vkhlo::device

