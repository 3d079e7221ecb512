// Kernel configurations for the matmul family, per device class, in one place (DESIGN.md:
// "named configs, a generic default plus small per-vendor tables, filtered by the device").
//
// Measured on this project's CI device (lavapipe, llvmpipe 256-bit, Mesa 22.3): a load whose address
// differs between invocations costs about as much as 20 vector FMAs there (llvmpipe loops over
// the SIMD lanes), and shared memory and subgroup broadcasts cost the same, while a 32-byte
// u64vec4 load costs under twice a 4-byte one. The 1024^3 register-tiled kernel with its loads
// hoisted out of the K loop runs 10-15x faster than with them: the lane-by-lane loads are the
// whole cost, bounds checks and index math are not. llvmpipe makes SIMD lanes of local x only
// (local y is a scalar loop), so lanes must run along a long axis (TileConfig::lanes_m). Loads
// that avoid the lane loop: `imageLoad` of rgba32f / r32f texel buffers (straight-line vector
// code) and subgroupShuffle with a constant lane (one permute). So the CPU table leads with the
// packed kernel (operands copied into panels read as texel buffers, matmul_packed.cc), and keeps
// register tiles with no shared memory and 8-element vector loads for shapes it does not take
// (matrix-vector, small products, implicit convolution operands, non-float types); GPUs get
// shared-memory tiles. The choice is
// golden-tested for fake AMD, Intel, NVIDIA, Arm, Qualcomm and lavapipe targets
// (tests/codegen/library/config_test.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/library/matmul_problem.h"
#include "codegen/target.h"

namespace vkhlo::codegen::library {

enum class DeviceClass { kGeneric, kAmd, kIntel, kNvidia, kArm, kQualcomm, kCpu };
std::string_view DeviceClassName(DeviceClass c);
DeviceClass ClassifyDevice(const TargetInfo& target);

enum class MatmulVariant {
  kRegisterTiled,      // no shared memory; per-invocation TM x TN tile; vector loads (CPUs)
  kSharedTiled,        // BM x BN x BK tiles staged in shared memory (GPUs)
  kCooperativeMatrix,  // VK_KHR_cooperative_matrix tiles per subgroup
  kDotPerOutput,       // one output per workgroup, K split over its invocations (matrix-vector)
  kPacked,             // operands packed into panels read as texel buffers (CPU drivers)
};
std::string_view VariantName(MatmulVariant v);

struct TileConfig {
  std::string name;  // "cpu.regtile_8x16"
  MatmulVariant variant = MatmulVariant::kRegisterTiled;
  uint32_t wg_x = 8, wg_y = 8;  // invocations per workgroup (x along N, y along M)
  uint32_t tm = 4, tn = 4;      // outputs per invocation
  uint32_t bk = 8;              // K per shared-memory stage; K unroll of the register-tiled loop
  uint32_t vec = 8;             // widest vector load in elements (register-tiled; 1 = scalar)
  uint32_t split_k = 1;         // K slices summed by a second pass (1 = none)
  uint32_t coop_m = 0, coop_n = 0, coop_k = 0;  // the cooperative-matrix shape
  // Register-tiled only: local x runs along M (wg_y invocations) and local y along N. CPU
  // drivers vectorize over local x only, so a matrix-vector product (N = 1) needs its lanes on M.
  bool lanes_m = false;
  // Register-tiled only: vector loads of f32 operands read rgba32f storage texel buffers
  // (KernelWriter::DeclareTexelView) where the device offers them. CPU drivers: llvmpipe
  // gathers a texel per lane in straight-line code, where a storage-buffer load whose address
  // differs between lanes is a loop over the lanes.
  bool texel_loads = false;
  // Packed only: the product reads B through an rgba32f texel view of B itself instead of
  // packed panels (PackedDirectB: row-major f32 B, 4-aligned columns, K a multiple of the lanes),
  // so B is not copied. For few row tiles, where the copy cost more than its panels saved.
  bool direct_b = false;

  uint32_t invocations() const { return wg_x * wg_y; }
  uint32_t bm() const { return wg_y * tm; }
  uint32_t bn() const { return wg_x * tn; }
  std::string ToString() const;  // "cpu.regtile_8x16 [regtile wg 8x8 tile 8x16 bk 8 vec 8]"
};

// The configurations of a device class (unfiltered), main tiles first.
const std::vector<TileConfig>& ConfigTable(DeviceClass c);

// Whether `config` fits `target` for accumulators of `acc` (workgroup size, invocations, shared
// memory, subgroup size, 64-bit loads, cooperative-matrix shapes). `why` gets the reason when not.
bool ConfigFits(const TileConfig& config, AccKind acc, const TargetInfo& target, std::string* why = nullptr);

struct MatmulChoice {
  TileConfig config;
  std::string reason;  // one line: why this one ("skinny M=3: tm 1", "split-K 8: M*N=64, K=65536")
};

// The configuration for `problem` on `target`: the device class's table filtered by the
// device, then adapted to the shape: matrix-vector and tiny outputs with long K get the
// dot-per-output kernel (or split-K), skinny shapes smaller tiles, small batches tiles that fit.
MatmulChoice ChooseMatmulConfig(const MatmulProblem& problem, const TargetInfo& target);

// Column groups (MatmulProblem::grouped): the columns of each group a tile holds, before the
// problem is grouped: on CPU drivers 4 (one texel per group and k) when the width allows and
// the tile stays within 16 columns, else 2 or 1; elsewhere 1. 0: too many groups for a tile.
int64_t GroupedColumnsPerBlock(int64_t groups, int64_t width, const TargetInfo& target);

// Whether this build's GLSL compiler can emit GL_KHR_cooperative_matrix (glslang >= 13).
bool CompilerHasKhrCooperativeMatrix();

}  // namespace vkhlo::codegen::library
