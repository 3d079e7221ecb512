// Fusion: which ops of a block run together in one kernel, and which values get buffers.
//
// PlanBlock walks a block's straight-line ops once. Elemental ops (op_emitters.h: element-wise
// ops and the data movement that is index arithmetic) are fused into loop kernels; everything
// else (control flow, tuples, calls, ops of later issues) is a step of its own that the runtime
// executes. A kernel computes one or more "roots" (values that get a buffer) over their common
// index space; the ops feeding a root are emitted inline, reading kernel inputs (block
// arguments, values of other kernels or steps, constants in buffers) from buffers.
//
// Materialization rule (the cost rule; see docs/design.md):
//   1. A value used by a non-elemental op (control flow, the block's terminator, a tuple, any
//      use inside a nested region other than a map's) gets a buffer.
//   2. A value with one elemental user that reads each of its elements once is fused into it.
//   3. A value read more than once per element in total (several users, or a user that
//      broadcasts it) is recomputed in its users when its fused expression is cheap
//      (tree cost <= kCheapRecomputeCost: index-only ops cost 0, plain arithmetic 1, division
//      and narrow-float rounding 4, transcendentals 16), and gets a buffer otherwise.
//   Constants never become kernels: splats and small constants are inlined into the code that
//   uses them; a constant over `inline_constant_bytes` that is not a splat is uploaded once per
//   executable and read as an input (as is any constant a non-elemental op uses).
// Device ops (device_kernel.h) are fusions of their own. Prologue fusion, opt-in per emitter
// (DeviceKernelEmitter::fuses_operand_producers, e.g. stablehlo.reduce): the op counts as an
// elemental user of its operands, so by the rule above a producer read once per element (or
// cheap to recompute) is not materialized but joins the device op's Fusion: `ops` lists it
// (program order, the device op included), `inputs` the buffers its tree reads, and the
// emitter computes it at each element's index. Other device ops read their operands from
// buffers. Values captured by the op's regions are always buffers.
// Epilogue fusion, opt-in too (DeviceKernelEmitter::fuses_result_consumers): a root whose fused
// tree reads a device op's results only through element-wise ops (no data movement), of the
// results' shape, and whose other inputs exist before the device kernel runs, becomes a further
// output of the device op's Fusion (after the op's results, which are still written): the
// emitter computes it from each result element (reduce(x) / n is one kernel).
// Multi-output fusion: a root joins an earlier kernel with the same index space when they share
// an input or a fused op and every input of the root exists before that kernel runs (so the
// kernel can run at its earlier position), up to the device's storage-buffer binding limit.
// Epilogue fusion (opt-in per device kernel emitter, DeviceKernelEmitter::absorb_epilogue):
// a device op may take the element-wise chain after it (dot_general -> add(broadcast bias) ->
// maximum(x, 0)) into its own kernel. The chain's ops then join that Fusion's `ops` (after the
// device op), the values the chain reads besides itself become its `inputs` (the bias, before
// its broadcast) and the chain's last result its one output; the absorbed values get no
// buffers. A chain is taken only when its inputs exist before the device op (so the kernel can
// run at the op's position) and never when fusion is off.
#pragma once

#include <string>
#include <vector>

#include "codegen/target.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::codegen {

inline constexpr int kCheapRecomputeCost = 3;

struct Fusion {
  std::string name;                         // "fusion_3", unique in the plan
  std::vector<const ir::Operation*> ops;    // the fused ops, in program order
  std::vector<const ir::Value*> outputs;    // roots: written to buffers (same dims)
  std::vector<const ir::Value*> inputs;     // read from buffers
  std::vector<int64_t> dims;                // the index space (the roots' shape)
  // Set for a device kernel (device_kernel.h): the non-elemental op it is built around; `dims`
  // are then its first result's; `ops` holds it and any fused operand producers (prologue
  // fusion, above). nullptr: a loop kernel.
  const ir::Operation* device_op = nullptr;
  // Set for a normalization ("row") kernel (reduction/row_group.h): the reductions, in program
  // order, of a chain that reduces the same rows with element-wise ops between them (softmax,
  // layer norm); `device_op` is the first. `ops` then holds every op the kernel computes and
  // `outputs` the chain's values read outside it.
  std::vector<const ir::Operation*> row_reductions;
};

// One step of a block's execution, in order.
struct BlockStep {
  int fusion = -1;                    // >= 0: run fusions[fusion]
  const ir::Operation* op = nullptr;  // otherwise: a non-elemental op the runtime executes
};

struct BlockPlan {
  std::vector<Fusion> fusions;
  std::vector<BlockStep> steps;
  // Constants that live in buffers (uploaded once per executable).
  std::vector<const ir::Operation*> buffer_constants;
};

struct FusionOptions {
  bool fuse = true;  // false: one kernel per elemental op (for measuring what fusion saves)
  bool in_place = true;  // false: dynamic_update_slice always fuses (in_place.h)
  int64_t inline_constant_bytes = 256;
  // Names are "<prefix><n>"; the runtime numbers fusions across all blocks of an executable.
  std::string name_prefix = "fusion_";
  int first_index = 0;
};

// The plan for `block` (a function body or a region's block). Ops inside nested regions are
// not planned here (the runtime plans each region's block on its own).
StatusOr<BlockPlan> PlanBlock(const ir::Block& block, const TargetInfo& target, const FusionOptions& options = {});

// The estimated cost of computing one element of `op` (the numbers of the rule above).
int ElementCost(const ir::Operation& op);

// Whether a constant op is read from a buffer rather than inlined.
bool IsBufferConstant(const ir::Operation& op, const FusionOptions& options);

}  // namespace vkhlo::codegen
