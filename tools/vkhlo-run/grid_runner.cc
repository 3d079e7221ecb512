#include "tools/vkhlo-run/grid_runner.h"

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "interp/checks.h"
#include "interp/value.h"
#include "ir/walk.h"
#include "runtime/runtime_internal.h"
#include "tools/vkhlo-run/mpi_grid_runner.h"
#include "vkhlo/process_grid.h"

namespace vkhlo::tools {
namespace {

using ir::OpCode;

std::string Where(const ir::Module& module, ir::Location loc) {
  return ir::FormatLocation(module.source_name(), loc);
}

// Values `op` reads from outside itself (operands of it and of ops in its regions).
void OuterUses(const ir::Operation& op, std::vector<const ir::Value*>& out) {
  std::unordered_set<const ir::Value*> inner;
  for (size_t r = 0; r < op.num_regions(); ++r) {
    ir::WalkOps(op.region(r), [&](ir::Operation& o) {
      for (size_t i = 0; i < o.num_results(); ++i) inner.insert(o.result(i));
      for (size_t ri = 0; ri < o.num_regions(); ++ri) {
        for (const auto& b : o.region(ri).blocks()) {
          for (const auto& a : b->arguments()) inner.insert(a.get());
        }
      }
    });
    for (const auto& b : op.region(r).blocks()) {
      for (const auto& a : b->arguments()) inner.insert(a.get());
    }
  }
  for (const ir::Value* v : op.operands()) out.push_back(v);
  for (size_t r = 0; r < op.num_regions(); ++r) {
    ir::WalkOps(op.region(r), [&](ir::Operation& o) {
      for (const ir::Value* v : o.operands()) {
        if (!inner.count(v)) out.push_back(v);
      }
    });
  }
}

class GridTest {
 public:
  GridTest(const ir::Module& module, const ir::Function& function, const CheckOptions& options)
      : module_(module), function_(function), options_(options) {}

  TestOutcome Run() {
    TestOutcome outcome;
    outcome.name = function_.name();
    Status status = RunAll();
    if (!status.ok()) {
      outcome.message = status.message();
    } else if (failures_ > 0) {
      outcome.message = first_failure_;
      if (failures_ > 1) outcome.message += fmt::format(" (and {} more failed checks)", failures_ - 1);
    } else {
      outcome.passed = true;
    }
    return outcome;
  }

 private:
  Status RunAll() {
    const auto& ops = function_.body().front().operations();
    // Where each value is last read (top-level op index).
    for (size_t i = 0; i < ops.size(); ++i) {
      std::vector<const ir::Value*> uses;
      OuterUses(*ops[i], uses);
      for (const ir::Value* v : uses) last_use_[v] = i;
    }
    size_t i = 0;
    while (i < ops.size()) {
      const ir::Operation& op = *ops[i];
      if (op.code() == OpCode::kInterpreterRunParallel) {
        VKHLO_RETURN_IF_ERROR(RunGrid(op));
        ++i;
      } else if (auto check = interp::DescribeCheckOp(op)) {
        VKHLO_RETURN_IF_ERROR(RunCheck(op, *check));
        ++i;
      } else if (op.code() == OpCode::kFuncReturn || op.code() == OpCode::kReturn) {
        ++i;
      } else if (op.info().kind == ir::OpKind::kTest) {
        return UnimplementedError(fmt::format("{}: {} is not supported with --device=vulkan", Where(module_, op.location()),
                                              op.name()));
      } else {
        size_t end = i;
        while (end < ops.size() && ops[end]->code() != OpCode::kInterpreterRunParallel &&
               ops[end]->info().kind != ir::OpKind::kTest && !interp::DescribeCheckOp(*ops[end]) &&
               ops[end]->code() != OpCode::kFuncReturn) {
          ++end;
        }
        VKHLO_RETURN_IF_ERROR(RunStage(i, end));
        i = end;
      }
    }
    return OkStatus();
  }

  StatusOr<Executable> Compile(std::unique_ptr<ir::Module> module, const std::string& entry,
                               const Client* client = nullptr) {
    CompileOptions compile = options_.compile;
    compile.entry = entry;
    return runtime::CompileModule(client ? *client : *options_.client, std::move(module), compile);
  }

  // The client process `p` of a grid of `count` runs on (options_.grid_placement).
  StatusOr<const Client*> ProcessClient(size_t p, size_t count) {
    // Over MPI this rank's process runs on this rank's client.
    if (options_.grid_placement == ProcessPlacement::kShared || options_.mpi) return options_.client;
    if (process_clients_.size() < count) {
      VKHLO_ASSIGN_OR_RETURN(process_clients_,
                             CreateProcessClients(static_cast<int64_t>(count), options_.grid_placement));
    }
    return process_clients_[p].get();
  }

