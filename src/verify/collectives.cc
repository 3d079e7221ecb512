// Collectives and the process grid: all_gather, all_reduce, all_to_all, collective_broadcast,
// collective_permute, collective_reduce, reduce_scatter, partition_id, replica_id, send and recv.
//
// Process group sizes depend on the grouping strategy (spec "Collective ops"): with
// cross_replica and flattened_ids a group is one row of replica_groups; with
// cross_replica_and_partition it also spans the partitions, whose number comes from the
// module's mhlo.num_partitions when it is there. Where a group's size cannot be known statically
// the checks fall back to divisibility.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "verify/op_rules.h"
#include "verify/shape_inference.h"

namespace vkhlo::verify {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Type;

constexpr uint32_t kAny = kAnyElement;

// A module-level integer attribute (mhlo.num_partitions), when the op sits in a module.
std::optional<int64_t> ModuleInt(const OpContext& ctx, std::string_view name) {
  const ir::Module* module = ctx.op() != nullptr ? ModuleOf(*ctx.op()) : nullptr;
  if (module == nullptr) return std::nullopt;
  const ir::Attribute* attr = ir::FindAttribute(module->attributes(), name);
  if (attr == nullptr) return std::nullopt;
  return attr->AsInt();
}

StatusOr<int64_t> ChannelId(const OpContext& ctx) {
  VKHLO_ASSIGN_OR_RETURN(const ir::ChannelHandle* handle,
                         ctx.Struct<ir::ChannelHandle>("channel_handle", "#stablehlo.channel_handle<...>", false));
  if (handle != nullptr) return handle->handle;
  return ctx.Int("channel_id", 0);
}

enum class Grouping { kCrossReplica, kCrossPartition, kCrossReplicaAndPartition, kFlattenedIds };

constexpr int64_t kGroupPadding = -1;

// The replica_groups of an op: values unique and in [0, bound), where bound is
// size(replica_groups) for the ops whose groups cover every process (all_gather, all_reduce,
// all_to_all, reduce_scatter), or the number of processes N when groups may leave some out
// (collective_broadcast; N from the module's mhlo.num_replicas / num_partitions when known).
StatusOr<IntMatrix> ReplicaGroups(const OpContext& ctx, const char* unique_label, const char* range_label,
                                  std::optional<int64_t> bound = std::nullopt, bool cover_all = true) {
  VKHLO_ASSIGN_OR_RETURN(auto groups, ctx.Matrix("replica_groups", /*flat_as_pairs=*/false));
  if (!groups) return IntMatrix{};
  // Ragged groups are padded to a rectangle with -1 (as MLIR and XLA write them); the padding is
  // not a process id.
  std::vector<int64_t> ids;
  for (int64_t v : groups->values) {
    if (v != kGroupPadding) ids.push_back(v);
  }
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(ids, "replica_groups values", unique_label));
  const int64_t high = cover_all ? static_cast<int64_t>(ids.size()) : bound.value_or(INT64_MAX);
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(ids, 0, high, "replica_groups values", range_label));
  return std::move(*groups);
}

// The size of every process group, when it is known statically.
std::optional<int64_t> GroupSize(const OpContext& ctx, const IntMatrix& groups, Grouping grouping) {
  // Padded (ragged) groups have no single size.
  if (std::find(groups.values.begin(), groups.values.end(), kGroupPadding) != groups.values.end()) {
    return std::nullopt;
  }
  if (groups.values.empty() || groups.cols <= 0) {
    if (grouping == Grouping::kCrossReplica) return ModuleInt(ctx, "mhlo.num_replicas");
    if (grouping == Grouping::kCrossPartition) return ModuleInt(ctx, "mhlo.num_partitions");
    return std::nullopt;
  }
  if (grouping == Grouping::kCrossReplicaAndPartition) {
    auto partitions = ModuleInt(ctx, "mhlo.num_partitions");
    if (!partitions) return std::nullopt;
    return CheckedMul(groups.cols, *partitions);
  }
  return groups.cols;
}

