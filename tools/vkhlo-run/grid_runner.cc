#include "tools/vkhlo-run/grid_runner.h"

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <optional>
#include <variant>

#include "interp/value.h"
#include "runtime/runtime_internal.h"
#include "tools/vkhlo-run/mpi_grid_runner.h"
#include "vkhlo/process_grid.h"

namespace vkhlo::tools {
namespace {

using Schedule = passes::GridTestSchedule;

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
    staged_ = CloneModule(module_);
    VKHLO_ASSIGN_OR_RETURN(Schedule schedule, passes::StageGridTest(*staged_, function_.name()));
    tensors_.assign(static_cast<size_t>(schedule.tensors), Buffer());
    for (const auto& step : schedule.steps) {
      if (const auto* stage = std::get_if<Schedule::Stage>(&step)) {
        VKHLO_RETURN_IF_ERROR(RunStage(*stage));
      } else if (const auto* grid = std::get_if<Schedule::Grid>(&step)) {
        VKHLO_RETURN_IF_ERROR(RunGrid(*grid));
      } else {
        RunCheck(std::get<Schedule::Check>(step));
      }
    }
    return OkStatus();
  }

  // Function `function` of the staged module compiled for `client` (once), and — when the
  // options ask for it — the same through its plan (serialized, loaded back).
  struct Compiled {
    Executable executable;
    std::optional<Executable> through_plan;
  };
  StatusOr<Compiled> ExecutableFor(const std::string& function, const Client* client = nullptr) {
    if (client == nullptr) client = options_.client;
    const auto key = std::make_pair(function, client);
    if (auto it = executables_.find(key); it != executables_.end()) return it->second;
    CompileOptions compile = options_.compile;
    compile.entry = function;
    VKHLO_ASSIGN_OR_RETURN(Executable exe, runtime::CompileModule(*client, CloneModule(*staged_), compile));
    Compiled compiled{exe, std::nullopt};
    if (options_.through_plan) {
      StatusOr<Executable> loaded = ThroughPlan(exe, *client);
      if (!loaded.ok()) return loaded.status().WithContext("@" + function + " through its plan");
      compiled.through_plan = std::move(*loaded);
    }
    executables_.emplace(key, compiled);
    return compiled;
  }

