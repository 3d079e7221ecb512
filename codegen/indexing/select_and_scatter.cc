// stablehlo.select_and_scatter as a device kernel: one invocation per result (= operand)
// element p starts from init_value and walks, in row-major order, the source elements whose
// window contains p; for each it repeats that window's selection (row-major over the window,
// padding positions are not candidates, the kept candidate is replaced when select(kept,
// candidate) is false: the interpreter's rule) and, when the selected position is p, folds the
// source element in with the scatter region. Deterministic, and no two invocations write one
// word. Cost: results x (windows containing an element) x window size.
#include <fmt/format.h>

#include "codegen/elemental/emit_util.h"
#include "codegen/indexing/element_dispatch.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

bool AcceptsSelectAndScatter(const Operation& op) {
  return op.num_regions() == 2 && op.num_operands() == 3 && op.num_results() == 1 &&
         RegionIsElemental(op.region(0)) && RegionIsElemental(op.region(1));
}

std::vector<int64_t> I64s(const Operation& op, const char* name, std::vector<int64_t> fallback) {
  const ir::Attribute* a = op.attribute(name);
  if (a == nullptr) return fallback;
  return a->AsI64Vector().value_or(fallback);
}

// floor(x / s) and ceil(x / s) of an int expression for a positive constant s.
std::string FloorDiv(const std::string& x, int64_t s) {
  return fmt::format("(({0}) >= 0 ? ({0}) / {1} : -((-({0}) + {2}) / {1}))", x, s, s - 1);
}
std::string CeilDiv(const std::string& x, int64_t s) {
  return fmt::format("(({0}) >= 0 ? (({0}) + {2}) / {1} : -((-({0})) / {1}))", x, s, s - 1);
}

StatusOr<std::vector<Expr>> SelectAndScatterElement(ElementalEmitter& em, const Operation& op, const Index& index) {
  const std::vector<int64_t>& od = op.operand(0)->type().dims();
  const std::vector<int64_t>& sd = op.operand(1)->type().dims();
  const size_t rank = od.size();
  const std::vector<int64_t> window = I64s(op, "window_dimensions", {});
  const std::vector<int64_t> strides = I64s(op, "window_strides", std::vector<int64_t>(rank, 1));
  const std::vector<int64_t> padding = I64s(op, "padding", std::vector<int64_t>(2 * rank, 0));
  if (window.size() != rank || strides.size() != rank || padding.size() != 2 * rank || sd.size() != rank) {
    return em.OpError(op, "has window attributes inconsistent with its operand");
  }
  const ir::ElementType type = ResultElementType(op);
  const TypeFacts& facts = em.Facts(type);
  VKHLO_ASSIGN_OR_RETURN(Expr init, em.Operand(op, 2, Index::Scalar()));
  const Expr acc{em.Var(facts.raw_glsl, em.Raw(init).code), type, true};
  std::vector<std::string> p = em.Multi(index);
  const std::string p_linear = em.Linear(index);

  // Source positions whose window holds p: s * stride + o - pad_low == p for some o in the window.
  std::vector<std::string> s(rank);
  for (size_t d = 0; d < rank; ++d) {
    const std::string q = em.Var("int", fmt::format("{} + {}", p[d], IntLiteral(padding[2 * d])));
    const std::string lo =
        em.Var("int", fmt::format("max(0, {})", CeilDiv(fmt::format("{} - {}", q, window[d] - 1), strides[d])));
    const std::string hi = em.Var("int", fmt::format("min({}, {})", sd[d] - 1, FloorDiv(q, strides[d])));
    s[d] = fmt::format("s{}", d);
    em.Open(fmt::format("for (int s{0} = {1}; s{0} <= {2}; ++s{0})", d, lo, hi));
  }
  // The window's selection, row-major.
  const std::string have = em.Var("bool", "false");
  const std::string selected = em.Var("uint", "0u");
  const Expr kept{em.Var(facts.raw_glsl, RawLiteral(facts.storage_bits, 0)), type, true};
  std::vector<std::string> pos(rank);
  std::vector<std::string> inside;
  for (size_t d = 0; d < rank; ++d) em.Open(fmt::format("for (int o{0} = 0; o{0} < {1}; ++o{0})", d, window[d]));
  for (size_t d = 0; d < rank; ++d) {
    pos[d] = em.Var("int", fmt::format("s{} * {} + o{} - {}", d, strides[d], d, IntLiteral(padding[2 * d])));
    inside.push_back(fmt::format("uint({}) < {}u", pos[d], od[d]));
  }
  em.Open(fmt::format("if ({})", inside.empty() ? "true" : fmt::format("{}", fmt::join(inside, " && "))));
  const Index candidate_index = Index::Multi(od, pos);
  VKHLO_ASSIGN_OR_RETURN(Expr candidate, em.Operand(op, 0, candidate_index));
  const Expr raw_candidate = em.Raw(candidate);
  const std::string candidate_linear = em.Linear(candidate_index);
  em.Open(fmt::format("if (!{})", have));
  em.Line(fmt::format("{} = true; {} = {}; {} = {};", have, selected, candidate_linear, kept.code, raw_candidate.code));
  em.Else();
  VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> keep, EvaluateRegion(em, op, op.region(0), {kept, raw_candidate}));
  if (keep.size() != 1 || keep[0].type != ir::ElementType::kI1) {
    return em.OpError(op, "has a select region that does not return one i1");
  }
  em.Open(fmt::format("if ({} == 0u)", keep[0].code));
  em.Line(fmt::format("{} = {}; {} = {};", selected, candidate_linear, kept.code, raw_candidate.code));
  em.Close();
  em.Close();  // if (!have) ... else
  em.Close();  // if inside
  for (size_t d = 0; d < rank; ++d) em.Close();
  em.Open(fmt::format("if ({} && {} == {})", have, selected, p_linear));
  VKHLO_ASSIGN_OR_RETURN(Expr source, em.Operand(op, 1, Index::Multi(sd, s)));
  VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> folded, EvaluateRegion(em, op, op.region(1), {acc, source}));
  if (folded.size() != 1 || folded[0].type != type) return em.OpError(op, "has a scatter region of the wrong type");
  em.Line(fmt::format("{} = {};", acc.code, folded[0].code));
  em.Close();
  for (size_t d = 0; d < rank; ++d) em.Close();
  return std::vector<Expr>{acc};
}

StatusOr<DeviceKernel> EmitSelectAndScatter(const Fusion& fusion, const TargetInfo& target,
                                            const KernelOptions& options) {
  const Operation& op = *fusion.device_op;
  DeviceKernel kernel;
  kernel.summary = "select_and_scatter: one invocation per result element gathers the windows that select it";
  VKHLO_ASSIGN_OR_RETURN(KernelDispatch dispatch,
                         EmitElementDispatch(fusion, target, options, "select_and_scatter",
                                             [&](ElementalEmitter& em, const Index& index) {
                                               return SelectAndScatterElement(em, op, index);
                                             }));
  kernel.dispatches.push_back(std::move(dispatch));
  return kernel;
}

}  // namespace

void RegisterSelectAndScatterKernels(DeviceKernelTable& table) {
  table.Register(ir::OpCode::kSelectAndScatter, {&EmitSelectAndScatter, &AcceptsSelectAndScatter});
}

}  // namespace vkhlo::codegen
