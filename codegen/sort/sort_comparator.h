// The comparator of a stablehlo.sort as a GLSL function, for the sort kernels (sort.cc).
//
// `bool vkhlo_sort_cmp_keys(VkhloSortKey ka, VkhloSortKey kb)` evaluates the comparator region
// with its arguments bound to two elements' keys (the region is emitted by the elemental
// emitter, as map.cc does; values it captures from outside are kernel inputs);
// `VkhloSortKey vkhlo_sort_key(uint l)` loads the key of linear element l (a struct of the raw
// elements at l of the operands the comparator reads), so kernels can load an element's key
// once and compare it many times; VKHLO_SORT_PADDING_KEY is a key for padding. The order the
// kernels sort by, vkhlo_sort_before (positions of a row, equal elements by position: a stable
// sort, which serves is_stable = false too, as the spec allows), is built on these in
// shaders/sort/sort_order.glsl.
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

// The globals every sort dispatch that compares needs: includes, helpers, the key and the
// comparator above. Inputs are bound as `in<binding>` (the caller defines those names).
struct SortComparatorSource {
  std::vector<std::string> extensions;
  std::string globals;  // after the bindings
};
StatusOr<SortComparatorSource> EmitSortComparator(const ir::Operation& sort,
                                                  const std::vector<const ir::Value*>& inputs,
                                                  const TargetInfo& target, const KernelOptions& options);

}  // namespace vkhlo::codegen
