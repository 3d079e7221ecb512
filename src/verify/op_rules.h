// The verifier's one table: for every op code, the function that infers its result types (when
// they are implied) and the function that checks its remaining constraints. Each group of ops
// (element-wise, data movement, reductions, ...) lists its rules in its own file; the table is
// assembled from those lists once, and VerifyOperation / InferResultTypes dispatch through it.
#pragma once

#include <span>
#include <vector>

#include "ir/op_table.h"
#include "ir/type.h"
#include "verify/op_context.h"
#include "vkhlo/status.h"

namespace vkhlo::verify {

using VerifyFn = Status (*)(const OpContext&);
using InferFn = StatusOr<std::vector<ir::Type>> (*)(const OpContext&);

// How the inferred result types are compared with the op's own.
enum class ResultMatch : uint8_t {
  kExact,       // equal types
  kCompatible,  // equal, except that quantization parameters (scales, zero points) may differ
  kShape,       // same shapes; the verify function checks element types
};

struct OpRule {
  ir::OpCode code;
  // Result types implied by the operands, attributes and regions (checking the constraints
  // that involve only those). nullptr when the results must be given.
  InferFn infer = nullptr;
  // The constraints that remain (those involving the op's own result types). May be nullptr.
  VerifyFn verify = nullptr;
  // What a mismatch between inferred and actual results means, in the constraint's words:
  // "result type must match the operands (C1)".
  const char* result_what = "result types must match the inferred types";
  ResultMatch match = ResultMatch::kExact;
};

// The rule lists of each group.
std::span<const OpRule> ElementwiseRules();
std::span<const OpRule> DataMovementRules();
std::span<const OpRule> GatherScatterRules();
std::span<const OpRule> ReductionRules();
std::span<const OpRule> LibraryRules();
std::span<const OpRule> ControlFlowRules();
std::span<const OpRule> CollectiveRules();
std::span<const OpRule> OtherRules();
std::span<const OpRule> ChloRules();

// The rule of an op code (nullptr for one no group registered; a unit test keeps that empty).
const OpRule* FindRule(ir::OpCode code);

}  // namespace vkhlo::verify
