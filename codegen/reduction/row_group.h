// Normalization ("row") kernels: a chain of reductions over the same minor dimensions of the
// same row shape, interleaved with element-wise ops that broadcast the reduced values back
// along those dimensions (softmax: max -> subtract -> exp -> sum -> divide; log_softmax; layer
// norm: mean -> subtract -> square -> mean -> rsqrt -> multiply/add; RMS norm), as one kernel in
// which a group of invocations owns a row: it folds the row for each reduction in program order
// (each fold may read the rows' earlier reductions), then writes the outputs (XLA's softmax
// fusions, for any reducer and any element-wise ops between).
//
// FindRowGroups finds such groups in a block from its structure alone. The values of a group
// are of two kinds:
//   FULL  the row shape D (the reductions' input dims): element-wise ops on FULL values and on
//         values computed outside the group, and broadcast_in_dim of a ROW value back along
//         the reduced dimensions (its non-unit dims are the kept dims of D, in order);
//   ROW   one element per row: the reductions' results and element-wise ops, reshapes and
//         broadcast_in_dim that only add or drop unit dimensions over them (so their row-major
//         position is the row's index).
// Values the group reads without computing them ("external") must exist when the group's
// first reduction would run: defined before it, constants, or elemental ops after it that
// the planner then computes wherever they are read ("late" values: read by the group and,
// if cheap to recompute, by other element-wise ops).
//
// ChooseRowPlan picks the layout from the row length, the types and the device: W invocations
// per row (a power of two; on CPU devices at most a subgroup, since every barrier switches
// between a workgroup's subgroups), P rows per workgroup, E elements per invocation. With E
// small enough the per-invocation elements stay in registers across the reductions (straight-
// line code in which the elemental emitter's memo reuses every value computed by an earlier
// fold: exp(x - max) of a softmax is computed once per element); otherwise every fold re-reads
// and recomputes its elements in a loop.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "codegen/target.h"
#include "ir/module.h"

namespace vkhlo::codegen::reduction {

struct RowGroup {
  const ir::Operation* anchor = nullptr;               // the first reduction: the kernel runs in its place
  std::vector<const ir::Operation*> reductions;        // program order
  std::vector<const ir::Operation*> ops;               // every op the kernel computes (program order)
  std::vector<const ir::Value*> external;              // values the group's ops read but do not compute
  std::vector<const ir::Value*> late;                  // external values defined after the anchor (fused)
  std::vector<const ir::Value*> outputs;               // group values read outside the group
  std::vector<int64_t> row_dims;                       // D
  size_t reduced = 0;                                  // trailing dimensions of D reduced
};

// The groups of `block`, in program order, no op in two groups. `usable(op)`: whether op may
// join a group at all (not absorbed elsewhere; for reductions: a kernel can evaluate its
// reducer). Outputs of narrow types (8/16-bit storage) need whole words per invocation: FULL
// ones rows of a multiple of the elements per word, ROW ones are not allowed. A group is kept only when it has at least one
// FULL value reading a reduction's result (otherwise a reduce kernel with prologue and epilogue
// fusion does the same) and ChooseRowPlan accepts it.
std::vector<RowGroup> FindRowGroups(const ir::Block& block, const TargetInfo& target,
                                    const std::function<bool(const ir::Operation&)>& usable);

struct RowPlan {
  int64_t rows = 0;           // O
  int64_t length = 0;         // n
  uint32_t width = 1;         // W: invocations per row (a power of two)
  uint32_t rows_per_group = 1;  // P
  uint32_t elements = 1;      // E: per invocation (a multiple of `unit`)
  uint32_t unit = 1;          // elements an invocation owns together (a 32-bit word of narrow outputs)
  bool strided = true;        // element q of invocation t: (t + W (j / unit)) unit + j % unit; else t E + j
  bool cached = true;         // straight-line code, values kept across the folds
  uint32_t workgroup_size() const { return width * rows_per_group; }
  std::string Describe() const;
};

// The layout for rows of `length` (n >= 2), `rows` of them; `shared_bytes_per_invocation`: the
// tree's shared memory per invocation (all reductions); `unit`: 1, 2 or 4 (narrow FULL outputs);
// `commutative`: every reducer is a recognized commutative one (strided elements allowed);
// `element_cost`: the ElementCost (fusion.h) of the ops computed per element, which bounds the
// elements kept in registers (straight-line code repeats them per element).
// nullopt: rows too long for one workgroup's loops (the separate reduce kernels split them).
std::optional<RowPlan> ChooseRowPlan(int64_t rows, int64_t length, const TargetInfo& target,
                                     uint32_t shared_bytes_per_invocation, uint32_t unit, bool commutative,
                                     int element_cost);

}  // namespace vkhlo::codegen::reduction
