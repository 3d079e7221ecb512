// vkhlo-run: run a StableHLO program.
//   vkhlo-run FILE [--device=vulkan|reference] [--check] [--split-input-file] [--entry=NAME]
//             [--input=...]... [--output-dir=DIR] [--stats] [--dump-kernels=DIR]
//             [--profile=FILE.json] [--profile-summary]
//             [--grid=in-process|mpi] [--grid-placement=...] [--grid-timeout=S] [--num-partitions=P]
//
// --check runs every test function (see check_runner.h) and ends with "N passed, M failed";
// the exit code is 0 only when nothing failed. Without --check it runs --entry (default main)
// on the inputs and prints the results (or writes them as .npy files to --output-dir).
// --profile writes a Chrome trace of the execution (chrome://tracing, ui.perfetto.dev) and
// --profile-summary prints where its time went (include/vkhlo/profile.h).
//
// Devices: `vulkan` (the default) compiles the program into kernels and runs them on the Vulkan
// device (VKHLO_DEVICE, VKHLO_PROFILE); an op it cannot run is an error, never a silent switch
// to the interpreter. `reference` is the interpreter (the oracle, for debugging).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "frontend/bytecode/program.h"
#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "runtime/runtime_internal.h"
#include "tools/common/npy.h"
#include "tools/common/source_file.h"
#include "tools/vkhlo-run/check_runner.h"
#include "tools/vkhlo-run/mpi_grid_runner.h"
#include "verify/verifier.h"

namespace vkhlo::tools {
namespace {

StatusOr<ir::Literal> ReadInput(const std::string& spec) {
  if (spec.size() > 4 && spec.substr(spec.size() - 4) == ".npy") return ReadNpy(spec);
  auto attribute = frontend::ParseAttribute(spec);
  if (!attribute.ok()) return attribute.status().WithContext("--input='" + spec + "'");
  const ir::Literal* literal = attribute->AsDenseElements();
  if (literal == nullptr) {
    return InvalidArgumentError("--input='" + spec + "' is neither a .npy file nor a dense<...> : tensor<...> literal");
  }
  return *literal;
}

// Prints (or writes as .npy) the results.
int Report(const interp::InterpValues& outputs, const std::string& output_dir) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const interp::InterpValue& v = outputs[i];
    if (!output_dir.empty() && v.is_tensor()) {
      std::error_code ec;
      std::filesystem::create_directories(output_dir, ec);
      std::string path = fmt::format("{}/result_{}.npy", output_dir, i);
      Status s = WriteNpy(path, v.literal());
      if (!s.ok()) {
        std::fprintf(stderr, "vkhlo-run: %s\n", s.message().c_str());
        return 1;
      }
      std::printf("%s\n", path.c_str());
    } else {
      std::printf("%s\n", v.ToString().c_str());
    }
  }
  return 0;
}

struct RunSettings {
  std::string entry, output_dir;
  std::vector<std::string> inputs;
  const Client* client = nullptr;  // Vulkan; null: reference
  CompileOptions compile;
  ExecutionStats* totals = nullptr;
  MpiSession* mpi = nullptr;  // --grid=mpi: the entry runs as this rank's process of a grid
  int64_t num_partitions = 1;
  std::chrono::milliseconds grid_timeout = ProcessGridOptions{}.timeout;
  SpecializationStats* specializations = nullptr;  // of shape-polymorphic programs
  uint64_t* split_ffts = nullptr;  // FFT ops the compiles split (one transform beyond the range)
  std::string profile_path;  // --profile: the Chrome trace of each module's execution
  bool profile_summary = false;
  int module_index = 0;  // of the module being run (--split-input-file): later ones' traces get ".<n>"
};

// FILE.json for the first module, FILE.2.json, FILE.3.json, ... for later ones.
std::string ProfilePath(const std::string& path, int module_index) {
  if (module_index == 0) return path;
  const std::filesystem::path p(path);
  return (p.parent_path() / fmt::format("{}.{}{}", p.stem().string(), module_index + 1, p.extension().string())).string();
}

