#include "ir/process_groups.h"

#include <fmt/format.h>

#include "ir/op_attributes.h"

namespace vkhlo::ir {

int64_t CollectiveChannelId(const Operation& op) {
  if (const Attribute* a = op.attribute("channel_handle")) {
    if (auto* h = a->as<ChannelHandle>()) return h->handle;
  }
  return AttrInt(op, "channel_id").value_or(0);
}

CollectiveStrategy GatherReduceStrategy(const Operation& op) {
  if (CollectiveChannelId(op) <= 0) return CollectiveStrategy::kCrossReplica;
  return AttrBool(op, "use_global_device_ids") ? CollectiveStrategy::kFlattenedIds
                                               : CollectiveStrategy::kCrossReplicaAndPartition;
}

CollectiveStrategy ReplicaOrPartitionStrategy(const Operation& op) {
  return CollectiveChannelId(op) > 0 ? CollectiveStrategy::kCrossPartition : CollectiveStrategy::kCrossReplica;
}

StatusOr<std::vector<std::vector<int64_t>>> ReadIdGroups(const Operation& op, std::string_view attr, int64_t all) {
  std::vector<std::vector<int64_t>> groups;
  if (const Attribute* a = op.attribute(attr)) {
    const Literal* dense = a->AsDenseElements();
    auto values = a->AsI64Vector();
    if (!values) return InvalidArgumentError(fmt::format("has a `{}` that is not a tensor of integers", attr));
    int64_t rows = 1, cols = static_cast<int64_t>(values->size());
    if (dense != nullptr && dense->type().rank() == 2) {
      rows = dense->type().dim(0);
      cols = dense->type().dim(1);
    } else if (dense != nullptr && dense->type().rank() != 1) {
      return InvalidArgumentError(fmt::format("`{}` must be a 2-dimensional tensor", attr));
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

}  // namespace vkhlo::ir
