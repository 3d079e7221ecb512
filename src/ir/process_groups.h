// The process groups of the spec's collective strategies ("Collective ops" in the StableHLO
// spec), shared by the reference interpreter (src/interp) and the Vulkan runtime (src/runtime):
// from rows of ids (replica_groups without padding) and the grid's size to groups of
// (replica, partition) processes.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::ir {

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

// --- reading a collective op's attributes ---

// The channel id: `channel_handle`'s handle, or a plain `channel_id` integer; 0 when absent.
int64_t CollectiveChannelId(const Operation& op);
// all_gather, all_reduce, reduce_scatter, collective_reduce: by channel_id > 0 and
// use_global_device_ids.
CollectiveStrategy GatherReduceStrategy(const Operation& op);
// all_to_all, collective_permute, collective_broadcast: channel_id > 0 is cross-partition.
CollectiveStrategy ReplicaOrPartitionStrategy(const Operation& op);
// The op's `attr` (e.g. replica_groups) as rows of ids without the negative (padding) entries;
// absent or empty: one group of all `all` ids. Errors are messages without the op's location.
StatusOr<std::vector<std::vector<int64_t>>> ReadIdGroups(const Operation& op, std::string_view attr, int64_t all);

}  // namespace vkhlo::ir