// --grid=mpi without --check: @entry as process (rank / P, rank % P) of a (size / P) x P grid,
// every process's results printed by rank 0 (mpi_grid_runner.h).
int RunSpmd(std::unique_ptr<ir::Module> module, const RunSettings& settings) {
  MpiSession& mpi = *settings.mpi;
  auto fail = [&](const Status& status) {
    std::fprintf(stderr, "vkhlo-run: rank %d: %s\n", mpi.rank(), status.message().c_str());
    return 1;
  };
  if (settings.num_partitions <= 0 || mpi.size() % settings.num_partitions != 0) {
    return fail(InvalidArgumentError(fmt::format("{} ranks do not make a grid of {} partition(s)", mpi.size(),
                                                 settings.num_partitions)));
  }
  ProcessGridOptions grid{.num_replicas = mpi.size() / settings.num_partitions,
                          .num_partitions = settings.num_partitions,
                          .timeout = settings.grid_timeout};
  const int64_t replica = mpi.rank() / settings.num_partitions, partition = mpi.rank() % settings.num_partitions;
  ProcessRun run;
  Status prepared = [&]() -> Status {
    CompileOptions compile = settings.compile;
    compile.entry = settings.entry;
    VKHLO_ASSIGN_OR_RETURN(run.executable, runtime::CompileModule(*settings.client, std::move(module), compile));
    for (const std::string& spec : settings.inputs) {
      VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ReadInput(SubstituteRank(spec, mpi.rank(), replica, partition)));
      VKHLO_ASSIGN_OR_RETURN(Buffer b, runtime::BufferFromLiteral(*settings.client, literal));
      run.arguments.push_back(std::move(b));
    }
    return OkStatus();
  }();
  // A rank that could not compile or read its inputs still takes part, so that every rank
  // learns of the failure instead of waiting for it.
  if (!prepared.ok()) run = ProcessRun{};
  auto results = mpi.Run(grid, run, {.label = settings.entry});
  if (!prepared.ok()) return fail(prepared);
  if (!results.ok()) return fail(results.status());
  auto gathered = mpi.GatherResults(*results);
  if (!gathered.ok()) return fail(gathered.status());
  int code = 0;
  for (size_t p = 0; p < gathered->size(); ++p) {
    const int64_t r = static_cast<int64_t>(p) / settings.num_partitions, q = static_cast<int64_t>(p) % settings.num_partitions;
    interp::InterpValues outputs;
    for (const HostTensor& t : (*gathered)[p]) {
      auto buffer = settings.client->BufferFromHost(t.type, t.bytes);
      auto literal = buffer.ok() ? runtime::BufferToLiteral(*buffer) : StatusOr<ir::Literal>(buffer.status());
      if (!literal.ok()) return fail(literal.status());
      outputs.push_back(interp::InterpValue::Tensor(std::move(*literal)));
    }
    if (settings.output_dir.empty()) std::printf("process (%lld, %lld):\n", static_cast<long long>(r), static_cast<long long>(q));
    const std::string dir = settings.output_dir.empty() ? "" : fmt::format("{}/process_{}_{}", settings.output_dir, r, q);
    if (mpi.rank() == 0 && Report(outputs, dir) != 0) code = 1;
  }
  return code;
}

StatusOr<interp::InterpValues> RunExecutable(const Executable& executable, const std::vector<ir::Literal>& inputs,
                                             const RunSettings& settings);

StatusOr<interp::InterpValues> RunEntry(std::unique_ptr<ir::Module> module, const RunSettings& settings) {
  std::vector<ir::Literal> inputs;
  for (const std::string& spec : settings.inputs) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ReadInput(spec));
    inputs.push_back(std::move(literal));
  }
  if (settings.client == nullptr) {
    VKHLO_RETURN_IF_ERROR(PrepareForReference(*module));
    interp::InterpValues values;
    for (ir::Literal& l : inputs) values.push_back(interp::InterpValue::Tensor(std::move(l)));
    VKHLO_ASSIGN_OR_RETURN(interp::RunResult result, interp::RunFunction(*module, settings.entry, std::move(values)));
    return result.outputs;
  }
  CompileOptions compile = settings.compile;
  compile.entry = settings.entry;
  VKHLO_ASSIGN_OR_RETURN(Executable executable, runtime::CompileModule(*settings.client, std::move(module), compile));
  return RunExecutable(executable, inputs, settings);
}

