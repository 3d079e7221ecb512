// dynamic_update_slice as index arithmetic: result[i] = update[i - start] inside the window at
// the (clamped) start, operand[i] elsewhere. Each element reads exactly one of the two, inside
// a branch. (Updating the operand's buffer in place when it is dead afterwards would write only
// the window; that is a runtime buffer-reuse optimization not done here.)
#include <fmt/format.h>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/index_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

StatusOr<Expr> EmitDynamicUpdateSlice(ElementalEmitter& em, const ir::Operation& op, const Index& index) {
  const std::vector<int64_t>& od = op.operand(0)->type().dims();
  const std::vector<int64_t>& ud = op.operand(1)->type().dims();
  if (ud.size() != od.size() || op.num_operands() != od.size() + 2) {
    return em.OpError(op, "needs an update of the operand's rank and one start index per dimension");
  }
  std::vector<std::string> multi = em.Multi(index);
  std::vector<std::string> inside(od.size());
  std::vector<std::string> conditions;
  for (size_t d = 0; d < od.size(); ++d) {
    if (ud[d] > od[d]) return em.OpError(op, "has an update larger than its operand");
    VKHLO_ASSIGN_OR_RETURN(Expr start, em.Operand(op, d + 2, Index::Scalar()));
    VKHLO_ASSIGN_OR_RETURN(std::string clamped, ClampedIndex(em, op, start, od[d] - ud[d]));
    inside[d] = em.Var("int", fmt::format("{} - {}", multi[d], clamped));
    conditions.push_back(fmt::format("uint({}) < {}u", inside[d], ud[d]));
  }
  const TypeFacts& facts = em.Facts(ResultElementType(op));
  const std::string result = em.Var(std::string(facts.raw_glsl), RawLiteral(facts.storage_bits, 0));
  em.Open(fmt::format("if ({})", conditions.empty() ? "true" : fmt::format("{}", fmt::join(conditions, " && "))));
  VKHLO_ASSIGN_OR_RETURN(Expr update, em.Operand(op, 1, Index::Multi(ud, inside)));
  em.Line(fmt::format("{} = {};", result, em.Raw(update).code));
  em.Else();
  VKHLO_ASSIGN_OR_RETURN(Expr operand, em.Operand(op, 0, index));
  em.Line(fmt::format("{} = {};", result, em.Raw(operand).code));
  em.Close();
  return Expr{result, facts.type, true};
}

}  // namespace

void RegisterDynamicUpdateSliceEmitter(OpEmitterTable& t) {
  t.Register(ir::OpCode::kDynamicUpdateSlice, EmitDynamicUpdateSlice);
}

}  // namespace vkhlo::codegen
