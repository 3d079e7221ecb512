// vkhlo-bench: time a StableHLO program on the Vulkan device.
//   vkhlo-bench FILE [--repeat=N] [--warmup=N] [--entry=NAME] [--seed=S]
//               [--dim=N] [--shape=I:DxD...]... [--value=I:V]...
//               [--profile=FILE.json] [--profile-summary]
//
// A shape-polymorphic program (dynamic sizes `?`) runs at the sizes asked for: --shape gives
// argument I's dims, --dim every dynamic size --shape leaves open (and the value of every shape
// argument --value does not give). The first Execute specialises it (timed apart: "specialize"),
// then a cached lookup is timed, then the runs as for any program.
//
// Compiles --entry (default main; a compiled plan, .vkx, is loaded instead), makes random
// inputs of its argument types and uploads them once (they stay on the device, so the timings are of Execute alone), runs Execute --warmup
// times untimed and then --repeat times, each to completion (Execute returns when the device
// is done). The last line is `median_ms=<float> min_ms=<float> runs=<n>` (DESIGN.md's tool
// contract); the lines before it say what ran: device, compile time, kernels per execution.
// --profile / --profile-summary profile one more execution after the timed ones (so that
// profiling never touches the timings): a Chrome trace, and time by kernel class and source op.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <map>
#include <optional>
#include <cstdio>
#include <random>
#include <vector>

#include "frontend/bytecode/program.h"
#include "ir/element_type.h"
#include "ir/literal.h"
#include "runtime/runtime_internal.h"
#include "tools/common/source_file.h"
#include "verify/verifier.h"

namespace vkhlo::tools {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Random elements that any program can take: floats in [-1, 1) ([0, 2) for unsigned formats),
// integers in [0, 64) (valid shift amounts and, for most shapes, indices), booleans 0/1.
StatusOr<ir::Literal> RandomLiteral(const TensorType& t, std::mt19937_64& rng) {
  const std::optional<ir::ElementType> element = ir::ParseElementTypeName(t.element_type);
  if (!element) return InvalidArgumentError(fmt::format("cannot make random inputs of {}", t.ToString()));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ir::Literal::Create(ir::Type::Tensor(*element, t.dims)));
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  const bool unsigned_float = ir::IsFloat(*element) && !ir::GetFloatFormat(*element).has_sign;
  for (int64_t i = 0; i < literal.num_elements(); ++i) {
    if (ir::IsBoolean(*element)) {
      literal.SetInt(i, static_cast<int64_t>(rng() & 1));
    } else if (ir::IsInteger(*element)) {
      literal.SetInt(i, static_cast<int64_t>(rng() % 64));
    } else if (ir::IsComplex(*element)) {
      literal.SetComplex(i, {real(rng), real(rng)});
    } else {
      literal.SetFloat(i, unsigned_float ? real(rng) + 1.0 : real(rng));
    }
  }
  return literal;
}

struct Settings {
  std::string path, entry = "main";
  int repeat = 20, warmup = 3;
  uint64_t seed = 1;
  std::optional<int64_t> dim;        // every dynamic size (polymorphic programs)
  std::vector<std::string> shapes;   // "I:DxD"
  std::vector<std::string> values;   // "I:V"
  std::string profile_path;          // --profile
  bool profile_summary = false;
  bool host_loops = false;  // ExecuteOptions::host_loops
};

// "I:<text>" -> (I, text).
StatusOr<std::pair<size_t, std::string>> IndexedSpec(const std::string& spec, std::string_view flag) {
  const size_t colon = spec.find(':');
  size_t index = 0;
  if (colon == std::string::npos || colon == 0 ||
      std::from_chars(spec.data(), spec.data() + colon, index).ptr != spec.data() + colon) {
    return InvalidArgumentError(fmt::format("{}={}: expected ARGUMENT:...", flag, spec));
  }
  return std::make_pair(index, spec.substr(colon + 1));
}

