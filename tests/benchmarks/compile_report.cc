// vkhlo-compile-report: the compile-time and fusion figures of the README, measured in one run.
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
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
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
  auto pipeline = passes::PassPipeline::Parse(runtime::kDefaultPasses);
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

}  // namespace
}  // namespace vkhlo

int main(int argc, char** argv) {
  std::string conformance = VKHLO_CONFORMANCE_DIR, mlp = VKHLO_MLP_PROGRAM;
  bool times = true, kernels = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--conformance=", 0) == 0) {
      conformance = arg.substr(14);
    } else if (arg.rfind("--mlp=", 0) == 0) {
      mlp = arg.substr(6);
    } else if (arg == "--no-compile-times") {
      times = false;
    } else if (arg == "--no-kernel-count") {
      kernels = false;
    } else {
      std::fprintf(stderr, "usage: vkhlo-compile-report [--conformance=DIR] [--mlp=FILE] [--no-compile-times] [--no-kernel-count]\n");
      return 2;
    }
  }
  int rc = 0;
  if (kernels) rc |= vkhlo::KernelCount(mlp);
  if (times) rc |= vkhlo::CompileTimes(conformance);
  return rc;
}
