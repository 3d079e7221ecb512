#include "codegen/in_place.h"

#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

// Uses of `v` by the ops of `block` and of their regions (each operand slot counts).
int CountUsesIn(const ir::Block& block, const ir::Value* v) {
  int uses = 0;
  for (const auto& op : block.operations()) {
    for (const ir::Value* operand : op->operands()) uses += operand == v ? 1 : 0;
    for (size_t r = 0; r < op->num_regions(); ++r) {
      for (const auto& inner : op->region(r).blocks()) uses += CountUsesIn(*inner, v);
    }
  }
  return uses;
}

bool RunsInPlace(const ir::Operation& op, int depth) {
  if (op.code() != ir::OpCode::kDynamicUpdateSlice || op.num_operands() < 2 || depth > 64) return false;
  if (!IsElementalOp(op) || op.operand(0)->type() != op.result(0)->type()) return false;
  if (!OperandDiesAt(op, 0)) return false;
  const ir::Value* operand = op.operand(0);
  if (operand->is_block_argument()) {
    // A region's argument (a while body's loop-carried value); a function's arguments are
    // the caller's buffers, never updated in place.
    const ir::Block* block = operand->owner_block();
    return block != nullptr && block->parent_region() != nullptr && block->parent_region()->parent_op() != nullptr;
  }
  const ir::Operation* def = operand->defining_op();
  if (def->code() == ir::OpCode::kConstant) return false;
  if (def->code() == ir::OpCode::kDynamicUpdateSlice) return RunsInPlace(*def, depth + 1);
  return !IsElementalOp(*def);
}

}  // namespace

bool OperandDiesAt(const ir::Operation& op, size_t index) {
  if (index >= op.num_operands()) return false;
  const ir::Value* v = op.operand(index);
  const ir::Block* scope = v->is_block_argument() ? v->owner_block() : v->defining_op()->parent_block();
  if (scope == nullptr) return false;
  return CountUsesIn(*scope, v) == 1;
}

bool DynamicUpdateSliceRunsInPlace(const ir::Operation& op) { return RunsInPlace(op, 0); }

}  // namespace vkhlo::codegen
