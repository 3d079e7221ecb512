// The comparator of a stablehlo.sort as a GLSL function, for the sort kernels (sort.cc).
//
// `bool vkhlo_sort_cmp(uint la, uint lb)` evaluates the comparator region with its arguments
// bound to every operand's elements at linear indices `la` and `lb` (the region is emitted by
// the elemental emitter, as map.cc does; values it captures from outside are kernel inputs).
// It reads the operands through `VkhloSortKey vkhlo_sort_key(uint l)` (a struct of the raw
// elements at l of the operands the comparator reads) and `bool vkhlo_sort_cmp_keys(ka, kb)`,
// so kernels can load an element's key once and compare it many times:
// `vkhlo_sort_key_at(row_base, p)` (any key for padding) and
// `vkhlo_sort_before_keys(a, ka, b, kb)`, the order below on positions with their keys.
// `bool vkhlo_sort_before(uint row_base, uint a, uint b)` is the strict total order the kernels
// sort by: positions `a` and `b` of a row (0xffffffff: padding, after everything) compared by
// the comparator, equal elements (neither before the other) by position. For a comparator
// that is a strict weak order (what the spec requires) this is a total order, and sorting by it
// is a stable sort: is_stable = false is served by the stable sort, which the spec allows.
// One comparator call decides it: for a < b, a is before b unless b is strictly before a
// (!cmp(b, a)); for a > b, only when a is strictly before b (cmp(a, b)) — the interpreter's
// merge rule (the right element first only when the comparator says so), at half the cost of
// asking both ways.
#pragma once

#include <string>
#include <vector>

#include "codegen/device_kernel.h"
#include "codegen/elemental/emitter.h"

namespace vkhlo::codegen {

struct SortGeometry {
  int64_t size = 0;   // elements per row (the sorted dimension)
  int64_t outer = 1;  // product of the dimensions before it
  int64_t inner = 1;  // product of the dimensions after it (the stride of the row)
  int64_t rows() const { return outer * inner; }
};

// The globals every sort dispatch that compares needs: includes, helpers, the two functions
// above (with `row_base`: the linear index of a row's element 0; position p is at
// row_base + p * inner). Inputs are bound as `in<binding>` (the caller defines those names).
struct SortComparatorSource {
  std::vector<std::string> extensions;
  std::string globals;  // after the bindings
};
StatusOr<SortComparatorSource> EmitSortComparator(const ir::Operation& sort, const SortGeometry& geometry,
                                                  const std::vector<const ir::Value*>& inputs,
                                                  const TargetInfo& target, const KernelOptions& options);

}  // namespace vkhlo::codegen
