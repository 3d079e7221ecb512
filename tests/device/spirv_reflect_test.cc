#include "device/spirv_reflect.h"

#include <gtest/gtest.h>

#include "device/pipeline.h"
#include "embedded_shaders.h"

namespace vkhlo::device {
namespace {

std::span<const uint32_t> Spirv(std::string_view name) {
  const shaders::EmbeddedShader* shader = shaders::FindShader(name);
  EXPECT_NE(shader, nullptr) << name;
  return shader ? shader->spirv : std::span<const uint32_t>();
}

TEST(SpirvReflectTest, EveryEmbeddedShaderReflects) {
  ASSERT_FALSE(shaders::AllShaders().empty());
  for (const shaders::EmbeddedShader& shader : shaders::AllShaders()) {
    auto info = ReflectComputeShader(shader.spirv, {});
    EXPECT_TRUE(info.ok()) << shader.name << ": " << info.status().ToString();
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

TEST(SpirvReflectTest, PushConstantsBindingsAndSharedMemory) {
  auto fill = ReflectComputeShader(Spirv("util/fill_u32"), {});
  ASSERT_TRUE(fill.ok());
  EXPECT_EQ(fill->push_constant_bytes, 40u);  // uvec4 base, uvec4 groups, uint count, uint value
  ASSERT_EQ(fill->bindings.size(), 1u);
  EXPECT_EQ(fill->bindings[0].binding, 0u);
  EXPECT_TRUE(fill->bindings[0].storage_buffer);
  EXPECT_EQ(fill->shared_memory_bytes, 0u);
  EXPECT_EQ(fill->entry_point, "main");

  SpecializationValue words = SpecUint(0, 3000);
  auto shared = ReflectComputeShader(Spirv("test/shared_memory_probe"), {&words, 1});
  ASSERT_TRUE(shared.ok());
  EXPECT_EQ(shared->shared_memory_bytes, 12000u);
  EXPECT_EQ(shared->workgroup_size[0], 64u);
}

TEST(SpirvReflectTest, AliasedViewsAreOneBinding) {
  auto info = ReflectComputeShader(Spirv("test/aliased_views"), {});
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  ASSERT_EQ(info->bindings.size(), 2u);
  EXPECT_EQ(info->bindings[0].binding, 0u);
  EXPECT_EQ(info->bindings[1].binding, 1u);
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
