#include "interp/collective_groups.h"

#include <fmt/format.h>

#include <cstring>
#include <set>

#include "interp/library_common.h"

namespace vkhlo::interp::coll {

int64_t NumReplicas(const EvalContext& context) {
  return context.grid() ? context.grid()->num_replicas() : 1;
}

int64_t NumPartitions(const EvalContext& context) {
  return context.grid() ? context.grid()->num_partitions() : 1;
}

StatusOr<std::vector<std::vector<int64_t>>> IdGroups(EvalContext& context, const ir::Operation& op,
                                                     const char* attr, int64_t all) {
  auto groups = ir::ReadIdGroups(op, attr, all);
  if (!groups.ok()) return context.OpError(op, groups.status().message());
  return groups;
}

int64_t IdCount(const EvalContext& context, Strategy strategy) {
  return ir::CollectiveIdCount(NumReplicas(context), NumPartitions(context), strategy);
}

StatusOr<std::vector<std::vector<ProcessId>>> ProcessGroups(EvalContext& context, const ir::Operation& op,
                                                            Strategy strategy,
                                                            const std::vector<std::vector<int64_t>>& groups) {
  auto expanded = ir::ExpandProcessGroups(groups, NumReplicas(context), NumPartitions(context), strategy);
  if (!expanded.ok()) return context.OpError(op, expanded.status().message());
  std::vector<std::vector<ProcessId>> out;
  for (const auto& group : *expanded) {
    std::vector<ProcessId> pg;
    for (const ir::GridProcess& p : group) pg.push_back({p.replica, p.partition});
    out.push_back(std::move(pg));
  }
  return out;
}

std::optional<std::vector<ProcessId>> OwnGroup(const EvalContext& context,
                                               const std::vector<std::vector<ProcessId>>& groups) {
  const ProcessId self = context.process();
  for (const auto& group : groups) {
    for (const ProcessId& p : group) {
      if (p.replica_id == self.replica_id && p.partition_id == self.partition_id) return group;
    }
  }
  return std::nullopt;
}

int64_t IndexIn(const EvalContext& context, const std::vector<ProcessId>& group) {
  const ProcessId self = context.process();
  for (size_t i = 0; i < group.size(); ++i) {
    if (group[i].replica_id == self.replica_id && group[i].partition_id == self.partition_id) {
      return static_cast<int64_t>(i);
    }
  }
  return -1;
}

StatusOr<std::vector<InterpValues>> Exchange(EvalContext& context, const ir::Operation& op,
                                             const std::vector<ProcessId>& group, InterpValues contribution) {
  const ProcessId self = context.process();
  bool only_self = true;
  for (const ProcessId& p : group) {
    only_self = only_self && p.replica_id == self.replica_id && p.partition_id == self.partition_id;
  }
  if (only_self) return std::vector<InterpValues>(group.size(), contribution);
  if (context.grid() == nullptr) {
    return context.OpError(op, "needs other processes: run it inside interpreter.run_parallel");
  }
  auto result = context.grid()->Rendezvous(op.name(), lib::ChannelId(op), group, self, std::move(contribution));
  if (!result.ok()) {
    const Status s = result.status();
    // Keep the code (DEADLINE_EXCEEDED, ABORTED) and add where.
    return Status(s.code(), context.OpError(op, "did not complete: " + s.message()).message());
  }
  return result;
}

std::vector<uint8_t> AllBytes(const ir::Literal& literal) {
  auto raw = literal.raw();
  if (!literal.is_splat()) return std::vector<uint8_t>(raw.begin(), raw.end());
  std::vector<uint8_t> out;
  out.reserve(raw.size() * static_cast<size_t>(std::max<int64_t>(literal.num_elements(), 0)));
  for (int64_t i = 0; i < literal.num_elements(); ++i) out.insert(out.end(), raw.begin(), raw.end());
  return out;
}

StatusOr<ir::Literal> Concatenate(const std::vector<const ir::Literal*>& parts, int64_t dim) {
  if (parts.empty()) return InvalidArgumentError("concatenating nothing");
  const ir::Type& first = parts[0]->type();
  std::vector<int64_t> dims = first.dims();
  dims[dim] = 0;
  for (const ir::Literal* p : parts) dims[dim] += p->type().dim(dim);
  const int64_t outer = lib::Product(std::vector<int64_t>(first.dims().begin(), first.dims().begin() + dim));
  const int64_t inner = lib::Product(std::vector<int64_t>(first.dims().begin() + dim + 1, first.dims().end()));
  const size_t eb = static_cast<size_t>(ir::StorageBytes(first.element_type()));
  std::vector<std::vector<uint8_t>> bytes;
  for (const ir::Literal* p : parts) bytes.push_back(AllBytes(*p));
  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(lib::Product(dims)) * eb);
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < parts.size(); ++i) {
      const size_t chunk = static_cast<size_t>(parts[i]->type().dim(dim) * inner) * eb;
      const uint8_t* src = bytes[i].data() + static_cast<size_t>(o) * chunk;
      out.insert(out.end(), src, src + chunk);
    }
  }
  return ir::Literal::FromBytes(first.WithDims(dims), std::move(out));
}

StatusOr<ir::Literal> SliceAlong(const ir::Literal& literal, int64_t dim, int64_t start, int64_t size) {
  const ir::Type& type = literal.type();
  std::vector<int64_t> dims = type.dims();
  const int64_t full = dims[dim];
  dims[dim] = size;
  const int64_t outer = lib::Product(std::vector<int64_t>(type.dims().begin(), type.dims().begin() + dim));
  const int64_t inner = lib::Product(std::vector<int64_t>(type.dims().begin() + dim + 1, type.dims().end()));
  const size_t eb = static_cast<size_t>(ir::StorageBytes(type.element_type()));
  const std::vector<uint8_t> bytes = AllBytes(literal);
  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(outer * size * inner) * eb);
  for (int64_t o = 0; o < outer; ++o) {
    const uint8_t* src = bytes.data() + static_cast<size_t>((o * full + start) * inner) * eb;
    out.insert(out.end(), src, src + static_cast<size_t>(size * inner) * eb);
  }
  return ir::Literal::FromBytes(type.WithDims(dims), std::move(out));
}

}  // namespace vkhlo::interp::coll