// A compiled plan (.vkx: vkhlo-compile, Executable::Serialize) loaded and run on the device.
StatusOr<interp::InterpValues> RunPlan(std::span<const uint8_t> plan, const RunSettings& settings) {
  VKHLO_ASSIGN_OR_RETURN(Executable executable, settings.client->LoadExecutable(plan));
  std::vector<ir::Literal> inputs;
  for (const std::string& spec : settings.inputs) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ReadInput(spec));
    inputs.push_back(std::move(literal));
  }
  return RunExecutable(executable, inputs, settings);
}

StatusOr<interp::InterpValues> RunExecutable(const Executable& executable, const std::vector<ir::Literal>& inputs,
                                             const RunSettings& settings) {
  std::vector<Buffer> arguments;
  for (const ir::Literal& l : inputs) {
    VKHLO_ASSIGN_OR_RETURN(Buffer b, runtime::BufferFromLiteral(*settings.client, l));
    arguments.push_back(std::move(b));
  }
  ExecutionProfile profile;
  ExecuteOptions options;
  if (!settings.profile_path.empty() || settings.profile_summary) options.profile = &profile;
  VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, executable.Execute(arguments, options));
  if (!settings.profile_path.empty()) {
    const std::string path = ProfilePath(settings.profile_path, settings.module_index);
    VKHLO_RETURN_IF_ERROR(profile.WriteChromeTrace(path));
    size_t dispatches = 0;
    for (const ProfileEvent& e : profile.events) dispatches += e.track == ProfileEvent::Track::kDevice ? 1 : 0;
    std::printf("profile: %zu dispatches, %zu host steps written to %s\n", dispatches, profile.events.size() - dispatches,
                path.c_str());
  }
  if (settings.profile_summary) std::printf("%s", profile.Summary().c_str());
  if (settings.split_ffts != nullptr) *settings.split_ffts += executable.compile_stats().split_ffts;
  if (settings.totals != nullptr) {
    const ExecutionStats s = executable.last_stats();
    settings.totals->kernels_dispatched += s.kernels_dispatched;
    settings.totals->command_buffers += s.command_buffers;
    settings.totals->bytes_read += s.bytes_read;
    settings.totals->bytes_written += s.bytes_written;
    settings.totals->in_place_updates += s.in_place_updates;
    settings.totals->address_bindings += s.address_bindings;
    settings.totals->windowed_bindings += s.windowed_bindings;
    settings.totals->fft_split_launches += s.fft_split_launches;
    settings.totals->fft_staged_transforms += s.fft_staged_transforms;
    settings.totals->split_bindings += s.split_bindings;
    settings.totals->predicate_readbacks += s.predicate_readbacks;
    settings.totals->counted_loop_iterations += s.counted_loop_iterations;
    settings.totals->invariant_dispatches_reused += s.invariant_dispatches_reused;
    settings.totals->host_evaluated_ops += s.host_evaluated_ops;
  }
  if (settings.specializations != nullptr && executable.is_polymorphic()) {
    const SpecializationStats s = executable.specialization_stats();
    settings.specializations->compiled += s.compiled;
    settings.specializations->hits += s.hits;
    settings.specializations->compile_ms += s.compile_ms;
  }
  interp::InterpValues outputs;
  for (const Buffer& b : results) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, runtime::BufferToLiteral(b));
    outputs.push_back(interp::InterpValue::Tensor(std::move(literal)));
  }
  return outputs;
}

