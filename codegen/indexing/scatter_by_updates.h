// The fast paths of scatter (scatter.cc's general kernel is the fallback): when updates cannot
// conflict in a way that depends on their order, a first dispatch copies the inputs to the
// results and a second runs one invocation per update element, which applies it where it lands:
//   - atomically, for an update computation that is a single integer add, minimum or maximum of
//     its two arguments on 32-bit integers (order-independent, so still deterministic);
//   - by plain read-modify-write through the update computation when `unique_indices` is set
//     (the spec makes repeated result indices undefined behaviour then) and every result
//     element fills whole words (narrow types would share words between invocations).
// Cost: results + updates, instead of results x scatter positions.
#pragma once

#include <optional>

#include "codegen/device_kernel.h"

namespace vkhlo::codegen {

// The kernel, or nullopt when no fast path applies.
StatusOr<std::optional<DeviceKernel>> EmitScatterByUpdates(const Fusion& fusion, const TargetInfo& target,
                                                           const KernelOptions& options);

}  // namespace vkhlo::codegen
