// The process grid's ops: interpreter.run_parallel (which starts the grid), replica_id,
// partition_id, send/recv (channels) and infeed/outfeed (the host queues).
//
// interpreter.run_parallel(operands...) {programs = [[@f00, @f01, ...], [@f10, ...], ...],
//                                        infeed = [@q0, @q1, ...]}
//   programs[r][p] is the program of process (replica r, partition p): num_replicas rows of
//   num_partitions symbols. The operands are handed out to the processes in row-major order
//   (each takes as many as its function has inputs); the results are every process's results in
//   the same order. Each process runs on its own thread with its own EvalContext sharing one
//   ProcessGrid and the caller's host queues. `infeed` functions are evaluated first (in the
//   caller's context), each giving one infeed entry. Check results of the processes are reported
//   in the caller's context ("process (r, p): ..."). If a process fails, the others stop waiting
//   for it, and the op fails with the first process's error.
//
// send/recv: inside a grid, channels of the grid by channel id (whatever is_host_transfer says,
// as the StableHLO interpreter does). Outside a grid, host transfers go to the host queues: send
// appends to the outfeed, recv takes from the infeed.
#include <fmt/format.h>

#include <thread>

#include "interp/collective_groups.h"
#include "interp/library_common.h"

namespace vkhlo::interp::coll {
namespace {

using ir::Operation;

StatusOr<InterpValues> EvalReplicaId(EvalContext& context, const Operation& op, const InterpValues&) {
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, lib::TensorResultType(context, op, 0));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, ir::Literal::Create(type));
  if (out.num_elements() != 1) return context.OpError(op, "returns a scalar");
  out.SetInt(0, context.process().replica_id);
  return lib::One(std::move(out));
}

StatusOr<InterpValues> EvalPartitionId(EvalContext& context, const Operation& op, const InterpValues&) {
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, lib::TensorResultType(context, op, 0));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal out, ir::Literal::Create(type));
  if (out.num_elements() != 1) return context.OpError(op, "returns a scalar");
  out.SetInt(0, context.process().partition_id);
  return lib::One(std::move(out));
}

// Payload = every operand but the trailing token.
InterpValues Payload(const InterpValues& operands) {
  InterpValues payload(operands.begin(), operands.end());
  if (!payload.empty() && payload.back().is_token()) payload.pop_back();
  return payload;
}

Status CheckPayload(EvalContext& context, const Operation& op, const InterpValues& values) {
  if (values.size() + 1 != op.num_results()) {
    return context.OpError(op, fmt::format("received {} value(s) for {} result(s) before its token", values.size(),
                                           op.num_results() - 1));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].type() != op.result(i)->type()) {
      return context.OpError(op, fmt::format("received {} for result {} of type {}", values[i].type().ToString(), i,
                                             op.result(i)->type().ToString()));
    }
  }
  return OkStatus();
}

StatusOr<InterpValues> PopInfeed(EvalContext& context, const Operation& op) {
  HostQueues* queues = context.queues();
  InterpValues values;
  {
    if (queues == nullptr) return context.OpError(op, "has no infeed to read from");
    std::lock_guard<std::mutex> lock(queues->mutex);
    if (queues->infeed.empty()) return context.OpError(op, "reads from an empty infeed");
    values = std::move(queues->infeed.front());
    queues->infeed.pop_front();
  }
  VKHLO_RETURN_IF_ERROR(CheckPayload(context, op, values));
  values.push_back(InterpValue::Token());
  return values;
}

Status PushOutfeed(EvalContext& context, const Operation& op, InterpValues values) {
  HostQueues* queues = context.queues();
  if (queues == nullptr) return context.OpError(op, "has no outfeed to write to");
  std::lock_guard<std::mutex> lock(queues->mutex);
  queues->outfeed.push_back(std::move(values));
  return OkStatus();
}

StatusOr<InterpValues> EvalInfeed(EvalContext& context, const Operation& op, const InterpValues&) {
  return PopInfeed(context, op);
}

StatusOr<InterpValues> EvalOutfeed(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(PushOutfeed(context, op, Payload(operands)));
  return InterpValues{InterpValue::Token()};
}

StatusOr<InterpValues> EvalSend(EvalContext& context, const Operation& op, const InterpValues& operands) {
  if (context.grid() == nullptr) {
    if (!lib::AttrBool(op, "is_host_transfer")) {
      return context.OpError(op, "sends to another process: run it inside interpreter.run_parallel");
    }
    VKHLO_RETURN_IF_ERROR(PushOutfeed(context, op, Payload(operands)));
    return InterpValues{InterpValue::Token()};
  }
  Status s = context.grid()->Send(op.name(), lib::ChannelId(op), Payload(operands));
  if (!s.ok()) return Status(s.code(), context.OpError(op, "did not complete: " + s.message()).message());
  return InterpValues{InterpValue::Token()};
}

StatusOr<InterpValues> EvalRecv(EvalContext& context, const Operation& op, const InterpValues&) {
  if (context.grid() == nullptr) {
    if (!lib::AttrBool(op, "is_host_transfer")) {
      return context.OpError(op, "receives from another process: run it inside interpreter.run_parallel");
    }
    return PopInfeed(context, op);
  }
  auto received = context.grid()->Recv(op.name(), lib::ChannelId(op));
  if (!received.ok()) {
    const Status s = received.status();
    return Status(s.code(), context.OpError(op, "did not complete: " + s.message()).message());
  }
  InterpValues values = std::move(received).value();
  VKHLO_RETURN_IF_ERROR(CheckPayload(context, op, values));
  values.push_back(InterpValue::Token());
  return values;
}

