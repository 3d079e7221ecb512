// Finds the element-wise chain after a dot_general / convolution that the library kernel can
// absorb as its epilogue: `add` / `subtract` / `multiply` / `maximum` / `minimum` with a
// broadcast (or same-shape) value, `multiply` by a splat constant (a scale), `maximum` with a
// zero splat (relu), and a final `convert`. Each absorbed value must have exactly one use (the
// next op of the chain), so nothing else needs it in memory. For the runtime's fusion planning:
//
//   FusedEpilogue f = MatchEpilogue(block, dot_op);
//   plan = PlanDotGeneral(dot_op, target, f.epilogue);   // bind f.inputs as epilogue inputs
//   // f.result gets the plan's result buffer; f.fused are not executed separately.
#pragma once

#include <vector>

#include "codegen/library/epilogue.h"
#include "ir/module.h"

namespace vkhlo::codegen::library {

struct FusedEpilogue {
  Epilogue epilogue;
  std::vector<const ir::Value*> inputs;     // epilogue input i is bound from inputs[i]
  std::vector<const ir::Operation*> fused;  // absorbed ops, in order
  const ir::Value* result = nullptr;        // the value the plan's result holds
};

// `op` (a dot_general, dot or convolution in `block`) and the chain after it; with no chain
// the epilogue is empty and `result` is op's result.
FusedEpilogue MatchEpilogue(const ir::Block& block, const ir::Operation& op);

}  // namespace vkhlo::codegen::library
