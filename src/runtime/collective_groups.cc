#include "runtime/collective_groups.h"

#include <fmt/format.h>

#include <set>

namespace vkhlo::runtime::coll {

int64_t IdCount(const Grid& grid, Strategy strategy) {
  return ir::CollectiveIdCount(grid.num_replicas, grid.num_partitions, strategy);
}

StatusOr<std::vector<std::vector<ProcessId>>> ProcessGroups(const ir::Operation& op, const Grid& grid,
                                                            Strategy strategy) {
  VKHLO_ASSIGN_OR_RETURN(auto groups, ir::ReadIdGroups(op, "replica_groups", IdCount(grid, strategy)));
  VKHLO_ASSIGN_OR_RETURN(auto expanded,
                         ir::ExpandProcessGroups(groups, grid.num_replicas, grid.num_partitions, strategy));
  std::vector<std::vector<ProcessId>> out;
  for (const auto& group : expanded) {
    std::vector<ProcessId> pg;
    for (const ir::GridProcess& p : group) pg.push_back({p.replica, p.partition});
    out.push_back(std::move(pg));
  }
  return out;
}

std::optional<std::vector<ProcessId>> OwnGroup(const std::vector<std::vector<ProcessId>>& groups, ProcessId self) {
  for (const auto& group : groups) {
    for (const ProcessId& p : group) {
      if (p == self) return group;
    }
  }
  return std::nullopt;
}

int64_t IndexIn(const std::vector<ProcessId>& group, ProcessId self) {
  for (size_t i = 0; i < group.size(); ++i) {
    if (group[i] == self) return static_cast<int64_t>(i);
  }
  return -1;
}

}  // namespace vkhlo::runtime::coll
