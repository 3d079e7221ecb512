// The element generators of ops, by op code: one function per op (or family), registered by the
// op group files (arithmetic.cc, bitwise.cc, compare_select.cc, convert.cc, math.cc,
// data_movement.cc, constants.cc, map.cc, gather.cc,
// dynamic_update_slice.cc, dynamic_shape.cc).
//
// A generator returns the element of the op's (single) result at `index`.
#pragma once

#include "codegen/elemental/emitter.h"
#include "ir/op_table.h"

namespace vkhlo::codegen {

using OpEmitFn = StatusOr<Expr> (*)(ElementalEmitter& emitter, const ir::Operation& op, const Index& index);

class OpEmitterTable {
 public:
  void Register(ir::OpCode code, OpEmitFn fn);
  OpEmitFn Find(ir::OpCode code) const;

 private:
  std::vector<OpEmitFn> table_;
};

// The table of every op that has a generator.
const OpEmitterTable& OpEmitters();

// True when `op` can be emitted elementally (it has a generator and its types are plain
// tensors). Constants are elemental; whether a big one is read from a buffer instead is the
// fusion's decision.
bool IsElementalOp(const ir::Operation& op);

// Converts a compute value to another element type with StableHLO convert semantics (shared by
// convert, iota and the bool/int/float corners of other ops).
StatusOr<Expr> ConvertElement(ElementalEmitter& emitter, const Expr& value, ir::ElementType to);

// The element of a pad (or dynamic_pad: operand 0 padded with the scalar operand 1) with the
// given low and interior padding.
StatusOr<Expr> PadElement(ElementalEmitter& emitter, const ir::Operation& op, const Index& index,
                          std::vector<int64_t> low, std::vector<int64_t> interior);

void RegisterArithmeticEmitters(OpEmitterTable& table);
void RegisterBitwiseEmitters(OpEmitterTable& table);
void RegisterCompareSelectEmitters(OpEmitterTable& table);
void RegisterConvertEmitters(OpEmitterTable& table);
void RegisterMathEmitters(OpEmitterTable& table);
void RegisterDataMovementEmitters(OpEmitterTable& table);
void RegisterConstantEmitters(OpEmitterTable& table);
void RegisterMapEmitter(OpEmitterTable& table);
void RegisterGatherEmitters(OpEmitterTable& table);
void RegisterDynamicUpdateSliceEmitter(OpEmitterTable& table);
void RegisterDynamicShapeEmitters(OpEmitterTable& table);

}  // namespace vkhlo::codegen
