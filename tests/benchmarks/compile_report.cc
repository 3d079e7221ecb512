// vkhlo-compile-report: the compile-time and fusion figures of docs/benchmarks.md, measured in one run.
//   vkhlo-compile-report [--conformance=DIR] [--mlp=FILE]
//
// 1. Compile times: every test function of every chunk of every .mlir under DIR (default
//    ../shared/conformance) compiled for the Vulkan device (compile only, through vkhlo-run
//    --check's rewriting, so exactly what `--check --device=vulkan` compiles) in three passes:
//      cold  a new client on a fresh cache directory (empty SPIR-V and pipeline caches, in
//            memory and on disk; the first glslang use in the process included);
//      warm  another new client on the same directory, as a second process would be (SPIR-V
//            and the VkPipelineCache come from disk);
//      hot   the warm client again (everything in memory).
//    Totals and the worst function of each pass; functions that do not compile yet (ops not on
//    the Vulkan path) are counted apart and left out of the times.
// 2. Kernel count of a program (default: the 2-layer MLP of tests/benchmarks/programs) before
//    and after fusion, from the fusion plan (codegen::PlanBlock after the default passes), and
//    what Execute dispatches when the program compiles.
// 3. With --program=FILE (instead of 1 and 2): that program's (--entry's) kernels compiled once
//    on the Vulkan device, one line per kernel (a device kernel's dispatches each count apart):
//    SPIR-V bytes, GLSL -> SPIR-V ms (glslang, spirv-val, spirv-opt; "c" marks a cache hit, a
//    lookup only) and pipeline ms (vkCreateComputePipelines: the driver's own compiler, which on
//    lavapipe grows with the module's size), then the totals. Cold figures need nothing cached:
//    XDG_CACHE_HOME=$(mktemp -d). --budget=BYTES marks kernels above it and makes the exit status
//    2 when there is one (tests/codegen/kernel_size_test.cc is what guards the tree).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "codegen/fusion.h"
#include "ir/literal.h"
#include "passes/pipeline.h"
#include "runtime/runtime_internal.h"
#include "runtime/state.h"
#include "tools/common/source_file.h"
#include "tools/vkhlo-run/check_runner.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

struct Chunk {
  std::string label;
  std::unique_ptr<ir::Module> module;
};

std::vector<Chunk> LoadChunks(const std::string& dir, int& unparsed) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".mlir") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  std::vector<Chunk> chunks;
  for (const std::string& file : files) {
    auto text = tools::ReadSourceFile(file);
    if (!text.ok()) {
      ++unparsed;
      continue;
    }
    const std::string name = std::filesystem::relative(file, dir).string();
    for (tools::ParsedChunk& chunk : tools::ParseSource(*text, name, true)) {
      if (!chunk.module.ok() || !verify::VerifyModule(**chunk.module).ok()) {
        ++unparsed;
        continue;
      }
      chunks.push_back(Chunk{fmt::format("{}:{}", name, chunk.first_line), std::move(*chunk.module)});
    }
  }
  return chunks;
}

struct PassTimes {
  int compiled = 0, failed = 0;
  double total_ms = 0, worst_ms = 0, spirv_ms = 0, pipeline_ms = 0;
  uint64_t kernels = 0, spirv_compiles = 0, spirv_hits = 0;
  std::string worst;
  double wall_s = 0;
};