void PrintStats(const std::optional<Client>& client, const ExecutionStats& s, const SpecializationStats& p = {},
                uint64_t split_ffts = 0) {
  if (!client) {
    std::printf("device: reference interpreter (no kernels, nothing moved)\n");
    return;
  }
  std::printf("device: %s\n", client->device_description().c_str());
  std::printf("kernels dispatched: %llu\n", static_cast<unsigned long long>(s.kernels_dispatched));
  std::printf("command buffers: %llu\n", static_cast<unsigned long long>(s.command_buffers));
  std::printf("bytes read: %llu\n", static_cast<unsigned long long>(s.bytes_read));
  std::printf("bytes written: %llu\n", static_cast<unsigned long long>(s.bytes_written));
  std::printf("in-place updates: %llu\n", static_cast<unsigned long long>(s.in_place_updates));
  // Issue 25: tensors beyond maxStorageBufferRange, bound through buffer device addresses.
  std::printf("bindings through device addresses: %llu\n", static_cast<unsigned long long>(s.address_bindings));
  std::printf("bindings through several descriptors: %llu\n", static_cast<unsigned long long>(s.windowed_bindings));
  std::printf("FFT launches split beyond the range: %llu\n", static_cast<unsigned long long>(s.fft_split_launches));
  if (split_ffts > 0) {
    std::printf("FFTs split by the compile (one transform beyond the range): %llu\n",
                static_cast<unsigned long long>(split_ffts));
  }
  std::printf("bindings of tensors split across allocations: %llu\n", static_cast<unsigned long long>(s.split_bindings));
  std::printf("FFTs staged through copies (tensors split across allocations): %llu\n",
              static_cast<unsigned long long>(s.fft_staged_transforms));
  std::printf("predicates read back: %llu\n", static_cast<unsigned long long>(s.predicate_readbacks));
  std::printf("counted loop iterations: %llu\n", static_cast<unsigned long long>(s.counted_loop_iterations));
  std::printf("loop-invariant dispatches reused: %llu\n",
              static_cast<unsigned long long>(s.invariant_dispatches_reused));
  std::printf("host-evaluated ops: %llu\n", static_cast<unsigned long long>(s.host_evaluated_ops));
  if (p.compiled > 0) {  // a shape-polymorphic program, specialised for its inputs' shapes
    std::printf("specializations: %llu compiled (%.2f ms), %llu cache hits\n", static_cast<unsigned long long>(p.compiled),
                p.compile_ms, static_cast<unsigned long long>(p.hits));
  }
}

}  // namespace
}  // namespace vkhlo::tools

