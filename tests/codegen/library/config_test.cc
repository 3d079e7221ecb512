// Golden tests of the configuration choice for fake devices (no GPU needed): AMD, Intel,
// NVIDIA, Arm (mobile), Qualcomm, lavapipe and a minimal Vulkan 1.1 device, over the shapes the
// choice distinguishes. A change of tables or rules shows up here as a readable diff.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "codegen/glsl_compiler.h"
#include "codegen/library/library_kernel.h"
#include "codegen/library/matmul_variants.h"
#include "codegen/library/tile_config.h"

namespace vkhlo::codegen::library {
namespace {

TargetInfo Fake(std::string name, uint32_t vendor, TargetInfo::DeviceType type, uint32_t subgroup, uint32_t invocations,
                uint32_t shared, bool f64) {
  TargetInfo t;
  t.device_name = std::move(name);
  t.vendor_id = vendor;
  t.device_type = type;
  t.subgroup_size = subgroup;
  t.max_workgroup_invocations = invocations;
  t.max_workgroup_size = {invocations, invocations, 64};
  t.max_workgroup_count = {65535, 65535, 65535};
  t.max_shared_memory_bytes = shared;
  t.shader_float64 = f64;
  t.shader_int64 = true;
  t.shader_float16 = true;
  t.storage_buffer_16bit = true;
  t.max_storage_buffers_per_stage = 16;
  t.max_storage_buffer_range = 1ull << 31;
  return t;
}

std::vector<TargetInfo> Targets() {
  using D = TargetInfo::DeviceType;
  std::vector<TargetInfo> t = {
      Fake("amd", 0x1002, D::kDiscreteGpu, 64, 1024, 65536, true),
      Fake("intel", 0x8086, D::kIntegratedGpu, 16, 1024, 65536, false),
      Fake("nvidia", 0x10DE, D::kDiscreteGpu, 32, 1024, 49152, true),
      Fake("arm", 0x13B5, D::kIntegratedGpu, 16, 512, 32768, false),
      Fake("qualcomm", 0x5143, D::kIntegratedGpu, 64, 1024, 32768, false),
      Fake("lavapipe", 0x10005, D::kCpu, 8, 1024, 32768, true),
      Fake("minimal", 0x1234, D::kIntegratedGpu, 4, 128, 16384, false),
  };
  t[2].cooperative_matrix_shapes.push_back({16, 16, 16, 0, 0, 1, 1});
  t[6].max_workgroup_size = {128, 128, 64};
  // lavapipe: rgba32f storage texel buffers and subgroup shuffles (the packed kernel).
  t[5].storage_texel_buffer_rgba32f = true;
  t[5].max_texel_buffer_elements = 1ull << 27;
  t[5].subgroup_operations = 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x40;
  return t;
}

MatmulProblem Shape(int64_t b, int64_t m, int64_t n, int64_t k, ir::ElementType in = ir::ElementType::kF32) {
  MatmulProblem p;
  p.batch = b;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a_type = p.b_type = in;
  p.c_type = ir::ElementType::kF32;
  p.acc = AccKind::kF32;
  p.a.batch.parts = {{b, m * k}};
  p.a.rows.parts = {{m, k}};
  p.a.cols.parts = {{k, 1}};
  p.b.batch.parts = {{b, k * n}};
  p.b.rows.parts = {{k, n}};
  p.b.cols.parts = {{n, 1}};
  SetVectorRuns(p.a);
  SetVectorRuns(p.b);
  return p;
}

TEST(MatmulConfigTest, ChoiceGolden) {
  const std::vector<std::pair<std::string, MatmulProblem>> shapes = {
      {"sgemm 1024^3", Shape(1, 1024, 1024, 1024)},
      {"skinny 7x4096x1024", Shape(1, 7, 4096, 1024)},
      {"matvec 4096x4096", Shape(1, 4096, 1, 4096)},
      {"tiny out, long K 16x16x65536", Shape(1, 16, 16, 65536)},
      {"batched 256x64x64x64", Shape(256, 64, 64, 64)},
      {"f16 1024^3", Shape(1, 1024, 1024, 1024, ir::ElementType::kF16)},
  };
  std::string actual;
  for (const TargetInfo& t : Targets()) {
    actual += fmt::format("{} ({}):\n", t.device_name, DeviceClassName(ClassifyDevice(t)));
    for (const auto& [name, p] : shapes) {
      const MatmulChoice c = ChooseMatmulConfig(p, t);
      actual += fmt::format("  {}: {}\n", name, c.config.ToString());
    }
  }
  // The cooperative-matrix entry needs GL_KHR_cooperative_matrix in glslang (>= 13).
  const std::string nvidia_f16 = CompilerHasKhrCooperativeMatrix()
                                     ? "nvidia.coopmat_64x64 [coopmat wg 64x2 mma 16x16x16]"
                                     : "nvidia.shared_128x128 [shared wg 16x16 tile 8x8 bk 8]";
  const std::string expected = fmt::format(R"(amd (amd):
  sgemm 1024^3: amd.shared_128x128 [shared wg 16x16 tile 8x8 bk 8]
  skinny 7x4096x1024: amd.shared_128x128 [shared wg 32x8 tile 1x8 bk 8]
  matvec 4096x4096: amd.dot_per_output_64 [dot_per_output wg 64x1]
  tiny out, long K 16x16x65536: amd.shared_128x128 [shared wg 16x16 tile 1x1 bk 8 split_k 32]
  batched 256x64x64x64: amd.shared_128x128 [shared wg 16x16 tile 4x4 bk 8]
  f16 1024^3: amd.shared_128x128 [shared wg 16x16 tile 8x8 bk 8]
intel (intel):
  sgemm 1024^3: intel.shared_64x64 [shared wg 16x8 tile 4x8 bk 16]
  skinny 7x4096x1024: intel.shared_64x64 [shared wg 16x8 tile 1x8 bk 16]
  matvec 4096x4096: intel.dot_per_output_64 [dot_per_output wg 64x1]
  tiny out, long K 16x16x65536: intel.shared_64x64 [shared wg 16x8 tile 2x1 bk 16 split_k 32]
  batched 256x64x64x64: intel.shared_64x64 [shared wg 16x8 tile 4x4 bk 16]
  f16 1024^3: intel.shared_64x64 [shared wg 16x8 tile 4x8 bk 16]
nvidia (nvidia):
  sgemm 1024^3: nvidia.shared_128x128 [shared wg 16x16 tile 8x8 bk 8]
  skinny 7x4096x1024: nvidia.shared_128x128 [shared wg 32x8 tile 1x8 bk 8]
  matvec 4096x4096: nvidia.dot_per_output_128 [dot_per_output wg 128x1]
  tiny out, long K 16x16x65536: nvidia.shared_128x128 [shared wg 16x16 tile 1x1 bk 8 split_k 32]
  batched 256x64x64x64: nvidia.shared_128x128 [shared wg 16x16 tile 4x4 bk 8]
  f16 1024^3: {}
arm (arm):
  sgemm 1024^3: arm.shared_32x32 [shared wg 8x8 tile 4x4 bk 8]
  skinny 7x4096x1024: arm.shared_32x32 [shared wg 8x8 tile 1x4 bk 8]
  matvec 4096x4096: arm.dot_per_output_64 [dot_per_output wg 64x1]
  tiny out, long K 16x16x65536: arm.shared_32x32 [shared wg 8x8 tile 2x2 bk 8 split_k 32]
  batched 256x64x64x64: arm.shared_32x32 [shared wg 8x8 tile 4x4 bk 8]
  f16 1024^3: arm.shared_32x32 [shared wg 8x8 tile 4x4 bk 8]
qualcomm (qualcomm):
  sgemm 1024^3: qualcomm.shared_32x64 [shared wg 16x8 tile 4x4 bk 8]
  skinny 7x4096x1024: qualcomm.shared_32x64 [shared wg 16x8 tile 1x4 bk 8]
  matvec 4096x4096: qualcomm.dot_per_output_64 [dot_per_output wg 64x1]
  tiny out, long K 16x16x65536: qualcomm.shared_32x64 [shared wg 16x8 tile 2x1 bk 8 split_k 32]
  batched 256x64x64x64: qualcomm.shared_32x64 [shared wg 16x8 tile 4x4 bk 8]
  f16 1024^3: qualcomm.shared_32x64 [shared wg 16x8 tile 4x4 bk 8]
lavapipe (cpu):
  sgemm 1024^3: cpu.packed_8x32 [packed wg 8x1 tile 8x4 bk 8]
  skinny 7x4096x1024: cpu.regtile_rows_16x8 [regtile wg 16x1 tile 8x8 bk 8 vec 8 texel]
  matvec 4096x4096: cpu.regtile_8x1 [regtile wg 1x64 tile 8x1 bk 8 vec 8 lanes_m texel]
  tiny out, long K 16x16x65536: cpu.regtile_8x16 [regtile wg 2x8 tile 2x8 bk 8 vec 8 lanes_m texel split_k 16]
  batched 256x64x64x64: cpu.regtile_8x16 [regtile wg 8x8 tile 8x8 bk 8 vec 8 texel]
  f16 1024^3: cpu.packed_8x32 [packed wg 8x1 tile 8x4 bk 8]
minimal (generic):
  sgemm 1024^3: generic.shared_32x32 [shared wg 8x8 tile 4x4 bk 16]
  skinny 7x4096x1024: generic.shared_32x32 [shared wg 8x8 tile 1x4 bk 16]
  matvec 4096x4096: generic.dot_per_output_64 [dot_per_output wg 64x1]
  tiny out, long K 16x16x65536: generic.shared_32x32 [shared wg 8x8 tile 2x2 bk 16 split_k 32]
  batched 256x64x64x64: generic.shared_32x32 [shared wg 8x8 tile 4x4 bk 16]
  f16 1024^3: generic.shared_32x32 [shared wg 8x8 tile 4x4 bk 16]
)",
                                           nvidia_f16);
  EXPECT_EQ(actual, expected);
}

// Every table entry that fits a device compiles to valid SPIR-V there (glslang, spirv-val
// before and after spirv-opt), for f32 and, where the device has it, f64; the cooperative-matrix
// kernel in the spelling this glslang knows.
TEST(MatmulConfigTest, EveryConfigCompiles) {
  GlslCompiler compiler("");
  for (const TargetInfo& t : Targets()) {
    for (const TileConfig& c : ConfigTable(ClassifyDevice(t))) {
      const bool coop = c.variant == MatmulVariant::kCooperativeMatrix;
      const int64_t n = coop ? 48 : 40;
      MatmulProblem p = Shape(2, 48, n, 64, coop ? ir::ElementType::kF16 : ir::ElementType::kF32);
      p.what = "test";
      p.result_dims = {2, 48, n};
      p.c_batch.parts = {{2, 48 * n}};
      p.c_rows.parts = {{48, n}};
      p.c_cols.parts = {{n, 1}};
      TargetInfo target = t;
      // Each packed kernel is written for one subgroup size: compile them all.
      if (c.variant == MatmulVariant::kPacked) target.subgroup_size = c.wg_x;
      if (c.variant == MatmulVariant::kCooperativeMatrix) {
        // Compile it even where ConfigFits would drop it for the compiler (glslang 12).
        auto d = EmitCooperativeMatrix(p, {}, target, c, "coop");
        ASSERT_TRUE(d.ok()) << d.status().ToString();
        auto spirv = compiler.Compile(d->glsl, {.name = c.name});
        EXPECT_TRUE(spirv.ok()) << c.name << ": " << spirv.status().ToString();
        continue;
      }
      if (!ConfigFits(c, p.acc, target)) continue;
      auto plan = PlanMatmul(p, target, {}, {.force_config = c.name});
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      Status s = CompilePlan(*plan, compiler, target);
      EXPECT_TRUE(s.ok()) << t.device_name << " " << c.name << ": " << s.ToString();
    }
  }
}

// The packed kernel's panels (and the whole-buffer views the runtime binds, rounded up to the
// allocator's alignment) must fit maxTexelBufferElements; past it the register-tiled kernel runs.
TEST(MatmulConfigTest, PackedPanelsWithinTexelLimit) {
  TargetInfo t = Targets()[5];  // lavapipe
  MatmulProblem p = Shape(1, 256, 256, 256);
  p.what = "test";
  const TileConfig* packed = nullptr;
  for (const TileConfig& c : ConfigTable(DeviceClass::kCpu)) {
    if (c.name == "cpu.packed_8x32") packed = &c;
  }
  ASSERT_NE(packed, nullptr);
  const PackedShape s = PackedShapeOf(p, *packed);
  EXPECT_EQ(s.a_texels, 64u * 256u);  // 64 groups of 4 rows x 256 k
  EXPECT_EQ(s.b_texels, 8u * 256u * 8u);  // 8 panels of 32 columns x 256 k x 8 lanes
  t.max_texel_buffer_elements = s.a_texels + 16;
  EXPECT_TRUE(PackedApplies(p, *packed, t, nullptr));
  EXPECT_EQ(ChooseMatmulConfig(p, t).config.name, "cpu.packed_8x32");
  t.max_texel_buffer_elements = s.a_texels + 15;
  std::string why;
  EXPECT_FALSE(PackedApplies(p, *packed, t, &why));
  EXPECT_NE(why.find("maxTexelBufferElements"), std::string::npos) << why;
  EXPECT_EQ(ChooseMatmulConfig(p, t).config.variant, MatmulVariant::kRegisterTiled);
}

TEST(MatmulConfigTest, F64OnADeviceWithoutIt) {
  TargetInfo t = Targets()[3];  // arm: no shaderFloat64
  MatmulProblem p = Shape(1, 8, 8, 8);
  p.what = "stablehlo.dot_general at 1:2";
  p.a_type = p.b_type = p.c_type = ir::ElementType::kF64;
  p.acc = AccKind::kF64;
  auto plan = PlanMatmul(p, t);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(), "stablehlo.dot_general at 1:2 needs shaderFloat64, which arm lacks (profile native)");
}

}  // namespace
}  // namespace vkhlo::codegen::library
