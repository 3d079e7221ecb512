#include "vkhlo/xla_computation.h"

#include "ir/printer.h"

namespace vkhlo {

std::string XlaComputation::ToStableHlo() const { return module_ == nullptr ? std::string() : ir::PrintModule(*module_); }

StatusOr<ProgramShape> XlaComputation::GetProgramShape() const {
  if (module_ == nullptr) return FailedPreconditionError("the computation is empty");
  return program_shape_;
}

}  // namespace vkhlo
