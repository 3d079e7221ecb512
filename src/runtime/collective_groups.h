// The process groups of the spec's collective strategies ("Collective ops" in the StableHLO
// spec), for the Vulkan runtime: the same rules as the reference interpreter
// (src/interp/collective_groups.h), computed from the grid size and a plan step's groups.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/collective_transport.h"
#include "support/process_groups.h"

namespace vkhlo::runtime::coll {

using Strategy = CollectiveStrategy;  // support/process_groups.h, shared with the interpreter

struct Grid {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
};

// How many ids the groups of `strategy` range over.
int64_t IdCount(const Grid& grid, Strategy strategy);

// The process groups of `strategy` over `replica_groups` as a plan keeps them (rows of ids as
// written, negative entries padding; none or all empty: one group of every id). Errors (ids out
// of range, repeated) are messages without the step's location.
StatusOr<std::vector<std::vector<ProcessId>>> ProcessGroups(const std::vector<std::vector<int64_t>>& replica_groups,
                                                            const Grid& grid, Strategy strategy);
// The group holding `self`, or nullopt.
std::optional<std::vector<ProcessId>> OwnGroup(const std::vector<std::vector<ProcessId>>& groups, ProcessId self);
// The position of `self` in `group` (-1 when absent).
int64_t IndexIn(const std::vector<ProcessId>& group, ProcessId self);

}  // namespace vkhlo::runtime::coll
