// Element-wise epilogues fused into library kernels: what happens to each result element
// between the accumulator and the store (bias add, activation, scale, convert), so that
// `dot_general -> add(broadcast bias) -> max(x, 0)` is one dispatch.
//
// Three forms:
//   - generated (what MatchEpilogue builds, epilogue_generate.h): an element-wise subgraph of
//     the program rooted at the product, emitted by the elemental emitter (codegen/elemental/,
//     the generator loop kernels use, so each op rounds exactly as unfused): any element-wise op
//     it supports, broadcasts / reshapes of small inputs, constants, several full-size inputs;
//   - steps: a list of simple ops applied in order, each in the arithmetic of the op's result
//     type and rounded to it (exactly what the unfused ops compute), then an optional convert;
//   - custom_glsl: generated code (the elemental emitter's) defining
//         <OUT> epilogue(<ACC> acc, uint b, uint m, uint n)
//     which may call `uint out_index(uint b, uint m, uint n)` (the result element's row-major
//     index), `<ACC> round_result(<ACC>)` (the accumulator rounded to the op's result type) and
//     `<T> epi_in<i>(uint out_index)` (input i at the broadcast position) — <OUT> is the compute
//     type of `result_type`.
// Inputs are extra bindings after the two operands, each broadcast into the result's shape as
// stablehlo.broadcast_in_dim does.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/element_type.h"
#include "ir/module.h"

namespace vkhlo::codegen::library {

struct EpilogueInput {
  ir::ElementType type = ir::ElementType::kF32;
  std::vector<int64_t> dims;
  std::vector<int64_t> broadcast_dimensions;  // result dimension of each input dimension
};

enum class EpilogueOp {
  kAdd,       // x + input
  kSubtract,  // x - input
  kMultiply,  // x * input
  kMaximum,   // max(x, input), NaN-propagating for floats
  kMinimum,
  kScale,     // x * constant
  kRelu,      // max(x, 0)
};

struct EpilogueStep {
  EpilogueOp op = EpilogueOp::kRelu;
  int input = -1;         // for the binary ops
  double constant = 0;    // for kScale
};

// The generated form: `product` (the dot / convolution result, bound to the rounded
// accumulator) and the ops of the program between it and `root` (the value stored), evaluated
// at the result's index. Values in `inputs` (bound, in order, to Epilogue::inputs, each of its
// own shape: the elemental emitter does the broadcasts) are read from buffers; everything else
// the root depends on is computed per element. The ops must stay alive while the plan is made.
struct GeneratedEpilogue {
  const ir::Value* product = nullptr;
  const ir::Value* root = nullptr;
  std::vector<const ir::Value*> inputs;
  std::string source_name;  // for the emitter's messages
};

struct Epilogue {
  std::vector<EpilogueInput> inputs;
  std::optional<GeneratedEpilogue> generated;
  std::vector<EpilogueStep> steps;
  std::optional<ir::ElementType> convert_to;  // a final stablehlo.convert
  // Generated code replacing `steps` (see above); its result is stored as `result_type`.
  std::string custom_glsl;
  std::optional<ir::ElementType> custom_result_type;

  bool empty() const { return steps.empty() && !convert_to && custom_glsl.empty() && !generated; }
};

}  // namespace vkhlo::codegen::library
