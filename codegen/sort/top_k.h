// The top-k path of the sort kernels (top_k.cc): a sort whose results are only read through
// slices of their first k positions along the sorted dimension (chlo.top_k's decomposition,
// src/passes/chlo/top_k.cc: slice(sort(x, iota)) of [0, k)) needs only those k positions of
// each row, in order. A selection finds them in O(n k') comparisons instead of sorting whole
// rows (O(n log^2 n)).
#pragma once

#include <optional>

#include "codegen/device_kernel.h"
#include "codegen/sort/sort_comparator.h"

namespace vkhlo::codegen {

// k when every use of every result of `sort` (in its function) is a slice with stride 1 that
// takes all of every other dimension and [0, k') with k' <= k of `dimension` (k the largest
// such k'); nullopt otherwise (or when no result is used at all).
std::optional<int64_t> SortedPrefixNeeded(const ir::Operation& sort, int64_t dimension);

// Whether the top-k kernel serves this sort and k on `target` (k small enough for its
// per-invocation lists and shared memory, results of 32 or 64 storage bits, bindings within
// the limit).
bool TopKApplies(const ir::Operation& sort, const Fusion& fusion, const SortGeometry& geometry, int64_t k,
                 const TargetInfo& target);

// The kernel: one workgroup per row; each invocation keeps the k first (by vkhlo_sort_before)
// positions among those it scans (a sorted list, binary insertion), the workgroup merges the lists
// pairwise in shared memory, and k invocations copy the k winners' elements of every operand
// into positions [0, k) of the results' rows. Positions >= k of the results are not written
// (only the slices read them, and only below k). Exactly the first k of the stable sort.
StatusOr<DeviceKernel> EmitTopK(const Fusion& fusion, const SortGeometry& geometry, int64_t k,
                                const SortComparatorSource& cmp, const TargetInfo& target,
                                const KernelOptions& options);

}  // namespace vkhlo::codegen