  // `buffer` on the client the stages run on (grid results of processes with clients of their own).
  StatusOr<Buffer> OnMainClient(const Buffer& buffer) {
    // Buffers of one client share its device: Buffer::ToHost/BufferFromHost only when not.
    if (runtime::SameClient(buffer, *options_.client)) return buffer;
    VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, buffer.ToHost());
    return options_.client->BufferFromHost(buffer.type(), bytes);
  }

  void AddStats(const Executable& exe) {
    if (options_.totals == nullptr) return;
    const ExecutionStats s = exe.last_stats();
    options_.totals->kernels_dispatched += s.kernels_dispatched;
    options_.totals->command_buffers += s.command_buffers;
    options_.totals->bytes_read += s.bytes_read;
    options_.totals->bytes_written += s.bytes_written;
    options_.totals->in_place_updates += s.in_place_updates;
    options_.totals->predicate_readbacks += s.predicate_readbacks;
    options_.totals->counted_loop_iterations += s.counted_loop_iterations;
    options_.totals->invariant_dispatches_reused += s.invariant_dispatches_reused;
  }

  // Ops [begin, end) as a function of the values they read from earlier ops, returning what
  // later ops read; run on the device.
  Status RunStage(size_t begin, size_t end) {
    const auto& ops = function_.body().front().operations();
    std::unique_ptr<ir::Module> copy = CloneModule(module_);
    std::string name;
    int n = 0;
    do {
      name = fmt::format("__vkhlo_stage_{}", n++);
    } while (copy->FindFunction(name) != nullptr);
    std::unordered_set<const ir::Value*> defined;
    for (size_t i = begin; i < end; ++i) {
      for (size_t r = 0; r < ops[i]->num_results(); ++r) defined.insert(ops[i]->result(r));
    }
    std::vector<const ir::Value*> inputs;
    std::unordered_set<const ir::Value*> seen;
    std::vector<const ir::Value*> tokens;
    for (size_t i = begin; i < end; ++i) {
      std::vector<const ir::Value*> uses;
      OuterUses(*ops[i], uses);
      for (const ir::Value* v : uses) {
        if (defined.count(v) || !seen.insert(v).second) continue;
        if (v->type().is_token()) {
          tokens.push_back(v);
        } else {
          if (!known_.count(v)) return InternalError("a staged value has no buffer");
          inputs.push_back(v);
        }
      }
    }
    std::vector<const ir::Value*> outputs;
    for (size_t i = begin; i < end; ++i) {
      for (size_t r = 0; r < ops[i]->num_results(); ++r) {
        const ir::Value* v = ops[i]->result(r);
        auto last = last_use_.find(v);
        if (last != last_use_.end() && last->second >= end && v->type().is_tensor()) outputs.push_back(v);
      }
    }
    ir::FunctionType type;
    for (const ir::Value* v : inputs) type.inputs.push_back(v->type());
    for (const ir::Value* v : outputs) type.results.push_back(v->type());
    auto f = std::make_unique<ir::Function>(name, type);
    ir::Block& body = f->body().AddBlock();
    ir::ValueMap mapping;
    for (const ir::Value* v : inputs) mapping[v] = body.AddArgument(v->type());
    for (const ir::Value* t : tokens) {
      // Tokens carry no data: a fresh one stands for one made by an earlier stage.
      mapping[t] = body.Append(ir::Operation::Create(OpCode::kAfterAll, {}, {ir::Type::Token()}))->result(0);
    }
    for (size_t i = begin; i < end; ++i) body.Append(ir::CloneOp(*ops[i], mapping));
    std::vector<ir::Value*> returned;
    for (const ir::Value* v : outputs) returned.push_back(mapping.at(v));
    body.Append(ir::Operation::Create(OpCode::kFuncReturn, returned, {}));
    copy->AddFunction(std::move(f));
    VKHLO_ASSIGN_OR_RETURN(Executable exe, Compile(std::move(copy), name));
    std::vector<Buffer> args;
    for (const ir::Value* v : inputs) args.push_back(known_.at(v));
    VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, exe.Execute(args));
    AddStats(exe);
    if (results.size() != outputs.size()) return InternalError("a stage returned another number of results");
    for (size_t i = 0; i < outputs.size(); ++i) known_[outputs[i]] = results[i];
    return OkStatus();
  }

