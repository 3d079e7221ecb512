#include "support/process_groups.h"

#include <fmt/format.h>

#include <set>

namespace vkhlo {

int64_t CollectiveIdCount(int64_t replicas, int64_t partitions, CollectiveStrategy strategy) {
  switch (strategy) {
    case CollectiveStrategy::kCrossReplica:
    case CollectiveStrategy::kCrossReplicaAndPartition: return replicas;
    case CollectiveStrategy::kCrossPartition: return partitions;
    case CollectiveStrategy::kFlattenedIds: return replicas * partitions;
  }
  return 0;
}

StatusOr<std::vector<std::vector<GridProcess>>> ExpandProcessGroups(const std::vector<std::vector<int64_t>>& id_groups,
                                                                    int64_t replicas, int64_t partitions,
                                                                    CollectiveStrategy strategy) {
  const int64_t limit = CollectiveIdCount(replicas, partitions, strategy);
  std::set<int64_t> seen;
  for (const auto& group : id_groups) {
    for (int64_t id : group) {
      if (id >= limit) {
        return InvalidArgumentError(
            fmt::format("names id {} in a grid of {} replica(s) x {} partition(s)", id, replicas, partitions));
      }
      if (!seen.insert(id).second) return InvalidArgumentError(fmt::format("names id {} twice in its groups", id));
    }
  }
  std::vector<std::vector<GridProcess>> out;
  switch (strategy) {
    case CollectiveStrategy::kCrossReplica:
      for (const auto& group : id_groups) {
        for (int64_t p = 0; p < partitions; ++p) {
          std::vector<GridProcess> pg;
          for (int64_t r : group) pg.push_back({r, p});
          out.push_back(std::move(pg));
        }
      }
      break;
    case CollectiveStrategy::kCrossPartition:
      for (const auto& group : id_groups) {
        for (int64_t r = 0; r < replicas; ++r) {
          std::vector<GridProcess> pg;
          for (int64_t p : group) pg.push_back({r, p});
          out.push_back(std::move(pg));
        }
      }
      break;
    case CollectiveStrategy::kCrossReplicaAndPartition:
      for (const auto& group : id_groups) {
        std::vector<GridProcess> pg;
        for (int64_t p = 0; p < partitions; ++p) {
          for (int64_t r : group) pg.push_back({r, p});
        }
        out.push_back(std::move(pg));
      }
      break;
    case CollectiveStrategy::kFlattenedIds:
      for (const auto& group : id_groups) {
        std::vector<GridProcess> pg;
        for (int64_t id : group) pg.push_back({id / partitions, id % partitions});
        out.push_back(std::move(pg));
      }
      break;
  }
  return out;
}

}  // namespace vkhlo