  // Where the loaded plan's results differ from the compiled executable's, byte for byte.
  static Status SameResults(const std::vector<Buffer>& compiled, const std::vector<Buffer>& loaded,
                            const std::string& what) {
    if (compiled.size() != loaded.size()) {
      return InternalError(fmt::format("{} through its plan: {} results, the compiled executable's {}", what,
                                       loaded.size(), compiled.size()));
    }
    for (size_t i = 0; i < compiled.size(); ++i) {
      VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> a, compiled[i].ToHost());
      VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> b, loaded[i].ToHost());
      if (compiled[i].type() != loaded[i].type() || a != b) {
        return InternalError(fmt::format("{} through its plan: result {} differs from the compiled executable's", what, i));
      }
    }
    return OkStatus();
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

  StatusOr<Buffer> Tensor(int64_t n) const {
    if (n < 0 || static_cast<size_t>(n) >= tensors_.size() || !tensors_[static_cast<size_t>(n)]) {
      return InternalError(fmt::format("tensor {} of the schedule has no buffer", n));
    }
    return tensors_[static_cast<size_t>(n)];
  }

  Status RunStage(const Schedule::Stage& stage) {
    VKHLO_ASSIGN_OR_RETURN(Compiled exe, ExecutableFor(stage.function));
    std::vector<Buffer> args;
    for (int64_t n : stage.inputs) {
      VKHLO_ASSIGN_OR_RETURN(Buffer b, Tensor(n));
      args.push_back(std::move(b));
    }
    VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, exe.executable.Execute(args));
    AddStats(exe.executable);
    if (exe.through_plan) {
      VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> loaded, exe.through_plan->Execute(args));
      VKHLO_RETURN_IF_ERROR(SameResults(results, loaded, "@" + stage.function));
      results = std::move(loaded);  // what the later steps and checks read
    }
    if (results.size() != stage.outputs.size()) return InternalError("a stage returned another number of results");
    for (size_t i = 0; i < results.size(); ++i) tensors_[static_cast<size_t>(stage.outputs[i])] = results[i];
    return OkStatus();
  }

  Status RunGrid(const Schedule::Grid& grid) {
    ProcessGridOptions options;
    options.timeout = options_.grid_timeout;
    options.num_replicas = grid.num_replicas;
    options.num_partitions = grid.num_partitions;
    std::vector<std::vector<HostTensor>> infeed_entries;
    for (const Schedule::Program& program : grid.infeeds) {
      VKHLO_ASSIGN_OR_RETURN(Compiled compiled, ExecutableFor(program.function));
      const Executable& exe = compiled.through_plan ? *compiled.through_plan : compiled.executable;
      VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> values, exe.Execute({}));
      VKHLO_RETURN_IF_ERROR(Print(values, program.prints));
      values.resize(values.size() - static_cast<size_t>(program.prints));
      std::vector<HostTensor> entry;
      for (const Buffer& b : values) {
        VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, b.ToHost());
        entry.push_back(HostTensor{b.type(), std::move(bytes)});
      }
      infeed_entries.push_back(std::move(entry));
    }
    // The grid's processes, run as compiled (`through_plan` false) or as loaded plans.
    auto run_grid = [&](bool through_plan) -> StatusOr<std::vector<std::vector<Buffer>>> {
      auto infeed = std::make_shared<FeedQueue>();
      auto outfeed = std::make_shared<FeedQueue>();
      for (const std::vector<HostTensor>& entry : infeed_entries) infeed->Push(entry);
      std::vector<ProcessRun> runs;
      for (size_t p = 0; p < grid.processes.size(); ++p) {
        ProcessRun run;
        VKHLO_ASSIGN_OR_RETURN(const Client* client, ProcessClient(p, grid.processes.size()));
        VKHLO_ASSIGN_OR_RETURN(Compiled compiled, ExecutableFor(grid.processes[p].function, client));
        run.executable = through_plan ? *compiled.through_plan : compiled.executable;
        for (int64_t n : grid.arguments[p]) {
          VKHLO_ASSIGN_OR_RETURN(Buffer b, Tensor(n));
          run.arguments.push_back(std::move(b));
        }
        run.infeed = infeed;
        run.outfeed = outfeed;
        runs.push_back(std::move(run));
      }
      if (options_.mpi) {
        const std::string label = fmt::format("{}@{}", grid.location, function_.name());
        return RunGridOverMpi(*options_.mpi, options, runs, label, *options_.client);
      }
      return RunProcessGrid(options, runs);
    };
    VKHLO_ASSIGN_OR_RETURN(std::vector<std::vector<Buffer>> results, run_grid(false));
    if (options_.through_plan) {
      VKHLO_ASSIGN_OR_RETURN(std::vector<std::vector<Buffer>> loaded, run_grid(true));
      for (size_t p = 0; p < results.size() && p < loaded.size(); ++p) {
        VKHLO_RETURN_IF_ERROR(SameResults(results[p], loaded[p], fmt::format("{}: process {}", grid.location, p)));
      }
      results = std::move(loaded);
    }
    for (size_t p = 0; p < grid.processes.size(); ++p) {
      const auto prints = static_cast<size_t>(grid.processes[p].prints);
      VKHLO_RETURN_IF_ERROR(Print(results[p], prints));
      results[p].resize(results[p].size() - prints);
      if (results[p].size() != grid.results[p].size()) {
        return InternalError(fmt::format("{}: process {} returned {} tensors, its program {}", grid.location, p,
                                         results[p].size(), grid.results[p].size()));
      }
      for (size_t i = 0; i < results[p].size(); ++i) {
        VKHLO_ASSIGN_OR_RETURN(tensors_[static_cast<size_t>(grid.results[p][i])], OnMainClient(results[p][i]));
      }
    }
    return OkStatus();
  }

  // Prints the last `count` of `values` (a program's printed values) as interpreter.print does.
  static Status Print(const std::vector<Buffer>& values, int64_t count) {
    if (count < 0 || static_cast<size_t>(count) > values.size()) {
      return InternalError("a program returned fewer values than it prints");
    }
    for (size_t i = values.size() - static_cast<size_t>(count); i < values.size(); ++i) {
      VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, runtime::BufferToLiteral(values[i]));
      std::printf("%s\n", interp::InterpValue::Tensor(std::move(literal)).ToString().c_str());
    }
    std::fflush(stdout);
    return OkStatus();
  }

  void RunCheck(const Schedule::Check& check) {
    auto read = [&](int64_t n) -> StatusOr<ir::Literal> {
      VKHLO_ASSIGN_OR_RETURN(Buffer b, Tensor(n));
      return runtime::BufferToLiteral(b);
    };
    std::optional<ir::Literal> computed;
    std::optional<std::string> mismatch;
    if (check.expected >= 0) {
      StatusOr<ir::Literal> expected = read(check.expected);
      if (expected.ok()) {
        computed = std::move(*expected);
      } else {
        mismatch = expected.status().message();
      }
    }
    if (!mismatch) mismatch = CompareCheck(check.check, read(check.actual), computed);
    if (mismatch && failures_++ == 0) first_failure_ = fmt::format("{}: {}", check.check.location, *mismatch);
  }

  const ir::Module& module_;
  const ir::Function& function_;
  const CheckOptions& options_;
  std::unique_ptr<ir::Module> staged_;  // the module with the schedule's functions
  std::vector<Buffer> tensors_;         // by the schedule's numbers
  std::map<std::pair<std::string, const Client*>, Compiled> executables_;
  std::vector<std::shared_ptr<Client>> process_clients_;  // placements other than kShared
  int failures_ = 0;
  std::string first_failure_;
};

}  // namespace

TestOutcome RunGridTestOnVulkan(const ir::Module& module, const ir::Function& function, const CheckOptions& options) {
  return GridTest(module, function, options).Run();
}

}  // namespace vkhlo::tools
