#include "interp/op_registry.h"

namespace vkhlo::interp {

void OpRegistry::Register(ir::OpCode code, OpEvaluator evaluator) {
  evaluators_[static_cast<size_t>(code)] = evaluator;
}

OpEvaluator OpRegistry::Find(ir::OpCode code) const { return evaluators_[static_cast<size_t>(code)]; }

const OpRegistry& GetOpRegistry() {
  static const OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    RegisterStructuralOps(*r);
    RegisterElementwiseOps(*r);
    RegisterDataMovementOps(*r);
    RegisterReductionOps(*r);
    RegisterControlFlowOps(*r);
    RegisterLibraryOps(*r);
    RegisterRandomOps(*r);
    RegisterCollectiveOps(*r);
    return r;
  }();
  return *registry;
}

}  // namespace vkhlo::interp
