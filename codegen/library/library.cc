// PlanDotGeneral / PlanConvolution / PlanMatmul: normalize, check the device can do it, choose
// a configuration, emit the dispatches.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/library/conv_params.h"
#include "codegen/library/depthwise.h"
#include "codegen/library/library_kernel.h"
#include "codegen/library/matmul_variants.h"

namespace vkhlo::codegen::library {
namespace {

uint64_t ResultBytes(const MatmulProblem& p, ir::ElementType type) {
  int64_t n = 1;
  for (int64_t d : p.result_dims) n *= d;
  return static_cast<uint64_t>(n) * static_cast<uint64_t>(ir::StorageBytes(type));
}

}  // namespace

Status CheckPlanSupport(const MatmulProblem& p, const Epilogue& e, const TargetInfo& t) {
  VKHLO_RETURN_IF_ERROR(CheckTypeSupport(p.a_type, p.acc, t, p.what));
  VKHLO_RETURN_IF_ERROR(CheckTypeSupport(p.b_type, p.acc, t, p.what));
  VKHLO_RETURN_IF_ERROR(CheckTypeSupport(p.c_type, p.acc, t, p.what));
  const ir::ElementType final_type = e.ResultType(p.c_type);
  VKHLO_RETURN_IF_ERROR(CheckTypeSupport(final_type, ComputeDomain(final_type, t), t, p.what + " (epilogue)"));
  size_t results = 1;
  if (e.groups) {
    results = e.groups->roots.size();
    for (const ir::Value* root : e.groups->roots) {
      const ir::ElementType type = root->type().element_type();
      VKHLO_RETURN_IF_ERROR(CheckTypeSupport(type, ComputeDomain(type, t), t, p.what + " (epilogue)"));
    }
    const ir::ElementType sliced = e.root->type().element_type();
    VKHLO_RETURN_IF_ERROR(CheckTypeSupport(sliced, ComputeDomain(sliced, t), t, p.what + " (epilogue)"));
  }
  for (const ir::Value* in : e.inputs) {
    const ir::ElementType type = in->type().element_type();
    VKHLO_RETURN_IF_ERROR(CheckTypeSupport(type, ComputeDomain(type, t), t, p.what + " (epilogue input)"));
  }
  const size_t buffers = 2 + results + e.scalars.size() + e.inputs.size() + (p.quant && p.quant->channels > 1 ? 1 : 0);
  if (buffers > t.max_storage_buffers_per_stage) {
    return ResourceExhaustedError(fmt::format("{} with its epilogue binds {} storage buffers, more than {}'s "
                                              "maxPerStageDescriptorStorageBuffers = {}",
                                              p.what, buffers, t.device_name, t.max_storage_buffers_per_stage));
  }
  return OkStatus();
}

namespace {

const TileConfig* FindConfig(const std::string& name) {
  for (DeviceClass c : {DeviceClass::kCpu, DeviceClass::kGeneric, DeviceClass::kAmd, DeviceClass::kIntel,
                        DeviceClass::kNvidia, DeviceClass::kArm, DeviceClass::kQualcomm}) {
    for (const TileConfig& config : ConfigTable(c)) {
      if (config.name == name) return &config;
    }
  }
  return nullptr;
}

}  // namespace

StatusOr<LibraryPlan> PlanMatmul(const MatmulProblem& problem, const TargetInfo& t, const Epilogue& e,
                                 const PlanOptions& options) {
  // The accumulator on this target: 64-bit integers as uvec2 pairs without shaderInt64.
  MatmulProblem p = problem;
  p.acc = AccForTarget(p.acc, t);
  VKHLO_RETURN_IF_ERROR(CheckPlanSupport(p, e, t));
  if (p.quant) {
    // The integer path's epilogue is the requantization; element-wise ops after it are not
    // absorbed (epilogue_match.cc), so an epilogue here is a caller's error.
    if (!p.quant->hybrid && !e.empty()) {
      return InvalidArgumentError(p.what + ": a quantized contraction takes no fused epilogue");
    }
  }
  LibraryPlan plan;
  plan.problem = p;
  plan.result_type = e.ResultType(p.c_type);
  plan.result_bytes = ResultBytes(p, plan.result_type);
  MatmulChoice choice = ChooseMatmulConfig(p, t);
  if (!options.force_config.empty()) {
    const TileConfig* forced = FindConfig(options.force_config);
    if (forced == nullptr) return InvalidArgumentError("unknown matmul config '" + options.force_config + "'");
    std::string why;
    if (!ConfigFits(*forced, p.acc, t, &why)) {
      return InvalidArgumentError(fmt::format("config {} does not fit {}: {}", forced->name, t.device_name, why));
    }
    choice.config = *forced;
    choice.reason = "forced";
  }
  if (options.force_split_k > 0) choice.config.split_k = options.force_split_k;
  if (p.grouped && (choice.config.variant != MatmulVariant::kRegisterTiled || choice.config.split_k > 1 ||
                    choice.config.tn % (p.grouped->groups * p.grouped->per_block) != 0 || p.k == 0)) {
    return InvalidArgumentError(fmt::format("{}: column groups need a register tile of whole column blocks and K > 0 ({})",
                                            p.what, choice.config.ToString()));
  }
  plan.config = choice.config;
  if (p.quant) {
    const MatmulVariant v = plan.config.variant;
    if (v == MatmulVariant::kPacked || v == MatmulVariant::kCooperativeMatrix) {
      return InvalidArgumentError(fmt::format("config {} cannot run the quantized {}", plan.config.name, p.what));
    }
    // The packed integer dot products in the tiled kernels (the per-output kernel multiplies
    // element by element).
    p.quant->dot4 = Dot4Applies(*p.quant, t) &&
                    (v == MatmulVariant::kRegisterTiled || (v == MatmulVariant::kSharedTiled && plan.config.bk % 4 == 0));
    plan.problem = p;
  }
  plan.summary = fmt::format("{}\n  normalized B={} M={} N={} K={} acc={} A{} B{}\n  config {}\n  why {}", p.what,
                             p.batch, p.m, p.n, p.k, AccName(p.acc),
                             p.a.affine ? fmt::format(" runs {}x{}", p.a.row_run, p.a.col_run) : " (implicit)",
                             p.b.affine ? fmt::format(" runs {}x{}", p.b.row_run, p.b.col_run) : " (implicit)",
                             plan.config.ToString(), choice.reason);
  if (p.quant) plan.summary += "\n  quantized " + p.quant->Describe();
  if (p.empty()) return plan;
  const std::string name = options.name.empty() ? "matmul" : options.name;
  // A quantized contraction's per-channel table (quantized.h): constant 0, uploaded once.
  if (p.quant && p.quant->channels > 1) plan.constants.push_back(QuantizedTableWords(*p.quant));
  if (p.k == 0) {
    // Nothing to sum: every output is the epilogue of zero, and the operands are not read.
    plan.config.split_k = 1;
    VKHLO_ASSIGN_OR_RETURN(auto d, EmitZeroContraction(p, e, t, name));
    plan.dispatches.push_back(std::move(d));
    return plan;
  }
  const TileConfig& c = plan.config;
  const uint32_t split = std::max<uint32_t>(1, c.split_k);
  switch (c.variant) {
    case MatmulVariant::kRegisterTiled: {
      VKHLO_ASSIGN_OR_RETURN(auto d, EmitRegisterTiled(p, e, t, c, split, name));
      plan.dispatches.push_back(std::move(d));
      break;
    }
    case MatmulVariant::kSharedTiled: {
      VKHLO_ASSIGN_OR_RETURN(auto d, EmitSharedTiled(p, e, t, c, split, name));
      plan.dispatches.push_back(std::move(d));
      break;
    }
    case MatmulVariant::kDotPerOutput: {
      VKHLO_ASSIGN_OR_RETURN(auto d, EmitDotPerOutput(p, e, t, c, name));
      plan.dispatches.push_back(std::move(d));
      break;
    }
    case MatmulVariant::kCooperativeMatrix: {
      VKHLO_ASSIGN_OR_RETURN(auto d, EmitCooperativeMatrix(p, e, t, c, name));
      plan.dispatches.push_back(std::move(d));
      break;
    }
    case MatmulVariant::kPacked: {
      std::string why;
      if (!PackedApplies(p, c, t, &why)) {
        return InvalidArgumentError(fmt::format("config {} cannot run {}: {}", c.name, p.what, why));
      }
      const PackedShape s = PackedShapeOf(p, c);
      plan.scratch_bytes = {s.a_texels * 16};
      if (!c.direct_b) plan.scratch_bytes.push_back(s.b_texels * 16);
      for (char x : {'a', 'b'}) {
        if (x == 'b' && c.direct_b) continue;
        VKHLO_ASSIGN_OR_RETURN(auto d, EmitPackOperand(p, e, t, c, x, name));
        plan.dispatches.push_back(std::move(d));
      }
      VKHLO_ASSIGN_OR_RETURN(auto d, EmitPackedProduct(p, e, t, c, name));
      plan.dispatches.push_back(std::move(d));
      plan.binding_alignment = 32;
      return plan;
    }
  }
  if (split > 1 && c.variant != MatmulVariant::kDotPerOutput && c.variant != MatmulVariant::kCooperativeMatrix) {
    const uint64_t words = static_cast<uint64_t>(AccWords(p.acc));
    plan.scratch_bytes.push_back(static_cast<uint64_t>(split) * static_cast<uint64_t>(p.batch * p.m * p.n) * words * 4);
    VKHLO_ASSIGN_OR_RETURN(auto r, EmitSplitKReduce(p, e, t, split, name));
    plan.dispatches.push_back(std::move(r));
  }
  plan.binding_alignment = 32;  // vector views read 32-byte units
  return plan;
}

StatusOr<LibraryPlan> PlanDotGeneral(const ir::Operation& op, const TargetInfo& t, const Epilogue& e,
                                     const PlanOptions& options) {
  VKHLO_ASSIGN_OR_RETURN(MatmulProblem p, NormalizeDotGeneral(op));
  if (!e.store_permutation.empty()) VKHLO_RETURN_IF_ERROR(StoreTransposed(p, e.store_permutation));
  if (e.groups) {
    const int64_t groups = static_cast<int64_t>(e.groups->slices.size());
    const int64_t per_block = GroupedColumnsPerBlock(groups, e.groups->width, t);
    if (per_block == 0) return InvalidArgumentError(fmt::format("{}: {} column groups", p.what, groups));
    VKHLO_RETURN_IF_ERROR(GroupColumns(p, groups, e.groups->width, e.groups->stride, per_block));
  }
  PlanOptions o = options;
  if (o.name.empty()) o.name = "dot_general";
  return PlanMatmul(p, t, e, o);
}

StatusOr<LibraryPlan> PlanConvolution(const ir::Operation& op, const TargetInfo& t, const Epilogue& e,
                                      const PlanOptions& options) {
  VKHLO_ASSIGN_OR_RETURN(ConvParams params, ReadConvParams(op));
  PlanOptions o = options;
  if (o.name.empty()) o.name = "convolution";
  VKHLO_ASSIGN_OR_RETURN(MatmulProblem p, ConvolutionAsMatmul(params));
  const bool direct_ok = p.k > 0;  // the direct kernel reads its operands; K = 0 reads nothing
  // Quantized convolutions take the implicit GEMM (its loads subtract the zero points and its
  // epilogue requantizes); the direct kernel has neither.
  if (p.quant && o.force_config == "direct") {
    return InvalidArgumentError(p.what + ": the direct convolution kernel does not take quantized convolutions");
  }
  if (p.quant) return PlanMatmul(p, t, e, o);
  if (o.force_config.empty() && direct_ok && UseDirectConvolution(params, t)) return PlanDirectConvolution(params, t, e, o);
  if (o.force_config == "direct" && direct_ok) {
    o.force_config.clear();
    return PlanDirectConvolution(params, t, e, o);
  }
  if (o.force_config == "direct") o.force_config.clear();
  return PlanMatmul(p, t, e, o);
}

Status CompilePlan(LibraryPlan& plan, GlslCompiler& compiler, const TargetInfo& t) {
  for (LibraryDispatch& d : plan.dispatches) {
    VKHLO_ASSIGN_OR_RETURN(d.spirv, compiler.Compile(d.glsl, GlslCompileOptions::ForTarget(t, d.name)));
  }
  return OkStatus();
}

}  // namespace vkhlo::codegen::library
