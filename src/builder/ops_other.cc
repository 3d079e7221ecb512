// Random numbers, custom calls, collectives, feeds and tokens.
#include <fmt/format.h>

#include "builder/builder_state.h"
#include "builder/type_conversion.h"
#include "vkhlo/xla_builder.h"

namespace vkhlo {
namespace {

using internal::BuilderState;
using internal::OpCall;
using ir::OpCode;
using ir::Value;

XlaOp Finish(OpCall& call, const StatusOr<ir::Operation*>& op, bool tuple_result = false) {
  if (!op.ok()) return call.Fail(op.status());
  if (tuple_result) {
    auto tuple = internal::EmitInferred(call.state(), call.block(), OpCode::kTuple, (*op)->results());
    if (!tuple.ok()) return call.Fail(tuple.status());
    return call.Finish((*tuple)->result(0));
  }
  return call.Finish(internal::EmitTupleOf(call.state(), call.block(), (*op)->results()));
}

XlaOp Rng(const char* name, const char* distribution, XlaOp a, XlaOp b, const Shape& shape) {
  OpCall call(name, {a, b});
  if (!call.ok()) return call.Invalid();
  auto type = internal::ToIrType(shape);
  if (!type.ok()) return call.Fail(type.status());
  if (!type->is_tensor()) return call.Fail(InvalidArgumentError("the shape must be an array shape"));
  auto dims = ir::Literal::Create(ir::Type::Tensor(ir::ElementType::kS64, {type->rank()}));
  if (!dims.ok()) return call.Fail(dims.status());
  for (int64_t i = 0; i < type->rank(); ++i) dims->SetInt(i, type->dim(i));
  auto shape_value = internal::EmitConstant(call.state(), call.block(), std::move(*dims));
  if (!shape_value.ok()) return call.Fail(shape_value.status());
  return Finish(call, internal::EmitTyped(call.state(), call.block(), OpCode::kRng,
                                          {call.value(0), call.value(1), *shape_value}, {*type},
                                          {{"rng_distribution", internal::EnumAttr("rng_distribution", distribution)}}));
}

// replica_groups: one row per group, ragged rows padded with -1; none: an empty 0x0 matrix
// (one group of all replicas).
ir::Attribute ReplicaGroups(const std::vector<ReplicaGroup>& groups) {
  std::vector<std::vector<int64_t>> rows;
  int64_t cols = 0;
  for (const ReplicaGroup& group : groups) {
    rows.push_back(group.replica_ids());
    cols = std::max<int64_t>(cols, group.replica_ids_size());
  }
  return internal::I64Matrix(rows, cols);
}

void AddChannel(std::vector<ir::NamedAttribute>& attributes, const std::optional<ChannelHandle>& channel) {
  if (!channel) return;
  attributes.emplace_back("channel_handle", ir::Attribute(ir::ChannelHandle{channel->handle(), channel->type()}));
}

// The operand's values (a tuple's elements), for ops that take several arrays.
StatusOr<std::vector<Value*>> Values(OpCall& call, size_t i) {
  return internal::FlattenTuple(call.state(), call.block(), call.value(i));
}

// Infeed of `shape` ordered by `token`: its data results and the new token.
StatusOr<ir::Operation*> EmitInfeed(OpCall& call, Value* token, const Shape& shape, const std::string& config) {
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, internal::ToIrType(shape));
  std::vector<ir::Type> results;
  if (type.is_tuple()) {
    results = type.tuple_elements();
  } else {
    results.push_back(type);
  }
  results.push_back(ir::Type::Token());
  return internal::EmitTyped(call.state(), call.block(), OpCode::kInfeed, {token}, results,
                             {{"infeed_config", ir::Attribute::String(config)}});
}

// The data of an infeed op as one value of `shape`.
StatusOr<Value*> InfeedData(OpCall& call, ir::Operation* infeed, const Shape& shape) {
  std::vector<Value*> data = infeed->results();
  data.pop_back();
  if (!shape.IsTuple()) return data.at(0);
  VKHLO_ASSIGN_OR_RETURN(ir::Operation * tuple, internal::EmitInferred(call.state(), call.block(), OpCode::kTuple, data));
  return tuple->result(0);
}

StatusOr<Value*> EmitOutfeed(OpCall& call, Value* token, const std::string& config) {
  VKHLO_ASSIGN_OR_RETURN(std::vector<Value*> operands, Values(call, 0));
  operands.push_back(token);
  VKHLO_ASSIGN_OR_RETURN(ir::Operation * op,
                         internal::EmitInferred(call.state(), call.block(), OpCode::kOutfeed, operands,
                                                {{"outfeed_config", ir::Attribute::String(config)}}));
  return op->result(0);
}

StatusOr<Value*> NewToken(OpCall& call) {
  VKHLO_ASSIGN_OR_RETURN(ir::Operation * op, internal::EmitInferred(call.state(), call.block(), OpCode::kAfterAll, {}));
  return op->result(0);
}

}  // namespace