// --- interpreter.run_parallel ---

const ir::Function* FindSymbol(const EvalContext& context, const ir::Attribute& a) {
  const ir::SymbolRef* ref = a.as<ir::SymbolRef>();
  return ref ? context.module().FindFunction(ref->name) : nullptr;
}

struct ProcessRun {
  ProcessId id;
  const ir::Function* function = nullptr;
  InterpValues arguments;
  Status status;
  InterpValues outputs;
  std::vector<CheckFailure> failures;
  int64_t passes = 0;
};

StatusOr<InterpValues> EvalRunParallel(EvalContext& context, const Operation& op, const InterpValues& operands) {
  const ir::Attribute* programs = op.attribute("programs");
  const auto* rows = programs ? programs->as<ir::Attribute::Array>() : nullptr;
  if (rows == nullptr || rows->empty()) return context.OpError(op, "needs `programs`, an array of arrays of functions");
  const int64_t num_replicas = static_cast<int64_t>(rows->size());
  int64_t num_partitions = -1;
  std::vector<ProcessRun> runs;
  for (int64_t r = 0; r < num_replicas; ++r) {
    const auto* row = (*rows)[r].as<ir::Attribute::Array>();
    if (row == nullptr || row->empty()) return context.OpError(op, "has a `programs` row that is not an array of functions");
    if (num_partitions < 0) num_partitions = static_cast<int64_t>(row->size());
    if (static_cast<int64_t>(row->size()) != num_partitions) {
      return context.OpError(op, "has `programs` rows of different lengths");
    }
    for (int64_t p = 0; p < num_partitions; ++p) {
      const ir::Function* f = FindSymbol(context, (*row)[p]);
      if (f == nullptr) return context.OpError(op, fmt::format("programs[{}][{}] is not a function of the module", r, p));
      runs.push_back(ProcessRun{ProcessId{r, p}, f});
    }
  }
  // Hand out the operands.
  size_t next = 0;
  for (auto& run : runs) {
    const size_t count = run.function->type().inputs.size();
    if (next + count > operands.size()) return context.OpError(op, "has fewer operands than its programs take");
    run.arguments.assign(operands.begin() + next, operands.begin() + next + count);
    next += count;
  }
  if (next != operands.size()) return context.OpError(op, "has more operands than its programs take");
  // The infeed: one entry per function.
  HostQueues local_queues;
  HostQueues* queues = context.queues() ? context.queues() : &local_queues;
  if (const ir::Attribute* infeed = op.attribute("infeed")) {
    const auto* list = infeed->as<ir::Attribute::Array>();
    if (list == nullptr) return context.OpError(op, "has an `infeed` that is not an array of functions");
    for (const auto& a : *list) {
      const ir::Function* f = FindSymbol(context, a);
      if (f == nullptr) return context.OpError(op, "has an `infeed` entry that is not a function of the module");
      VKHLO_ASSIGN_OR_RETURN(InterpValues values, context.CallFunction(*f, {}));
      std::lock_guard<std::mutex> lock(queues->mutex);
      queues->infeed.push_back(std::move(values));
    }
  }
  ProcessGrid grid(num_replicas, num_partitions);
  std::vector<std::thread> threads;
  threads.reserve(runs.size());
  for (auto& run : runs) {
    threads.emplace_back([&context, &grid, queues, &run] {
      EvalContext process(context.module(), run.id, &grid, queues);
      auto result = process.CallFunction(*run.function, run.arguments);
      if (result.ok()) {
        run.outputs = std::move(result).value();
      } else {
        run.status = result.status();
        grid.Abort(run.id, run.status);
      }
      run.failures = process.check_failures();
      run.passes = process.checks_passed();
    });
  }
  for (auto& t : threads) t.join();
  if (auto error = grid.first_error()) return *error;
  InterpValues results;
  for (auto& run : runs) {
    for (const auto& f : run.failures) {
      context.RecordCheckFailure(op, fmt::format("process ({}, {}), line {}:{}: {}", run.id.replica_id,
                                                 run.id.partition_id, f.location.line, f.location.column, f.message));
    }
    for (int64_t i = 0; i < run.passes; ++i) context.RecordCheckPass();
    results.insert(results.end(), run.outputs.begin(), run.outputs.end());
  }
  if (results.size() != op.num_results()) {
    return context.OpError(op, fmt::format("has {} results, but its programs return {}", op.num_results(), results.size()));
  }
  return results;
}

}  // namespace

void RegisterProcessOps(OpRegistry& registry) {
  registry.Register(ir::OpCode::kInterpreterRunParallel, EvalRunParallel);
  registry.Register(ir::OpCode::kReplicaId, EvalReplicaId);
  registry.Register(ir::OpCode::kPartitionId, EvalPartitionId);
  registry.Register(ir::OpCode::kSend, EvalSend);
  registry.Register(ir::OpCode::kRecv, EvalRecv);
  registry.Register(ir::OpCode::kInfeed, EvalInfeed);
  registry.Register(ir::OpCode::kOutfeed, EvalOutfeed);
}

}  // namespace vkhlo::interp::coll