// channel_id / use_global_device_ids: (C) use_global_device_ids implies channel_id > 0.
StatusOr<Grouping> GroupingOf(const OpContext& ctx, const char* label) {
  VKHLO_ASSIGN_OR_RETURN(int64_t channel_id, ChannelId(ctx));
  VKHLO_ASSIGN_OR_RETURN(bool global_ids, ctx.Bool("use_global_device_ids", false));
  if (global_ids && channel_id <= 0) {
    return ctx.Error(fmt::format("use_global_device_ids requires channel_id > 0 ({})", label), "channel_id > 0",
                     fmt::format("{}", channel_id));
  }
  if (channel_id <= 0) return Grouping::kCrossReplica;
  return global_ids ? Grouping::kFlattenedIds : Grouping::kCrossReplicaAndPartition;
}

// The result type of a reduction `computation` applied to `operand` with accumulator `e`.
Type Accumulated(const Type& operand, const Type& e) {
  return e == ScalarOf(operand) ? operand : e.WithDims(operand.dims());
}

Status VerifyAllGather(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, ctx.num_operands(), kAny, "operand (I1)"));
  if (ctx.num_results() != ctx.num_operands()) {
    return ctx.Error("must have one result per operand", fmt::format("{} results", ctx.num_operands()),
                     fmt::format("{} results", ctx.num_results()));
  }
  VKHLO_ASSIGN_OR_RETURN(int64_t dim, ctx.Int("all_gather_dim"));
  VKHLO_ASSIGN_OR_RETURN(IntMatrix groups, ReplicaGroups(ctx, "C2", "C4"));
  VKHLO_ASSIGN_OR_RETURN(Grouping grouping, GroupingOf(ctx, "C5"));
  const std::optional<int64_t> group_size = GroupSize(ctx, groups, grouping);
  for (size_t i = 0; i < ctx.num_operands(); ++i) {
    const Type& operand = ctx.operand(i);
    const Type& result = ctx.result(i);
    if (dim < 0 || dim >= operand.rank()) {
      return ctx.Error("all_gather_dim must be in range (C1)", fmt::format("a value in [0, {})", operand.rank()),
                       fmt::format("{}", dim));
    }
    bool ok = result.is_tensor() && CompatibleElement(operand, result) && result.rank() == operand.rank();
    for (int64_t d = 0; ok && d < operand.rank(); ++d) {
      if (d != dim) ok = CompatibleDim(result.dim(d), operand.dim(d));
    }
    std::string expected = "the operand's type with dimension all_gather_dim scaled by the group size";
    if (ok && !operand.is_dynamic_dim(dim) && !result.is_dynamic_dim(dim)) {
      const int64_t in = operand.dim(dim), out = result.dim(dim);
      if (group_size) {
        auto scaled = CheckedMul(in, *group_size);
        ok = scaled && *scaled == out;
        if (scaled) expected = WithDims(operand, [&] {
                                 auto dims = operand.dims();
                                 dims[dim] = *scaled;
                                 return dims;
                               }()).ToString();
      } else {
        ok = in == 0 ? out == 0 : out % in == 0 && out > 0;
      }
    }
    if (!ok) return ctx.Error("result type must be the gathered operand's (C6)", expected, result.ToString());
  }
  return OkStatus();
}

StatusOr<TypeList> InferAllReduce(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, ctx.num_operands(), kAny, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ReplicaGroups(ctx, "C1", "C3").status());
  VKHLO_RETURN_IF_ERROR(GroupingOf(ctx, "C4").status());
  VKHLO_ASSIGN_OR_RETURN(RegionSignature computation, ctx.Region(0, "computation"));
  VKHLO_ASSIGN_OR_RETURN(auto accumulators,
                         ctx.CheckReducerType(computation, ctx.operands().subspan(0, 1), "computation", "C5"));
  TypeList results;
  for (size_t i = 0; i < ctx.num_operands(); ++i) {
    if (!IsPromotable(ctx.operand(i), accumulators[0])) {
      return ctx.Error("computation must have type (C5)",
                       SignatureToString(std::vector<Type>(2, ScalarOf(ctx.operand(i))),
                                         std::vector<Type>(1, ScalarOf(ctx.operand(i)))),
                       computation.ToString());
    }
    results.push_back(Accumulated(ctx.operand(i), accumulators[0]));
  }
  return results;
}

