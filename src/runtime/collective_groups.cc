#include "runtime/collective_groups.h"

#include <fmt/format.h>

#include <set>

namespace vkhlo::runtime::coll {

std::optional<int64_t> AttrInt(const ir::Operation& op, std::string_view name) {
  const ir::Attribute* a = op.attribute(name);
  if (a == nullptr) return std::nullopt;
  if (auto v = a->AsInt()) return v;
  if (auto v = a->AsI64Vector(); v && v->size() == 1) return (*v)[0];
  return std::nullopt;
}

bool AttrBool(const ir::Operation& op, std::string_view name) {
  const ir::Attribute* a = op.attribute(name);
  if (a == nullptr) return false;
  if (a->is_unit()) return true;
  if (auto b = a->AsBool()) return *b;
  if (auto i = a->AsInt()) return *i != 0;
  if (const ir::Literal* l = a->AsDenseElements(); l && l->num_elements() == 1) return l->GetInt(0) != 0;
  return false;
}

int64_t ChannelId(const ir::Operation& op) {
  if (const ir::Attribute* a = op.attribute("channel_handle")) {
    if (auto* h = a->as<ir::ChannelHandle>()) return h->handle;
  }
  return AttrInt(op, "channel_id").value_or(0);
}

Strategy GatherReduceStrategy(const ir::Operation& op) {
  if (ChannelId(op) <= 0) return Strategy::kCrossReplica;
  return AttrBool(op, "use_global_device_ids") ? Strategy::kFlattenedIds : Strategy::kCrossReplicaAndPartition;
}

Strategy ReplicaOrPartitionStrategy(const ir::Operation& op) {
  return ChannelId(op) > 0 ? Strategy::kCrossPartition : Strategy::kCrossReplica;
}

int64_t IdCount(const Grid& grid, Strategy strategy) {
  return ir::CollectiveIdCount(grid.num_replicas, grid.num_partitions, strategy);
}

namespace {

// `replica_groups` as rows of ids without the negative (padding) entries.
StatusOr<std::vector<std::vector<int64_t>>> IdGroups(const ir::Operation& op, int64_t all) {
  std::vector<std::vector<int64_t>> groups;
  if (const ir::Attribute* a = op.attribute("replica_groups")) {
    const ir::Literal* dense = a->AsDenseElements();
    auto values = a->AsI64Vector();
    if (!values) return InvalidArgumentError("has a `replica_groups` that is not a tensor of integers");
    int64_t rows = 1, cols = static_cast<int64_t>(values->size());
    if (dense != nullptr && dense->type().rank() == 2) {
      rows = dense->type().dim(0);
      cols = dense->type().dim(1);
    } else if (dense != nullptr && dense->type().rank() != 1) {
      return InvalidArgumentError("`replica_groups` must be a 2-dimensional tensor");
    }
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<int64_t> group;
      for (int64_t c = 0; c < cols; ++c) {
        const int64_t id = (*values)[static_cast<size_t>(r * cols + c)];
        if (id >= 0) group.push_back(id);
      }
      if (!group.empty()) groups.push_back(std::move(group));
    }
  }
  if (groups.empty()) {
    std::vector<int64_t> group(static_cast<size_t>(all));
    for (int64_t i = 0; i < all; ++i) group[static_cast<size_t>(i)] = i;
    groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace

StatusOr<std::vector<std::vector<ProcessId>>> ProcessGroups(const ir::Operation& op, const Grid& grid,
                                                            Strategy strategy) {
  VKHLO_ASSIGN_OR_RETURN(auto groups, IdGroups(op, IdCount(grid, strategy)));
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