// The argument types to run a polymorphic executable with: its parameters, sizes from --shape
// or --dim.
StatusOr<std::vector<TensorType>> ChosenTypes(const Executable& executable, const Settings& settings) {
  std::vector<TensorType> types = executable.parameter_types();
  for (const std::string& spec : settings.shapes) {
    VKHLO_ASSIGN_OR_RETURN(auto parsed, IndexedSpec(spec, "--shape"));
    if (parsed.first >= types.size()) return InvalidArgumentError(fmt::format("--shape={}: no argument {}", spec, parsed.first));
    std::vector<int64_t> dims;
    std::string_view text = parsed.second;
    while (!text.empty()) {
      const size_t x = text.find('x');
      const std::string_view part = text.substr(0, x);
      int64_t d = 0;
      if (part.empty() || std::from_chars(part.data(), part.data() + part.size(), d).ptr != part.data() + part.size() || d < 0) {
        return InvalidArgumentError(fmt::format("--shape={}: sizes are non-negative integers joined by 'x'", spec));
      }
      dims.push_back(d);
      text = x == std::string_view::npos ? std::string_view() : text.substr(x + 1);
    }
    types[parsed.first].dims = std::move(dims);
  }
  for (size_t i = 0; i < types.size(); ++i) {
    for (int64_t& d : types[i].dims) {
      if (d >= 0) continue;
      if (!settings.dim) {
        return InvalidArgumentError(fmt::format("argument {} is {}: give its sizes (--shape={}:... or --dim=N)", i,
                                                types[i].ToString(), i));
      }
      d = *settings.dim;
    }
  }
  return types;
}

// Shape arguments' values: --value, else --dim.
StatusOr<std::map<int64_t, int64_t>> ChosenValues(const Executable& executable, const Settings& settings) {
  std::map<int64_t, int64_t> values;
  for (const std::string& spec : settings.values) {
    VKHLO_ASSIGN_OR_RETURN(auto parsed, IndexedSpec(spec, "--value"));
    int64_t v = 0;
    const std::string& text = parsed.second;
    if (std::from_chars(text.data(), text.data() + text.size(), v).ptr != text.data() + text.size()) {
      return InvalidArgumentError(fmt::format("--value={}: expected ARGUMENT:INTEGER", spec));
    }
    values[static_cast<int64_t>(parsed.first)] = v;
  }
  for (int64_t index : executable.shape_arguments()) {
    if (values.contains(index)) continue;
    if (!settings.dim) {
      return InvalidArgumentError(fmt::format("argument {} decides shapes: give its value (--value={}:N or --dim=N)",
                                              index, index));
    }
    values[index] = *settings.dim;
  }
  return values;
}

