// A deterministic fast path of scatter for "row" scatters (embedding gradients, segment sums):
// every start index addresses an inserted dimension, so each scatter position s targets one row
// (its position over the inserted and batching dimensions) with its window at offset 0. The
// scatter positions are bucketed by row (a counting sort: count, scan, place, then each bucket
// sorted by s, so the order never depends on timing), and one invocation per result element
// applies its row's updates in increasing s, which is the interpreter's order (row-major over
// the update index space, the window position being fixed for a result element).
// Cost: results x (updates per row) + scatter positions, instead of results x scatter positions.
#pragma once

#include <optional>

#include "codegen/device_kernel.h"

namespace vkhlo::codegen {

// The kernel, or nullopt when the scatter is not a row scatter.
StatusOr<std::optional<DeviceKernel>> EmitScatterByRows(const Fusion& fusion, const TargetInfo& target,
                                                        const KernelOptions& options);

}  // namespace vkhlo::codegen