PassTimes CompileAll(const Client& client, std::vector<Chunk>& chunks) {
  PassTimes t;
  const auto start = std::chrono::steady_clock::now();
  for (Chunk& chunk : chunks) {
    tools::CheckOptions options;
    options.device = tools::CheckOptions::Device::kVulkan;
    options.client = &client;
    options.compile_only = true;
    options.on_compile = [&](const Status& status, double ms, const CompileStats& stats) {
      if (!status.ok()) {
        ++t.failed;
        return;
      }
      ++t.compiled;
      t.total_ms += ms;
      t.spirv_ms += stats.spirv_ms;
      t.pipeline_ms += stats.pipeline_ms;
      t.kernels += stats.kernels;
      t.spirv_compiles += stats.spirv_compiles;
      t.spirv_hits += stats.spirv_cache_hits;
      if (ms > t.worst_ms) {
        t.worst_ms = ms;
        t.worst = chunk.label;
      }
    };
    tools::RunTestFunctions(*chunk.module, options);
  }
  t.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

StatusOr<Client> ClientOnCache(const std::string& dir) {
  VKHLO_ASSIGN_OR_RETURN(device::DeviceOptions options, device::DeviceOptions::FromEnvironment());
  options.cache_directory = dir;
  return runtime::CreateClient(std::move(options));
}

int CompileTimes(const std::string& dir) {
  int unparsed = 0;
  std::vector<Chunk> chunks = LoadChunks(dir, unparsed);
  const std::string cache = fmt::format("/tmp/vkhlo-compile-report-{}", getpid());
  std::error_code ec;
  std::filesystem::remove_all(cache, ec);
  PassTimes cold, warm, hot;
  {
    auto client = ClientOnCache(cache);
    if (!client.ok()) {
      std::fprintf(stderr, "vkhlo-compile-report: %s\n", client.status().message().c_str());
      return 1;
    }
    fmt::print("device: {}\nchunks: {} under {} ({} not parsed or not valid)\n", client->device_description(),
               chunks.size(), dir, unparsed);
    cold = CompileAll(*client, chunks);
  }
  {
    auto client = ClientOnCache(cache);
    if (!client.ok()) return 1;
    warm = CompileAll(*client, chunks);
    hot = CompileAll(*client, chunks);
  }
  std::filesystem::remove_all(cache, ec);
  fmt::print("test functions compiled: {} ({} do not compile for this device yet and are not timed)\n", cold.compiled,
             cold.failed);
  fmt::print("{:<5} {:>10} {:>10} {:>12} {:>9} {:>14} {:>8}  {}\n", "pass", "total_ms", "mean_ms", "spirv_ms",
             "pipe_ms", "glslang runs", "worst_ms", "worst function's chunk");
  for (const auto& [name, t] : std::vector<std::pair<const char*, const PassTimes*>>{{"cold", &cold}, {"warm", &warm}, {"hot", &hot}}) {
    fmt::print("{:<5} {:>10.1f} {:>10.2f} {:>12.1f} {:>9.1f} {:>14} {:>8.1f}  {}\n", name, t->total_ms,
               t->compiled ? t->total_ms / t->compiled : 0.0, t->spirv_ms, t->pipeline_ms, t->spirv_compiles,
               t->worst_ms, t->worst);
  }
  fmt::print("kernels per pass: {}; caching saves {:.1f} ms of {:.1f} ms warm ({:.0f}%), {:.1f} ms hot ({:.0f}%)\n",
             cold.kernels, cold.total_ms - warm.total_ms, cold.total_ms,
             cold.total_ms > 0 ? 100 * (cold.total_ms - warm.total_ms) / cold.total_ms : 0.0, cold.total_ms - hot.total_ms,
             cold.total_ms > 0 ? 100 * (cold.total_ms - hot.total_ms) / cold.total_ms : 0.0);
  return 0;
}

// Kernels of a block's plan: loop fusions, device kernels, and tensor ops left as steps (ops the
// runtime runs itself or cannot run yet).
struct PlanCount {
  int loop = 0, device = 0;
  std::map<std::string, int> steps;
};

StatusOr<PlanCount> CountPlan(const ir::Block& block, const codegen::TargetInfo& target, bool fuse) {
  codegen::FusionOptions options;
  options.fuse = fuse;
  VKHLO_ASSIGN_OR_RETURN(codegen::BlockPlan plan, codegen::PlanBlock(block, target, options));
  PlanCount count;
  for (const codegen::Fusion& f : plan.fusions) (f.device_op ? count.device : count.loop)++;
  for (const codegen::BlockStep& step : plan.steps) {
    if (step.op != nullptr && step.op->info().kind != ir::OpKind::kStructural) count.steps[std::string(step.op->name())]++;
  }
  return count;
}

std::string Describe(const PlanCount& c) {
  int steps = 0;
  std::string names;
  for (const auto& [name, n] : c.steps) {
    steps += n;
    names += fmt::format("{}{} x{}", names.empty() ? "" : ", ", name, n);
  }
  return fmt::format("{} kernels ({} loop kernels, {} device kernels, {} other steps{}{})", c.loop + c.device + steps,
                     c.loop, c.device, steps, names.empty() ? "" : ": ", names);
}

int KernelCount(const std::string& path) {
  auto client = Client::Create();
  if (!client.ok()) return 1;
  auto text = tools::ReadSourceFile(path);
  if (!text.ok()) {
    std::fprintf(stderr, "vkhlo-compile-report: %s\n", text.status().message().c_str());
    return 1;
  }
  auto chunks = tools::ParseSource(*text, path, false);
  if (chunks.empty() || !chunks[0].module.ok()) return 1;
  ir::Module& module = **chunks[0].module;
  auto pipeline = passes::PassPipeline::Parse(passes::DefaultPipelineSpec());
  if (!pipeline.ok() || !pipeline->Run(module).ok()) return 1;
  const ir::Function* main = module.FindFunction("main");
  if (main == nullptr) return 1;
  const codegen::TargetInfo& target = (*client)->state()->target;
  auto unfused = CountPlan(main->body().front(), target, false);
  auto fused = CountPlan(main->body().front(), target, true);
  if (!unfused.ok() || !fused.ok()) {
    std::fprintf(stderr, "vkhlo-compile-report: %s\n", (unfused.ok() ? fused.status() : unfused.status()).message().c_str());
    return 1;
  }
  fmt::print("{}: before fusion {}\n", path, Describe(*unfused));
  fmt::print("{}: after fusion  {}\n", path, Describe(*fused));
  auto exe = (*client)->Compile(*text);
  if (!exe.ok()) {
    fmt::print("{}: does not compile for the Vulkan device yet ({}); counts are from the plan\n", path,
               exe.status().message());
    return 0;
  }
  std::vector<Buffer> arguments;
  for (const TensorType& type : exe->parameter_types()) {
    std::vector<uint8_t> zeros(static_cast<size_t>(type.num_elements()) * 4);
    auto b = (*client)->BufferFromHost(type, zeros);
    if (!b.ok()) return 1;
    arguments.push_back(*b);
  }
  auto results = exe->Execute(arguments);
  if (!results.ok()) {
    fmt::print("{}: Execute failed: {}\n", path, results.status().message());
    return 0;
  }
  fmt::print("{}: Execute dispatched {} kernels\n", path, exe->last_stats().kernels_dispatched);
  return 0;
}

// --program: one program's kernels, each with its SPIR-V bytes, GLSL -> SPIR-V ms and pipeline ms.
struct ProgramSettings {
  std::string path, entry = "main", sort = "order";
  uint64_t budget = 0;
};

StatusOr<int> ProgramReport(const ProgramSettings& settings) {
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<Client> created, Client::Create());
  const Client& client = *created;
  VKHLO_ASSIGN_OR_RETURN(std::string text, tools::ReadSourceFile(settings.path));
  std::vector<tools::ParsedChunk> chunks = tools::ParseSource(text, settings.path == "-" ? "<stdin>" : settings.path, false);
  if (chunks.empty()) return InvalidArgumentError(fmt::format("{}: no module", settings.path));
  VKHLO_ASSIGN_OR_RETURN(std::unique_ptr<ir::Module> module, std::move(chunks.front().module));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  CompileOptions options;
  options.entry = settings.entry;
  const auto start = std::chrono::steady_clock::now();
  VKHLO_ASSIGN_OR_RETURN(Executable executable, runtime::CompileModule(client, std::move(module), options));
  const double compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const CompileStats& cs = executable.compile_stats();

  std::vector<KernelCompileStats> kernels = cs.per_kernel;
  if (settings.sort == "bytes") {
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const auto& a, const auto& b) { return a.spirv_bytes > b.spirv_bytes; });
  } else if (settings.sort == "time") {
    std::stable_sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) {
      return a.spirv_ms + a.pipeline_ms > b.spirv_ms + b.pipeline_ms;
    });
  }
  std::printf("device: %s\n", client.device_description().c_str());
  size_t width = 6;
  for (const KernelCompileStats& k : kernels) width = std::max(width, k.name.size());
  std::printf("%-*s %12s %10s %12s\n", static_cast<int>(width), "kernel", "spirv_bytes", "spirv_ms", "pipeline_ms");
  uint64_t bytes = 0, largest = 0, over = 0;
  double spirv_ms = 0, pipeline_ms = 0;
  for (const KernelCompileStats& k : kernels) {
    const bool above = settings.budget > 0 && k.spirv_bytes > settings.budget;
    std::printf("%-*s %12llu %10.2f%s %12.2f%s\n", static_cast<int>(width), k.name.c_str(),
                static_cast<unsigned long long>(k.spirv_bytes), k.spirv_ms, k.spirv_cached ? "c" : " ", k.pipeline_ms,
                above ? "  OVER BUDGET" : "");
    bytes += k.spirv_bytes;
    largest = std::max(largest, k.spirv_bytes);
    spirv_ms += k.spirv_ms;
    pipeline_ms += k.pipeline_ms;
    over += above ? 1 : 0;
  }
  std::printf("%-*s %12llu %10.2f  %12.2f\n", static_cast<int>(width), "total",
              static_cast<unsigned long long>(bytes), spirv_ms, pipeline_ms);
  std::printf("kernels=%zu spirv_bytes=%llu largest_bytes=%llu spirv_compiled=%llu spirv_cached=%llu "
              "spirv_ms=%.2f pipeline_ms=%.2f codegen_ms=%.2f compile_ms=%.2f\n",
              kernels.size(), static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(largest),
              static_cast<unsigned long long>(cs.spirv_compiles), static_cast<unsigned long long>(cs.spirv_cache_hits),
              spirv_ms, pipeline_ms, cs.codegen_ms, compile_ms);
  if (over > 0) {
    std::printf("%llu kernel(s) above the budget of %llu bytes\n", static_cast<unsigned long long>(over),
                static_cast<unsigned long long>(settings.budget));
    return 2;
  }
  return 0;
}

}  // namespace
}  // namespace vkhlo

