#include "device/spirv_reflect.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "device/pipeline.h"
#include "tests/device/shaders/test_shaders.h"

namespace vkhlo::device {
namespace {

std::span<const uint32_t> Spirv(std::string_view name) {
  const shaders::EmbeddedShader* shader = testing::FindTestShader(name);
  EXPECT_NE(shader, nullptr) << name;
  return shader ? shader->spirv : std::span<const uint32_t>();
}

TEST(SpirvReflectTest, EveryEmbeddedShaderReflects) {
  ASSERT_FALSE(shaders::AllShaders().empty());
  ASSERT_FALSE(testing::test_shaders::AllShaders().empty());
  for (auto registry : {shaders::AllShaders(), testing::test_shaders::AllShaders()}) {
    for (const shaders::EmbeddedShader& shader : registry) {
      auto info = ReflectComputeShader(shader.spirv, {});
      EXPECT_TRUE(info.ok()) << shader.name << ": " << info.status().ToString();
    }
  }
}

TEST(SpirvReflectTest, WorkgroupSizeFollowsSpecialization) {
  auto defaults = ReflectComputeShader(Spirv("util/fill_u32"), {});
  ASSERT_TRUE(defaults.ok()) << defaults.status().ToString();
  EXPECT_EQ(defaults->workgroup_size, (std::array<uint32_t, 3>{1, 1, 1}));  // glslang's default
  SpecializationValue wg = SpecUint(0, 128);
  auto specialized = ReflectComputeShader(Spirv("util/fill_u32"), {&wg, 1});
  ASSERT_TRUE(specialized.ok());
  EXPECT_EQ(specialized->workgroup_size[0], 128u);
}

// OpCapability operands, ascending: Shader (1) always; Float64 (10) where the kernel uses doubles.
TEST(SpirvReflectTest, CapabilitiesAreListed) {
  auto f64 = ReflectComputeShader(Spirv("float64_probe"), {});
  ASSERT_TRUE(f64.ok()) << f64.status().ToString();
  EXPECT_TRUE(std::is_sorted(f64->capabilities.begin(), f64->capabilities.end()));
  EXPECT_NE(std::find(f64->capabilities.begin(), f64->capabilities.end(), 1u), f64->capabilities.end());
  EXPECT_NE(std::find(f64->capabilities.begin(), f64->capabilities.end(), 10u), f64->capabilities.end());
  auto u32 = ReflectComputeShader(Spirv("util/fill_u32"), {});
  ASSERT_TRUE(u32.ok());
  EXPECT_EQ(std::find(u32->capabilities.begin(), u32->capabilities.end(), 10u), u32->capabilities.end());
}

TEST(SpirvReflectTest, PushConstantsBindingsAndSharedMemory) {
  auto fill = ReflectComputeShader(Spirv("util/fill_u32"), {});
  ASSERT_TRUE(fill.ok());
  EXPECT_EQ(fill->push_constant_bytes, 40u);  // uvec4 base, uvec4 groups, uint count, uint value
  ASSERT_EQ(fill->bindings.size(), 1u);
  EXPECT_EQ(fill->bindings[0].binding, 0u);
  EXPECT_EQ(fill->bindings[0].kind, BindingKind::kStorageBuffer);
  EXPECT_EQ(fill->shared_memory_bytes, 0u);
  EXPECT_EQ(fill->entry_point, "main");

  SpecializationValue words = SpecUint(0, 3000);
  auto shared = ReflectComputeShader(Spirv("shared_memory_probe"), {&words, 1});
  ASSERT_TRUE(shared.ok());
  EXPECT_EQ(shared->shared_memory_bytes, 12000u);
  EXPECT_EQ(shared->workgroup_size[0], 64u);
}

TEST(SpirvReflectTest, AliasedViewsAreOneBinding) {
  auto info = ReflectComputeShader(Spirv("aliased_views"), {});
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  ASSERT_EQ(info->bindings.size(), 2u);
  EXPECT_EQ(info->bindings[0].binding, 0u);
  EXPECT_EQ(info->bindings[1].binding, 1u);
}

TEST(SpirvReflectTest, StorageTexelBuffersHaveKindAndFormat) {
  auto read = ReflectComputeShader(Spirv("texel_read"), {});
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->bindings.size(), 3u);
  EXPECT_EQ(read->bindings[0].kind, BindingKind::kStorageTexelBuffer);
  EXPECT_EQ(read->bindings[0].format, VK_FORMAT_R32G32B32A32_SFLOAT);
  EXPECT_EQ(read->bindings[0].texel_bytes, 16u);
  EXPECT_EQ(read->bindings[1].kind, BindingKind::kStorageTexelBuffer);
  EXPECT_EQ(read->bindings[1].format, VK_FORMAT_R32_SFLOAT);
  EXPECT_EQ(read->bindings[1].texel_bytes, 4u);
  EXPECT_EQ(read->bindings[2].kind, BindingKind::kStorageBuffer);
  EXPECT_EQ(read->bindings[2].format, VK_FORMAT_UNDEFINED);

