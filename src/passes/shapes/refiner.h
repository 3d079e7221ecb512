// The propagation step of shape refinement (refine.h, step 2): one pass over a function in
// program order, nested regions where their ops are, callees specialised as calls are met.
// Each op first takes the replacements of its operands (a rewritten op's results live on in
// its replacement), then:
//   - func.call: specialised callee (refine_calls.cc);
//   - while / if / case: regions refined with the static types of what flows in, results from
//     what the regions return (refine_calls.cc);
//   - @shape_assertion: checked on its folded operands, then removed;
//   - a dynamic-shape op: its static form when its shape operands are constants (an error when
//     its result is dynamic and they are not);
//   - any other op: nested regions refined, then the result types its operands imply;
//   - then, an op of constants with a small integer result is folded (shape arithmetic).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>

#include "ir/module.h"
#include "ir/walk.h"
#include "vkhlo/status.h"

namespace vkhlo::passes::shapes {

class Refiner {
 public:
  explicit Refiner(ir::Module& module) : module_(module) {}

  // Refines `function` in place: its parameters' types are set; its result types follow.
  Status RefineFunction(ir::Function& function);

 private:
  Status RefineBlock(ir::Block& block);
  // The op at `index` of `block`; a rewrite leaves its replacement at `index`.
  Status RefineOp(ir::Block& block, size_t index);

  // refine_ops.cc
  Status RefineResultTypes(ir::Operation& op);
  Status RewriteDynamicOp(ir::Block& block, size_t index);
  Status CheckShapeAssertion(ir::Block& block, size_t index);
  Status FoldIfConstant(ir::Block& block, size_t index);
  // Replaces the op at `index + 1` (the original, after `replacement` was inserted at `index`)
  // by `replacement`'s results, and removes it.
  void Replace(ir::Block& block, size_t index, const std::vector<ir::Value*>& replacement);
  // "computed by 'stablehlo.dot_general' at 4:5", "argument 2 of @main (tensor<2xi64>)", ...
  std::string DescribeSource(const ir::Value* value) const;

  // refine_calls.cc
  Status RefineCall(ir::Operation& call);
  // The call at `index`'s results its (specialised) callee returns as small integer constants
  // (sizes it computed) become constants after the call, so that shapes computed through
  // functions fold too.
  Status FoldCallResults(ir::Block& block, size_t index);
  Status RefineWhile(ir::Operation& op);
  Status RefineBranches(ir::Operation& op);
  StatusOr<ir::Function*> Specialization(const ir::Function& callee, const ir::Operation& call);
  // `op`'s results take `types` (what its regions or callee return), which must fit the
  // declared ones ("result 0 is tensor<3xf32> for these argument shapes, but its type is ...").
  Status TakeResultTypes(ir::Operation& op, const std::vector<ir::Type>& types);
  bool IsFunctionPolymorphic(const ir::Function& function);

  ir::Module& module_;
  ir::ValueMap replaced_;                          // results of rewritten ops -> their replacements
  // Rewritten ops, kept until refinement ends: their results are keys of `replaced_`, whose
  // addresses must not be reused by new values meanwhile.
  std::vector<std::unique_ptr<ir::Operation>> removed_;
  std::map<std::string, std::string> specialized_;  // callee + argument types + constants -> copy
  std::map<std::string, bool> polymorphic_;         // per function name
  std::set<std::string> active_;                    // functions being refined (recursion)
  int depth_ = 0;
};

}  // namespace vkhlo::passes::shapes
