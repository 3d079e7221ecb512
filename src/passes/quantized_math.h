// Uniform quantization as plain StableHLO ops: what `quantized-decompose` builds in place of
// uniform_quantize / uniform_dequantize and around element-wise ops on quantized tensors.
//
// The formulas are the reference interpreter's (src/interp/elementwise_convert.cc, the oracle),
// step by step in the expressed type E, so that each step rounds exactly where it does:
//   quantize(x)   = convert<storage>(clamp(lo, round_nearest_even(convert<E>(x) / scale) + zp, hi))
//   dequantize(s) = convert<E>(convert<wide int>(s) - zp) * scale
// with scale and zp rounded to E, per tensor or per slice of the quantized dimension (a constant
// broadcast along that dimension), and [lo, hi] the type's storage_min/storage_max (the storage
// type's whole range when they are not given), rounded to E.
#pragma once

#include "ir/module.h"
#include "passes/op_builder.h"

namespace vkhlo::passes::quantized {

// tensor<dims x storage> for a quantized tensor type: the values it holds as stored.
ir::Type StorageType(const ir::Type& quantized);
// tensor<dims x expressed> for a quantized tensor type.
ir::Type ExpressedType(const ir::Type& quantized);

// A quantized value seen as its storage tensor, and back (bitcast_convert: same bits).
ir::Value* ToStorage(OpBuilder& b, ir::Value* quantized);
ir::Value* FromStorage(OpBuilder& b, ir::Value* storage, const ir::Type& quantized);

// Float tensor `x` (any float type, `quantized`'s dims) quantized to `quantized`: returns the
// storage tensor.
ir::Value* Quantize(OpBuilder& b, ir::Value* x, const ir::Type& quantized);

// Storage tensor `storage` holding values of `quantized`: returns them in the expressed type.
ir::Value* Dequantize(OpBuilder& b, ir::Value* storage, const ir::Type& quantized);

// The scale/zero-point arrays match the quantized dimension (or are single), the storage type
// is an integer and the expressed type a float: what the formulas above need.
Status CheckQuantizedType(const ir::Operation& op, const ir::Type& type);

}  // namespace vkhlo::passes::quantized
