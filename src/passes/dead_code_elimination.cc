// DCE: ops whose results nobody uses and whose evaluation has no effect other than producing
// them are removed; so are private functions no call reaches. Repeats until nothing changes
// (removing one op can make its producers dead).
#include "passes/op_properties.h"
#include "passes/passes.h"
#include "passes/symbols.h"

namespace vkhlo::passes {
namespace {

class DeadCodeElimination : public Pass {
 public:
  std::string_view name() const override { return "dce"; }

  StatusOr<bool> Run(ir::Module& module) override {
    bool changed = false;
    for (const auto& function : module.functions()) {
      changed |= RemoveUnusedPureOps(function->body());
    }
    changed |= RemoveUnreferencedPrivateFunctions(module);
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateDeadCodeEliminationPass() { return std::make_unique<DeadCodeElimination>(); }

}  // namespace vkhlo::passes
