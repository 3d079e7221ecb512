#include "vkhlo/xla_computation.h"

#include "builder/builder_state.h"
#include "builder/computation_module.h"
#include "ir/printer.h"
#include "ir/walk.h"

namespace vkhlo {

std::string XlaComputation::ToStableHlo() const { return module_ == nullptr ? std::string() : ir::PrintModule(*module_); }

StatusOr<ProgramShape> XlaComputation::GetProgramShape() const {
  if (module_ == nullptr) return FailedPreconditionError("the computation is empty");
  return program_shape_;
}

namespace internal {

const ir::Module* ComputationModule(const XlaComputation& computation) {
  return ComputationAccess::Module(computation).get();
}

std::shared_ptr<const ir::Module> SharedComputationModule(const XlaComputation& computation) {
  return ComputationAccess::Module(computation);
}

std::unique_ptr<ir::Module> CloneComputationModule(const XlaComputation& computation) {
  const ir::Module* module = ComputationModule(computation);
  if (module == nullptr) return nullptr;
  return ir::CloneModule(*module);
}

}  // namespace internal
}  // namespace vkhlo
