#include "runtime/collective_groups.h"

#include <fmt/format.h>

#include <set>

namespace vkhlo::runtime::coll {

int64_t IdCount(const Grid& grid, Strategy strategy) {
  return CollectiveIdCount(grid.num_replicas, grid.num_partitions, strategy);
}

namespace {

StatusOr<std::vector<std::vector<ProcessId>>> Expand(const std::vector<std::vector<int64_t>>& groups, const Grid& grid,
                                                     Strategy strategy) {
  VKHLO_ASSIGN_OR_RETURN(auto expanded,
                         ExpandProcessGroups(groups, grid.num_replicas, grid.num_partitions, strategy));
  std::vector<std::vector<ProcessId>> out;
  for (const auto& group : expanded) {
    std::vector<ProcessId> pg;
    for (const GridProcess& p : group) pg.push_back({p.replica, p.partition});
    out.push_back(std::move(pg));
  }
  return out;
}

}  // namespace

StatusOr<std::vector<std::vector<ProcessId>>> ProcessGroups(const std::vector<std::vector<int64_t>>& replica_groups,
                                                            const Grid& grid, Strategy strategy) {
  std::vector<std::vector<int64_t>> groups;
  for (const std::vector<int64_t>& row : replica_groups) {
    std::vector<int64_t> group;
    for (int64_t id : row) {
      if (id >= 0) group.push_back(id);
    }
    if (!group.empty()) groups.push_back(std::move(group));
  }
  if (groups.empty()) {
    const int64_t all = IdCount(grid, strategy);
    std::vector<int64_t> group(static_cast<size_t>(std::max<int64_t>(all, 0)));
    for (int64_t i = 0; i < all; ++i) group[static_cast<size_t>(i)] = i;
    groups.push_back(std::move(group));
  }
  return Expand(groups, grid, strategy);
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