StatusOr<TypeList> InferAllToAll(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, ctx.num_operands(), kAny, "operand (I1)"));
  VKHLO_ASSIGN_OR_RETURN(int64_t split_dimension, ctx.Int("split_dimension"));
  VKHLO_ASSIGN_OR_RETURN(int64_t concat_dimension, ctx.Int("concat_dimension"));
  VKHLO_ASSIGN_OR_RETURN(int64_t split_count, ctx.Int("split_count"));
  VKHLO_RETURN_IF_ERROR(ReplicaGroups(ctx, "C5", "C7").status());
  VKHLO_RETURN_IF_ERROR(ChannelId(ctx).status());
  if (split_count <= 0) {
    return ctx.Error("split_count must be positive (C4)", "a value > 0", fmt::format("{}", split_count));
  }
  TypeList results;
  for (const Type& operand : ctx.operands()) {
    if (split_dimension < 0 || split_dimension >= operand.rank()) {
      return ctx.Error("split_dimension must be in range (C1)", fmt::format("a value in [0, {})", operand.rank()),
                       fmt::format("{}", split_dimension));
    }
    if (concat_dimension < 0 || concat_dimension >= operand.rank()) {
      return ctx.Error("concat_dimension must be in range (C3)", fmt::format("a value in [0, {})", operand.rank()),
                       fmt::format("{}", concat_dimension));
    }
    if (operand.is_dynamic_dim(split_dimension) || operand.is_dynamic_dim(concat_dimension)) {
      std::vector<int64_t> dims = operand.dims();  // sizes known once refined
      dims[split_dimension] = dims[concat_dimension] = ir::kDynamic;
      results.push_back(WithDims(operand, dims));
      continue;
    }
    if (operand.dim(split_dimension) % split_count != 0) {
      return ctx.Error("dim(operand, split_dimension) must be divisible by split_count (C2)",
                       fmt::format("a multiple of {}", split_count), fmt::format("{}", operand.dim(split_dimension)));
    }
    std::vector<int64_t> dims = operand.dims();
    dims[split_dimension] /= split_count;
    auto scaled = CheckedMul(dims[concat_dimension], split_count);
    if (!scaled) return ctx.Error("result dimension overflows (C8)", "a size that fits in int64", "an overflow");
    dims[concat_dimension] = *scaled;
    results.push_back(WithDims(operand, dims));
  }
  return results;
}

// One or more operands (when the op table allows variadic ones); with has_dynamic_root the last
// operand is the roots, one i32 process index per data operand.
StatusOr<TypeList> InferCollectiveBroadcast(const OpContext& ctx) {
  VKHLO_ASSIGN_OR_RETURN(int64_t channel_id, ChannelId(ctx));
  const auto processes = ModuleInt(ctx, channel_id > 0 ? "mhlo.num_partitions" : "mhlo.num_replicas");
  VKHLO_RETURN_IF_ERROR(ReplicaGroups(ctx, "C1", "C2", processes, /*cover_all=*/false).status());
  VKHLO_ASSIGN_OR_RETURN(bool dynamic_root, ctx.Bool("has_dynamic_root", false));
  size_t data = ctx.num_operands();
  if (dynamic_root) {
    const Type& root = ctx.operand(data - 1);
    --data;
    if (data == 0 || !IsTensorOf(root, kInt) || root.rank() != 1 || root.dim(0) != static_cast<int64_t>(data)) {
      return ctx.Error("root has an invalid type",
                       fmt::format("1-dimensional integer tensor of {} elements after the data operands", data),
                       root.ToString());
    }
  }
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, data, kAny, "operand (I1)"));
  return TypeList(ctx.operands().begin(), ctx.operands().begin() + static_cast<std::ptrdiff_t>(data));
}

