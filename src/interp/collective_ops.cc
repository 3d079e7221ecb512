// Collectives: all_gather, all_reduce, reduce_scatter, collective_reduce, all_to_all,
// collective_permute and collective_broadcast, on the process groups of the spec's strategies (collective_groups.h).
//
// Each process of a group contributes its operands at a rendezvous (ProcessGrid) and computes
// its own result from everyone's contributions. Reductions fold the group's values in group
// order with the op's region, element by element (reduce_without_init: the first process's
// value is the initial accumulator). A region of two arguments reduces each operand on its own;
// a region of 2N arguments reduces N operands jointly.
#include <fmt/format.h>

#include <cstring>

#include "interp/collective_groups.h"
#include "interp/library_common.h"

namespace vkhlo::interp {
namespace {

using coll::Strategy;
using ir::Operation;

StatusOr<std::vector<ProcessId>> GroupOf(EvalContext& context, const Operation& op, Strategy strategy) {
  VKHLO_ASSIGN_OR_RETURN(auto ids, coll::IdGroups(context, op, "replica_groups", coll::IdCount(context, strategy)));
  VKHLO_ASSIGN_OR_RETURN(auto groups, coll::ProcessGroups(context, op, strategy, ids));
  auto own = coll::OwnGroup(context, groups);
  if (!own) {
    return context.OpError(op, fmt::format("has no process group holding process ({}, {})",
                                           context.process().replica_id, context.process().partition_id));
  }
  return *own;
}

Status CheckTensors(EvalContext& context, const Operation& op, const InterpValues& operands) {
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!operands[i].is_tensor()) return context.OpError(op, fmt::format("operand {} is not a tensor", i));
  }
  if (op.num_results() != operands.size()) {
    return context.OpError(op, "has a different number of results than operands");
  }
  return OkStatus();
}

// result[i][e] = fold(region, contributions[0][i][e], contributions[1][i][e], ...).
StatusOr<std::vector<ir::Literal>> ReduceAcross(EvalContext& context, const Operation& op,
                                                const std::vector<InterpValues>& contributions) {
  if (op.num_regions() != 1 || op.region(0).empty()) return context.OpError(op, "has no reduction region");
  const size_t n = contributions[0].size();
  const size_t region_args = op.region(0).front().num_arguments();
  const bool joint = region_args == 2 * n && n > 1;
  if (!joint && region_args != 2) return context.OpError(op, "has a reduction region with the wrong number of arguments");
  // Bytes of every contribution, and the scalar types.
  std::vector<std::vector<std::vector<uint8_t>>> bytes(contributions.size());
  for (size_t p = 0; p < contributions.size(); ++p) {
    if (contributions[p].size() != n) return context.OpError(op, "got contributions of different sizes");
    for (size_t i = 0; i < n; ++i) {
      const ir::Literal& l = contributions[p][i].literal();
      if (l.type() != contributions[0][i].literal().type()) {
        return context.OpError(op, "got operands of different types from the processes of a group");
      }
      bytes[p].push_back(coll::AllBytes(l));
    }
  }
  std::vector<ir::Type> scalar(n);
  std::vector<size_t> eb(n);
  std::vector<std::vector<uint8_t>> out(n);
  for (size_t i = 0; i < n; ++i) {
    const ir::Type& t = contributions[0][i].literal().type();
    scalar[i] = t.WithDims({});
    eb[i] = static_cast<size_t>(ir::StorageBytes(t.element_type()));
    out[i].resize(bytes[0][i].size());
  }
  auto element = [&](size_t p, size_t i, int64_t e) -> StatusOr<InterpValue> {
    const uint8_t* src = bytes[p][i].data() + static_cast<size_t>(e) * eb[i];
    VKHLO_ASSIGN_OR_RETURN(ir::Literal l, ir::Literal::FromBytes(scalar[i], std::vector<uint8_t>(src, src + eb[i])));
    return InterpValue::Tensor(std::move(l));
  };
  auto store = [&](size_t i, int64_t e, const InterpValue& v) -> Status {
    if (!v.is_tensor() || v.literal().num_elements() != 1 || v.literal().raw().size() != eb[i]) {
      return context.OpError(op, "has a reduction region that returns a value of another type");
    }
    std::memcpy(out[i].data() + static_cast<size_t>(e) * eb[i], v.literal().raw().data(), eb[i]);
    return OkStatus();
  };
  const std::vector<ir::Type> types = [&] {
    std::vector<ir::Type> t;
    for (size_t i = 0; i < n; ++i) t.push_back(contributions[0][i].literal().type());
    return t;
  }();
  for (size_t i = 0; i < (joint ? 1 : n); ++i) {
    const int64_t count = types[i].num_elements();
    for (int64_t e = 0; e < count; ++e) {
      if (joint) {
        InterpValues acc;
        for (size_t j = 0; j < n; ++j) {
          VKHLO_ASSIGN_OR_RETURN(InterpValue v, element(0, j, e));
          acc.push_back(std::move(v));
        }
        for (size_t p = 1; p < contributions.size(); ++p) {
          InterpValues args = acc;
          for (size_t j = 0; j < n; ++j) {
            VKHLO_ASSIGN_OR_RETURN(InterpValue v, element(p, j, e));
            args.push_back(std::move(v));
          }
          VKHLO_ASSIGN_OR_RETURN(acc, context.EvaluateRegion(op.region(0), args));
          if (acc.size() != n) return context.OpError(op, "has a reduction region with the wrong number of results");
        }
        for (size_t j = 0; j < n; ++j) VKHLO_RETURN_IF_ERROR(store(j, e, acc[j]));
      } else {
        VKHLO_ASSIGN_OR_RETURN(InterpValue acc, element(0, i, e));
        for (size_t p = 1; p < contributions.size(); ++p) {
          VKHLO_ASSIGN_OR_RETURN(InterpValue v, element(p, i, e));
          VKHLO_ASSIGN_OR_RETURN(InterpValues r, context.EvaluateRegion(op.region(0), {acc, v}));
          if (r.size() != 1) return context.OpError(op, "has a reduction region with the wrong number of results");
          acc = r[0];
        }
        VKHLO_RETURN_IF_ERROR(store(i, e, acc));
      }
    }
  }
  std::vector<ir::Literal> results;
  for (size_t i = 0; i < n; ++i) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal l, ir::Literal::FromBytes(types[i], std::move(out[i])));
    results.push_back(std::move(l));
  }
  return results;
}

