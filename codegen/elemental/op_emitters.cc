#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {

void OpEmitterTable::Register(ir::OpCode code, OpEmitFn fn) {
  const size_t i = static_cast<size_t>(code);
  if (table_.size() <= i) table_.resize(i + 1, nullptr);
  table_[i] = fn;
}

OpEmitFn OpEmitterTable::Find(ir::OpCode code) const {
  const size_t i = static_cast<size_t>(code);
  return i < table_.size() ? table_[i] : nullptr;
}

const OpEmitterTable& OpEmitters() {
  static const OpEmitterTable* table = [] {
    auto* t = new OpEmitterTable();
    RegisterArithmeticEmitters(*t);
    RegisterBitwiseEmitters(*t);
    RegisterCompareSelectEmitters(*t);
    RegisterConvertEmitters(*t);
    RegisterMathEmitters(*t);
    RegisterDataMovementEmitters(*t);
    RegisterConstantEmitters(*t);
    RegisterMapEmitter(*t);
    RegisterGatherEmitters(*t);
    RegisterDynamicUpdateSliceEmitter(*t);
    RegisterDynamicShapeEmitters(*t);
    return t;
  }();
  return *table;
}

namespace {

bool IsPlainTensor(const ir::Type& type) { return type.is_tensor() && !type.is_quantized(); }

bool RegionIsElemental(const ir::Region& region) {
  for (const auto& block : region.blocks()) {
    for (const auto& op : block->operations()) {
      if (op->code() == ir::OpCode::kReturn) continue;
      if (!IsElementalOp(*op)) return false;
    }
  }
  return true;
}

}  // namespace

bool IsElementalOp(const ir::Operation& op) {
  if (OpEmitters().Find(op.code()) == nullptr) return false;
  if (op.num_results() != 1 || !IsPlainTensor(op.result(0)->type())) return false;
  for (const ir::Value* operand : op.operands()) {
    if (!IsPlainTensor(operand->type())) return false;
  }
  for (size_t i = 0; i < op.num_regions(); ++i) {
    if (!RegionIsElemental(op.region(i))) return false;
  }
  return true;
}

}  // namespace vkhlo::codegen
