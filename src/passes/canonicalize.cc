// canonicalize: algebraic simplification to a fixpoint. The rules (canonicalize_rules.h) are
// exact for every element type, so this pass never changes a result; ops left unused by a
// rewrite are removed (as MLIR's canonicalizer does), so the output shows the simplified form.
#include "passes/canonicalize_rules.h"
#include "passes/op_properties.h"
#include "passes/passes.h"

namespace vkhlo::passes {
namespace {

RewriteResult Simplify(ir::Operation& op, OpBuilder& builder) {
  for (auto rule : {canonicalize::SimplifyAlgebra, canonicalize::SimplifyConvert,
                    canonicalize::SimplifyShapes}) {
    RewriteResult result = rule(op, builder);
    if (!result.ok() || result->has_value()) return result;
  }
  return canonicalize::Keep();
}

class Canonicalize : public Pass {
 public:
  std::string_view name() const override { return "canonicalize"; }

  StatusOr<bool> Run(ir::Module& module) override {
    VKHLO_ASSIGN_OR_RETURN(bool changed, RewriteToFixpoint(module, Simplify));
    if (changed) {
      for (const auto& function : module.functions()) RemoveUnusedPureOps(function->body());
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateCanonicalizePass() { return std::make_unique<Canonicalize>(); }

}  // namespace vkhlo::passes
