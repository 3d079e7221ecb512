// Executable::Serialize: an executable loaded from a file written as it was read; a compiled one
// lowered to a plan again (plan_lowering.h, through ExecutableState::lower_to_plan, which the
// compiler sets: the runtime does not depend on it) and written as a .vkx file.
#include "plan/plan_writer.h"
#include "runtime/loaded_plan.h"
#include "vkhlo/runtime.h"

namespace vkhlo {

StatusOr<std::vector<uint8_t>> Executable::Serialize() const {
  if (!state_) return FailedPreconditionError("Serialize: an empty Executable");
  // Loaded from a file: the plan as read. Compiled: lowered again, with the constants' bytes
  // and the source hash the plan Execute runs leaves out.
  if (state_->compiled == nullptr && state_->loaded != nullptr && state_->loaded->constant_bytes) {
    return plan::WritePlan(state_->loaded->plan);
  }
  if (state_->lower_to_plan == nullptr) {
    return FailedPreconditionError("Serialize: the executable holds no plan with its constants to write");
  }
  VKHLO_ASSIGN_OR_RETURN(plan::Plan plan, state_->lower_to_plan(*state_));
  return plan::WritePlan(plan);
}

}  // namespace vkhlo
