// The packed matmul for CPU drivers: two pack dispatches copy A and B into panels, and the
// product reads the panels as rgba32f storage texel buffers.
//
// Why (measured on lavapipe, Mesa 22.3, AVX-512 host, 1024^3 f32): llvmpipe turns a storage-buffer
// load whose address is not a compile-time constant into a loop over the SIMD lanes with a branch
// per lane, inside any loop; `imageLoad` of an rgba32f texel buffer is straight-line vector code
// (eight 16-byte loads and a transpose). Panels make every load of the K loop contiguous: rows of
// B 4 KiB apart thrash the caches by set aliasing. A probe of this kernel ran at 34 GFLOP/s where
// the register-tiled storage-buffer kernel ran at 8.
//
// Layouts (f32, zero padded; L = lanes = the subgroup size, one subgroup per workgroup):
//   A panel texel (b, g, k)  = rows 4g..4g+3 of A at column k, texel index (b * MG + g) * KP + k
//   B panel texel (b, p, k, l) = B[k][4 * (L * p + l) + 0..3], index ((b * NP + p) * KP + k) * L + l
// where MG = ceil(M / TM) * TM / 4, NP = ceil(N / 4L), KP = ceil(K / L) * L.
//
// Product: workgroup (x: TM rows, y: one B panel of 4L columns, z: batch); lane l owns columns
// 4(L*p + l) + 0..3 for TM rows. Per L values of k, lane l reads the A texel at k + l (so the
// subgroup holds an L x 4 block of A per row group) and, per k, one B texel; the A value of row
// i at k + kk reaches every lane by subgroupShuffle(a, kk), which llvmpipe emits as one vector
// permute for a constant index.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/library/kernel_writer.h"
#include "codegen/library/matmul_variants.h"

namespace vkhlo::codegen::library {
namespace {

constexpr uint32_t kSubgroupShuffleBit = 0x10;  // VK_SUBGROUP_FEATURE_SHUFFLE_BIT

int64_t RoundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

bool FloatInput(ir::ElementType t) {
  return t == ir::ElementType::kF32 || t == ir::ElementType::kF16 || t == ir::ElementType::kBF16;
}

}  // namespace

PackedShape PackedShapeOf(const MatmulProblem& p, const TileConfig& c) {
  PackedShape s;
  s.lanes = c.wg_x;
  s.tm = c.tm;
  s.row_groups = RoundUp(p.m, c.tm) / 4;
  s.panels = (p.n + 4 * s.lanes - 1) / (4 * s.lanes);
  s.kp = RoundUp(p.k, s.lanes);
  s.a_texels = static_cast<uint64_t>(p.batch * s.row_groups * s.kp);
  s.b_texels = static_cast<uint64_t>(p.batch * s.panels * s.kp * s.lanes);
  return s;
}

bool PackedApplies(const MatmulProblem& p, const TileConfig& c, const TargetInfo& t, std::string* why) {
  auto no = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  };
  if (p.acc != AccKind::kF32 || !FloatInput(p.a_type) || !FloatInput(p.b_type)) {
    return no("needs f32/f16/bf16 operands with f32 accumulation");
  }
  // Convolutions read A through an implicit (im2col) index: packing it would materialize im2col.
  if (!p.a.affine || !p.b.affine) return no("an operand is read through an implicit index");
  const PackedShape s = PackedShapeOf(p, c);
  if (std::max(s.a_texels, s.b_texels) > t.max_texel_buffer_elements) {
    return no(fmt::format("panels of {} texels exceed maxTexelBufferElements {}", std::max(s.a_texels, s.b_texels),
                          t.max_texel_buffer_elements));
  }
  if (std::max(s.a_texels, s.b_texels) * 16 > t.max_storage_buffer_range) {
    return no("panels exceed maxStorageBufferRange");
  }
  return true;
}

bool PackedFits(const TileConfig& c, const TargetInfo& t, std::string* why) {
  auto no = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  };
  if (!t.storage_texel_buffer_rgba32f) return no("no rgba32f storage texel buffers");
  if ((t.subgroup_operations & kSubgroupShuffleBit) == 0) return no("no subgroup shuffles");
  if (t.subgroup_size != c.wg_x) return no(fmt::format("subgroup size {} is not {}", t.subgroup_size, c.wg_x));
  if (c.tm % 4 != 0) return no("rows per invocation must be a multiple of 4");
  return true;
}

