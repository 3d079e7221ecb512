// The reducer region of stablehlo.reduce / reduce_window as kernels use it: its shape checks,
// whether it is a recognized commutative one-op reducer, and its inline evaluation.
//
// A reducer is evaluated through the elemental emitter (as map.cc evaluates a map's region): the
// block's 2N arguments are bound to the left (accumulated) and right (new) values, the return
// operands are emitted at the scalar index in a fresh memo scope, and the results are copied
// into the target variables only after all of them are computed (a result may be an argument).
#pragma once

#include <string>
#include <vector>

#include "codegen/elemental/emitter.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen::reduction {

struct Reducer {
  const ir::Operation* op = nullptr;
  const ir::Block* block = nullptr;
  size_t num_operands = 0;             // N: inputs = results = init values
  std::vector<ir::ElementType> types;  // per operand
  // A single-operand reducer whose body is one add / multiply / maximum / minimum / and / or /
  // xor of its two arguments (in either order): commutative, so the kernel may combine elements
  // in a strided order (coalesced loads). kReturn otherwise.
  ir::OpCode recognized = ir::OpCode::kReturn;
  bool commutative() const { return recognized != ir::OpCode::kReturn; }
};

// Checks the region (one block, 2N scalar arguments of the operand types, N returned values).
StatusOr<Reducer> AnalyzeReducer(const ir::Operation& op);
// Whether every op of the reducer region can be emitted elementally.
bool ReducerIsElemental(const ir::Operation& op);

// The missing-feature error when the target cannot compute in an operand type (accumulators
// and shared memory hold compute values): "error: 'stablehlo.reduce' on tensor<8xf64> needs
// shaderFloat64, which <device> lacks (profile mobile)" (the runtime prefixes the location).
Status RequireComputeTypes(ElementalEmitter& em, const Reducer& reducer);

// Emits into[k] = body(left..., right...)[k] for every k. `left` and `right` are compute values.
Status EmitCombine(ElementalEmitter& em, const Reducer& reducer, const std::vector<Expr>& left,
                   const std::vector<Expr>& right, const std::vector<std::string>& into);

// Bytes one compute value of this type takes in a shared-memory array (reduction trees).
uint32_t SharedBytes(const TypeFacts& f);

// Compute-form values held in named variables (accumulators, shared arrays).
std::vector<Expr> Named(const Reducer& reducer, const std::vector<std::string>& names);

}  // namespace vkhlo::codegen::reduction
