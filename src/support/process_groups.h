// The process groups of the spec's collective strategies ("Collective ops" in the StableHLO
// spec), shared by the reference interpreter (src/interp), the compiler (which reads them from
// ops, ir/process_groups.h) and the runtime (which expands a plan's replica_groups for the grid
// it runs on): from rows of ids (replica_groups without padding) and the grid's size to groups
// of (replica, partition) processes. Nothing here knows the IR.
#pragma once

#include <cstdint>
#include <vector>

#include "vkhlo/status.h"

namespace vkhlo {

enum class CollectiveStrategy { kCrossReplica, kCrossPartition, kCrossReplicaAndPartition, kFlattenedIds };

struct GridProcess {
  int64_t replica = 0;
  int64_t partition = 0;
};

// How many ids the groups of `strategy` range over in a replicas x partitions grid.
int64_t CollectiveIdCount(int64_t replicas, int64_t partitions, CollectiveStrategy strategy);

// The process groups of `strategy` over `id_groups`. Errors (an id out of range, an id named
// twice) are messages without the op's location; callers add it.
StatusOr<std::vector<std::vector<GridProcess>>> ExpandProcessGroups(const std::vector<std::vector<int64_t>>& id_groups,
                                                                    int64_t replicas, int64_t partitions,
                                                                    CollectiveStrategy strategy);

}  // namespace vkhlo
