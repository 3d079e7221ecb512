// vkhlo-bench: time a StableHLO program on the Vulkan device.
//   vkhlo-bench FILE [--repeat=N] [--warmup=N] [--entry=NAME] [--seed=S]
//
// Compiles --entry (default main), makes random inputs of its argument types and uploads them
// once (they stay on the device, so the timings are of Execute alone), runs Execute --warmup
// times untimed and then --repeat times, each to completion (Execute returns when the device
// is done). The last line is `median_ms=<float> min_ms=<float> runs=<n>` (DESIGN.md's tool
// contract); the lines before it say what ran: device, compile time, kernels per execution.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

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
};

Status Run(const Settings& settings) {
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<Client> created, Client::Create());
  const Client& client = *created;
  VKHLO_ASSIGN_OR_RETURN(std::string text, ReadSourceFile(settings.path));
  std::vector<ParsedChunk> chunks = ParseSource(text, settings.path == "-" ? "<stdin>" : settings.path, false);
  if (chunks.empty()) return InvalidArgumentError(fmt::format("{}: no module", settings.path));
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, std::move(chunks.front().module));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));

  CompileOptions options;
  options.entry = settings.entry;
  const Clock::time_point compile_start = Clock::now();
  VKHLO_ASSIGN_OR_RETURN(Executable executable, runtime::CompileModule(client, std::move(module), options));
  const double compile_ms = MsSince(compile_start);
  const CompileStats& cs = executable.compile_stats();

  std::mt19937_64 rng(settings.seed);
  std::vector<Buffer> arguments;
  uint64_t input_bytes = 0;
  for (const TensorType& type : executable.parameter_types()) {
    VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, RandomLiteral(type, rng));
    VKHLO_ASSIGN_OR_RETURN(Buffer buffer, runtime::BufferFromLiteral(client, literal));
    input_bytes += buffer.byte_size();
    arguments.push_back(std::move(buffer));
  }

  std::printf("device: %s\n", client.device_description().c_str());
  std::printf("compile: %.2f ms (%llu kernels; SPIR-V %.2f ms, %llu compiled, %llu cached; pipelines %.2f ms)\n",
              compile_ms, static_cast<unsigned long long>(cs.kernels), cs.spirv_ms,
              static_cast<unsigned long long>(cs.spirv_compiles), static_cast<unsigned long long>(cs.spirv_cache_hits),
              cs.pipeline_ms);
  std::printf("inputs: %zu (%llu bytes, random, on the device)\n", arguments.size(),
              static_cast<unsigned long long>(input_bytes));

  for (int i = 0; i < settings.warmup; ++i) {
    VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, executable.Execute(arguments));
  }
  std::vector<double> times;
  for (int i = 0; i < settings.repeat; ++i) {
    const Clock::time_point start = Clock::now();
    VKHLO_ASSIGN_OR_RETURN(std::vector<Buffer> results, executable.Execute(arguments));
    times.push_back(MsSince(start));
  }
  const ExecutionStats s = executable.last_stats();
  std::printf("per execution: %llu kernels, %llu command buffers, %llu bytes read, %llu bytes written\n",
              static_cast<unsigned long long>(s.kernels_dispatched), static_cast<unsigned long long>(s.command_buffers),
              static_cast<unsigned long long>(s.bytes_read), static_cast<unsigned long long>(s.bytes_written));
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
  app.add_option("file", settings.path, "the .mlir program ('-' for standard input)")->required();
  app.add_option("--repeat", settings.repeat, "timed executions (default 20)")->check(CLI::Range(1, 1000000));
  app.add_option("--warmup", settings.warmup, "untimed executions first (default 3)")->check(CLI::Range(0, 1000000));
  app.add_option("--entry", settings.entry, "the function to run (default: main)");
  app.add_option("--seed", settings.seed, "seed of the random inputs (default 1)");
  CLI11_PARSE(app, argc, argv);
  vkhlo::Status status = vkhlo::tools::Run(settings);
  if (!status.ok()) {
    std::fprintf(stderr, "vkhlo-bench: %s\n", status.message().c_str());
    return 1;
  }
  return 0;
}
