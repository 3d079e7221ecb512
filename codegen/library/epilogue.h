// Element-wise epilogues fused into library kernels: what happens to each result element
// between the accumulator and the store (batch norm, bias, activation, residual, convert), so
// that `dot_general -> add(broadcast bias) -> GELU` is one dispatch.
//
// An epilogue is a subgraph of the program (what MatchEpilogue finds, epilogue_match.h): the
// ops between `product` (the dot / convolution result, bound to the accumulator rounded to its
// type) and `root` (the value stored), evaluated at each result element's index by the
// elemental emitter (epilogue_generate.h) — the generator loop kernels use, so every op rounds
// and treats NaNs exactly as it does unfused, and any element-wise op it supports may take
// part. Values in `inputs` are read from buffers (extra bindings after the operands, each at its
// own shape: the emitter does the broadcasts); everything else the root depends on is computed
// per element. The ops must stay alive while the plan is made.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/element_type.h"
#include "ir/module.h"

namespace vkhlo::codegen::library {

// Column groups (a dot_general's, epilogue_match.h): the value the element-wise part computes
// (`Epilogue::root`, of the product's shape) is read only by G slices along its last
// dimension, slice g holding columns [g * stride, g * stride + width); element-wise ops on
// those slices (and on inputs) compute `roots`, each of the slices' shape, which the kernel
// stores. An LSTM or GRU cell after its recurrent product: the gates are slices of one
// product, and the new state is computed from all of them at the same index, so a tile holding
// column j of every gate computes the cell there with no kernel of its own.
struct ColumnGroups {
  std::vector<const ir::Value*> slices;  // slice g's result (its columns start at g * stride)
  int64_t width = 0, stride = 0;
  std::vector<const ir::Value*> roots;   // the stored values, result i = roots[i]
};

struct Epilogue {
  const ir::Value* product = nullptr;
  const ir::Value* root = nullptr;  // null: no epilogue (the product is stored)
  std::vector<const ir::Value*> inputs;
  std::string source_name;  // for the emitter's messages
  // Non-empty: the kernel stores transpose(root, store_permutation) (a dot_general's only; the
  // permutation of the product's dimensions), through the result's index maps.
  std::vector<int64_t> store_permutation;
  // Set: the kernel stores the groups' roots instead of `root` (which may be the product).
  std::optional<ColumnGroups> groups;
  // Values of the product's shape that vary only along its columns (a batch-norm scale
  // broadcast along the channels, computed in the subgraph with library calls): the epilogue
  // computes each once per column it meets in a row, not once per element.
  std::vector<const ir::Value*> column_values;
  // Rank-0 values the kernel also computes, once, and stores after its results (a loop
  // counter's step hosted by the kernel: fusion.cc's ScalarHost), from `inputs`, with the ops
  // `scalar_ops`. Any kernel may have them, with or without an epilogue (`root` null).
  std::vector<const ir::Value*> scalars;
  std::vector<const ir::Operation*> scalar_ops;

  bool empty() const { return root == nullptr; }
  // The element type stored: the root's (the first group root's), or `product_type` without
  // an epilogue.
  ir::ElementType ResultType(ir::ElementType product_type) const {
    if (groups && !groups->roots.empty()) return groups->roots.front()->type().element_type();
    return root == nullptr ? product_type : root->type().element_type();
  }
};

}  // namespace vkhlo::codegen::library
