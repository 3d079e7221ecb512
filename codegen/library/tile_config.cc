#include "codegen/library/tile_config.h"

#include <fmt/format.h>
#include <glslang/build_info.h>

#include <algorithm>

#include "codegen/library/matmul_variants.h"

namespace vkhlo::codegen::library {
namespace {

// The packed kernel reads B in place (TileConfig::direct_b) for at most this many row tiles.
constexpr int64_t kMaxRowTilesReadingBInPlace = 8;

using V = MatmulVariant;

TileConfig Reg(std::string name, uint32_t wx, uint32_t wy, uint32_t tm, uint32_t tn, uint32_t bk, uint32_t vec) {
  return {std::move(name), V::kRegisterTiled, wx, wy, tm, tn, bk, vec};
}
// The CPU table's register tiles: vector loads through texel buffers (tile_config.h).
TileConfig RegCpu(std::string name, uint32_t wx, uint32_t wy, uint32_t tm, uint32_t tn, uint32_t bk, uint32_t vec) {
  TileConfig c = Reg(std::move(name), wx, wy, tm, tn, bk, vec);
  c.texel_loads = true;
  return c;
}
TileConfig RegLanesM(std::string name, uint32_t wx, uint32_t wy, uint32_t tm, uint32_t tn, uint32_t bk, uint32_t vec) {
  TileConfig c = Reg(std::move(name), wx, wy, tm, tn, bk, vec);
  c.lanes_m = true;
  c.texel_loads = true;
  return c;
}
TileConfig Shared(std::string name, uint32_t wx, uint32_t wy, uint32_t tm, uint32_t tn, uint32_t bk) {
  return {std::move(name), V::kSharedTiled, wx, wy, tm, tn, bk, 1};
}
TileConfig PerOutput(std::string name, uint32_t threads) {
  return {std::move(name), V::kDotPerOutput, threads, 1, 1, 1, 1, 1};
}
// lanes: the subgroup size the kernel is written for (one subgroup per workgroup, 4 columns
// per lane); tm: rows per invocation.
TileConfig Packed(std::string name, uint32_t lanes, uint32_t tm) {
  return {std::move(name), V::kPacked, lanes, 1, tm, 4, lanes, 4};
}
TileConfig Coop(std::string name, uint32_t subgroups_x, uint32_t subgroups_y, uint32_t m, uint32_t n, uint32_t k,
                uint32_t subgroup) {
  TileConfig c{std::move(name), V::kCooperativeMatrix, subgroup * subgroups_x, subgroups_y, 1, 1, k, 1};
  c.coop_m = m;
  c.coop_n = n;
  c.coop_k = k;
  return c;
}

uint32_t SharedBytes(const TileConfig& c, AccKind acc) {
  const uint32_t bytes = acc == AccKind::kF32 || acc == AccKind::kI32 || acc == AccKind::kBool ? 4
                         : acc == AccKind::kC128                                              ? 16
                                                                                              : 8;
  switch (c.variant) {
    case V::kSharedTiled: return (c.bm() + c.bn()) * c.bk * bytes;
    case V::kDotPerOutput: return c.wg_x * bytes;
    case V::kCooperativeMatrix: return 0;
    case V::kRegisterTiled: return 0;
    case V::kPacked: return 0;
  }
  return 0;
}

uint32_t NextPow2(int64_t v) {
  uint32_t p = 1;
  while (p < v && p < (1u << 30)) p *= 2;
  return p;
}

}  // namespace

std::string_view DeviceClassName(DeviceClass c) {
  switch (c) {
    case DeviceClass::kGeneric: return "generic";
    case DeviceClass::kAmd: return "amd";
    case DeviceClass::kIntel: return "intel";
    case DeviceClass::kNvidia: return "nvidia";
    case DeviceClass::kArm: return "arm";
    case DeviceClass::kQualcomm: return "qualcomm";
    case DeviceClass::kCpu: return "cpu";
  }
  return "?";
}

DeviceClass ClassifyDevice(const TargetInfo& t) {
  if (t.device_type == TargetInfo::DeviceType::kCpu) return DeviceClass::kCpu;
  switch (t.vendor_id) {
    case 0x1002: return DeviceClass::kAmd;
    case 0x10DE: return DeviceClass::kNvidia;
    case 0x8086: return DeviceClass::kIntel;
    case 0x13B5: return DeviceClass::kArm;
    case 0x5143: return DeviceClass::kQualcomm;
    default: return DeviceClass::kGeneric;
  }
}

std::string_view VariantName(MatmulVariant v) {
  switch (v) {
    case V::kRegisterTiled: return "regtile";
    case V::kSharedTiled: return "shared";
    case V::kCooperativeMatrix: return "coopmat";
    case V::kDotPerOutput: return "dot_per_output";
    case V::kPacked: return "packed";
  }
  return "?";
}

std::string TileConfig::ToString() const {
  std::string s = fmt::format("{} [{} wg {}x{}", name, VariantName(variant), wg_x, wg_y);
  if (variant == V::kCooperativeMatrix) {
    s += fmt::format(" mma {}x{}x{}", coop_m, coop_n, coop_k);
  } else if (variant != V::kDotPerOutput) {
    s += fmt::format(" tile {}x{} bk {}", tm, tn, bk);
    if (variant == V::kRegisterTiled) s += fmt::format(" vec {}", vec);
    if (lanes_m) s += " lanes_m";
    if (texel_loads) s += " texel";
    if (direct_b) s += " B in place";
  }
  if (split_k > 1) s += fmt::format(" split_k {}", split_k);
  return s + "]";
}

const std::vector<TileConfig>& ConfigTable(DeviceClass c) {
  // Main tiles first; each table ends with small fallbacks that fit any Vulkan 1.1 device
  // (128 invocations, 16 KiB shared memory).
  static const std::vector<TileConfig> kGeneric = {
      Shared("generic.shared_64x64", 16, 16, 4, 4, 16),
      Shared("generic.shared_32x32", 8, 8, 4, 4, 16),
      PerOutput("generic.dot_per_output_64", 64),
  };
  static const std::vector<TileConfig> kAmd = {
      Shared("amd.shared_128x128", 16, 16, 8, 8, 8),
      Shared("amd.shared_64x64", 16, 16, 4, 4, 16),
      PerOutput("amd.dot_per_output_64", 64),
  };
  static const std::vector<TileConfig> kNvidia = {
      Coop("nvidia.coopmat_64x64", 2, 2, 16, 16, 16, 32),
      Shared("nvidia.shared_128x128", 16, 16, 8, 8, 8),
      Shared("nvidia.shared_64x64", 16, 16, 4, 4, 16),
      PerOutput("nvidia.dot_per_output_128", 128),
  };
  static const std::vector<TileConfig> kIntel = {
      Shared("intel.shared_64x64", 16, 8, 4, 8, 16),
      Shared("intel.shared_32x32", 8, 8, 4, 4, 16),
      PerOutput("intel.dot_per_output_64", 64),
  };
  static const std::vector<TileConfig> kArm = {
      Shared("arm.shared_32x32", 8, 8, 4, 4, 8),
      Shared("arm.shared_16x16", 4, 4, 4, 4, 8),
      PerOutput("arm.dot_per_output_64", 64),
  };
  static const std::vector<TileConfig> kQualcomm = {
      Shared("qualcomm.shared_32x64", 16, 8, 4, 4, 8),
      Shared("qualcomm.shared_32x32", 8, 8, 4, 4, 8),
      PerOutput("qualcomm.dot_per_output_64", 64),
  };
  // CPU drivers (lavapipe): register tiles, no shared memory (see the header). 8x16 stays the
  // main tile: 16x16 (fewer lane-by-lane loads per FMA) measured 0.7-1.5x of it on the shared
  // machine, no clear win for its longer compile; 32x16 was no faster and took 40 s to
  // compile, 32x32 over 3 minutes.
  // The packed kernels come first: A and B copied into panels read as rgba32f texel buffers
  // (matmul_packed.cc: 4x the register-tiled kernel at 1024^3 on lavapipe). One per SIMD width
  // llvmpipe may have (its subgroup size: 4 with SSE, 8 with AVX, 16 with 512-bit vectors).
  // With 16 lanes, 12 rows per invocation ran the 1024^3 product 6-10% faster than 8 (three
  // interleaved rounds; 16 rows: 3-8% slower than 12); with 8 lanes, 12 rows gained nothing.
  static const std::vector<TileConfig> kCpu = {
      Packed("cpu.packed_8x32", 8, 8),
      Packed("cpu.packed_8x16", 4, 8),
      Packed("cpu.packed_12x64", 16, 12),
      RegCpu("cpu.regtile_8x16", 8, 8, 8, 16, 8, 8),
      RegCpu("cpu.regtile_16x16", 8, 8, 16, 16, 8, 8),
      RegCpu("cpu.regtile_4x8", 8, 8, 4, 8, 8, 8),
      // Skinny products (M <= 16: a recurrent step, a small batch): one row of workgroups,
      // 16 lanes along N, every row of A in each invocation (tm shrinks to M).
      RegCpu("cpu.regtile_rows_16x8", 16, 1, 16, 8, 8, 8),
      RegLanesM("cpu.regtile_8x1", 1, 64, 8, 1, 8, 8),
      RegCpu("cpu.regtile_1x8", 64, 1, 1, 8, 8, 8),
  };
  switch (c) {
    case DeviceClass::kGeneric: return kGeneric;
    case DeviceClass::kAmd: return kAmd;
    case DeviceClass::kIntel: return kIntel;
    case DeviceClass::kNvidia: return kNvidia;
    case DeviceClass::kArm: return kArm;
    case DeviceClass::kQualcomm: return kQualcomm;
    case DeviceClass::kCpu: return kCpu;
  }
  return kGeneric;
}

bool CompilerHasKhrCooperativeMatrix() { return GLSLANG_VERSION_MAJOR >= 13; }

bool ConfigFits(const TileConfig& c, AccKind acc, const TargetInfo& t, std::string* why) {
  auto no = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  };
  if (c.invocations() > t.max_workgroup_invocations) {
    return no(fmt::format("{} invocations > maxComputeWorkGroupInvocations {}", c.invocations(), t.max_workgroup_invocations));
  }
  const uint32_t local_x = c.lanes_m ? c.wg_y : c.wg_x, local_y = c.lanes_m ? c.wg_x : c.wg_y;
  if (local_x > t.max_workgroup_size[0] || local_y > t.max_workgroup_size[1]) {
    return no(fmt::format("workgroup {}x{} > maxComputeWorkGroupSize {}x{}", local_x, local_y, t.max_workgroup_size[0],
                          t.max_workgroup_size[1]));
  }
  const uint32_t shared = SharedBytes(c, acc);
  if (shared > t.max_shared_memory_bytes) {
    return no(fmt::format("{} bytes of shared memory > maxComputeSharedMemorySize {}", shared, t.max_shared_memory_bytes));
  }
  if (c.variant == V::kPacked) {
    std::string reason;
    if (!PackedFits(c, t, &reason)) return no(reason);
  }
  if (c.variant == V::kCooperativeMatrix) {
    if (t.cooperative_matrix_shapes.empty()) return no("no VK_KHR_cooperative_matrix");
    if (!CompilerHasKhrCooperativeMatrix()) return no("glslang < 13 cannot emit GL_KHR_cooperative_matrix");
    if (t.subgroup_size * (c.wg_x / std::max<uint32_t>(t.subgroup_size, 1)) != c.wg_x) return no("subgroup size");
    bool shape = false;
    for (const auto& s : t.cooperative_matrix_shapes) {
      shape = shape || (s.m == c.coop_m && s.n == c.coop_n && s.k == c.coop_k && s.a == 0 && s.b == 0 && s.c == 1);
    }
    if (!shape) return no(fmt::format("no f16 x f16 -> f32 cooperative matrix of {}x{}x{}", c.coop_m, c.coop_n, c.coop_k));
  }
  return true;
}