int main(int argc, char** argv) {
  CLI::App app{"vkhlo-run: run StableHLO programs"};
  std::string path, device = "vulkan", entry = "main", output_dir, dump_kernels;
  std::vector<std::string> inputs;
  bool check = false, split = false, stats = false;
  app.add_option("file", path,
                 "the program: StableHLO text (.mlir), a portable artifact, or a compiled plan (.vkx, from "
                 "vkhlo-compile: run with no compiling); '-' for standard input")
      ->required();
  app.add_option("--device", device, "vulkan (the default) or reference (the interpreter)")
      ->check(CLI::IsMember({"vulkan", "reference"}));
  app.add_flag("--check", check, "run every test function and evaluate check.* ops");
  app.add_flag("--split-input-file", split, "treat '// -----' lines as separators between modules");
  app.add_option("--entry", entry, "the function to run (default: main)");
  app.add_option("--input", inputs, "an input: a .npy file or a literal such as 'dense<[1, 2]> : tensor<2xi32>'");
  app.add_option("--output-dir", output_dir, "write results there as .npy files");
  app.add_flag("--stats", stats, "print kernels dispatched, bytes moved, host-evaluated ops");
  app.add_option("--dump-kernels", dump_kernels, "write each kernel's GLSL and SPIR-V there (--device=vulkan)");
  std::string profile_path;
  bool profile_summary = false;
  app.add_option("--profile", profile_path,
                 "write a Chrome trace / Perfetto JSON of the execution there (chrome://tracing, ui.perfetto.dev): every "
                 "dispatch with its GPU time, kernel, class, config, fused ops with their source locations, bytes and "
                 "FLOPs; host steps (predicate reads, transfers, host callbacks) on their own track. Several modules "
                 "(--split-input-file): FILE, then FILE.2.json, ... (--device=vulkan, not with --check)");
  app.add_flag("--profile-summary", profile_summary,
               "print the execution's time by kernel class and by source op (top 10), with the total");
  std::string grid_placement = "queue-per-process";
  app.add_option("--grid-placement", grid_placement,
                 "where the processes of a process grid run (--device=vulkan): shared (one queue), "
                 "queue-per-process (a logical device with its own queue each) or spread (over every "
                 "Vulkan device present)")
      ->check(CLI::IsMember({"shared", "queue-per-process", "spread"}));
  std::string grid_kind = "in-process";
  app.add_option("--grid", grid_kind,
                 "where the processes of a grid run: in-process (threads of this process) or mpi (one MPI rank "
                 "each: mpirun -np N vkhlo-run --grid=mpi ...; without --check, the entry runs as this rank's "
                 "process of a (ranks / partitions) x partitions grid)")
      ->check(CLI::IsMember({"in-process", "mpi"}));
  int64_t num_partitions = 1;
  app.add_option("--num-partitions", num_partitions, "--grid=mpi without --check: partitions of the grid")
      ->check(CLI::PositiveNumber);
  double grid_timeout_s = 60;
  app.add_option("--grid-timeout", grid_timeout_s,
                 "seconds a process of a grid waits at a collective or recv before it fails (default 60)")
      ->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);

  using namespace vkhlo;
  if ((!profile_path.empty() || profile_summary) && (check || device != "vulkan" || grid_kind == "mpi")) {
    std::fprintf(stderr, "vkhlo-run: --profile and --profile-summary profile one execution on the Vulkan device "
                         "(--device=vulkan, without --check or --grid=mpi)\n");
    return 2;
  }
  std::unique_ptr<MpiSession> mpi;
  if (grid_kind == "mpi") {
    if (device != "vulkan") {
      std::fprintf(stderr, "vkhlo-run: --grid=mpi runs on the Vulkan device (--device=vulkan)\n");
      return 2;
    }
    auto session = MpiSession::Create();
    if (!session.ok()) {
      std::fprintf(stderr, "vkhlo-run: --grid=mpi: %s\n", session.status().message().c_str());
      return 2;
    }
    mpi = std::move(*session);
    // Every rank computes the same outcome; rank 0 says it.
    if (mpi->rank() != 0 && std::freopen("/dev/null", "w", stdout) == nullptr) return 2;
  }
  const auto grid_timeout = std::chrono::milliseconds(static_cast<int64_t>(grid_timeout_s * 1000));
  std::optional<Client> client;
  if (device == "vulkan") {
    // Over MPI, this rank's device: VKHLO_DEVICE, or the local rank modulo the devices present.
    StatusOr<std::shared_ptr<Client>> created = InternalError("no client");
    if (mpi) {
      created = mpi->CreateClient();
    } else if (auto own = Client::Create(); own.ok()) {
      created = std::shared_ptr<Client>(std::move(*own));
    } else {
      created = own.status();
    }
    if (!created.ok()) {
      std::fprintf(stderr, "vkhlo-run: %s\n", created.status().message().c_str());
      return 2;
    }
    client = **created;
  }
  auto text = tools::ReadSourceFile(path);
  if (!text.ok()) {
    std::fprintf(stderr, "vkhlo-run: %s\n", text.status().message().c_str());
    return 1;
  }
  const std::string source_name = path == "-" ? "<stdin>" : path;
  if (frontend::IsCompiledPlan(*text)) {
    // A plan runs its entry on the device, with nothing to compile.
    if (check || !client || mpi || split || !dump_kernels.empty()) {
      std::fprintf(stderr, "vkhlo-run: %s is a compiled plan: it runs its entry on the Vulkan device (not with "
                           "--check, --device=reference, --grid=mpi, --split-input-file or --dump-kernels)\n",
                   source_name.c_str());
      return 2;
    }
    tools::RunSettings settings;
    settings.inputs = inputs;
    settings.client = &*client;
    ExecutionStats totals;
    settings.totals = &totals;
    settings.profile_path = profile_path;
    settings.profile_summary = profile_summary;
    const auto* bytes = reinterpret_cast<const uint8_t*>(text->data());
    auto outputs = tools::RunPlan(std::span<const uint8_t>(bytes, text->size()), settings);
    if (!outputs.ok()) {
      std::fprintf(stderr, "vkhlo-run: %s: %s\n", source_name.c_str(), outputs.status().message().c_str());
      return 1;
    }
    const int code = tools::Report(*outputs, output_dir);
    if (stats) tools::PrintStats(client, totals);
    return code;
  }
  std::vector<tools::ParsedChunk> chunks = tools::ParseSource(*text, source_name, split);
  ExecutionStats totals;
  CompileOptions compile;
  compile.dump_kernels_dir = dump_kernels;

  if (check) {
    int passed = 0, failed = 0;
    tools::CheckOptions options;
    if (client) {
      options.device = tools::CheckOptions::Device::kVulkan;
      options.client = &*client;
      options.compile = compile;
      options.totals = &totals;
      options.grid_placement = grid_placement == "spread"              ? ProcessPlacement::kSpreadDevices
                               : grid_placement == "queue-per-process" ? ProcessPlacement::kQueuePerProcess
                                                                       : ProcessPlacement::kShared;
      options.grid_timeout = grid_timeout;
      options.mpi = mpi.get();
    }
    for (tools::ParsedChunk& chunk : chunks) {
      Status status = chunk.module.status();
      if (status.ok()) status = verify::VerifyModule(**chunk.module);
      const std::string label = split ? fmt::format("{}:{}", source_name, chunk.first_line) : source_name;
      if (!status.ok()) {
        std::printf("FAIL %s: %s\n", label.c_str(), status.message().c_str());
        ++failed;
        continue;
      }
      for (const tools::TestOutcome& test : tools::RunTestFunctions(**chunk.module, options)) {
        if (test.passed) {
          std::printf("PASS %s@%s\n", label.c_str(), test.name.c_str());
          ++passed;
        } else {
          std::printf("FAIL %s@%s: %s\n", label.c_str(), test.name.c_str(), test.message.c_str());
          ++failed;
        }
      }
    }
    if (stats) tools::PrintStats(client, totals);
    std::printf("%d passed, %d failed\n", passed, failed);
    std::fflush(stdout);
    if (mpi && !mpi->healthy()) {
      // A rank never reported the end of a grid run (it may be stuck): end the whole job.
      std::fprintf(stderr, "vkhlo-run: rank %d: a grid run's outcome is unknown on some rank; ending the job\n",
                   mpi->rank());
      mpi->Abort(1);
    }
    return failed == 0 ? 0 : 1;
  }

  tools::RunSettings settings;
  settings.entry = entry;
  settings.output_dir = output_dir;
  settings.inputs = inputs;
  settings.client = client ? &*client : nullptr;
  settings.compile = compile;
  settings.totals = &totals;
  settings.mpi = mpi.get();
  settings.num_partitions = num_partitions;
  settings.grid_timeout = grid_timeout;
  SpecializationStats specializations;
  settings.specializations = &specializations;
  uint64_t split_ffts = 0;
  settings.split_ffts = &split_ffts;
  settings.profile_path = profile_path;
  settings.profile_summary = profile_summary;
  int status_code = 0;
  for (tools::ParsedChunk& chunk : chunks) {
    Status status = chunk.module.status();
    if (status.ok()) status = verify::VerifyModule(**chunk.module);
    if (!status.ok()) {
      std::fprintf(stderr, "%s\n", status.message().c_str());
      status_code = 1;
      continue;
    }
    if (mpi) {
      if (tools::RunSpmd(std::move(*chunk.module), settings) != 0) status_code = 1;
      if (!mpi->healthy()) mpi->Abort(1);  // some rank may be stuck: end the job
      continue;
    }
    auto outputs = tools::RunEntry(std::move(*chunk.module), settings);
    settings.module_index++;
    if (!outputs.ok()) {
      std::fprintf(stderr, "vkhlo-run: %s\n", outputs.status().message().c_str());
      status_code = 1;
      continue;
    }
    if (tools::Report(*outputs, output_dir) != 0) status_code = 1;
  }
  if (stats) tools::PrintStats(client, totals, specializations, split_ffts);
  return status_code;
}