Status Run(const Settings& settings) {
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<Client> created, Client::Create());
  const Client& client = *created;
  VKHLO_ASSIGN_OR_RETURN(std::string text, ReadSourceFile(settings.path));
  // A compiled plan (.vkx) is loaded, not compiled: the "compile" time is then the load's.
  const bool plan = frontend::IsCompiledPlan(text);
  const Clock::time_point compile_start = Clock::now();
  Executable executable;
  if (plan) {
    VKHLO_ASSIGN_OR_RETURN(executable, client.LoadExecutable(std::span<const uint8_t>(
                                           reinterpret_cast<const uint8_t*>(text.data()), text.size())));
  } else {
    std::vector<ParsedChunk> chunks = ParseSource(text, settings.path == "-" ? "<stdin>" : settings.path, false);
    if (chunks.empty()) return InvalidArgumentError(fmt::format("{}: no module", settings.path));
    VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, std::move(chunks.front().module));
    VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
    CompileOptions options;
    options.entry = settings.entry;
    VKHLO_ASSIGN_OR_RETURN(executable, runtime::CompileModule(client, std::move(module), options));
  }
  const double compile_ms = MsSince(compile_start);
  const bool polymorphic = executable.is_polymorphic();
  std::vector<TensorType> types = executable.parameter_types();
  std::map<int64_t, int64_t> values;
  if (polymorphic) {
    VKHLO_ASSIGN_OR_RETURN(types, ChosenTypes(executable, settings));
    VKHLO_ASSIGN_OR_RETURN(values, ChosenValues(executable, settings));
  }

  std::mt19937_64 rng(settings.seed);
  std::vector<Buffer> arguments;
  uint64_t input_bytes = 0;
  for (size_t i = 0; i < types.size(); ++i) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, RandomLiteral(types[i], rng));
    auto value = values.find(static_cast<int64_t>(i));
    if (value != values.end() && literal.num_elements() == 1) literal.SetInt(0, value->second);
    VKHLO_ASSIGN_OR_RETURN(Buffer buffer, runtime::BufferFromLiteral(client, literal));
    input_bytes += buffer.byte_size();
    arguments.push_back(std::move(buffer));
  }

  std::printf("device: %s\n", client.device_description().c_str());
  Executable stats_of = executable;
  if (polymorphic) {
    // The first Execute refines and compiles for these shapes; a second Specialize only looks
    // up the cache: the cost of a new size against a cached one.
    std::string shapes;
    for (const TensorType& t : types) shapes += (shapes.empty() ? "" : ", ") + t.ToString();
    std::printf("polymorphic: analysis %.2f ms; shape arguments %zu; running with (%s)\n", compile_ms,
                executable.shape_arguments().size(), shapes.c_str());
    const Clock::time_point first = Clock::now();
    VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> ignored,
                           executable.Execute(arguments, {.host_loops = settings.host_loops}));
    const double first_ms = MsSince(first);
    const Clock::time_point lookup = Clock::now();
    VKHLO_ASSIGN_OR_RETURN(Executable specialized, executable.Specialize(types, values));
    const double lookup_ms = MsSince(lookup);
    const SpecializationStats ss = executable.specialization_stats();
    std::printf("specialize: %.2f ms (refine + compile: %.2f ms, then the first run); cached lookup: %.4f ms\n",
                first_ms, ss.last_compile_ms, lookup_ms);
    stats_of = specialized;  // the runs below go through the polymorphic executable, as a server's would
  }
  const CompileStats& cs = stats_of.compile_stats();
  if (plan) {
    std::printf("load: %.2f ms (a compiled plan: pipelines made of its SPIR-V, constants uploaded)\n", compile_ms);
  } else {
    std::printf("compile: %.2f ms (%llu kernels; SPIR-V %.2f ms, %llu compiled, %llu cached; pipelines %.2f ms)\n",
              compile_ms, static_cast<unsigned long long>(cs.kernels), cs.spirv_ms,
              static_cast<unsigned long long>(cs.spirv_compiles), static_cast<unsigned long long>(cs.spirv_cache_hits),
              cs.pipeline_ms);
    if (cs.split_ffts > 0) {
      std::printf("FFTs split into smaller transforms (one transform beyond the device's range): %llu\n",
                  static_cast<unsigned long long>(cs.split_ffts));
    }
  }
  std::printf("inputs: %zu (%llu bytes, random, on the device)\n", arguments.size(),
              static_cast<unsigned long long>(input_bytes));

  for (int i = 0; i < settings.warmup; ++i) {
    VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results,
                           executable.Execute(arguments, {.host_loops = settings.host_loops}));
  }
  std::vector<double> times;
  for (int i = 0; i < settings.repeat; ++i) {
    const Clock::time_point start = Clock::now();
    VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results,
                           executable.Execute(arguments, {.host_loops = settings.host_loops}));
    times.push_back(MsSince(start));
  }
  const ExecutionStats s = executable.last_stats();
  std::string profile_text;
  if (!settings.profile_path.empty() || settings.profile_summary) {
    ExecutionProfile profile;
    VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results,
                           executable.Execute(arguments, {.profile = &profile, .host_loops = settings.host_loops}));
    if (!settings.profile_path.empty()) {
      VKHLO_RETURN_IF_ERROR(profile.WriteChromeTrace(settings.profile_path));
      size_t dispatches = 0;
      for (const ProfileEvent& e : profile.events) dispatches += e.track == ProfileEvent::Track::kDevice ? 1 : 0;
      profile_text += fmt::format("profile: {} dispatches, {} host steps written to {}\n", dispatches,
                                  profile.events.size() - dispatches, settings.profile_path);
    }
    if (settings.profile_summary) profile_text += profile.Summary();
  }
  if (polymorphic) {
    const SpecializationStats ss = executable.specialization_stats();
    std::printf("specializations: %llu compiled, %llu cache hits, %llu cached\n",
                static_cast<unsigned long long>(ss.compiled), static_cast<unsigned long long>(ss.hits),
                static_cast<unsigned long long>(ss.cached));
  }
  std::printf("per execution: %llu kernels, %llu command buffers, %llu bytes read, %llu bytes written, "
              "%llu predicates read back, %llu counted loop iterations, %llu loop-invariant dispatches reused\n",
              static_cast<unsigned long long>(s.kernels_dispatched), static_cast<unsigned long long>(s.command_buffers),
              static_cast<unsigned long long>(s.bytes_read), static_cast<unsigned long long>(s.bytes_written),
              static_cast<unsigned long long>(s.predicate_readbacks),
              static_cast<unsigned long long>(s.counted_loop_iterations),
              static_cast<unsigned long long>(s.invariant_dispatches_reused));
  std::printf("%s", profile_text.c_str());
  std::sort(times.begin(), times.end());
  const size_t n = times.size();
  const double median = n % 2 == 1 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  std::printf("median_ms=%.4f min_ms=%.4f runs=%zu\n", median, times.front(), n);
  return OkStatus();
}

}  // namespace
}  // namespace vkhlo::tools