// Tiles of whole column blocks hold at most this many columns (accumulators per row).
constexpr int64_t kMaxGroupedTileColumns = 16;

int64_t GroupedColumnsPerBlock(int64_t groups, int64_t width, const TargetInfo& t) {
  if (groups < 1 || groups > kMaxGroupedTileColumns) return 0;
  if (ClassifyDevice(t) != DeviceClass::kCpu) return 1;
  for (int64_t per_block : {4, 2}) {
    if (width % per_block == 0 && groups * per_block <= kMaxGroupedTileColumns) return per_block;
  }
  return 1;
}

namespace {

// Column groups: a register tile of whole column blocks (every group's per_block columns of
// the block) per invocation, so the epilogue finds all of a root element's slices in one
// invocation. CPU drivers: 16 lanes along the blocks, up to 8 rows per invocation (measured on
// the LSTM's 16 x 256 x 1024 step: tile 8 x 16 in 16 x 2 workgroups ran as fast as the skinny
// product's 16 x 8 tile); elsewhere 64 invocations, up to 4 rows each.
MatmulChoice GroupedConfig(const MatmulProblem& p, const TargetInfo& t) {
  const bool cpu = ClassifyDevice(t) == DeviceClass::kCpu;
  const MatmulProblem::GroupedColumns& g = *p.grouped;
  TileConfig c = cpu ? RegCpu("cpu.grouped_regtile", 16, 1, 8, 16, 8, 8) : Reg("grouped_regtile", 64, 1, 4, 4, 8, 8);
  c.tn = static_cast<uint32_t>(g.groups * g.per_block);
  while (c.tm > 1 && c.tm / 2 >= p.m) c.tm /= 2;
  if (cpu && p.m > c.tm) c.wg_y = 2;
  while (c.invocations() > t.max_workgroup_invocations && c.wg_x > 1) c.wg_x /= 2;
  MatmulChoice out;
  out.config = c;
  out.reason = fmt::format("B={} M={} N={} K={} {}: {} column groups of {} (tile {}x{}: {} columns of each group)", p.batch,
                           p.m, p.n, p.k, AccName(p.acc), g.groups, g.width, c.tm, c.tn, g.per_block);
  return out;
}

}  // namespace