StatusOr<TypeList> InferCollectivePermute(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, ctx.num_operands(), kAny, "operand (I1)"));
  VKHLO_ASSIGN_OR_RETURN(auto pairs, ctx.Matrix("source_target_pairs", /*flat_as_pairs=*/true));
  if (!pairs) return ctx.MissingAttribute("source_target_pairs", "a 2-dimensional tensor constant of type si64");
  if (pairs->cols != 2 && !pairs->values.empty()) {
    return ctx.Error("dim(source_target_pairs, 1) must be 2 (C1)", "2", fmt::format("{}", pairs->cols));
  }
  std::vector<int64_t> sources, targets;
  for (int64_t r = 0; r < pairs->rows && pairs->cols == 2; ++r) {
    sources.push_back(pairs->at(r, 0));
    targets.push_back(pairs->at(r, 1));
  }
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(sources, "sources of source_target_pairs", "C2"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(targets, "targets of source_target_pairs", "C3"));
  VKHLO_ASSIGN_OR_RETURN(int64_t channel_id, ChannelId(ctx));
  const auto processes = ModuleInt(ctx, channel_id > 0 ? "mhlo.num_partitions" : "mhlo.num_replicas");
  VKHLO_RETURN_IF_ERROR(
      ctx.CheckInRange(pairs->values, 0, processes.value_or(INT64_MAX), "source_target_pairs", "C4"));
  return TypeList(ctx.operands().begin(), ctx.operands().end());
}

Status VerifyReduceScatter(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  const Type& operand = ctx.operand(0);
  const Type& result = ctx.result(0);
  VKHLO_ASSIGN_OR_RETURN(int64_t dim, ctx.Int("scatter_dimension"));
  if (dim < 0 || dim >= operand.rank()) {
    return ctx.Error("scatter_dimension must be in range (C2)", fmt::format("a value in [0, {})", operand.rank()),
                     fmt::format("{}", dim));
  }
  VKHLO_ASSIGN_OR_RETURN(IntMatrix groups, ReplicaGroups(ctx, "C3", "C5"));
  VKHLO_ASSIGN_OR_RETURN(Grouping grouping, GroupingOf(ctx, "C6"));
  VKHLO_ASSIGN_OR_RETURN(RegionSignature computation, ctx.Region(0, "computation"));
  VKHLO_ASSIGN_OR_RETURN(auto accumulators,
                         ctx.CheckReducerType(computation, std::span(&operand, 1), "computation", "C7"));
  const std::optional<int64_t> group_size = GroupSize(ctx, groups, grouping);
  const int64_t in = operand.dim(dim);
  const bool known = !ir::IsDynamicDim(in) && !result.is_dynamic_dim(dim);  // else checked once refined
  if (known && group_size && *group_size > 0 && in % *group_size != 0) {
    return ctx.Error("dim(operand, scatter_dimension) must be divisible by the group size (C1)",
                     fmt::format("a multiple of {}", *group_size), fmt::format("{}", in));
  }
  const Type expected_element = Accumulated(operand, accumulators[0]);
  bool ok = result.rank() == operand.rank() && CompatibleElement(expected_element, result);
  for (int64_t d = 0; ok && d < operand.rank(); ++d) {
    if (d != dim) ok = CompatibleDim(result.dim(d), operand.dim(d));
  }
  std::string expected = "the operand's type with dimension scatter_dimension divided by the group size";
  if (ok && known) {
    const int64_t out = result.dim(dim);
    if (group_size && *group_size > 0) {
      std::vector<int64_t> dims = operand.dims();
      dims[dim] = in / *group_size;
      expected = WithDims(expected_element, dims).ToString();
      ok = out == dims[dim];
    } else {
      ok = out == 0 ? in == 0 : in % out == 0;
    }
  }
  if (!ok) return ctx.Error("result type must be the scattered operand's (C8)", expected, result.ToString());
  return OkStatus();
}