StatusOr<InterpValues> EvalAllGather(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckTensors(context, op, operands));
  auto dim = lib::AttrInt(op, "all_gather_dim");
  if (!dim) return context.OpError(op, "has no `all_gather_dim`");
  for (const auto& v : operands) {
    if (*dim < 0 || *dim >= v.literal().type().rank()) return context.OpError(op, "has all_gather_dim out of range");
  }
  VKHLO_ASSIGN_OR_RETURN(auto group, GroupOf(context, op, coll::GatherReduceStrategy(op)));
  VKHLO_ASSIGN_OR_RETURN(auto all, coll::Exchange(context, op, group, operands));
  InterpValues results;
  for (size_t i = 0; i < operands.size(); ++i) {
    std::vector<const ir::Literal*> parts;
    for (const auto& c : all) parts.push_back(&c[i].literal());
    VKHLO_ASSIGN_OR_RETURN(ir::Literal r, coll::Concatenate(parts, *dim));
    if (r.type() != op.result(i)->type()) {
      return context.OpError(op, fmt::format("result {} has type {}, but gathering gives {}", i,
                                             op.result(i)->type().ToString(), r.type().ToString()));
    }
    results.push_back(InterpValue::Tensor(std::move(r)));
  }
  return results;
}

StatusOr<InterpValues> EvalAllReduce(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckTensors(context, op, operands));
  VKHLO_ASSIGN_OR_RETURN(auto group, GroupOf(context, op, coll::GatherReduceStrategy(op)));
  VKHLO_ASSIGN_OR_RETURN(auto all, coll::Exchange(context, op, group, operands));
  VKHLO_ASSIGN_OR_RETURN(auto reduced, ReduceAcross(context, op, all));
  InterpValues results;
  for (auto& r : reduced) results.push_back(InterpValue::Tensor(std::move(r)));
  return results;
}

// collective_reduce: all_reduce's reduction, delivered only to the group's first process (the
// root); the other processes get zeros.
StatusOr<InterpValues> EvalCollectiveReduce(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckTensors(context, op, operands));
  VKHLO_ASSIGN_OR_RETURN(auto group, GroupOf(context, op, coll::GatherReduceStrategy(op)));
  VKHLO_ASSIGN_OR_RETURN(auto all, coll::Exchange(context, op, group, operands));
  InterpValues results;
  if (coll::IndexIn(context, group) != 0) {
    for (const auto& v : operands) {
      VKHLO_ASSIGN_OR_RETURN(ir::Literal zeros, ir::Literal::Create(v.literal().type()));
      results.push_back(InterpValue::Tensor(std::move(zeros)));
    }
    return results;
  }
  VKHLO_ASSIGN_OR_RETURN(auto reduced, ReduceAcross(context, op, all));
  for (auto& r : reduced) results.push_back(InterpValue::Tensor(std::move(r)));
  return results;
}