int main(int argc, char** argv) {
  CLI::App app{"vkhlo-bench: time a StableHLO program on the Vulkan device"};
  vkhlo::tools::Settings settings;
  app.add_option("file", settings.path,
                 "the program (.mlir, a portable artifact, or a compiled plan .vkx, loaded instead of compiled); '-' "
                 "for standard input")
      ->required();
  app.add_option("--repeat", settings.repeat, "timed executions (default 20)")->check(CLI::Range(1, 1000000));
  app.add_option("--warmup", settings.warmup, "untimed executions first (default 3)")->check(CLI::Range(0, 1000000));
  app.add_option("--entry", settings.entry, "the function to run (default: main)");
  app.add_option("--seed", settings.seed, "seed of the random inputs (default 1)");
  app.add_option("--dim", settings.dim,
                 "polymorphic programs: every dynamic size (and shape argument value) not given otherwise");
  app.add_option("--shape", settings.shapes, "polymorphic programs: argument I's sizes, I:DxD (e.g. 1:32x784)");
  app.add_option("--value", settings.values, "polymorphic programs: the value of shape argument I, I:V");
  app.add_option("--profile", settings.profile_path,
                 "after the timed runs, profile one more execution and write it there as a Chrome trace / Perfetto "
                 "JSON (chrome://tracing, ui.perfetto.dev): every dispatch with its GPU time, kernel, class, config, "
                 "fused ops with their source locations, bytes and FLOPs; host steps on their own track");
  app.add_flag("--profile-summary", settings.profile_summary,
               "print that execution's time by kernel class and by source op (top 10), with the total");
  app.add_flag("--host-loops", settings.host_loops,
               "run every while as before counted loops: the condition read back after each iteration (to compare)");
  CLI11_PARSE(app, argc, argv);
  vkhlo::Status status = vkhlo::tools::Run(settings);
  if (!status.ok()) {
    std::fprintf(stderr, "vkhlo-bench: %s\n", status.message().c_str());
    return 1;
  }
  return 0;
}
