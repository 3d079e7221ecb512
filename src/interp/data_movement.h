// The data-movement op group is split by concept over several files; each registers its ops
// here, and RegisterDataMovementOps (op_registry.h) calls them all.
#pragma once

#include "interp/op_registry.h"

namespace vkhlo::interp {

void RegisterLayoutOps(OpRegistry& registry);   // broadcasts, reshape, transpose, reverse, concatenate, iota
void RegisterSlicingOps(OpRegistry& registry);  // slice, dynamic_slice, dynamic_update_slice, pad
void RegisterGatherOps(OpRegistry& registry);   // gather, dynamic_gather
void RegisterScatterOps(OpRegistry& registry);  // scatter
void RegisterSortOps(OpRegistry& registry);     // sort

}  // namespace vkhlo::interp