StatusOr<InterpValues> EvalReduceScatter(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckTensors(context, op, operands));
  auto dim = lib::AttrInt(op, "scatter_dimension");
  if (!dim) return context.OpError(op, "has no `scatter_dimension`");
  VKHLO_ASSIGN_OR_RETURN(auto group, GroupOf(context, op, coll::GatherReduceStrategy(op)));
  VKHLO_ASSIGN_OR_RETURN(auto all, coll::Exchange(context, op, group, operands));
  VKHLO_ASSIGN_OR_RETURN(auto reduced, ReduceAcross(context, op, all));
  const int64_t parts = static_cast<int64_t>(group.size());
  const int64_t index = coll::IndexIn(context, group);
  InterpValues results;
  for (const auto& r : reduced) {
    if (*dim < 0 || *dim >= r.type().rank() || r.type().dim(*dim) % parts != 0) {
      return context.OpError(op, "has a scatter_dimension out of range or not divisible by the group size");
    }
    const int64_t size = r.type().dim(*dim) / parts;
    VKHLO_ASSIGN_OR_RETURN(ir::Literal piece, coll::SliceAlong(r, *dim, index * size, size));
    results.push_back(InterpValue::Tensor(std::move(piece)));
  }
  return results;
}

StatusOr<InterpValues> EvalAllToAll(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckTensors(context, op, operands));
  auto split_dim = lib::AttrInt(op, "split_dimension");
  auto concat_dim = lib::AttrInt(op, "concat_dimension");
  auto split_count = lib::AttrInt(op, "split_count");
  if (!split_dim || !concat_dim || !split_count || *split_count <= 0) {
    return context.OpError(op, "needs split_dimension, concat_dimension and a positive split_count");
  }
  for (const auto& v : operands) {
    const ir::Type& t = v.literal().type();
    if (*split_dim < 0 || *split_dim >= t.rank() || *concat_dim < 0 || *concat_dim >= t.rank() ||
        t.dim(*split_dim) % *split_count != 0) {
      return context.OpError(op, "has split/concat dimensions out of range or an indivisible split");
    }
  }
  VKHLO_ASSIGN_OR_RETURN(auto group, GroupOf(context, op, coll::ReplicaOrPartitionStrategy(op)));
  if (static_cast<int64_t>(group.size()) != *split_count) {
    return context.OpError(op, fmt::format("has split_count {} but a process group of {}", *split_count, group.size()));
  }
  VKHLO_ASSIGN_OR_RETURN(auto all, coll::Exchange(context, op, group, operands));
  const int64_t index = coll::IndexIn(context, group);
  InterpValues results;
  for (size_t i = 0; i < operands.size(); ++i) {
    std::vector<ir::Literal> pieces;
    for (const auto& c : all) {
      const ir::Literal& l = c[i].literal();
      const int64_t size = l.type().dim(*split_dim) / *split_count;
      VKHLO_ASSIGN_OR_RETURN(ir::Literal piece, coll::SliceAlong(l, *split_dim, index * size, size));
      pieces.push_back(std::move(piece));
    }
    std::vector<const ir::Literal*> parts;
    for (const auto& p : pieces) parts.push_back(&p);
    VKHLO_ASSIGN_OR_RETURN(ir::Literal r, coll::Concatenate(parts, *concat_dim));
    results.push_back(InterpValue::Tensor(std::move(r)));
  }
  return results;
}

