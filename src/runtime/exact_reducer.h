// Which reducing collectives (all_reduce, reduce_scatter, collective_reduce) fold with an op
// whose result is the same in any order: then a transport may reduce with a library's own
// collective (MPI_Allreduce) and still give the bits the in-process grid's fold in group order
// gives. Floats never qualify (their sums depend on the order); integers do for add, multiply
// (both wrap), min, max and the bitwise ops, and booleans for and, or, xor, min and max.
#pragma once

#include <optional>
#include <vector>

#include "ir/module.h"
#include "runtime/collective_transport.h"

namespace vkhlo::runtime {

// One ExactReduction per operand of `op`, or nullopt when any operand's reduction is not one
// (a region other than `return op(arg0, arg1)`, a joint reduction, floats, sub-byte integers).
std::optional<std::vector<ExactReduction>> ExactReducer(const ir::Operation& op);

}  // namespace vkhlo::runtime