StatusOr<TypeList> InferProcessId(const OpContext&) { return TypeList{Type::Scalar(ElementType::kU32)}; }

// (C1) channel_type must be DEVICE_TO_HOST (send) / HOST_TO_DEVICE (recv) for host transfers,
// DEVICE_TO_DEVICE otherwise. Channel types: 1 DEVICE_TO_DEVICE, 2 DEVICE_TO_HOST, 3 HOST_TO_DEVICE.
Status CheckChannelType(const OpContext& ctx, int64_t host_type, const char* host_name) {
  VKHLO_ASSIGN_OR_RETURN(bool host, ctx.Bool("is_host_transfer", false));
  VKHLO_ASSIGN_OR_RETURN(const ir::ChannelHandle* handle,
                         ctx.Struct<ir::ChannelHandle>("channel_handle", "#stablehlo.channel_handle<...>", false));
  if (handle == nullptr || handle->type == 0) return OkStatus();  // 0: unspecified
  const int64_t expected = host ? host_type : 1;
  if (handle->type != expected) {
    auto name = [&](int64_t t) -> std::string {
      if (t == 1) return "DEVICE_TO_DEVICE (1)";
      if (t == host_type) return fmt::format("{} ({})", host_name, host_type);
      return fmt::format("{}", t);
    };
    return ctx.Error(fmt::format("channel_type must be {} when is_host_transfer is {} (C1)",
                                 host ? host_name : "DEVICE_TO_DEVICE", host ? "true" : "false"),
                     name(expected), name(handle->type));
  }
  return OkStatus();
}

StatusOr<TypeList> InferSend(const OpContext& ctx) {
  const size_t last = ctx.num_operands() - 1;
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, last, kAny, "inputs (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireToken(ctx.operand(last), "token (I2)"));
  VKHLO_RETURN_IF_ERROR(CheckChannelType(ctx, 2, "DEVICE_TO_HOST"));
  return TypeList{Type::Token()};
}

Status VerifyRecv(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireToken(ctx.operand(0), "token (I1)"));
  if (ctx.num_results() == 0) {
    return ctx.Error("must have at least one result (C2)", "at least 1 result", "0 results");
  }
  if (!ctx.results().back().is_token()) {
    return ctx.Error("last result must be a token (C3)", "!stablehlo.token", ctx.results().back().ToString());
  }
  return CheckChannelType(ctx, 3, "HOST_TO_DEVICE");
}

constexpr OpRule kRules[] = {
    {OpCode::kAllGather, nullptr, VerifyAllGather},
    {OpCode::kAllReduce, InferAllReduce, nullptr, "result types must match the operands' (C6)",
     ResultMatch::kCompatible},
    {OpCode::kAllToAll, InferAllToAll, nullptr, "result types must be the operands' split and concatenated (C8)",
     ResultMatch::kCompatible},
    {OpCode::kCollectiveBroadcast, InferCollectiveBroadcast, nullptr, "result types must match the operands' (C3)"},
    {OpCode::kCollectivePermute, InferCollectivePermute, nullptr, "result types must match the operands' (C5)"},
    // collective_reduce (a reduction to the group's root) has all_reduce's signature and constraints.
    {OpCode::kCollectiveReduce, InferAllReduce, nullptr, "result types must match the operands' (C6)",
     ResultMatch::kCompatible},
    {OpCode::kReduceScatter, nullptr, VerifyReduceScatter},
    {OpCode::kPartitionId, InferProcessId, nullptr, "result type must be tensor<ui32>"},
    {OpCode::kReplicaId, InferProcessId, nullptr, "result type must be tensor<ui32>"},
    {OpCode::kSend, InferSend, nullptr, "result type must be !stablehlo.token"},
    {OpCode::kRecv, nullptr, VerifyRecv},
};

}  // namespace

std::span<const OpRule> CollectiveRules() { return kRules; }

}  // namespace vkhlo::verify
