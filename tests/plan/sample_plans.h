// Plans for tests of the plan module and for the plan fuzzer's seed corpus
// (fuzz/plan_seeds.cc): built in code, so that the corpus is regenerated from this source and
// never a hand-made binary blob.
#pragma once

#include "plan/plan.h"

namespace vkhlo::plan::testing {

// A plan that uses every step kind, every value placement and buffer kind, nested control
// flow (a batched while whose body holds an if and a call, a counted while, a case sharing
// branch lists, a collective with a reducer list), kernels with texel, address and windowed
// bindings, and a header with tokens and a nested result tuple. It passes Validate().
Plan EveryStepPlan();

// The smallest valid plan: an entry list returning its argument.
Plan IdentityPlan();

}  // namespace vkhlo::plan::testing
