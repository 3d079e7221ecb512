// dynamic_iota, dynamic_reshape, dynamic_broadcast_in_dim and dynamic_pad with statically
// shaped results: their shape operands must be constants consistent with the result type
// (checked here, at compile time: a clear error otherwise), and they then compute as their
// static counterparts (which read only operand 0 and the attributes the dynamic ops share).
#include <fmt/format.h>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/index_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

StatusOr<Expr> AsStatic(ElementalEmitter& em, const Operation& op, const Index& index, ir::OpCode code) {
  OpEmitFn fn = OpEmitters().Find(code);
  if (fn == nullptr) return em.OpError(op, "has no static counterpart");
  return fn(em, op, index);
}

StatusOr<Expr> EmitDynamicIota(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_RETURN_IF_ERROR(CheckStaticOperand(em, op, 0, op.result(0)->type().dims(), "output_shape"));
  return AsStatic(em, op, index, ir::OpCode::kIota);
}

StatusOr<Expr> EmitDynamicReshape(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_RETURN_IF_ERROR(CheckStaticOperand(em, op, 1, op.result(0)->type().dims(), "output_shape"));
  return AsStatic(em, op, index, ir::OpCode::kReshape);
}

StatusOr<Expr> EmitDynamicBroadcastInDim(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_RETURN_IF_ERROR(CheckStaticOperand(em, op, 1, op.result(0)->type().dims(), "output_dimensions"));
  return AsStatic(em, op, index, ir::OpCode::kBroadcastInDim);
}

StatusOr<Expr> EmitDynamicPad(ElementalEmitter& em, const Operation& op, const Index& index) {
  std::optional<std::vector<int64_t>> low = ConstantIntegers(op, 2), high = ConstantIntegers(op, 3),
                                      interior = ConstantIntegers(op, 4);
  if (!low || !high || !interior) {
    return em.OpError(op, "needs constant edge_padding_low, edge_padding_high and interior_padding on the Vulkan "
                          "backend (padding known only at run time is not supported)");
  }
  const std::vector<int64_t>& od = op.operand(0)->type().dims();
  const std::vector<int64_t>& rd = op.result(0)->type().dims();
  if (low->size() != od.size() || high->size() != od.size() || interior->size() != od.size() ||
      rd.size() != od.size()) {
    return em.OpError(op, "has padding operands of the wrong length");
  }
  for (size_t d = 0; d < od.size(); ++d) {
    const int64_t size = (*low)[d] + (*high)[d] + od[d] + std::max<int64_t>(od[d] - 1, 0) * (*interior)[d];
    if ((*interior)[d] < 0 || size != rd[d]) {
      return em.OpError(op, fmt::format("has padding inconsistent with its result type {} (dimension {})",
                                        op.result(0)->type().ToString(), d));
    }
  }
  return PadElement(em, op, index, *low, *interior);
}

}  // namespace

void RegisterDynamicShapeEmitters(OpEmitterTable& t) {
  t.Register(ir::OpCode::kDynamicIota, EmitDynamicIota);
  t.Register(ir::OpCode::kDynamicReshape, EmitDynamicReshape);
  t.Register(ir::OpCode::kDynamicBroadcastInDim, EmitDynamicBroadcastInDim);
  t.Register(ir::OpCode::kDynamicPad, EmitDynamicPad);
}

}  // namespace vkhlo::codegen
