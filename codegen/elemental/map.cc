// stablehlo.map: the region is inlined. Its arguments are bound to the operands' elements at
// the result index, and its return value is emitted at the scalar index in a fresh memo scope
// (so two indices of one map never share the region's values).
#include <fmt/format.h>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

StatusOr<Expr> EmitMap(ElementalEmitter& em, const ir::Operation& op, const Index& index) {
  if (op.num_regions() != 1 || op.region(0).empty()) return em.OpError(op, "needs one region");
  const ir::Block& block = op.region(0).front();
  if (block.num_arguments() != op.num_operands()) {
    return em.OpError(op, "has a region whose arguments do not match its operands");
  }
  std::vector<Expr> arguments;
  for (size_t k = 0; k < op.num_operands(); ++k) {
    VKHLO_ASSIGN_OR_RETURN(Expr value, em.Operand(op, k, index));
    arguments.push_back(value);
  }
  const ir::Operation* terminator = block.back();
  if (terminator == nullptr || terminator->num_operands() != 1) {
    return em.OpError(op, "has a region that does not return one value");
  }
  em.PushScope();
  for (size_t k = 0; k < arguments.size(); ++k) em.Bind(block.argument(k), arguments[k]);
  StatusOr<Expr> result = em.Emit(terminator->operand(0), Index::Scalar());
  for (size_t k = 0; k < arguments.size(); ++k) em.Unbind(block.argument(k));
  em.PopScope();
  return result;
}

}  // namespace

void RegisterMapEmitter(OpEmitterTable& t) { t.Register(ir::OpCode::kMap, EmitMap); }

}  // namespace vkhlo::codegen