XlaOp RngUniform(XlaOp a, XlaOp b, const Shape& shape) { return Rng("RngUniform", "UNIFORM", a, b, shape); }
XlaOp RngNormal(XlaOp mu, XlaOp sigma, const Shape& shape) { return Rng("RngNormal", "NORMAL", mu, sigma, shape); }

XlaOp RngBitGenerator(RandomAlgorithm algorithm, XlaOp initial_state, const Shape& shape) {
  OpCall call("RngBitGenerator", {initial_state});
  if (!call.ok()) return call.Invalid();
  auto type = internal::ToIrType(shape);
  if (!type.ok()) return call.Fail(type.status());
  const char* name = algorithm == RNG_THREE_FRY ? "THREE_FRY" : algorithm == RNG_PHILOX ? "PHILOX" : "DEFAULT";
  return Finish(call, internal::EmitTyped(call.state(), call.block(), OpCode::kRngBitGenerator, {call.value(0)},
                                          {call.type(0), *type},
                                          {{"rng_algorithm", internal::EnumAttr("rng_algorithm", name)}}));
}

XlaOp CustomCall(XlaBuilder* builder, const std::string& call_target_name, const std::vector<XlaOp>& operands,
                 const Shape& shape, const std::string& opaque, bool has_side_effect) {
  OpCall call("CustomCall", builder, operands);
  if (!call.ok()) return call.Invalid();
  auto type = internal::ToIrType(shape);
  if (!type.ok()) return call.Fail(type.status());
  std::vector<ir::Type> results = type->is_tuple() ? type->tuple_elements() : std::vector<ir::Type>{*type};
  std::vector<ir::NamedAttribute> attributes = {{"call_target_name", ir::Attribute::String(call_target_name)},
                                                {"has_side_effect", internal::BoolAttr(has_side_effect)}};
  if (!opaque.empty()) attributes.emplace_back("backend_config", ir::Attribute::String(opaque));
  return Finish(call,
                internal::EmitTyped(call.state(), call.block(), OpCode::kCustomCall, call.values(), results,
                                    std::move(attributes)),
                type->is_tuple());
}

XlaOp AllReduce(XlaOp operand, const XlaComputation& computation, const std::vector<ReplicaGroup>& replica_groups,
                const std::optional<ChannelHandle>& channel_id) {
  OpCall call("AllReduce", {operand});
  if (!call.ok()) return call.Invalid();
  BuilderState& state = call.state();
  auto operands = Values(call, 0);
  if (!operands.ok()) return call.Fail(operands.status());
  auto types = internal::ParameterTypes(computation, false);
  if (!types.ok()) return call.Fail(types.status());
  std::vector<ir::NamedAttribute> attributes = {{"replica_groups", ReplicaGroups(replica_groups)}};
  AddChannel(attributes, channel_id);
  auto op = internal::EmitWithRegions(
      state, call.block(), OpCode::kAllReduce, *operands, std::move(attributes), 1, operands->size(),
      [&](ir::Operation& o) { return internal::BuildRegion(state, o.region(0), computation, *types, false); });
  return Finish(call, op, call.type(0).is_tuple());
}

XlaOp AllGather(XlaOp operand, int64_t all_gather_dimension, int64_t shard_count,
                const std::vector<ReplicaGroup>& replica_groups, const std::optional<ChannelHandle>& channel_id) {
  OpCall call("AllGather", {operand});
  if (!call.ok()) return call.Invalid();
  const ir::Type& type = call.type(0);
  if (!type.is_tensor() || all_gather_dimension < 0 || all_gather_dimension >= type.rank()) {
    return call.Fail(InvalidArgumentError(
        fmt::format("all_gather_dimension {} must name a dimension of the array operand", all_gather_dimension)));
  }
  std::vector<int64_t> dims = type.dims();
  dims[static_cast<size_t>(all_gather_dimension)] *= shard_count;
  std::vector<ir::NamedAttribute> attributes = {{"all_gather_dim", internal::I64Attr(all_gather_dimension)},
                                                {"replica_groups", ReplicaGroups(replica_groups)}};
  AddChannel(attributes, channel_id);
  return Finish(call, internal::EmitTyped(call.state(), call.block(), OpCode::kAllGather, {call.value(0)},
                                          {type.WithDims(dims)}, std::move(attributes)));
}

XlaOp AllToAll(XlaOp operand, int64_t split_dimension, int64_t concat_dimension, int64_t split_count,
               const std::vector<ReplicaGroup>& replica_groups) {
  OpCall call("AllToAll", {operand});
  if (!call.ok()) return call.Invalid();
  return Finish(call, internal::EmitInferred(call.state(), call.block(), OpCode::kAllToAll, {call.value(0)},
                                             {{"split_dimension", internal::I64Attr(split_dimension)},
                                              {"concat_dimension", internal::I64Attr(concat_dimension)},
                                              {"split_count", internal::I64Attr(split_count)},
                                              {"replica_groups", ReplicaGroups(replica_groups)}}));
}

