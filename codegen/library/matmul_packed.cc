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
  // Scratch buffers are bound whole: their size rounded up to the allocator's alignment (at
  // most 256 bytes, 16 texels more).
  if (std::max(s.a_texels, s.b_texels) + 16 > t.max_texel_buffer_elements) {
    return no(fmt::format("panels of {} texels exceed maxTexelBufferElements {}", std::max(s.a_texels, s.b_texels),
                          t.max_texel_buffer_elements));
  }
  if (std::max(s.a_texels, s.b_texels) * 16 > t.max_storage_buffer_range) {
    return no("panels exceed maxStorageBufferRange");
  }
  // Panels split across allocations could not be read as texel views (split_piece_bytes).
  if (t.split_piece_bytes != 0 && std::max(s.a_texels, s.b_texels) * 16 + 256 > t.split_piece_bytes) {
    return no("panels exceed the largest allocation");
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

bool PackedDirectB(const MatmulProblem& p, const TileConfig& c, const TargetInfo& t) {
  const uint64_t elements = static_cast<uint64_t>(p.batch * p.k * p.n);
  return p.b_type == ir::ElementType::kF32 && p.b.affine && p.b.col_run >= 4 && p.n >= 4 && p.k % c.wg_x == 0 &&
         elements + 64 <= t.max_texel_buffer_elements && elements * 4 <= t.max_storage_buffer_range &&
         (t.split_piece_bytes == 0 || elements * 4 + 256 <= t.split_piece_bytes);
}

StatusOr<LibraryDispatch> EmitPackOperand(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t,
                                          const TileConfig& c, char x, const std::string& name) {
  const PackedShape s = PackedShapeOf(p, c);
  const bool is_a = x == 'a';
  const OperandAccess& access = is_a ? p.a : p.b;
  const ir::ElementType type = is_a ? p.a_type : p.b_type;
  const uint64_t elements = static_cast<uint64_t>(p.batch * p.k * (is_a ? p.m : p.n));
  // The runtime binds the operand's whole buffer, its size rounded up to the allocator's
  // alignment (at most 256 bytes: 64 more r32f texels), and the view must fit the limit.
  const bool texels = type == ir::ElementType::kF32 && access.affine && elements + 64 <= t.max_texel_buffer_elements &&
                      (t.split_piece_bytes == 0 || elements * 4 + 256 <= t.split_piece_bytes);
  // A panel texel holds 4 consecutive rows of A (4 columns of B) at one k. Where the operand
  // stores them contiguously and aligned (a vector run of 4 along that axis) a panel texel is
  // one texel of the operand; where 4 consecutive k are contiguous instead, 4x4 blocks are
  // transposed; otherwise elements are read one by one.
  const int along_panel = is_a ? access.row_run : access.col_run;
  const int along_k = is_a ? access.col_run : access.row_run;
  enum class Mode { kElements, kCopy, kTranspose };
  const Mode mode = !texels ? Mode::kElements : along_panel >= 4 ? Mode::kCopy : along_k >= 4 ? Mode::kTranspose
                                                                                              : Mode::kElements;
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclarePack(x, mode == Mode::kElements ? (texels ? "r32f" : nullptr) : "rgba32f"));
  // The operand element (b, r, c) for a panel position: row/col order differs for A and B.
  auto at = [&](const std::string& panel_index, const std::string& k) {
    return is_a ? fmt::format("b, {}, {}", panel_index, k) : fmt::format("b, {}, {}", k, panel_index);
  };
  const char* lim = is_a ? "M" : "N";
  // Lanes run along k for A (the columns of a row-major A), along the panel's texels for B
  // (the columns of a row-major B); elements past M, N or K are zero (the product reads whole
  // panels). `o` is the panel texel of (r0 .. r0 + 3, k), `kq` the k-steps one invocation owns.
  const uint32_t kq = mode == Mode::kTranspose ? 4 : 1;
  const int64_t k_items = s.kp / kq;
  std::string body;
  constexpr uint32_t kGroup = 64;
  uint32_t grid_x = 0;
  if (is_a) {
    body += fmt::format("  uint kk = wg.x * {}u + gl_LocalInvocationID.x;\n  if (kk >= {}u) return;\n", kGroup, k_items);
    body += fmt::format("  uint k = kk * {}u, b = wg.z, r0 = wg.y * 4u;\n", kq);
    body += fmt::format("  int o = int((b * {}u + wg.y) * {}u + k);\n  const int step = 1;\n", s.row_groups, s.kp);
    grid_x = static_cast<uint32_t>((k_items + kGroup - 1) / kGroup);
  } else {
    body += fmt::format("  uint i = wg.x * {}u + gl_LocalInvocationID.x;\n  if (i >= {}u) return;\n", kGroup,
                        k_items * s.lanes);
    body += fmt::format("  uint k = (i / {0}u) * {1}u, l = i % {0}u, b = wg.z;\n", s.lanes, kq);
    body += fmt::format("  int o = int(((b * {}u + wg.y) * {}u + k) * {}u + l);\n  const int step = {};\n", s.panels,
                        s.kp, s.lanes, s.lanes);
    body += fmt::format("  uint r0 = (wg.y * {}u + l) * 4u;\n", s.lanes);
    grid_x = static_cast<uint32_t>((k_items * s.lanes + kGroup - 1) / kGroup);
  }
  switch (mode) {
    case Mode::kElements:
      body += "  vec4 v = vec4(0.0);\n";
      for (int q = 0; q < 4; ++q) {
        body += fmt::format("  {{ float e = load_{}({}); v.{} = r0 + {}u < {} && k < K ? e : 0.0; }}\n", x,
                            at(fmt::format("min(r0 + {}u, {} - 1u)", q, lim), "min(k, K - 1u)"), "xyzw"[q], q, lim);
      }
      body += "  pk_buf[o] = v;\n";
      break;
    case Mode::kCopy:
      // The texel's rows past M (columns past N) belong to the next row group of the operand
      // (its run is aligned, so the texel exists): zero them.
      body += fmt::format("  vec4 v = k < K ? imageLoad({}_img, int(ix_{}({}) / 4u)) : vec4(0.0);\n", x, x,
                          at(fmt::format("min(r0, {} - 1u)", lim), "min(k, K - 1u)"));
      for (int q = 1; q < 4; ++q) body += fmt::format("  if (r0 + {}u >= {}) v.{} = 0.0;\n", q, lim, "xyzw"[q]);
      body += fmt::format("  if (r0 >= {}) v = vec4(0.0);\n  pk_buf[o] = v;\n", lim);
      break;
    case Mode::kTranspose:
      // Four texels along k (one per panel row/column), written back as four panel texels.
      for (int q = 0; q < 4; ++q) {
        body += fmt::format("  vec4 t{} = r0 + {}u < {} && k < K ? imageLoad({}_img, int(ix_{}({}) / 4u)) : vec4(0.0);\n", q,
                            q, lim, x, x, at(fmt::format("min(r0 + {}u, {} - 1u)", q, lim), "min(k, K - 4u)"));
      }
      for (int j = 0; j < 4; ++j) {
        const char c = "xyzw"[j];
        body += fmt::format("  pk_buf[o + {0} * step] = vec4(t0.{1}, t1.{1}, t2.{1}, t3.{1});\n", j, c);
      }
      break;
  }
  LibraryDispatch d;
  d.grid = {grid_x, static_cast<uint32_t>(is_a ? s.row_groups : s.panels), static_cast<uint32_t>(p.batch)};
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
  VKHLO_RETURN_IF_ERROR(w.DeclarePackedMatmul(c.direct_b));
  w.prelude().Extension("GL_KHR_shader_subgroup_basic");
  w.prelude().Extension("GL_KHR_shader_subgroup_shuffle");
  std::string body;
  body += "  uint l = gl_SubgroupInvocationID;\n  uint b = wg.z;\n";
  body += fmt::format("  uint m0 = wg.x * {}u;\n  uint n0 = (wg.y * {}u + l) * 4u;\n", tm, lanes);
  body += fmt::format("  int ab = int((b * {}u + wg.x * {}u) * {}u + l);\n", s.row_groups, groups, s.kp);
  // B's texel of (k, n0): a panel texel at ((b * NP + p) * KP + k) * L + l, or with direct_b the
  // texel of B itself (columns past N read a valid texel of row k; they are never stored).
  std::string b_texel;
  if (c.direct_b) {
    body += fmt::format("  uint nb = min(n0, N - 4u);\n  int bb = int(ix_b(b, 0u, nb) / 4u);\n");
    body += fmt::format("  const int b_step = int(ix_b(b, 1u, nb) - ix_b(b, 0u, nb)) / 4;\n");
    b_texel = "bb + (k + {}) * b_step";
  } else {
    body += fmt::format("  int bb = int(((b * {}u + wg.y) * {}u) * {}u + l);\n", s.panels, s.kp, lanes);
    b_texel = "bb + (k + {}) * " + std::to_string(lanes);
  }
  for (uint32_t i = 0; i < tm; ++i) body += fmt::format("  vec4 c{} = vec4(0.0);\n", i);
  body += fmt::format("  for (int k = 0; k < {}; k += {}) {{\n", s.kp, lanes);
  for (uint32_t g = 0; g < groups; ++g) {
    body += fmt::format("    vec4 a{} = imageLoad(pa, ab + {} + k);\n", g, static_cast<int64_t>(g) * s.kp);
  }
  // Separate multiply and add: llvmpipe emits fma() through a slower path (measured 1.3x).
  for (uint32_t kk = 0; kk < lanes; ++kk) {
    body += "    {\n      vec4 bv = imageLoad(pb, " + fmt::format(fmt::runtime(b_texel), kk) + ");\n";
    for (uint32_t i = 0; i < tm; ++i) {
      body += fmt::format("      c{} += subgroupShuffle(a{}.{}, {}u) * bv;\n", i, i / 4, "xyzw"[i % 4], kk);
    }
    body += "    }\n";
  }
  body += "  }\n";
  const bool vector_result = w.DeclareVectorResult();
  std::vector<KernelWriter::TileElement> tile;
  for (uint32_t i = 0; i < tm; ++i) {
    if (vector_result) {  // N is a multiple of 4: the lane's 4 columns are all in or all out
      body += fmt::format("  if (m0 + {0}u < M && n0 < N) store_c4(b, m0 + {0}u, n0, c{0});\n", i);
      continue;
    }
    for (int q = 0; q < 4; ++q) {
      const std::string m = fmt::format("m0 + {}u", i), n = fmt::format("n0 + {}u", q);
      tile.push_back({fmt::format("c{}.{}", i, "xyzw"[q]), "b", m, n, fmt::format("{} < M && {} < N", m, n)});
    }
  }
  body += w.StoreTile(tile);
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
