// Reading a collective op's process groups and strategy (the StableHLO spec, "Collective ops");
// their expansion for a grid is support/process_groups.h, which the runtime uses without the IR.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "support/process_groups.h"
#include "vkhlo/status.h"

namespace vkhlo::ir {

// The expansion itself (support/process_groups.h), by the names the IR's users know.
using vkhlo::CollectiveIdCount;
using vkhlo::CollectiveStrategy;
using vkhlo::ExpandProcessGroups;
using vkhlo::GridProcess;

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