  const ir::Function* Symbol(const ir::Attribute& a) const {
    const ir::SymbolRef* ref = a.as<ir::SymbolRef>();
    return ref ? module_.FindFunction(ref->name) : nullptr;
  }

  // A program of the grid. Its top-level interpreter.print ops (test ops, which the device does
  // not run) become extra results of a copy of the function; the host prints them after the
  // grid, process by process, as the interpreter prints them.
  struct Program {
    Executable executable;
    size_t prints = 0;
  };
  StatusOr<Program> ProgramFor(const ir::Function& f, const Client* client = nullptr) {
    if (client == nullptr) client = options_.client;
    const auto key = std::make_pair(f.name(), client);
    auto it = programs_.find(key);
    if (it != programs_.end()) return it->second;
    std::unique_ptr<ir::Module> copy = CloneModule(module_);
    ir::Function* original = copy->FindFunction(f.name());
    std::string entry = f.name();
    size_t prints = 0;
    for (const auto& op : original->body().front().operations()) prints += op->code() == OpCode::kInterpreterPrint;
    if (prints > 0) {
      entry = "__vkhlo_program_" + f.name();
      auto g = std::make_unique<ir::Function>(entry, original->type());
      ir::ValueMap mapping;
      ir::CloneRegionInto(original->body(), g->body(), mapping);
      ir::Block& body = g->body().front();
      std::vector<ir::Value*> printed;
      std::vector<std::unique_ptr<ir::Operation>> ops = body.TakeOperations();
      for (auto& op : ops) {
        if (op->code() == OpCode::kInterpreterPrint) {
          printed.push_back(op->operand(0));
        } else {
          body.Append(std::move(op));
        }
      }
      g->AppendResults(printed);
      copy->AddFunction(std::move(g));
    }
    VKHLO_ASSIGN_OR_RETURN(Executable exe, Compile(std::move(copy), entry, client));
    Program program{exe, prints};
    programs_.emplace(key, program);
    return program;
  }