StatusOr<LibraryDispatch> EmitPackOperand(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                          const TileConfig& c, char x, const std::string& name) {
  const PackedShape s = PackedShapeOf(p, c);
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclarePack(x));
  // One invocation per texel (4 floats): lanes along k for A (consecutive columns of a row-major
  // A), along the texel's columns for B.
  std::string body;
  LibraryDispatch d;
  constexpr uint32_t kGroup = 64;
  if (x == 'a') {
    // grid: x over KP, y over row groups, z over the batch.
    body += fmt::format("  uint k = wg.x * {}u + gl_LocalInvocationID.x;\n  if (k >= {}u) return;\n", kGroup, s.kp);
    body += "  uint g = wg.y, b = wg.z;\n";
    body += fmt::format("  uint o = ((b * {}u + g) * {}u + k) * 4u;\n", s.row_groups, s.kp);
    for (int r = 0; r < 4; ++r) {
      body += fmt::format("  {{ uint m = g * 4u + {}u; float v = load_a(b, min(m, M - 1u), min(k, K - 1u)); pk_buf[o + {}u] = floatBitsToUint(m < M && k < K ? v : 0.0); }}\n",
                          r, r);
    }
    d.grid = {static_cast<uint32_t>((s.kp + kGroup - 1) / kGroup), static_cast<uint32_t>(s.row_groups),
              static_cast<uint32_t>(p.batch)};
  } else {
    // grid: x over the L texels of a panel row times KP, y over panels, z over the batch.
    body += fmt::format("  uint i = wg.x * {}u + gl_LocalInvocationID.x;\n  if (i >= {}u) return;\n", kGroup,
                        s.kp * s.lanes);
    body += fmt::format("  uint k = i / {0}u, l = i % {0}u, panel = wg.y, b = wg.z;\n", s.lanes);
    body += fmt::format("  uint o = (((b * {}u + panel) * {}u + k) * {}u + l) * 4u;\n", s.panels, s.kp, s.lanes);
    for (int q = 0; q < 4; ++q) {
      body += fmt::format(
          "  {{ uint n = (panel * {}u + l) * 4u + {}u; float v = load_b(b, min(k, K - 1u), min(n, N - 1u)); pk_buf[o + {}u] = floatBitsToUint(n < N && k < K ? v : 0.0); }}\n",
          s.lanes, q, q);
    }
    d.grid = {static_cast<uint32_t>((s.kp * s.lanes + kGroup - 1) / kGroup), static_cast<uint32_t>(s.panels),
              static_cast<uint32_t>(p.batch)};
  }
  d.name = fmt::format("{}.pack_{}", name, x);
  d.glsl = w.Assemble(kGroup, 1, 1, body);
  d.workgroup_size = {kGroup, 1, 1};
  d.bindings = w.bindings();
  return d;
}

StatusOr<LibraryDispatch> EmitPackedProduct(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                            const TileConfig& c, const std::string& name) {
  const PackedShape s = PackedShapeOf(p, c);
  const uint32_t lanes = s.lanes, tm = s.tm, groups = tm / 4;
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclarePackedMatmul());
  w.prelude().Extension("GL_KHR_shader_subgroup_basic");
  w.prelude().Extension("GL_KHR_shader_subgroup_shuffle");
  std::string body;
  body += "  uint l = gl_SubgroupInvocationID;\n  uint b = wg.z;\n";
  body += fmt::format("  uint m0 = wg.x * {}u;\n  uint n0 = (wg.y * {}u + l) * 4u;\n", tm, lanes);
  body += fmt::format("  int ab = int((b * {}u + wg.x * {}u) * {}u + l);\n", s.row_groups, groups, s.kp);
  body += fmt::format("  int bb = int(((b * {}u + wg.y) * {}u) * {}u + l);\n", s.panels, s.kp, lanes);
  for (uint32_t i = 0; i < tm; ++i) body += fmt::format("  vec4 c{} = vec4(0.0);\n", i);
  body += fmt::format("  for (int k = 0; k < {}; k += {}) {{\n", s.kp, lanes);
  for (uint32_t g = 0; g < groups; ++g) {
    body += fmt::format("    vec4 a{} = imageLoad(pa, ab + {} + k);\n", g, static_cast<int64_t>(g) * s.kp);
  }
  // Separate multiply and add: llvmpipe emits fma() through a slower path (measured 1.3x).
  for (uint32_t kk = 0; kk < lanes; ++kk) {
    body += fmt::format("    {{\n      vec4 bv = imageLoad(pb, bb + (k + {}) * {});\n", kk, lanes);
    for (uint32_t i = 0; i < tm; ++i) {
      body += fmt::format("      c{} += subgroupShuffle(a{}.{}, {}u) * bv;\n", i, i / 4, "xyzw"[i % 4], kk);
    }
    body += "    }\n";
  }
  body += "  }\n";
  for (uint32_t i = 0; i < tm; ++i) {
    for (int q = 0; q < 4; ++q) {
      body += fmt::format("  if (m0 + {0}u < M && n0 + {1}u < N) store_c(b, m0 + {0}u, n0 + {1}u, c{0}.{2});\n", i, q,
                          "xyzw"[q]);
    }
  }
  LibraryDispatch d;
  d.name = name + ".packed";
  d.glsl = w.Assemble(lanes, 1, 1, body);
  d.workgroup_size = {lanes, 1, 1};
  d.grid = {static_cast<uint32_t>(s.row_groups * 4 / tm), static_cast<uint32_t>(s.panels),
            static_cast<uint32_t>(p.batch)};
  d.bindings = w.bindings();
  return d;
}

}  // namespace vkhlo::codegen::library