MatmulChoice ChooseMatmulConfig(const MatmulProblem& p, const TargetInfo& t) {
  if (p.grouped) return GroupedConfig(p, t);
  const DeviceClass cls = ClassifyDevice(t);
  std::vector<TileConfig> fitting;
  std::string dropped;
  for (const TileConfig& c : ConfigTable(cls)) {
    std::string why;
    if (ConfigFits(c, p.acc, t, &why)) {
      fitting.push_back(c);
    } else {
      dropped += fmt::format("; {} dropped: {}", c.name, why);
    }
  }
  // The generic table's smallest entries fit every Vulkan device; use them if a vendor table
  // had nothing left.
  if (fitting.empty()) {
    for (const TileConfig& c : ConfigTable(DeviceClass::kGeneric)) {
      if (ConfigFits(c, p.acc, t)) fitting.push_back(c);
    }
  }
  if (fitting.empty()) fitting.push_back(Shared("fallback.shared_8x8", 4, 4, 2, 2, 4));
  auto find = [&](V variant) -> const TileConfig* {
    for (const TileConfig& c : fitting) {
      if (c.variant == variant) return &c;
    }
    return nullptr;
  };
  const bool cpu = cls == DeviceClass::kCpu;
  MatmulChoice out;
  const std::string shape = fmt::format("B={} M={} N={} K={} {}", p.batch, p.m, p.n, p.k, AccName(p.acc));

  // Matrix-vector products: one long dot per output.
  if ((p.n == 1 || p.m == 1) && p.k >= 16) {
    if (cpu) {
      for (const TileConfig& c : fitting) {
        if (c.variant == V::kRegisterTiled && ((p.n == 1 && c.tn == 1) || (p.m == 1 && c.tm == 1 && c.tn > 1))) {
          out.config = c;
          out.reason = fmt::format("{}: matrix-vector, one row of tiles per lane", shape);
          return out;
        }
      }
    } else if (const TileConfig* c = find(V::kDotPerOutput)) {
      out.config = *c;
      out.reason = fmt::format("{}: matrix-vector, K split over a workgroup per output", shape);
      return out;
    }
  }
  // Split-K: too few output tiles to fill the device while K is long.
  auto split_k = [&](MatmulChoice& o) {
    if (o.config.variant == V::kCooperativeMatrix) return;
    const int64_t tiles = p.batch * ((p.m + o.config.bm() - 1) / o.config.bm()) *
                          ((p.n + o.config.bn() - 1) / o.config.bn());
    const int64_t want_tiles = cpu ? 16 : 128;
    if (tiles < want_tiles && p.k >= 1024 && p.k >= 8 * std::max(p.m, p.n)) {
      uint32_t split = 1;
      while (split < 32 && tiles * split * 2 <= want_tiles && p.k / (split * 2) >= 256) split *= 2;
      if (split > 1) {
        o.config.split_k = split;
        o.reason += fmt::format(", split-K {}: {} output tiles, K={}", split, tiles, p.k);
      }
    }
  };
  // CPU drivers, skinny products (M <= 16, N long): all rows of A in each invocation and the
  // lanes along N, so every B texel loaded serves M rows, in one dispatch (the packed kernel
  // would copy all of B for one or two row groups).
  if (cpu && p.m <= 16 && p.n >= 64 && !p.quant) {
    for (const TileConfig& c : fitting) {
      if (c.variant != V::kRegisterTiled || c.wg_y != 1 || c.tn == 1 || c.tm < 2) continue;
      out.config = c;
      while (out.config.tm / 2 >= p.m && out.config.tm > 1) out.config.tm /= 2;
      out.reason = fmt::format("{}: skinny M, all rows per invocation (tile {}x{}), lanes along N", shape,
                               out.config.tm, out.config.tn);
      split_k(out);
      out.reason += dropped;
      return out;
    }
  }
  // The main tile: cooperative matrices for f16/bf16-free f32 accumulation when offered.
  const TileConfig* main = nullptr;
  for (const TileConfig& c : fitting) {
    if (c.variant == V::kCooperativeMatrix) {
      if (!p.quant && p.acc == AccKind::kF32 && p.a_type == ir::ElementType::kF16 && p.b_type == ir::ElementType::kF16 &&
          p.a.affine && p.b.affine) {
        main = &c;
        break;
      }
      continue;
    }
    if (c.variant == V::kDotPerOutput || c.variant == V::kPacked) continue;
    if (cpu && (c.tm == 1 || c.tn == 1)) continue;
    main = &c;
    break;
  }
  if (main == nullptr) main = &fitting.front();
  out.config = *main;
  out.reason = shape + ": " + (main->variant == V::kCooperativeMatrix ? "cooperative matrix" : "main tile");

  // Skinny shapes: shrink the tile along a short side so invocations are not wasted: the
  // per-invocation tile first, then the workgroup (moving invocations to the other side while
  // it has work for them).
  if (out.config.variant == V::kRegisterTiled || out.config.variant == V::kSharedTiled) {
    TileConfig& c = out.config;
    const TileConfig before = c;
    const uint32_t want_m = NextPow2(p.m), want_n = NextPow2(p.n);
    const bool reg = c.variant == V::kRegisterTiled;
    while (c.bm() > want_m && c.tm > 1) c.tm /= 2;
    // Register tiles keep 8 columns for the vector loads while N allows.
    while (c.bn() > want_n && c.tn > 1 && (!reg || c.tn > 8 || c.tn > want_n)) c.tn /= 2;
    while (c.bm() > want_m && c.wg_y > 1) {
      c.wg_y /= 2;
      if (c.bn() * 2 <= want_n && c.wg_x * 2 <= t.max_workgroup_size[0]) c.wg_x *= 2;
    }
    while (c.bn() > want_n && c.wg_x > 1) {
      c.wg_x /= 2;
      if (c.bm() * 2 <= want_m && c.wg_y * 2 <= t.max_workgroup_size[1]) c.wg_y *= 2;
    }
    if (c.tm != before.tm || c.tn != before.tn || c.wg_x != before.wg_x || c.wg_y != before.wg_y) {
      out.reason += fmt::format(", small M/N: tile {}x{} wg {}x{}", c.tm, c.tn, c.wg_x, c.wg_y);
    }
    // CPU drivers run local x as the SIMD lanes (local y is a scalar loop): a workgroup
    // narrower than the SIMD width along N puts its lanes on M instead.
    if (cpu && reg && !c.lanes_m && c.wg_x < t.subgroup_size && c.wg_y > c.wg_x &&
        c.wg_y <= t.max_workgroup_size[0] && c.wg_x <= t.max_workgroup_size[1]) {
      c.lanes_m = true;
      out.reason += ", lanes on M";
    }
    // Still fewer lanes than the SIMD width (8x8 workgroups on 16-lane llvmpipe, e.g. a
    // convolution with 64 output features): the same invocations reshaped so that local x spans
    // the SIMD width, along whichever side has more tiles for them. Measured in the CNN's
    // 3x3 convolutions 8x8x8x64 -> 64 (K 288 and 576), per-dispatch minimum of 2 runs, three
    // interleaved rounds: 0.91-0.94 ms with 16 lanes on M against 1.57-1.67 ms with 8 on N (1.7x).
    const uint32_t lanes_now = c.lanes_m ? c.wg_y : c.wg_x;
    if (cpu && reg && lanes_now < t.subgroup_size) {
      const int64_t cap_m = std::max<int64_t>(1, want_m / c.tm), cap_n = std::max<int64_t>(1, want_n / c.tn);
      const bool on_m = cap_m > cap_n;
      const uint32_t inv = c.invocations();
      const uint32_t lanes = static_cast<uint32_t>(
          std::min<int64_t>({static_cast<int64_t>(t.subgroup_size), static_cast<int64_t>(inv), on_m ? cap_m : cap_n}));
      if (lanes > lanes_now && inv % lanes == 0 && lanes <= t.max_workgroup_size[0] &&
          inv / lanes <= t.max_workgroup_size[1]) {
        c.lanes_m = on_m;
        (on_m ? c.wg_y : c.wg_x) = lanes;
        (on_m ? c.wg_x : c.wg_y) = inv / lanes;
        out.reason += fmt::format(", {} lanes on {}: wg {}x{}", lanes, on_m ? "M" : "N", c.wg_x, c.wg_y);
      }
    }
  }
  // CPU drivers: the packed kernel where it applies and the product is large enough to pay for
  // copying the operands (three dispatches instead of one) and has a tile's worth of rows and
  // columns; split-K shapes (few output tiles, long K) stay register-tiled.
  // Quantized contractions never: the panels hold f32.
  if (cpu && out.config.variant == V::kRegisterTiled && !p.quant) {
    for (const TileConfig& c : fitting) {
      if (c.variant != V::kPacked) continue;
      std::string why;
      const int64_t tiles = p.batch * ((p.m + c.bm() - 1) / c.bm()) * ((p.n + c.bn() - 1) / c.bn());
      // Per matrix: batches of 64^3 products ran 0.66x as fast packed (the copies cost more
      // than they save), 1024^3 2.8x.
      const double per_matrix = static_cast<double>(p.m) * p.n * p.k;
      if (p.m >= 4 && p.n >= c.bn() / 2 && p.k >= c.bk && per_matrix >= (1 << 20) && tiles >= 16) {
        if (PackedApplies(p, c, t, &why)) {
          out.config = c;
          out.reason = shape + ": packed panels (texel-buffer loads)";
          // Few row tiles (a small batch through a big weight): B's panels would be read only
          // that many times, and copying B cost more than its panels saved (M = 64, 1024^2 B:
          // 5-10% faster in place).
          if ((p.m + c.tm - 1) / c.tm <= kMaxRowTilesReadingBInPlace && PackedDirectB(p, c, t)) {
            out.config.direct_b = true;
            out.reason += ", B read in place";
          }
          out.reason += dropped;
          return out;
        }
        out.reason += fmt::format(", not packed: {}", why);
      }
      break;
    }
  }
  split_k(out);
  out.reason += dropped;
  return out;
}

}  // namespace vkhlo::codegen::library
