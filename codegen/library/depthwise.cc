#include "codegen/library/depthwise.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/library/kernel_writer.h"
#include "codegen/library/matmul_variants.h"
#include "ir/type.h"

namespace vkhlo::codegen::library {
namespace {

// Neighbouring groups one invocation takes with vector loads (1: scalar).
int GroupVector(const ConvParams& c, const MatmulProblem& p) {
  const bool is32 = [](ir::ElementType t) {
    return t == ir::ElementType::kF32 || t == ir::ElementType::kS32 || t == ir::ElementType::kU32;
  }(c.lhs_type) && (c.rhs_type == c.lhs_type);
  if (!is32 || (p.acc != AccKind::kF32 && p.acc != AccKind::kI32)) return 1;
  if (c.batch_groups != 1 || c.in_features_per_group != 1 || p.n != 1) return 1;
  const auto ls = ir::RowMajorStrides(c.lhs_dims), ks = ir::RowMajorStrides(c.rhs_dims), os = ir::RowMajorStrides(c.out_dims);
  if (ls[c.dn.input_feature_dimension] != 1 || ks[c.dn.kernel_output_feature_dimension] != 1 ||
      os[c.dn.output_feature_dimension] != 1) {
    return 1;
  }
  if (p.b.custom_index.empty() == false) return 1;  // reversed windows: keep it simple
  for (int v : {8, 4, 2}) {
    if (p.batch % v == 0) return v;
  }
  return 1;
}

// The depthwise kernel with V neighbouring groups per invocation and P consecutive outputs along
// the last spatial dimension: the P windows overlap (stride < window), so each distinct input
// position along that dimension is loaded once for all P outputs, and each kernel vector once
// for all of them (3x3, stride 1, P = 4: 27 vector loads instead of 72). llvmpipe's cost is
// its number of loads (tile_config.h).
std::string SlidingBody(const ConvParams& c, const MatmulProblem& p, KernelWriter& w, int v, int pos_per_invocation,
                        uint32_t wg) {
  const size_t s = c.spatial(), last = s - 1;
  const auto ls = ir::RowMajorStrides(c.lhs_dims);
  const auto& dn = c.dn;
  std::vector<int64_t> out_sp(s), win(s);
  for (size_t d = 0; d < s; ++d) {
    out_sp[d] = c.out_dims[dn.output_spatial_dimensions[d]];
    win[d] = c.rhs_dims[dn.kernel_spatial_dimensions[d]];
  }
  const int64_t P = pos_per_invocation;
  const int64_t chunks = p.batch / v, blocks = (out_sp[last] + P - 1) / P;
  int64_t outer = c.out_batch, win_outer = 1;
  for (size_t d = 0; d < last; ++d) {
    outer *= out_sp[d];
    win_outer *= win[d];
  }
  const int64_t total = chunks * blocks * outer;
  const std::string acc = w.acc();
  std::string b;
  b += fmt::format("  uint o = wg.x * {}u + gl_LocalInvocationID.x;\n  if (o >= {}u) return;\n", wg, total);
  b += fmt::format("  uint g0 = (o % {0}u) * {1}u, ob = (o / {0}u) % {2}u, r = o / {3}u;\n", chunks, v, blocks,
                   chunks * blocks);
  // r = (n, o_0, ..., o_{last-1}) row-major.
  b += "  uint rr = r;\n";
  for (size_t d = last; d-- > 0;) b += fmt::format("  uint o{0} = rr % {1}u; rr /= {1}u;\n", d, out_sp[d]);
  b += "  uint n = rr;\n";
  b += fmt::format("  uint oL = ob * {}u;\n", P);
  for (int64_t q = 0; q < P; ++q) {
    for (int t = 0; t < v; ++t) b += fmt::format("  {} s{}_{} = {}(0);\n", acc, q, t, acc);
  }
  b += fmt::format("  for (uint wo = 0u; wo < {}u; ++wo) {{\n    uint wr = wo;\n", win_outer);
  for (size_t d = last; d-- > 0;) b += fmt::format("    uint w{0} = wr % {1}u; wr /= {1}u;\n", d, win[d]);
  b += fmt::format("    bool vo = true;\n    uint io = n * {}u + g0 * {}u;\n", ls[dn.input_batch_dimension],
                   ls[dn.input_feature_dimension]);
  for (size_t d = 0; d < last; ++d) {
    const int64_t in = c.lhs_dims[dn.input_spatial_dimensions[d]];
    const int64_t dilated = (in - 1) * c.lhs_dilation[d] + 1;
    b += fmt::format("    {{ int pos = int(o{} * {}u + w{} * {}u) - ({});\n", d, c.strides[d], d, c.rhs_dilation[d],
                     c.pad_low[d]);
    b += fmt::format("      vo = vo && pos >= 0 && pos < {} && pos % {} == 0;\n", dilated, c.lhs_dilation[d]);
    b += fmt::format("      io += uint(max(pos, 0) / {}) * {}u; }}\n", c.lhs_dilation[d], ls[dn.input_spatial_dimensions[d]]);
  }
  // Distinct input offsets along the last dimension.
  std::vector<int64_t> offsets;
  for (int64_t q = 0; q < P; ++q) {
    for (int64_t wl = 0; wl < win[last]; ++wl) offsets.push_back(q * c.strides[last] + wl * c.rhs_dilation[last]);
  }
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  const int64_t in_last = c.lhs_dims[dn.input_spatial_dimensions[last]];
  const int64_t dilated_last = (in_last - 1) * c.lhs_dilation[last] + 1;
  for (int64_t off : offsets) {
    b += fmt::format("    int p{0} = int(oL * {1}u + {0}u) - ({2});\n", off, c.strides[last], c.pad_low[last]);
    b += fmt::format("    bool v{0} = vo && p{0} >= 0 && p{0} < {1} && p{0} % {2} == 0;\n", off, dilated_last,
                     c.lhs_dilation[last]);
    b += fmt::format("    uint i{0} = v{0} ? io + uint(p{0} / {1}) * {2}u : 0u;\n", off, c.lhs_dilation[last],
                     ls[dn.input_spatial_dimensions[last]]);
    std::vector<std::string> names;
    for (int t = 0; t < v; ++t) names.push_back(fmt::format("x{}_{}", off, t));
    b += w.VectorLoadAt('a', v, fmt::format("i{}", off), fmt::format("v{}", off), names);
  }
  for (int64_t wl = 0; wl < win[last]; ++wl) {
    std::vector<std::string> names;
    for (int t = 0; t < v; ++t) names.push_back(fmt::format("k{}_{}", wl, t));
    b += w.VectorLoad('b', v, "g0", fmt::format("wo * {}u + {}u", win[last], wl), "0u", names);
    for (int64_t q = 0; q < P; ++q) {
      const int64_t off = q * c.strides[last] + wl * c.rhs_dilation[last];
      for (int t = 0; t < v; ++t) {
        b += "    " + w.Mac(fmt::format("s{}_{}", q, t), fmt::format("x{}_{}", off, t), fmt::format("k{}_{}", wl, t)) + "\n";
      }
    }
  }
  b += "  }\n";
  std::vector<KernelWriter::TileElement> tile;
  for (int64_t q = 0; q < P; ++q) {
    for (int t = 0; t < v; ++t) {
      tile.push_back({fmt::format("s{}_{}", q, t), fmt::format("g0 + {}u", t),
                      fmt::format("r * {1}u + oL + {0}u", q, out_sp[last]), "0u",
                      fmt::format("oL + {}u < {}u", q, out_sp[last])});
    }
  }
  b += w.StoreTile(tile);
  return b;
}

// One output position per invocation (v neighbouring groups with vector loads when v > 1).
std::string PerOutputBody(const MatmulProblem& p, KernelWriter& w, int v, uint32_t wg, int64_t total) {
  const std::string acc = w.acc();
  const int64_t chunks = p.batch / v;
  std::string body = fmt::format("  uint o = wg.x * {}u + gl_LocalInvocationID.x;\n  if (o >= {}u) return;\n", wg, total);
  // Groups fastest: neighbouring invocations read neighbouring features (NHWC).
  body += fmt::format("  uint g0 = (o % {}u) * {}u, n = (o / {}u) % N, m = o / ({}u * N);\n", chunks, v, chunks, chunks);
  for (int q = 0; q < v; ++q) body += fmt::format("  {} s{} = {}(0);\n", acc, q, acc);
  body += "  for (uint k = 0u; k < K; ++k) {\n";
  if (v == 1) {
    body += fmt::format("    {} x0 = load_a(g0, m, k); {} y0 = load_b(g0, k, n);\n", acc, acc);
  } else {
    std::vector<std::string> xs, ys;
    for (int q = 0; q < v; ++q) {
      xs.push_back(fmt::format("x{}", q));
      ys.push_back(fmt::format("y{}", q));
    }
    body += w.VectorLoad('a', v, "g0", "m", "k", xs);
    body += w.VectorLoad('b', v, "g0", "k", "n", ys);
  }
  for (int q = 0; q < v; ++q) body += "    " + w.Mac(fmt::format("s{}", q), fmt::format("x{}", q), fmt::format("y{}", q)) + "\n";
  body += "  }\n";
  std::vector<KernelWriter::TileElement> tile;
  for (int q = 0; q < v; ++q) tile.push_back({fmt::format("s{}", q), fmt::format("g0 + {}u", q), "m", "n", ""});
  body += w.StoreTile(tile);
  return body;
}

}  // namespace

bool UseDirectConvolution(const ConvParams& c, const TargetInfo&) {
  int64_t window = 1;
  for (size_t d = 0; d < c.spatial(); ++d) window *= c.rhs_dims[c.dn.kernel_spatial_dimensions[d]];
  const int64_t groups = c.feature_groups * c.batch_groups;
  const int64_t per_group = groups == 0 ? 0 : c.out_features / groups;
  if (c.feature_groups > 1 && c.in_features_per_group == 1) return true;  // depthwise
  return window * c.in_features_per_group <= 16 && per_group <= 4;
}

StatusOr<LibraryPlan> PlanDirectConvolution(const ConvParams& c, const TargetInfo& t, const Epilogue& e,
                                            const PlanOptions& options) {
  // Its tiles' (b, m, n) are not the implicit GEMM's: a value varying along the output
  // features is not known to be one per column.
  if (!e.column_values.empty()) return InvalidArgumentError("the direct convolution kernel takes no column values");
  VKHLO_ASSIGN_OR_RETURN(MatmulProblem p, ConvolutionAsMatmul(c));
  p.acc = AccForTarget(p.acc, t);  // 64-bit integers as uvec2 pairs without shaderInt64
  VKHLO_RETURN_IF_ERROR(CheckPlanSupport(p, e, t));
  LibraryPlan plan;
  plan.problem = p;
  plan.result_type = e.ResultType(p.c_type);
  int64_t outputs = 1;
  for (int64_t d : p.result_dims) outputs *= d;
  plan.result_bytes = static_cast<uint64_t>(outputs) * static_cast<uint64_t>(ir::StorageBytes(plan.result_type));
  plan.config.name = "direct";
  plan.config.variant = MatmulVariant::kRegisterTiled;
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclareMatmul(true));
  int v = GroupVector(c, p);
  if (v > 1 && (!w.DeclareVectorView('a', v) || !w.DeclareVectorView('b', v))) v = 1;
  const uint32_t wg = std::min<uint32_t>(64, t.max_workgroup_invocations);
  const int64_t chunks = p.batch / v;
  int64_t total = chunks * p.m * p.n;
  // Sliding windows along the last spatial dimension when they overlap.
  const size_t last = c.spatial() - 1;
  const int64_t out_last = c.spatial() == 0 ? 0 : c.out_dims[c.dn.output_spatial_dimensions[last]];
  const int64_t win_last = c.spatial() == 0 ? 0 : c.rhs_dims[c.dn.kernel_spatial_dimensions[last]];
  const int sliding = (v > 1 && c.spatial() > 0 && out_last >= 2 && win_last > 1 && c.strides[last] < win_last)
                          ? static_cast<int>(std::min<int64_t>(4, out_last))
                          : 0;
  if (sliding > 0) total = chunks * ((out_last + sliding - 1) / sliding) * (p.m / out_last);
  plan.config.vec = static_cast<uint32_t>(v);
  plan.config.wg_x = wg;
  plan.config.wg_y = 1;
  plan.summary = fmt::format("{}\n  normalized B={} M={} N={} K={} acc={}\n  config direct [wg {} groups per invocation {}"
                             " positions per invocation {}]\n  why depthwise or tiny contraction",
                             p.what, p.batch, p.m, p.n, p.k, AccName(p.acc), wg, v, std::max(sliding, 1));
  if (total == 0) return plan;
  const std::string body = sliding > 0 ? SlidingBody(c, p, w, v, sliding, wg) : PerOutputBody(p, w, v, wg, total);
  LibraryDispatch d;
  d.name = (options.name.empty() ? std::string("convolution") : options.name) + ".direct";
  d.glsl = w.Assemble(wg, 1, 1, body);
  d.workgroup_size = {wg, 1, 1};
  d.grid = {static_cast<uint32_t>((total + wg - 1) / wg), 1, 1};
  d.bindings = w.bindings();
  plan.dispatches.push_back(std::move(d));
  plan.binding_alignment = 32;
  return plan;
}

}  // namespace vkhlo::codegen::library
