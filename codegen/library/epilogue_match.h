// Finds the element-wise subgraph after a dot_general / convolution that the library kernel can
// compute as its epilogue (epilogue.h's generated form, emitted by the elemental emitter):
//
//   - every op on a path from the product to the root is element-wise (any op the elemental
//     emitter supports: arithmetic, transcendentals, compare / select, convert, ...) of the
//     product's shape, so the epilogue computes the root at each result index from that
//     result element alone;
//   - the values those ops read besides the product are inputs read from buffers at the index
//     the emitter derives (block arguments, values from outside the block, results of other
//     ops that do not depend on the product: a bias, batch-norm vectors, a residual, batch
//     norm's rsqrt(var + eps) * gamma computed by its own small kernel), index-only
//     expressions of those (broadcast_in_dim / reshape / convert chains, emitted inline),
//     small constants (a broadcast scalar constant included), or cheap element-wise ops after
//     the product that nothing else needs, computed per element;
//   - every absorbed value except the root is used only by absorbed ops, so nothing else needs
//     it in memory; the root is the last absorbed op in program order.
//
// For the runtime's fusion planning:
//
//   FusedEpilogue f = MatchEpilogue(block, dot_op);
//   plan = PlanDotGeneral(dot_op, target, f.epilogue);   // bind f.inputs as epilogue inputs
//   // f.result gets the plan's result buffer; f.fused are not executed separately.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "codegen/library/epilogue.h"
#include "ir/module.h"

namespace vkhlo::codegen::library {

struct FusedEpilogue {
  Epilogue epilogue;
  std::vector<const ir::Value*> inputs;     // epilogue input i is bound from inputs[i]
  std::vector<const ir::Operation*> fused;  // absorbed ops, in program order
  const ir::Value* result = nullptr;        // the value the plan's result holds (the first)
  // Every value the plan stores, in order: the column groups' roots, else `result`.
  std::vector<const ir::Value*> Results() const {
    if (epilogue.groups) return epilogue.groups->roots;
    return {result};
  }
};

struct EpilogueMatchOptions {
  // At most this many input buffers (the device's binding limit).
  size_t max_inputs = std::numeric_limits<size_t>::max();
  // Whether values the epilogue reads besides the product may be computed per element with
  // ops that call the GLSL library's exact functions (divide, rsqrt, tanh, exp, ...) or round
  // through a narrow-float codec. Off by default: such values are per-channel vectors (batch
  // norm's rsqrt(var + eps) * gamma), which their own small kernel computes once per channel
  // instead of once per result element. Ops on the product's path always may: the kernel
  // stores a tile through one loop then (KernelWriter::StoreTile), so the epilogue's code
  // appears once however many elements a tile holds.
  bool side_library_calls = false;
  // Whether column groups may be matched (see above).
  bool column_groups = true;
  // Whether a per-channel vector computed with library calls and broadcast along the product's
  // last dimension (the columns) joins as a column value (Epilogue::column_values), computed
  // once per tile column.
  bool column_values = true;
  std::string source_name;  // names the program in messages
};

// Column groups (epilogue.h's ColumnGroups, dot_general only): when what the element-wise
// part computes is read only by slices of its last dimension at 0, stride, 2 * stride, ... of
// one width, the element-wise ops on the slices join too (the same rules, on the slices'
// shape), and the kernel stores every value of theirs that something else reads (an LSTM cell's
// new c and h). Those uses must come after the last absorbed op (where the kernel runs).
//
// `op` (a dot_general, dot or convolution in `block`) and the largest subgraph after it within
// `options`; with none the epilogue is empty and `result` is op's result. A quantized
// contraction with an integer result takes none (its kernel requantizes). Inputs may be
// results of ops after `op` (never computed from it): the kernel then runs at the root's
// position (fusion.cc).
FusedEpilogue MatchEpilogue(const ir::Block& block, const ir::Operation& op, const EpilogueMatchOptions& options = {});

}  // namespace vkhlo::codegen::library
