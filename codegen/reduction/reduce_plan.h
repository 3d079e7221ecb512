// How a stablehlo.reduce runs: the geometry of its rows and the dispatches that reduce them.
//
// Geometry: the input's dimensions split into kept ones (the result's) and reduced ones. Each
// result element o reduces a "row" of n = prod(reduced dims) elements; the input address of
// element r of row o is Base(o) + Offset(r), each a sum over groups of adjacent dimensions of
// one kind (merged, so a row reduction is o * n + r and a column reduction r * O + o).
//
// Strategies (ChooseReducePlan; every choice depends only on shapes, types and the target, so
// the combination order — and the bits of the result — never change between runs):
//   kWorkgroup   a workgroup per row (contiguous rows of n >= kWorkgroupMinRow): the invocations
//                reduce parts of the row (strided for commutative recognized reducers, so loads
//                coalesce; contiguous chunks otherwise, so the combination stays in order), then
//                a shared-memory tree combines neighbours (1, 2, 4, ... apart: in order).
//   kInvocation  an invocation per row, folding its elements in order (short rows, and rows
//                whose elements are not contiguous: consecutive invocations then read
//                consecutive addresses).
//   Vector loads (`vector` = 4) where the kernel can read its inputs as uvec4 (vector_inputs.h):
//                in workgroup mode for commutative reducers over rows of a multiple of 4
//                elements, each invocation takes 4 consecutive elements per load into 4
//                accumulators (lanes), joined (l0 . l1) . (l2 . l3) before the tree; in
//                invocation mode when the kept innermost dimension is the memory's innermost
//                one (column reductions), each invocation owns 4 adjacent results and folds
//                their rows side by side, each in order (any reducer). On CPU devices the
//                uvec4s come from rgba32ui texel views of the inputs (reduce_kernel.cc): llvmpipe
//                loads a storage-buffer uvec4 lane by lane, a texel as straight-line vector
//                code (4096x4096 f32 row sums 2.7x faster, column sums 2.7x).
//   Two passes   when rows are long and there are too few of them to fill the device: pass 1
//                splits every row into S segments and writes one partial per (row, segment)
//                into scratch; pass 2 reduces each row's S partials in order and applies init.
// The init value is combined once, on the left: result = body(init, tree(row)); an empty row
// gives init. (The spec's schedule: a binary tree whose in-order traversal is the row in
// ascending order with init values interspersed.)
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "codegen/target.h"

namespace vkhlo::codegen::reduction {

// A sum of (index in group) * stride over groups of adjacent dimensions of one kind.
struct AddressGroups {
  std::vector<std::pair<int64_t, int64_t>> groups;  // (size, stride), outer to inner
  // GLSL uint expression of the address of linear index `linear` (a variable name).
  std::string Address(const std::string& linear) const;
};

struct ReduceGeometry {
  std::vector<int64_t> input_dims;
  int64_t rows = 1;    // O: result elements
  int64_t length = 1;  // n: elements per row
  AddressGroups kept, reduced;
  bool contiguous_rows = false;  // a row's elements are adjacent in memory (offset = r)
};

ReduceGeometry MakeReduceGeometry(const std::vector<int64_t>& input_dims, const std::vector<int64_t>& dimensions);

inline constexpr int64_t kWorkgroupMinRow = 32;
// Rows (and row counts) of reductions whose input passes 2^32 - 1 elements: at most 2^31 - 1,
// so a row position plus a loop's stride never wraps a uint.
inline constexpr int64_t kMaxWideRow = 0x7fffffff;
// Rows of any reduction: a loop's next position (at most 1024 past the last, a strided
// workgroup's step) must not wrap a uint. Longer rows (a stored 1-D tensor of 2^32 - 4096 to
// 2^32 - 1 elements; longer ones of several dimensions are split) are a compile error.
inline constexpr int64_t kMaxRowLength = 0xffffffffll - 4096;

struct ReducePass {
  enum class Mode { kWorkgroup, kInvocation };
  Mode mode = Mode::kInvocation;
  uint32_t workgroup_size = 64;
  bool strided = false;      // workgroup mode: invocation t takes elements t, t + W, ...
  int64_t rows = 1;          // O
  int64_t length = 1;        // n
  int64_t segments = 1;      // S: 1 in a single pass and in pass 2
  int64_t segment_length = 1;  // L: elements of a segment (the last may be shorter)
  uint32_t pack = 1;         // rows per workgroup / invocation (narrow results share words)
  uint32_t vector = 1;       // elements per load (4: uvec4 loads, see above)
  uint64_t Groups() const;
};

struct ReducePlan {
  std::vector<ReducePass> passes;  // 1 or 2 (pass 1 writes partials, pass 2 reads them)
  std::string why;                 // for the kernel summary
};

// `bytes_per_invocation`: shared memory each invocation of a workgroup tree needs (the compute
// types of the operands); `pack`: rows whose results share an output word; `commutative`: the
// reducer may take elements in any order; `two_pass_allowed`: the bindings of pass 2 fit;
// `vector_loads`: some input can be read as uvec4 (vector_inputs.h).
ReducePlan ChooseReducePlan(const ReduceGeometry& g, const TargetInfo& target, uint32_t bytes_per_invocation,
                            uint32_t pack, bool commutative, bool two_pass_allowed, bool vector_loads = false);

// The workgroup size for trees: a power of two within the target's limits and shared memory, at
// least a subgroup, and exactly a subgroup on CPU devices (a workgroup runs on one thread).
uint32_t TreeWorkgroupSize(const TargetInfo& target, uint32_t bytes_per_invocation, int64_t elements);

}  // namespace vkhlo::codegen::reduction
