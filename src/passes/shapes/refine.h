// Shape refinement: a shape-polymorphic program (dynamic sizes `?`, as jax.export writes a
// model with symbolic dimensions) made fully static for concrete arguments, so that the
// compiler, which bakes shapes into its kernels, takes it unchanged. As XLA's
// RefinePolymorphicShapes and StableHLO's stablehlo-refine-arguments / stablehlo-refine-shapes:
//
//   1. argument refinement: the entry's parameters get the arguments' static types; the values
//      of its shape arguments (scalar integer parameters whose values decide shapes, found by
//      data flow: ShapeArguments) become constants;
//   2. propagation through the entry in program order (refiner.h): shape computations fold to
//      constants (get_dimension_size of a now static tensor, integer arithmetic, concatenate...
//      through the interpreter), dynamic-shape ops become their static forms
//      (verify/static_forms.h), other ops get the result types their operands imply (the
//      verifier's shape functions), JAX's @shape_assertion custom calls are checked and
//      dropped, while/if/case regions are refined, and each func.call goes to a copy of its
//      callee specialised for its argument types and constant scalar arguments (one copy per
//      distinct specialisation, reused);
//   3. finishing (finish.cc): functions the entry no longer reaches are dropped, `index`
//      tensors become i64, and every type must then be static; the module is verified.
//
// A shape computation that does not fold, and sizes that contradict each other (a dimension
// argument of 5 for an input of 3 rows), are INVALID_ARGUMENT errors naming the op, its
// location and the values.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "passes/pass.h"
#include "vkhlo/status.h"

namespace vkhlo::passes::shapes {

// Whether any function signature, value or block argument of `module` has a dynamic size.
bool IsPolymorphic(const ir::Module& module);
// Polymorphic, or holding JAX's @shape_assertion custom calls (which refinement checks and
// removes; nothing else runs them).
bool NeedsRefinement(const ir::Module& module);

// The parameters of `entry` whose values decide shapes: scalar integer parameters from which a
// shape operand of a dynamic-shape op (or a @shape_assertion) is computed, through any ops,
// calls and control flow (get_dimension_size reads only its operand's shape, so data flow stops
// there). Sorted indices. NOT_FOUND when there is no such function.
StatusOr<std::vector<int64_t>> ShapeArguments(const ir::Module& module, std::string_view entry);

struct RefinementInputs {
  // One static type per parameter of the entry (tokens and tuples as declared).
  std::vector<ir::Type> argument_types;
  // The values of the shape arguments, by parameter index (every one must be given).
  std::map<int64_t, int64_t> argument_values;
};

// Step 1 on `module` in place: the entry's parameter types and shape-argument constants.
Status RefineArguments(ir::Module& module, std::string_view entry, const RefinementInputs& inputs);

// Steps 2 and 3 on `module` in place, from `entry` (whose parameters must be static).
Status RefineShapes(ir::Module& module, std::string_view entry);

// All of it on a copy of `module`: a static, verified module with the one function `entry` and
// what it calls.
StatusOr<std::unique_ptr<ir::Module>> Specialize(const ir::Module& module, std::string_view entry,
                                                 const RefinementInputs& inputs);

// The `refine-shapes` pass: RefineShapes from @main (for modules whose @main already has static
// parameters, as after vkhlo-opt --argument-types); a module that does not NeedsRefinement is
// left alone.
std::unique_ptr<Pass> CreateRefineShapesPass();

}  // namespace vkhlo::passes::shapes
