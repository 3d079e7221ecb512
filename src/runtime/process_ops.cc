// The process's own ops: replica_id / partition_id (device tensors made once per execution from
// the process's coordinates), send / recv (channels of the transport; outside a grid, host
// transfers use the feed queues, as the interpreter does), infeed / outfeed (the process's host
// queues). Ops run in program order on the process's thread, so tokens are respected.
#include <fmt/format.h>

#include "device/transfer.h"
#include "runtime/collective_groups.h"
#include "runtime/execution.h"
#include "runtime/profiler.h"

namespace vkhlo::runtime {
namespace {

// Operands but the trailing token.
std::vector<RtValue> Payload(const std::vector<RtValue>& operands) {
  std::vector<RtValue> payload(operands.begin(), operands.end());
  if (!payload.empty() && payload.back().kind == RtValue::Kind::kToken) payload.pop_back();
  return payload;
}

}  // namespace

StatusOr<std::vector<RtValue>> Execution::RunProcessOp(const plan::ProcessStep& step,
                                                       const std::vector<RtValue>& operands) {
  using Kind = plan::ProcessStep::Kind;
  const std::string name = StepOpName(step);
  auto error = [&](std::string_view what, StatusCode code = StatusCode::kInvalidArgument) {
    return StepError(name, step.location, what, code);
  };
  const std::string described = fmt::format("{} at {}", name, step.location);
  auto result_type = [&](size_t i) -> const TensorDesc& { return TypeOf(step.results[i]); };
  // The payload types an op receives: every result but the trailing token.
  auto check_received = [&](const std::vector<TensorDesc>& types) -> Status {
    if (types.size() + 1 != step.results.size()) {
      return error(fmt::format("received {} value(s) for {} result(s) before its token", types.size(),
                                     step.results.size() - 1));
    }
    for (size_t i = 0; i < types.size(); ++i) {
      if (types[i] != result_type(i)) {
        return error(fmt::format("received {} for result {} of type {}", types[i].ToString(), i,
                                       result_type(i).ToString()));
      }
    }
    return OkStatus();
  };
  auto push_outfeed = [&](const std::vector<RtValue>& payload) -> Status {
    if (process_.outfeed == nullptr) return error("has no outfeed to write to");
    VKHLO_RETURN_IF_ERROR(Flush());
    const double start = profiler_ != nullptr ? profiler_->NowUs() : 0;
    uint64_t moved = 0;
    std::vector<HostTensor> entry;
    for (const RtValue& v : payload) {
      if (v.kind != RtValue::Kind::kTensor) return error("writes a value that is not a tensor");
      HostTensor t{v.type.ToTensorType(), std::vector<uint8_t>(v.type.storage_bytes())};
      if (!t.bytes.empty()) {
        VKHLO_RETURN_IF_ERROR(client_->device->transfers().Download(
            v.storage->buffer, 0, std::as_writable_bytes(std::span<uint8_t>(t.bytes))));
      }
      moved += t.bytes.size();
      entry.push_back(std::move(t));
    }
    if (profiler_ != nullptr) profiler_->Host("outfeed download", "host: transfer", described, start, moved);
    process_.outfeed->Push(std::move(entry));
    return OkStatus();
  };
  auto pop_infeed = [&]() -> StatusOr<std::vector<RtValue>> {
    if (process_.infeed == nullptr) return error("has no infeed to read from");
    std::optional<std::vector<HostTensor>> entry = process_.infeed->Pop();
    if (!entry) return error("reads from an empty infeed");
    std::vector<TensorDesc> types;
    for (const HostTensor& t : *entry) {
      VKHLO_ASSIGN_OR_RETURN(TensorDesc type, DescOf(t.type));
      types.push_back(type);
    }
    VKHLO_RETURN_IF_ERROR(check_received(types));
    std::vector<RtValue> results;
    const double start = profiler_ != nullptr ? profiler_->NowUs() : 0;
    uint64_t moved = 0;
    for (size_t i = 0; i < types.size(); ++i) {
      const HostTensor& t = (*entry)[i];
      moved += t.bytes.size();
      if (t.bytes.size() != types[i].storage_bytes()) {
        return error(fmt::format("received {} bytes for {}", t.bytes.size(), types[i].ToString()));
      }
      VKHLO_ASSIGN_OR_RETURN(auto storage, AllocateTensor(client_, types[i]));
      if (!t.bytes.empty()) {
        VKHLO_RETURN_IF_ERROR(client_->device->transfers().Upload(storage->buffer, 0, std::as_bytes(std::span(t.bytes))));
      }
      results.push_back(RtValue::Tensor(std::move(storage), types[i]));
    }
    if (profiler_ != nullptr) profiler_->Host("infeed upload", "host: transfer", described, start, moved);
    results.push_back(RtValue{});
    return results;
  };

  switch (step.kind) {
    case Kind::kReplicaId:
    case Kind::kPartitionId: {
      const TensorDesc& type = result_type(0);
      if (type.element == PRIMITIVE_TYPE_INVALID || type.num_elements() != 1) return error("returns a scalar");
      const std::string key = fmt::format("{} {}", name, type.ToString());
      auto it = ids_.find(key);
      if (it == ids_.end()) {
        const int64_t id = step.kind == Kind::kReplicaId ? process_.id.replica : process_.id.partition;
        StatusOr<std::vector<uint8_t>> value = IntegerToBytes(id, type.element);
        if (!value.ok()) return error(value.status().message());
        VKHLO_ASSIGN_OR_RETURN(auto storage, AllocateTensor(client_, type));
        VKHLO_RETURN_IF_ERROR(client_->device->transfers().Upload(storage->buffer, 0, std::as_bytes(std::span(*value))));
        it = ids_.emplace(key, RtValue::Tensor(std::move(storage), type)).first;
      }
      return std::vector<RtValue>{it->second};
    }
    case Kind::kSend: {
      std::vector<RtValue> payload = Payload(operands);
      if (process_.transport == nullptr) {
        if (!step.host_transfer) {
          return error("sends to another process: run it in a process grid");
        }
        VKHLO_RETURN_IF_ERROR(push_outfeed(payload));
        return std::vector<RtValue>{RtValue{}};
      }
      Contribution values;
      for (const RtValue& v : payload) {
        if (v.kind != RtValue::Kind::kTensor) return error("sends a value that is not a tensor");
        values.push_back(v.storage);
      }
      VKHLO_RETURN_IF_ERROR(Flush());  // the receiver reads them
      Status sent = process_.transport->Send(name, step.channel_id, std::move(values));
      if (!sent.ok()) return error("did not complete: " + sent.message(), sent.code());
      return std::vector<RtValue>{RtValue{}};
    }
    case Kind::kRecv: {
      if (process_.transport == nullptr) {
        if (!step.host_transfer) {
          return error("receives from another process: run it in a process grid");
        }
        return pop_infeed();
      }
      auto received = process_.transport->Recv(name, step.channel_id);
      if (!received.ok()) return error("did not complete: " + received.status().message(), received.status().code());
      std::vector<TensorDesc> types;
      for (const auto& b : *received) types.push_back(b->type);
      VKHLO_RETURN_IF_ERROR(check_received(types));
      std::vector<RtValue> results;
      for (std::shared_ptr<BufferState> b : *received) {
        VKHLO_ASSIGN_OR_RETURN(b, Localize(std::move(b)));
        Retire(b);
        VKHLO_ASSIGN_OR_RETURN(auto out, NewTensor(b->type));
        VKHLO_RETURN_IF_ERROR(Copy(*b, 0, *out, 0, BufferBytes(b->type)));
        results.push_back(RtValue::Tensor(std::move(out), b->type));
      }
      results.push_back(RtValue{});
      return results;
    }
    case Kind::kInfeed:
      return pop_infeed();
    case Kind::kOutfeed:
      VKHLO_RETURN_IF_ERROR(push_outfeed(Payload(operands)));
      return std::vector<RtValue>{RtValue{}};
  }
  return InternalError(fmt::format("runtime: {} is not a process op", name));
}

}  // namespace vkhlo::runtime
