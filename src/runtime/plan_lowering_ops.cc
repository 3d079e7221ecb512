#include "runtime/plan_lowering_ops.h"

#include <fmt/format.h>

#include "codegen/library/fft_lowering.h"
#include "ir/op_attributes.h"
#include "ir/process_groups.h"
#include "runtime/exact_reducer.h"

namespace vkhlo::runtime {
namespace {

using ir::OpCode;

plan::CollectiveStep::Groups GroupsOf(ir::CollectiveStrategy strategy) {
  switch (strategy) {
    case ir::CollectiveStrategy::kCrossReplica: return plan::CollectiveStep::Groups::kCrossReplica;
    case ir::CollectiveStrategy::kCrossPartition: return plan::CollectiveStep::Groups::kCrossPartition;
    case ir::CollectiveStrategy::kCrossReplicaAndPartition: return plan::CollectiveStep::Groups::kCrossReplicaAndPartition;
    case ir::CollectiveStrategy::kFlattenedIds: return plan::CollectiveStep::Groups::kFlattenedIds;
  }
  return plan::CollectiveStep::Groups::kCrossReplica;
}

plan::CollectiveStep::ExactReduction ExactOf(ExactReduction r) {
  using E = plan::CollectiveStep::ExactReduction;
  switch (r) {
    case ExactReduction::kAdd: return E::kAdd;
    case ExactReduction::kMultiply: return E::kMultiply;
    case ExactReduction::kMin: return E::kMin;
    case ExactReduction::kMax: return E::kMax;
    case ExactReduction::kAnd: return E::kAnd;
    case ExactReduction::kOr: return E::kOr;
    case ExactReduction::kXor: return E::kXor;
  }
  return E::kNone;
}

// `replica_groups` as written: rows of ids, negative entries kept (padding); absent: none
// (the executor then makes one group of every id, as ir::ReadIdGroups does).
StatusOr<std::vector<std::vector<int64_t>>> RawGroups(const ir::Operation& op, const std::string& location) {
  std::vector<std::vector<int64_t>> rows;
  const ir::Attribute* attribute = op.attribute("replica_groups");
  if (attribute == nullptr) return rows;
  const auto values = attribute->AsI64Vector();
  if (!values) {
    return InvalidArgumentError(fmt::format("{}: error: '{}' has `replica_groups` that are not integers", location, op.name()));
  }
  const ir::Literal* dense = attribute->AsDenseElements();
  size_t cols = values->size();
  if (dense != nullptr && dense->type().rank() == 2) cols = static_cast<size_t>(dense->type().dim(1));
  for (size_t start = 0; cols > 0 && start < values->size(); start += cols) {
    rows.emplace_back(values->begin() + static_cast<std::ptrdiff_t>(start),
                      values->begin() + static_cast<std::ptrdiff_t>(std::min(start + cols, values->size())));
  }
  return rows;
}

int64_t IntOr(const ir::Operation& op, std::string_view name) { return ir::AttrInt(op, name).value_or(-1); }

}  // namespace

StatusOr<plan::FftStep> FftStepOf(const ir::Operation& op) {
  VKHLO_ASSIGN_OR_RETURN(codegen::FftLowering lowering, codegen::LowerFft(op));
  plan::FftStep step;
  switch (lowering.type) {
    case codegen::FftType::kFft: step.type = plan::FftStep::Type::kFft; break;
    case codegen::FftType::kIfft: step.type = plan::FftStep::Type::kIfft; break;
    case codegen::FftType::kRfft: step.type = plan::FftStep::Type::kRfft; break;
    case codegen::FftType::kIrfft: step.type = plan::FftStep::Type::kIrfft; break;
  }
  step.double_precision = lowering.double_precision;
  step.lengths = lowering.lengths;
  step.batch = lowering.batch;
  return step;
}

StatusOr<plan::CollectiveStep> CollectiveStepOf(const ir::Operation& op, std::string location) {
  using Kind = plan::CollectiveStep::Kind;
  plan::CollectiveStep step;
  bool gather_reduce = false;
  switch (op.code()) {
    case OpCode::kAllGather:
      step.kind = Kind::kAllGather;
      step.dimension = IntOr(op, "all_gather_dim");
      gather_reduce = true;
      break;
    case OpCode::kAllReduce:
      step.kind = Kind::kAllReduce;
      gather_reduce = true;
      break;
    case OpCode::kReduceScatter:
      step.kind = Kind::kReduceScatter;
      step.dimension = IntOr(op, "scatter_dimension");
      gather_reduce = true;
      break;
    case OpCode::kCollectiveReduce:
      step.kind = Kind::kCollectiveReduce;
      gather_reduce = true;
      break;
    case OpCode::kAllToAll:
      step.kind = Kind::kAllToAll;
      step.dimension = IntOr(op, "split_dimension");
      step.concat_dimension = IntOr(op, "concat_dimension");
      step.split_count = IntOr(op, "split_count");
      break;
    case OpCode::kCollectivePermute: {
      step.kind = Kind::kCollectivePermute;
      const ir::Attribute* attribute = op.attribute("source_target_pairs");
      const auto pairs = attribute ? attribute->AsI64Vector() : std::nullopt;
      if (!pairs || pairs->size() % 2 != 0) {
        return InvalidArgumentError(fmt::format("{}: error: '{}' needs `source_target_pairs` of shape Nx2", location, op.name()));
      }
      for (size_t i = 0; i < pairs->size(); i += 2) step.source_target_pairs.emplace_back((*pairs)[i], (*pairs)[i + 1]);
      break;
    }
    case OpCode::kCollectiveBroadcast:
      step.kind = Kind::kCollectiveBroadcast;
      step.dynamic_root = ir::AttrBool(op, "has_dynamic_root");
      break;
    default:
      return InternalError(fmt::format("{}: '{}' is not a collective", location, op.name()));
  }
  step.groups = GroupsOf(gather_reduce ? ir::GatherReduceStrategy(op) : ir::ReplicaOrPartitionStrategy(op));
  VKHLO_ASSIGN_OR_RETURN(step.replica_groups, RawGroups(op, location));
  step.channel_id = ir::CollectiveChannelId(op);
  if (op.code() == OpCode::kAllReduce || op.code() == OpCode::kReduceScatter || op.code() == OpCode::kCollectiveReduce) {
    if (const auto exact = ExactReducer(op)) {
      for (ExactReduction r : *exact) step.exact.push_back(ExactOf(r));
    }
  }
  step.location = std::move(location);
  return step;
}

StatusOr<plan::ProcessStep> ProcessStepOf(const ir::Operation& op, std::string location) {
  using Kind = plan::ProcessStep::Kind;
  plan::ProcessStep step;
  switch (op.code()) {
    case OpCode::kReplicaId: step.kind = Kind::kReplicaId; break;
    case OpCode::kPartitionId: step.kind = Kind::kPartitionId; break;
    case OpCode::kSend: step.kind = Kind::kSend; break;
    case OpCode::kRecv: step.kind = Kind::kRecv; break;
    case OpCode::kInfeed: step.kind = Kind::kInfeed; break;
    case OpCode::kOutfeed: step.kind = Kind::kOutfeed; break;
    default:
      return InternalError(fmt::format("{}: '{}' is not a process op", location, op.name()));
  }
  step.channel_id = ir::CollectiveChannelId(op);
  step.host_transfer = ir::AttrBool(op, "is_host_transfer");
  step.location = std::move(location);
  return step;
}

plan::CustomCallStep CustomCallStepOf(const CompiledCustomCall& call) {
  plan::CustomCallStep step;
  step.target = call.target->name;
  step.api_version = call.api_version;
  step.backend_config.assign(call.backend_config.begin(), call.backend_config.end());
  step.has_side_effect = call.has_side_effect;
  step.host_callback = call.host() != nullptr;
  step.location = call.location;
  return step;
}

}  // namespace vkhlo::runtime
