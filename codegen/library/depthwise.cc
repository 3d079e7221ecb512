#include "codegen/library/depthwise.h"

#include <fmt/format.h>

#include "codegen/library/kernel_writer.h"

namespace vkhlo::codegen::library {
namespace {

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) s[d - 1] = s[d] * dims[d];
  return s;
}

// Neighbouring groups one invocation takes with vector loads (1: scalar).
int GroupVector(const ConvParams& c, const MatmulProblem& p) {
  const bool is32 = [](ir::ElementType t) {
    return t == ir::ElementType::kF32 || t == ir::ElementType::kS32 || t == ir::ElementType::kU32;
  }(c.lhs_type) && (c.rhs_type == c.lhs_type);
  if (!is32 || (p.acc != AccKind::kF32 && p.acc != AccKind::kI32)) return 1;
  if (c.batch_groups != 1 || c.in_features_per_group != 1 || p.n != 1) return 1;
  const auto ls = RowMajorStrides(c.lhs_dims), ks = RowMajorStrides(c.rhs_dims), os = RowMajorStrides(c.out_dims);
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
  VKHLO_ASSIGN_OR_RETURN(MatmulProblem p, ConvolutionAsMatmul(c));
  VKHLO_RETURN_IF_ERROR(CheckTypeSupport(p.a_type, p.acc, t, p.what));
  VKHLO_RETURN_IF_ERROR(CheckTypeSupport(p.b_type, p.acc, t, p.what));
  VKHLO_RETURN_IF_ERROR(CheckTypeSupport(p.c_type, p.acc, t, p.what));
  LibraryPlan plan;
  plan.problem = p;
  plan.result_type = e.custom_result_type ? *e.custom_result_type : e.convert_to.value_or(p.c_type);
  int64_t outputs = 1;
  for (int64_t d : p.result_dims) outputs *= d;
  plan.result_bytes = static_cast<uint64_t>(outputs) * static_cast<uint64_t>(ir::StorageBytes(plan.result_type));
  plan.config.name = "direct";
  plan.config.variant = MatmulVariant::kRegisterTiled;
  if (3 + e.inputs.size() > t.max_storage_buffers_per_stage) {
    return ResourceExhaustedError(fmt::format("{} with its epilogue binds too many storage buffers for {}", p.what, t.device_name));
  }
  KernelWriter w(p, e, t);
  VKHLO_RETURN_IF_ERROR(w.DeclareMatmul(true));
  int v = GroupVector(c, p);
  if (v > 1 && (!w.DeclareVectorView('a', v) || !w.DeclareVectorView('b', v))) v = 1;
  const uint32_t wg = std::min<uint32_t>(64, t.max_workgroup_invocations);
  const int64_t chunks = p.batch / v;
  const int64_t total = chunks * p.m * p.n;
  plan.config.vec = static_cast<uint32_t>(v);
  plan.config.wg_x = wg;
  plan.config.wg_y = 1;
  plan.summary = fmt::format("{}\n  normalized B={} M={} N={} K={} acc={}\n  config direct [wg {} groups per invocation {}]\n"
                             "  why depthwise or tiny contraction",
                             p.what, p.batch, p.m, p.n, p.k, AccName(p.acc), wg, v);
  if (total == 0) return plan;
  const std::string acc = w.acc();
  std::string body;
  body += fmt::format("  uint o = wg.x * {}u + gl_LocalInvocationID.x;\n  if (o >= {}u) return;\n", wg, total);
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
  for (int q = 0; q < v; ++q) body += fmt::format("  store_c(g0 + {}u, m, n, s{});\n", q, q);
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