  auto formats = ReflectComputeShader(Spirv("texel_formats"), {});
  ASSERT_TRUE(formats.ok()) << formats.status().ToString();
  ASSERT_EQ(formats->bindings.size(), 3u);
  EXPECT_EQ(formats->bindings[0].format, VK_FORMAT_R32G32B32A32_UINT);
  EXPECT_EQ(formats->bindings[0].texel_bytes, 16u);
  EXPECT_EQ(formats->bindings[1].kind, BindingKind::kStorageBuffer);
  EXPECT_EQ(formats->bindings[2].format, VK_FORMAT_R32_UINT);
  EXPECT_EQ(formats->bindings[2].texel_bytes, 4u);
}

// The module with its first OpTypeImage's format operand replaced.
std::vector<uint32_t> WithImageFormat(std::span<const uint32_t> spirv, uint32_t format) {
  std::vector<uint32_t> out(spirv.begin(), spirv.end());
  for (size_t pos = 5; pos < out.size(); pos += out[pos] >> 16) {
    if ((out[pos] & 0xFFFFu) == 25 /* OpTypeImage */) {
      out[pos + 8] = format;  // result, sampled type, dim, depth, arrayed, ms, sampled, format
      return out;
    }
  }
  ADD_FAILURE() << "no OpTypeImage";
  return out;
}

TEST(SpirvReflectTest, UnsupportedTexelBufferFormatIsAnError) {
  auto info = ReflectComputeShader(WithImageFormat(Spirv("texel_read"), 6 /* Rg32f */), {});
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.status().message().find("unsupported texel buffer format"), std::string::npos)
      << info.status().ToString();
  EXPECT_NE(info.status().message().find("binding 0"), std::string::npos) << info.status().ToString();
  // The supported formats pass through the same path.
  auto r32ui = ReflectComputeShader(WithImageFormat(Spirv("texel_read"), 33), {});
  ASSERT_TRUE(r32ui.ok()) << r32ui.status().ToString();
  EXPECT_EQ(r32ui->bindings[0].format, VK_FORMAT_R32_UINT);
}

TEST(SpirvReflectTest, RejectsMalformedModules) {
  std::vector<uint32_t> garbage = {1, 2, 3, 4, 5, 6};
  EXPECT_FALSE(ReflectComputeShader(garbage, {}).ok());
  std::vector<uint32_t> truncated(Spirv("util/fill_u32").begin(), Spirv("util/fill_u32").end());
  truncated.resize(truncated.size() / 2);
  truncated.back() = 0xFFFF0000u;  // an instruction claiming 65535 words
  EXPECT_FALSE(ReflectComputeShader(truncated, {}).ok());
  EXPECT_FALSE(ReflectComputeShader({}, {}).ok());
}

}  // namespace
}  // namespace vkhlo::device