XlaOp ReduceScatter(XlaOp operand, const XlaComputation& computation, int64_t scatter_dimension, int64_t shard_count,
                    const std::vector<ReplicaGroup>& replica_groups, const std::optional<ChannelHandle>& channel_id) {
  OpCall call("ReduceScatter", {operand});
  if (!call.ok()) return call.Invalid();
  BuilderState& state = call.state();
  const ir::Type& type = call.type(0);
  if (!type.is_tensor() || scatter_dimension < 0 || scatter_dimension >= type.rank() || shard_count <= 0 ||
      type.dim(scatter_dimension) % shard_count != 0) {
    return call.Fail(InvalidArgumentError(fmt::format(
        "scatter_dimension {} must name a dimension of the array operand divisible by shard_count {}",
        scatter_dimension, shard_count)));
  }
  std::vector<int64_t> dims = type.dims();
  dims[static_cast<size_t>(scatter_dimension)] /= shard_count;
  auto types = internal::ParameterTypes(computation, false);
  if (!types.ok()) return call.Fail(types.status());
  std::vector<ir::NamedAttribute> attributes = {{"scatter_dimension", internal::I64Attr(scatter_dimension)},
                                                {"replica_groups", ReplicaGroups(replica_groups)}};
  AddChannel(attributes, channel_id);
  auto op = internal::EmitWithRegions(
      state, call.block(), OpCode::kReduceScatter, {call.value(0)}, std::move(attributes), 1, 1,
      [&](ir::Operation& o) { return internal::BuildRegion(state, o.region(0), computation, *types, false); },
      std::vector<ir::Type>{type.WithDims(dims)});
  return Finish(call, op);
}

XlaOp CollectivePermute(XlaOp operand, const std::vector<std::pair<int64_t, int64_t>>& source_target_pairs,
                        const std::optional<ChannelHandle>& channel_id) {
  OpCall call("CollectivePermute", {operand});
  if (!call.ok()) return call.Invalid();
  std::vector<std::vector<int64_t>> rows;
  for (const auto& [source, target] : source_target_pairs) rows.push_back({source, target});
  std::vector<ir::NamedAttribute> attributes = {{"source_target_pairs", internal::I64Matrix(rows, 2)}};
  AddChannel(attributes, channel_id);
  return Finish(call, internal::EmitInferred(call.state(), call.block(), OpCode::kCollectivePermute, {call.value(0)},
                                             std::move(attributes)));
}

XlaOp ReplicaId(XlaBuilder* builder) {
  OpCall call("ReplicaId", builder, {});
  if (!call.ok()) return call.Invalid();
  return Finish(call, internal::EmitInferred(call.state(), call.block(), OpCode::kReplicaId, {}));
}

XlaOp CreateToken(XlaBuilder* builder) {
  OpCall call("CreateToken", builder, {});
  if (!call.ok()) return call.Invalid();
  return call.Finish(NewToken(call));
}

XlaOp AfterAll(XlaBuilder* builder, const std::vector<XlaOp>& tokens) {
  OpCall call("AfterAll", builder, tokens);
  if (!call.ok()) return call.Invalid();
  return Finish(call, internal::EmitInferred(call.state(), call.block(), OpCode::kAfterAll, call.values()));
}

XlaOp Infeed(XlaBuilder* builder, const Shape& shape, const std::string& config) {
  OpCall call("Infeed", builder, {});
  if (!call.ok()) return call.Invalid();
  auto token = NewToken(call);
  if (!token.ok()) return call.Fail(token.status());
  auto infeed = EmitInfeed(call, *token, shape, config);
  if (!infeed.ok()) return call.Fail(infeed.status());
  return call.Finish(InfeedData(call, *infeed, shape));
}

XlaOp InfeedWithToken(XlaOp token, const Shape& shape, const std::string& config) {
  OpCall call("InfeedWithToken", {token});
  if (!call.ok()) return call.Invalid();
  auto infeed = EmitInfeed(call, call.value(0), shape, config);
  if (!infeed.ok()) return call.Fail(infeed.status());
  auto data = InfeedData(call, *infeed, shape);
  if (!data.ok()) return call.Fail(data.status());
  auto tuple = internal::EmitInferred(call.state(), call.block(), OpCode::kTuple, {*data, (*infeed)->results().back()});
  if (!tuple.ok()) return call.Fail(tuple.status());
  return call.Finish((*tuple)->result(0));
}

XlaOp Outfeed(XlaOp operand, const Shape& shape_with_layout, const std::string& outfeed_config) {
  (void)shape_with_layout;  // the operand's shape; layouts do not reach the device program
  OpCall call("Outfeed", {operand});
  if (!call.ok()) return call.Invalid();
  auto token = NewToken(call);
  if (!token.ok()) return call.Fail(token.status());
  return call.Finish(EmitOutfeed(call, *token, outfeed_config));
}

XlaOp OutfeedWithToken(XlaOp operand, XlaOp token, const Shape& shape_with_layout, const std::string& outfeed_config) {
  (void)shape_with_layout;
  OpCall call("OutfeedWithToken", {operand, token});
  if (!call.ok()) return call.Invalid();
  return call.Finish(EmitOutfeed(call, call.value(1), outfeed_config));
}

}  // namespace vkhlo
