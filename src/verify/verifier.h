// Verification: the StableHLO spec's constraints (C1..Cn of every op), region signatures, SSA
// structure, and shape inference. Pure functions of types and attributes, shared by the text
// frontend and (later) the C++ builder.
//
// Every error reads
//   "<file>:<line>:<col>: error: 'stablehlo.op' <what failed>: expected <...>, found <...>"
// with the constraint's label where the spec has one ("operand types must match (C1)"); the
// file is the module's source name, and line:col are left out when the op's location is unknown.
//
// Inside: one rule per op code (op_rules.h) — a shape function for the ops whose results are
// implied and a check of the remaining constraints — listed by concept in elementwise.cc,
// data_movement.cc, gather_scatter.cc, reduction.cc, library_ops.cc, control_flow.cc,
// collectives.cc, other_ops.cc and chlo.cc; module_verifier.cc checks the structure around the
// ops. The verifier never crashes on malformed IR: odd attributes, negative or overflowing
// dimensions, empty regions and dangling values are errors like any other.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::verify {

// Checks a whole module: function signatures and calls, SSA uses before definition, block
// terminators, and every op's constraints. Returns the first error (INVALID_ARGUMENT).
Status VerifyModule(const ir::Module& module);

// Checks one op's own constraints (operands, results, attributes, regions), not its uses.
Status VerifyOperation(const ir::Operation& op);

// The result types an op's operands and attributes imply, for ops whose results are implied
// (element-wise ops, dot_general, reduce, ...). UNIMPLEMENTED for ops whose result types must be
// given (e.g. reshape, custom_call). `regions` may be empty when the op has none.
StatusOr<std::vector<ir::Type>> InferResultTypes(ir::OpCode code,
                                                 std::span<const ir::Type> operand_types,
                                                 const std::vector<ir::NamedAttribute>& attributes,
                                                 std::span<const ir::Region* const> regions = {});

// Checks an op that is not built yet, from its types and attributes alone (shape refinement
// tries static forms of dynamic ops this way before making them): the constraints
// VerifyOperation checks, but those that look at the values of operands. `prefix` starts the
// message ("file:line:col: ", from LocationPrefix).
Status VerifyTypes(ir::OpCode code, std::span<const ir::Type> operand_types, std::span<const ir::Type> result_types,
                   const std::vector<ir::NamedAttribute>& attributes, std::span<const ir::Region* const> regions,
                   std::string_view prefix);

}  // namespace vkhlo::verify
