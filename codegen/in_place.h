// In-place updates: a dynamic_update_slice or scatter whose operand is dead after it may write
// its result into the operand's buffer, so that only the updated elements are written (a loop
// carrying a large buffer and updating a slice of it per iteration then costs the slice, not the
// buffer).
//
// The decision has a static half (here) and a dynamic half (the runtime, execute.cc). Static:
// the operand's only use in the whole program is this op, so no later op reads the value.
// Dynamic: the buffer holding the value must be one the execution made for a kernel's result
// and that nothing else refers to (not a caller's argument, a constant, a scratch slot, nor a
// buffer two values share, as a while's operands can). The device kernel is always built for
// both outcomes: DeviceKernel::in_place names the output that may take the input's buffer, and
// the dispatches that merely copy that input to the output (skip_in_place), which the runtime
// skips when it could alias.
#pragma once

#include <cstddef>

#include "ir/module.h"

namespace vkhlo::codegen {

// Whether operand `index` of `op` is used by `op` alone (once), anywhere in the program.
bool OperandDiesAt(const ir::Operation& op, size_t index);

// Whether a dynamic_update_slice runs in place (as a device kernel over the update's elements)
// rather than fusing elementally: its operand dies at it and already has a buffer of its own
// — a block argument of a region (a loop-carried value) or the result of a non-elemental op
// (another in-place update included). An operand the op would otherwise fuse (computed
// elementally for it alone) is better computed in the same pass as the result.
bool DynamicUpdateSliceRunsInPlace(const ir::Operation& op);

}  // namespace vkhlo::codegen