StatusOr<InterpValues> EvalCollectivePermute(EvalContext& context, const Operation& op, const InterpValues& operands) {
  if (operands.size() != 1 || !operands[0].is_tensor()) return context.OpError(op, "takes one tensor");
  auto pairs = lib::AttrInts(op, "source_target_pairs");
  if (!pairs || pairs->size() % 2 != 0) return context.OpError(op, "needs `source_target_pairs` of shape Nx2");
  const Strategy strategy = coll::ReplicaOrPartitionStrategy(op);
  const bool by_partition = strategy == Strategy::kCrossPartition;
  const int64_t limit = coll::IdCount(context, strategy);
  const ProcessId self = context.process();
  const int64_t my_id = by_partition ? self.partition_id : self.replica_id;
  auto process = [&](int64_t id) {
    return by_partition ? ProcessId{self.replica_id, id} : ProcessId{id, self.partition_id};
  };
  std::optional<InterpValue> received;
  for (size_t i = 0; i < pairs->size(); i += 2) {
    const int64_t source = (*pairs)[i], target = (*pairs)[i + 1];
    if (source < 0 || target < 0 || source >= limit || target >= limit) {
      return context.OpError(op, fmt::format("has the pair [{}, {}] outside a grid of {}", source, target, limit));
    }
    if (source != my_id && target != my_id) continue;
    // The source contributes its operand; the target only its presence.
    InterpValues contribution;
    if (source == my_id) contribution.push_back(operands[0]);
    VKHLO_ASSIGN_OR_RETURN(auto all, coll::Exchange(context, op, {process(source), process(target)}, contribution));
    if (target == my_id) {
      if (all[0].size() != 1) return context.OpError(op, "received nothing from its source");
      received = all[0][0];
    }
  }
  if (received) return InterpValues{*received};
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, lib::TensorResultType(context, op, 0));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal zeros, ir::Literal::Create(type));
  return lib::One(std::move(zeros));
}

// collective_broadcast(data..., [root]): every process of a group gets the data of the group's
// first process, or with `has_dynamic_root`, data operand i from the process at position
// root[i] of the group (root: the last operand, a 1-D integer tensor). A process in no group
// gets zeros.
StatusOr<InterpValues> EvalCollectiveBroadcast(EvalContext& context, const Operation& op, const InterpValues& operands) {
  const bool dynamic_root = lib::AttrBool(op, "has_dynamic_root");
  InterpValues data(operands.begin(), operands.end() - (dynamic_root && !operands.empty() ? 1 : 0));
  if (data.empty() || data.size() != op.num_results()) return context.OpError(op, "needs one result per data operand");
  for (const auto& v : operands) {
    if (!v.is_tensor()) return context.OpError(op, "takes tensors");
  }
  std::vector<int64_t> roots(data.size(), 0);
  if (dynamic_root) {
    const std::vector<int64_t> given = lib::ToInts(operands.back().literal());
    if (given.empty()) return context.OpError(op, "has an empty root operand");
    for (size_t i = 0; i < roots.size(); ++i) roots[i] = given[std::min(i, given.size() - 1)];
  }
  const Strategy strategy = coll::ReplicaOrPartitionStrategy(op);
  VKHLO_ASSIGN_OR_RETURN(auto ids, coll::IdGroups(context, op, "replica_groups", coll::IdCount(context, strategy)));
  VKHLO_ASSIGN_OR_RETURN(auto groups, coll::ProcessGroups(context, op, strategy, ids));
  auto group = coll::OwnGroup(context, groups);
  InterpValues results;
  if (!group) {  // not in any group: zeros
    for (size_t i = 0; i < data.size(); ++i) {
      VKHLO_ASSIGN_OR_RETURN(ir::Type type, lib::TensorResultType(context, op, i));
      VKHLO_ASSIGN_OR_RETURN(ir::Literal zeros, ir::Literal::Create(type));
      results.push_back(InterpValue::Tensor(std::move(zeros)));
    }
    return results;
  }
  for (int64_t root : roots) {
    if (root < 0 || root >= static_cast<int64_t>(group->size())) {
      return context.OpError(op, fmt::format("has root {} outside its process group of {}", root, group->size()));
    }
  }
  VKHLO_ASSIGN_OR_RETURN(auto all, coll::Exchange(context, op, *group, data));
  for (size_t i = 0; i < data.size(); ++i) results.push_back(all[static_cast<size_t>(roots[i])][i]);
  return results;
}

}  // namespace

void RegisterCollectiveOps(OpRegistry& registry) {
  registry.Register(ir::OpCode::kAllGather, EvalAllGather);
  registry.Register(ir::OpCode::kAllReduce, EvalAllReduce);
  registry.Register(ir::OpCode::kReduceScatter, EvalReduceScatter);
  registry.Register(ir::OpCode::kCollectiveReduce, EvalCollectiveReduce);
  registry.Register(ir::OpCode::kAllToAll, EvalAllToAll);
  registry.Register(ir::OpCode::kCollectivePermute, EvalCollectivePermute);
  registry.Register(ir::OpCode::kCollectiveBroadcast, EvalCollectiveBroadcast);
  coll::RegisterProcessOps(registry);
}

}  // namespace vkhlo::interp
