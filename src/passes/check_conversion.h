// How the compiler hands a check op to the host (include/vkhlo/checks.h): its comparison and
// its constant expectation, shared by the passes that lower test programs (lower_checks.h,
// stage_grid_test.h).
#pragma once

#include "interp/checks.h"
#include "ir/literal.h"
#include "vkhlo/checks.h"
#include "vkhlo/process_grid.h"

namespace vkhlo::passes {

CheckComparison ToComparison(const interp::CheckParams& params);

// The literal's storage bytes (one element for a splat, which Literal::FromBytes reads back as a
// splat).
HostTensor ToHostTensor(const ir::Literal& literal);

}  // namespace vkhlo::passes
