// Between the IR's types and the runtime's (tensor_desc.h), for the compiler where it hands
// values to the runtime: constants it uploads, the types of a plan it loads, literals of tools.
#pragma once

#include "ir/type.h"
#include "runtime/tensor_desc.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// A tensor type (a quantized one as its storage type). Fails for tuples and tokens and for a
// dynamic dimension.
StatusOr<TensorDesc> DescOf(const ir::Type& type);
// The IR type of `type` (a plain tensor).
ir::Type IrTypeOf(const TensorDesc& type);
// Bytes a tensor of `type` takes in a buffer (tensor_desc.h BufferBytes): storage bytes
// rounded up to whole words.
uint64_t BufferBytes(const ir::Type& type);
// The public TensorType of an IR tensor type (dynamic dimensions -1).
TensorType ToTensorType(const ir::Type& type);

}  // namespace vkhlo::runtime