int main(int argc, char** argv) {
  std::string conformance = VKHLO_CONFORMANCE_DIR, mlp = VKHLO_MLP_PROGRAM;
  bool times = true, kernels = true;
  vkhlo::ProgramSettings program;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--program=", 0) == 0) {
      program.path = arg.substr(10);
    } else if (arg.rfind("--entry=", 0) == 0) {
      program.entry = arg.substr(8);
    } else if (arg.rfind("--budget=", 0) == 0) {
      program.budget = std::strtoull(arg.c_str() + 9, nullptr, 10);
    } else if (arg == "--sort=order" || arg == "--sort=bytes" || arg == "--sort=time") {
      program.sort = arg.substr(7);
    } else if (arg.rfind("--conformance=", 0) == 0) {
      conformance = arg.substr(14);
    } else if (arg.rfind("--mlp=", 0) == 0) {
      mlp = arg.substr(6);
    } else if (arg == "--no-compile-times") {
      times = false;
    } else if (arg == "--no-kernel-count") {
      kernels = false;
    } else {
      std::fprintf(stderr,
                   "usage: vkhlo-compile-report [--conformance=DIR] [--mlp=FILE] [--no-compile-times] [--no-kernel-count]\n"
                   "       vkhlo-compile-report --program=FILE [--entry=NAME] [--budget=BYTES] [--sort=order|bytes|time]\n");
      return 2;
    }
  }
  if (!program.path.empty()) {
    vkhlo::StatusOr<int> result = vkhlo::ProgramReport(program);
    if (!result.ok()) {
      std::fprintf(stderr, "vkhlo-compile-report: %s\n", result.status().message().c_str());
      return 1;
    }
    return *result;
  }
  int rc = 0;
  if (kernels) rc |= vkhlo::KernelCount(mlp);
  if (times) rc |= vkhlo::CompileTimes(conformance);
  return rc;
}
