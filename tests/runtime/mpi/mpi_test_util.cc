#include "tests/runtime/mpi/mpi_test_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "frontend/parser.h"
#include "runtime/runtime_internal.h"
#include "support/env.h"
#include "tests/support/runtime_test_util.h"
#include "verify/verifier.h"

namespace vkhlo::mpitest {
namespace {

MpiSession* session = nullptr;

const std::string& ProgramOf(const GridCase& c, size_t process) {
  return c.programs.size() == 1 ? c.programs[0] : c.programs.at(process);
}

StatusOr<std::unique_ptr<ir::Module>> Parse(const std::string& text) {
  VKHLO_ASSIGN_OR_RETURN(auto module, frontend::ParseModule(text));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  return module;
}

StatusOr<Executable> Compile(const std::string& text, const Client& client) {
  VKHLO_ASSIGN_OR_RETURN(auto module, Parse(text));
  CompileOptions options;
  options.entry = "proc";
  return runtime::CompileModule(client, std::move(module), options);
}

StatusOr<std::vector<Buffer>> Upload(const std::vector<ir::Literal>& literals, const Client& client) {
  std::vector<Buffer> out;
  for (const ir::Literal& l : literals) {
    VKHLO_ASSIGN_OR_RETURN(Buffer b, runtime::BufferFromLiteral(client, l));
    out.push_back(std::move(b));
  }
  return out;
}

StatusOr<std::vector<ir::Literal>> Download(const std::vector<Buffer>& buffers) {
  std::vector<ir::Literal> out;
  for (const Buffer& b : buffers) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal l, runtime::BufferToLiteral(b));
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace

void SetSession(MpiSession* s) { session = s; }

MpiSession& Session() { return *session; }

const Client& RankClient() {
  static const std::shared_ptr<Client>* client = [] {
    auto created = Session().CreateClient();
    if (!created.ok()) {
      std::fprintf(stderr, "rank %d: %s\n", Session().rank(), created.status().ToString().c_str());
      std::abort();
    }
    return new std::shared_ptr<Client>(std::move(*created));
  }();
  return **client;
}

bool MobileProfile() { return GetEnv("VKHLO_PROFILE").value_or("native") == "mobile"; }

std::string Reducer(const std::string& scalar, const std::string& op) {
  return fmt::format("({{\n  ^bb0(%ra: tensor<{0}>, %rb: tensor<{0}>):\n    %rz = {1} %ra, %rb : tensor<{0}>\n"
                     "    stablehlo.return %rz : tensor<{0}>\n  }})",
                     scalar, op);
}

std::vector<std::vector<ir::Literal>> RandomInputs(const GridCase& c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<ir::Literal>> inputs;
  for (int64_t p = 0; p < c.replicas * c.partitions; ++p) {
    auto module = Parse(ProgramOf(c, static_cast<size_t>(p)));
    EXPECT_TRUE(module.ok()) << module.status().ToString();
    std::vector<ir::Literal> mine;
    if (module.ok()) {
      const ir::Function* proc = (*module)->FindFunction("proc");
      EXPECT_NE(proc, nullptr) << "no @proc";
      if (proc) {
        for (const ir::Type& t : proc->type().inputs) {
          if (t.is_tensor()) mine.push_back(testing::RandomLiteral(t, rng));  // tokens take no argument
        }
      }
    }
    inputs.push_back(std::move(mine));
  }
  return inputs;
}

MpiOutcome RunOverMpi(const GridCase& c, const std::vector<std::vector<ir::Literal>>& inputs) {
  MpiOutcome outcome;
  const ProcessGridOptions grid{.num_replicas = c.replicas, .num_partitions = c.partitions, .timeout = c.timeout};
  const MpiRunOptions options{.process_ranks = c.process_ranks, .label = c.label};
  ProcessRun run;
  Status prepared = [&]() -> Status {
    VKHLO_ASSIGN_OR_RETURN(std::optional<int64_t> index, Session().ProcessIndex(grid, options));
    if (!index) return OkStatus();
    VKHLO_ASSIGN_OR_RETURN(run.executable, Compile(ProgramOf(c, static_cast<size_t>(*index)), RankClient()));
    VKHLO_ASSIGN_OR_RETURN(run.arguments, Upload(inputs.at(static_cast<size_t>(*index)), RankClient()));
    return OkStatus();
  }();
  if (!prepared.ok()) run = ProcessRun{};
  const auto start = std::chrono::steady_clock::now();
  auto mine = Session().Run(grid, run, options);
  outcome.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!mine.ok() || !prepared.ok()) {
    outcome.status = mine.ok() ? prepared : mine.status();
    return outcome;
  }
  auto gathered = Session().GatherResults(*mine);
  if (!gathered.ok()) {
    outcome.status = gathered.status();
    return outcome;
  }
  for (const auto& process : *gathered) {
    std::vector<ir::Literal> literals;
    for (const HostTensor& t : process) {
      auto b = RankClient().BufferFromHost(t.type, t.bytes);
      auto l = b.ok() ? runtime::BufferToLiteral(*b) : StatusOr<ir::Literal>(b.status());
      if (!l.ok()) {
        outcome.status = l.status();
        return outcome;
      }
      literals.push_back(std::move(*l));
    }
    outcome.results.push_back(std::move(literals));
  }
  return outcome;
}

StatusOr<std::vector<std::vector<ir::Literal>>> RunInProcess(const GridCase& c,
                                                             const std::vector<std::vector<ir::Literal>>& inputs) {
  std::vector<ProcessRun> runs;
  for (int64_t p = 0; p < c.replicas * c.partitions; ++p) {
    ProcessRun run;
    VKHLO_ASSIGN_OR_RETURN(run.executable, Compile(ProgramOf(c, static_cast<size_t>(p)), RankClient()));
    VKHLO_ASSIGN_OR_RETURN(run.arguments, Upload(inputs.at(static_cast<size_t>(p)), RankClient()));
    runs.push_back(std::move(run));
  }
  const ProcessGridOptions grid{.num_replicas = c.replicas, .num_partitions = c.partitions, .timeout = c.timeout};
  VKHLO_ASSIGN_OR_RETURN(auto results, RunProcessGrid(grid, runs));
  std::vector<std::vector<ir::Literal>> out;
  for (const auto& process : results) {
    VKHLO_ASSIGN_OR_RETURN(auto literals, Download(process));
    out.push_back(std::move(literals));
  }
  return out;
}

void ExpectSameAsInProcess(const GridCase& c, uint64_t seed) {
  const auto inputs = RandomInputs(c, seed);
  const MpiOutcome mpi = RunOverMpi(c, inputs);
  ASSERT_TRUE(mpi.status.ok()) << mpi.status.ToString();
  ASSERT_EQ(static_cast<int64_t>(mpi.results.size()), c.replicas * c.partitions);
  if (Session().rank() != 0) return;
  auto in_process = RunInProcess(c, inputs);
  ASSERT_TRUE(in_process.ok()) << in_process.status().ToString();
  for (size_t p = 0; p < mpi.results.size(); ++p) {
    ASSERT_EQ(mpi.results[p].size(), (*in_process)[p].size()) << "process " << p;
    for (size_t i = 0; i < mpi.results[p].size(); ++i) {
      // Every bit, NaN payloads included: the fold is the same code on the same values.
      const ir::Literal& a = mpi.results[p][i];
      const ir::Literal& b = (*in_process)[p][i];
      std::string why = "bytes differ";
      testing::SameBits(a, b, &why);
      EXPECT_TRUE(a.type() == b.type() && std::equal(a.raw().begin(), a.raw().end(), b.raw().begin(), b.raw().end()))
          << "process " << p << ", result " << i << ": " << why;
    }
  }
}

}  // namespace vkhlo::mpitest
