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
  auto copy = std::make_unique<ir::Module>();
  copy->set_name(module->name());
  copy->set_source_name(module->source_name());
  copy->attributes() = module->attributes();
  for (const auto& function : module->functions()) {
    auto f = std::make_unique<ir::Function>(function->name(), function->type());
    f->set_visibility(function->visibility());
    f->arg_attributes() = function->arg_attributes();
    f->result_attributes() = function->result_attributes();
    f->attributes() = function->attributes();
    ir::ValueMap mapping;
    ir::CloneRegionInto(function->body(), f->body(), mapping);
    copy->AddFunction(std::move(f));
  }
  return copy;
}

}  // namespace internal
}  // namespace vkhlo