  Status RunGrid(const ir::Operation& op) {
    auto error = [&](std::string_view what) {
      return InvalidArgumentError(fmt::format("{}: error: '{}' {}", Where(module_, op.location()), op.name(), what));
    };
    const ir::Attribute* programs = op.attribute("programs");
    const auto* rows = programs ? programs->as<ir::Attribute::Array>() : nullptr;
    if (rows == nullptr || rows->empty()) return error("needs `programs`, an array of arrays of functions");
    ProcessGridOptions grid;
    grid.timeout = options_.grid_timeout;
    grid.num_replicas = static_cast<int64_t>(rows->size());
    grid.num_partitions = -1;
    std::vector<const ir::Function*> functions;
    for (const ir::Attribute& row_attr : *rows) {
      const auto* row = row_attr.as<ir::Attribute::Array>();
      if (row == nullptr || row->empty()) return error("has a `programs` row that is not an array of functions");
      if (grid.num_partitions < 0) grid.num_partitions = static_cast<int64_t>(row->size());
      if (static_cast<int64_t>(row->size()) != grid.num_partitions) return error("has `programs` rows of different lengths");
      for (const ir::Attribute& a : *row) {
        const ir::Function* f = Symbol(a);
        if (f == nullptr) return error("names a program that is not a function of the module");
        functions.push_back(f);
      }
    }
    auto infeed = std::make_shared<FeedQueue>();
    auto outfeed = std::make_shared<FeedQueue>();
    if (const ir::Attribute* feed = op.attribute("infeed")) {
      const auto* list = feed->as<ir::Attribute::Array>();
      if (list == nullptr) return error("has an `infeed` that is not an array of functions");
      for (const ir::Attribute& a : *list) {
        const ir::Function* f = Symbol(a);
        if (f == nullptr) return error("has an `infeed` entry that is not a function of the module");
        VKHLO_ASSIGN_OR_RETURN(Program program, ProgramFor(*f));
        VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> values, program.executable.Execute({}));
        VKHLO_RETURN_IF_ERROR(Print(values, program.prints));
        std::vector<HostTensor> entry;
        for (const Buffer& b : values) {
          VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, b.ToHost());
          entry.push_back(HostTensor{b.type(), std::move(bytes)});
        }
        infeed->Push(std::move(entry));
      }
    }
    std::vector<ProcessRun> runs;
    std::vector<size_t> prints;
    size_t next = 0;
    for (size_t p = 0; p < functions.size(); ++p) {
      const ir::Function* f = functions[p];
      ProcessRun run;
      VKHLO_ASSIGN_OR_RETURN(const Client* client, ProcessClient(p, functions.size()));
      VKHLO_ASSIGN_OR_RETURN(Program program, ProgramFor(*f, client));
      run.executable = program.executable;
      prints.push_back(program.prints);
      for (const ir::Type& t : f->type().inputs) {
        if (next >= op.num_operands()) return error("has fewer operands than its programs take");
        const ir::Value* v = op.operand(next++);
        if (v->type() != t) return error(fmt::format("hands {} to a parameter of type {}", v->type().ToString(), t.ToString()));
        if (t.is_token()) continue;
        if (!t.is_tensor() || !known_.count(v)) return error("has an operand that is not a tensor or a token");
        run.arguments.push_back(known_.at(v));
      }
      run.infeed = infeed;
      run.outfeed = outfeed;
      runs.push_back(std::move(run));
    }
    if (next != op.num_operands()) return error("has more operands than its programs take");
    std::vector<std::vector<Buffer>> results;
    if (options_.mpi) {
      const std::string label = fmt::format("{}@{}", Where(module_, op.location()), function_.name());
      VKHLO_ASSIGN_OR_RETURN(results, RunGridOverMpi(*options_.mpi, grid, runs, label, *options_.client));
    } else {
      VKHLO_ASSIGN_OR_RETURN(results, RunProcessGrid(grid, runs));
    }
    size_t r = 0;
    for (size_t p = 0; p < functions.size(); ++p) {
      VKHLO_RETURN_IF_ERROR(Print(results[p], prints[p]));
      results[p].resize(results[p].size() - prints[p]);
      size_t b = 0;
      for (const ir::Type& t : functions[p]->type().results) {
        if (r >= op.num_results()) return error("has fewer results than its programs return");
        const ir::Value* v = op.result(r++);
        if (t.is_token()) continue;
        if (!t.is_tensor() || b >= results[p].size()) return error("has a program result that is not a tensor or a token");
        VKHLO_ASSIGN_OR_RETURN(known_[v], OnMainClient(results[p][b++]));
      }
    }
    if (r != op.num_results()) return error("has more results than its programs return");
    return OkStatus();
  }

  // Prints the last `count` of `values` (a program's printed values) as interpreter.print does.
  static Status Print(const std::vector<Buffer>& values, size_t count) {
    if (count > values.size()) return InternalError("a program returned fewer values than it prints");
    for (size_t i = values.size() - count; i < values.size(); ++i) {
      VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, runtime::BufferToLiteral(values[i]));
      std::printf("%s\n", interp::InterpValue::Tensor(std::move(literal)).ToString().c_str());
    }
    std::fflush(stdout);
    return OkStatus();
  }

  Status RunCheck(const ir::Operation& op, const interp::CheckOp& check) {
    auto read = [&](const ir::Value* v) -> StatusOr<ir::Literal> {
      auto it = known_.find(v);
      if (it == known_.end()) return InternalError("a checked value has no buffer");
      return runtime::BufferToLiteral(it->second);
    };
    std::optional<std::string> mismatch;
    auto actual = read(op.operand(check.actual_operand()));
    if (!actual.ok()) {
      mismatch = actual.status().message();
    } else if (check.expected_attribute != nullptr) {
      mismatch = interp::CompareLiterals(*actual, *check.expected_attribute, check.params);
    } else {
      auto expected = read(op.operand(check.expected_operand()));
      mismatch = expected.ok() ? interp::CompareLiterals(*actual, *expected, check.params)
                               : std::optional<std::string>(expected.status().message());
    }
    if (mismatch && failures_++ == 0) first_failure_ = fmt::format("{}: {}", Where(module_, op.location()), *mismatch);
    return OkStatus();
  }

  const ir::Module& module_;
  const ir::Function& function_;
  const CheckOptions& options_;
  std::unordered_map<const ir::Value*, size_t> last_use_;
  std::unordered_map<const ir::Value*, Buffer> known_;
  std::map<std::pair<std::string, const Client*>, Program> programs_;
  std::vector<std::shared_ptr<Client>> process_clients_;  // placements other than kShared
  int failures_ = 0;
  std::string first_failure_;
};

}  // namespace

bool StartsProcessGrid(const ir::Function& function) {
  if (function.body().empty()) return false;
  for (const auto& op : function.body().front().operations()) {
    if (op->code() == OpCode::kInterpreterRunParallel) return true;
  }
  return false;
}

TestOutcome RunGridTestOnVulkan(const ir::Module& module, const ir::Function& function, const CheckOptions& options) {
  return GridTest(module, function, options).Run();
}

}  // namespace vkhlo::tools
