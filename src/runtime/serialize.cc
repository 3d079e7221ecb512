// Executable::Serialize: the executable lowered to a plan (plan_lowering.h) and written as a
// .vkx file (plan/plan_writer.h).
#include "plan/plan_writer.h"
#include "runtime/plan_lowering.h"
#include "vkhlo/runtime.h"

namespace vkhlo {

StatusOr<std::vector<uint8_t>> Executable::Serialize() const {
  if (!state_) return FailedPreconditionError("Serialize: an empty Executable");
  VKHLO_ASSIGN_OR_RETURN(plan::Plan plan, runtime::LowerToPlan(*state_));
  return plan::WritePlan(plan);
}

}  // namespace vkhlo
