// stablehlo.reduce_window as a device kernel: one invocation per result element (`pack` of them
// for narrow results), folding its window in ascending order starting from the init value, as
// the spec defines it: the input padded (padding low/high, possibly negative) and base-dilated
// with the init values, so padding and dilation holes inside a window fold in the init value.
#include <fmt/format.h>

#include "codegen/device_kernel.h"
#include "codegen/kernel.h"
#include "codegen/reduction/dispatch_builder.h"
#include "codegen/reduction/reducer.h"
#include "codegen/reduction/reduction_kernels.h"
#include "codegen/reduction/result_writer.h"

namespace vkhlo::codegen::reduction {
namespace {

struct Window {
  std::vector<int64_t> dimensions, strides, base_dilations, window_dilations, padding_low;
};

StatusOr<Window> ReadWindow(const ir::Operation& op, size_t rank) {
  auto list = [&](const char* name, int64_t fallback) -> StatusOr<std::vector<int64_t>> {
    const ir::Attribute* attr = op.attribute(name);
    if (attr == nullptr) {
      if (fallback < 0) return InvalidArgumentError(fmt::format("'{}' needs {}", op.name(), name));
      return std::vector<int64_t>(rank, fallback);
    }
    std::optional<std::vector<int64_t>> values = attr->AsI64Vector();
    if (!values) return InvalidArgumentError(fmt::format("'{}' has a malformed {}", op.name(), name));
    return *values;
  };
  Window w;
  VKHLO_ASSIGN_OR_RETURN(w.dimensions, list("window_dimensions", -1));
  VKHLO_ASSIGN_OR_RETURN(w.strides, list("window_strides", 1));
  VKHLO_ASSIGN_OR_RETURN(w.base_dilations, list("base_dilations", 1));
  VKHLO_ASSIGN_OR_RETURN(w.window_dilations, list("window_dilations", 1));
  VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> padding, list("padding", 0));
  if (padding.size() == rank) padding.assign(2 * rank, 0);  // the all-zero default
  for (const auto* l : {&w.dimensions, &w.strides, &w.base_dilations, &w.window_dilations}) {
    if (l->size() != rank) return InvalidArgumentError(fmt::format("'{}' has window attributes of the wrong rank", op.name()));
    for (int64_t v : *l) {
      if (v <= 0) return InvalidArgumentError(fmt::format("'{}' has a non-positive window attribute", op.name()));
    }
  }
  if (padding.size() != 2 * rank) return InvalidArgumentError(fmt::format("'{}' has padding of the wrong rank", op.name()));
  for (size_t d = 0; d < rank; ++d) w.padding_low.push_back(padding[2 * d]);
  return w;
}

StatusOr<DeviceKernel> EmitReduceWindow(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options) {
  const ir::Operation& op = *fusion.device_op;
  VKHLO_ASSIGN_OR_RETURN(Reducer reducer, AnalyzeReducer(op));
  const std::vector<int64_t>& in_dims = op.operand(0)->type().dims();
  const std::vector<int64_t>& out_dims = op.result(0)->type().dims();
  const size_t rank = in_dims.size();
  VKHLO_ASSIGN_OR_RETURN(Window w, ReadWindow(op, rank));
  const size_t n = reducer.num_operands;
  const int64_t rows = op.result(0)->type().num_elements();

  DeviceKernel kernel;
  const std::string where = OpLocation(op, options.source_name);
  kernel.summary = fmt::format("{}{}: an invocation per result element, its window in order", op.name(),
                               where.empty() ? "" : " at " + where);
  if (rows == 0) return kernel;

  DispatchBuilder b(target, options);
  ElementalEmitter& em = b.em();
  b.BindInputs(fusion.inputs);
  ResultWriter results;
  for (size_t k = 0; k < n; ++k) {
    results.outputs.push_back(b.Bind(KernelBuffer::Write(op.result(k))));
    results.facts.push_back(GetTypeFacts(reducer.types[k], target));
  }
  results.pack = ResultWriter::PackFor(results.facts);
  results.rows = rows;
  VKHLO_RETURN_IF_ERROR(RequireComputeTypes(em, reducer));
  const uint32_t wg = ChooseLoopConfig(target, 1).workgroup_size;
  const uint32_t pack = results.pack;

  em.Line(fmt::format("uint i = (gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x) * {}u + gl_LocalInvocationID.x;", wg));
  em.Line(fmt::format("if (i * {}u >= {}) return;", pack, U(rows)));
  std::vector<Expr> init;
  for (size_t k = 0; k < n; ++k) {
    VKHLO_ASSIGN_OR_RETURN(Expr value, em.Emit(op.operand(n + k), Index::Scalar()));
    VKHLO_ASSIGN_OR_RETURN(value, em.Compute(value));
    init.push_back(value);
  }
  results.Declare(em);
  em.Open(fmt::format("for (uint e = 0u; e < {}u; ++e)", pack));
  em.Line(fmt::format("uint o = i * {}u + e;", pack));
  em.Line(fmt::format("if (o >= {}) break;", U(rows)));
  const std::vector<std::string> out = em.Multi(Index::Linear(out_dims, "o"));
  std::vector<std::string> accs;
  for (size_t k = 0; k < n; ++k) {
    accs.push_back(fmt::format("acc{}", k));
    em.Line(fmt::format("{} {} = {};", results.facts[k].glsl, accs.back(), init[k].code));
  }
  // The window's positions in ascending lexicographic order: one loop per dimension of size > 1.
  for (size_t d = 0; d < rank; ++d) {
    if (w.dimensions[d] > 1) em.Open(fmt::format("for (int w{0} = 0; w{0} < {1}; ++w{0})", d, w.dimensions[d]));
  }
  std::string inside;
  std::vector<std::string> q(rank);
  for (size_t d = 0; d < rank; ++d) {
    const std::string wd = w.dimensions[d] > 1 ? fmt::format("w{}", d) : "0";
    // Position in the padded, dilated input; the input element is q = p / base_dilation.
    const std::string p = em.Var("int", fmt::format("{} * {} + {} * {} - ({})", out[d], w.strides[d], wd,
                                                    w.window_dilations[d], w.padding_low[d]));
    const int64_t bd = w.base_dilations[d];
    q[d] = bd == 1 ? p : em.Var("int", fmt::format("{} / {}", p, bd));
    std::string cond = fmt::format("{} >= 0 && {} < {}", p, q[d], in_dims[d]);
    if (bd > 1) cond += fmt::format(" && ({} % {}) == 0", p, bd);
    inside += (inside.empty() ? "" : " && ") + cond;
  }
  std::vector<std::string> xs;
  for (size_t k = 0; k < n; ++k) {
    xs.push_back(fmt::format("x{}", k));
    em.Line(fmt::format("{} {} = {};", results.facts[k].glsl, xs.back(), init[k].code));
  }
  em.Open(fmt::format("if ({})", inside.empty() ? "true" : inside));
  const Index index = Index::Multi(in_dims, q);
  for (size_t k = 0; k < n; ++k) {
    VKHLO_ASSIGN_OR_RETURN(Expr value, em.Emit(op.operand(k), index));
    VKHLO_ASSIGN_OR_RETURN(value, em.Compute(value));
    em.Line(fmt::format("{} = {};", xs[k], value.code));
  }
  em.Close();
  VKHLO_RETURN_IF_ERROR(EmitCombine(em, reducer, Named(reducer, accs), Named(reducer, xs), accs));
  for (size_t d = 0; d < rank; ++d) {
    if (w.dimensions[d] > 1) em.Close();
  }
  results.Store(em, Named(reducer, accs), "o", "e");
  em.Close();
  results.Flush(em, fmt::format("i * {}u", pack));
  if (!em.sticky_error().ok()) return em.sticky_error();
  const uint64_t groups = (static_cast<uint64_t>(rows) + pack * wg - 1) / (pack * wg);
  b.writer().FusedOps(fusion.ops, options.source_name);
  kernel.dispatches.push_back(b.Finish(fusion.name + ".reduce_window", kernel.summary, wg, groups,
                                       fmt::format("reduce_window {}: {} results, {} per invocation", fusion.name,
                                                   rows, pack)));
  return kernel;
}

bool AcceptsReduceWindow(const ir::Operation& op) {
  return AnalyzeReducer(op).ok() && ReducerIsElemental(op);
}

}  // namespace

void RegisterReduceWindowKernel(DeviceKernelTable& table) {
  DeviceKernelEmitter emitter;
  emitter.emit = &EmitReduceWindow;
  emitter.accepts = &AcceptsReduceWindow;
  table.Register(ir::OpCode::kReduceWindow, emitter);
}

}  // namespace vkhlo::codegen::reduction
