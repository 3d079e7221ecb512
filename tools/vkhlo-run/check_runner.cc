#include "tools/vkhlo-run/check_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <set>

#include "interp/checks.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "passes/pipeline.h"
#include "passes/stage_grid_test.h"
#include "runtime/runtime_internal.h"
#include "tools/vkhlo-run/grid_runner.h"
#include "vkhlo/checks.h"
#include "vkhlo/process_grid.h"

namespace vkhlo::tools {
namespace {

// Every symbol a function refers to: call targets, run_parallel programs, composite bodies.
void CollectReferences(const ir::Attribute& attribute, std::set<std::string>& out) {
  if (auto* s = attribute.as<ir::SymbolRef>()) out.insert(s->name);
  if (auto* a = attribute.as<ir::Attribute::Array>()) {
    for (const ir::Attribute& e : *a) CollectReferences(e, out);
  }
}

void CollectReferences(const ir::Region& region, std::set<std::string>& out) {
  for (const auto& block : region.blocks()) {
    for (const auto& op : block->operations()) {
      for (const auto& [name, value] : op->attributes()) CollectReferences(value, out);
      for (size_t i = 0; i < op->num_regions(); ++i) CollectReferences(op->region(i), out);
    }
  }
}

std::string Where(const ir::Module& module, ir::Location loc) {
  return ir::FormatLocation(module.source_name(), loc);
}

TestOutcome RunOnReference(const ir::Module& module, const ir::Function& function) {
  TestOutcome outcome;
  outcome.name = function.name();
  auto result = interp::RunFunction(module, function.name(), {});
  if (!result.ok()) {
    outcome.message = result.status().message();
  } else if (!result->check_failures.empty()) {
    const interp::CheckFailure& first = result->check_failures.front();
    outcome.message = fmt::format("{}: {}", Where(module, first.location), first.message);
    if (result->check_failures.size() > 1) {
      outcome.message += fmt::format(" (and {} more failed checks)", result->check_failures.size() - 1);
    }
  } else {
    outcome.passed = true;
  }
  return outcome;
}

interp::CheckParams ToCheckParams(const CheckComparison& c) {
  interp::CheckParams params;
  params.kind = c.kind == CheckComparison::Kind::kAlmost  ? interp::CheckKind::kAlmost
                : c.kind == CheckComparison::Kind::kClose ? interp::CheckKind::kClose
                                                          : interp::CheckKind::kExact;
  params.tolerance = c.tolerance;
  params.max_ulp_difference = c.max_ulp_difference;
  params.min_ulp_difference = c.min_ulp_difference;
  return params;
}

StatusOr<ir::Literal> ToLiteral(HostTensor tensor) {
  const std::optional<ir::ElementType> element = ir::ParseElementTypeName(tensor.type.element_type);
  if (!element) return InvalidArgumentError("unknown element type " + tensor.type.element_type);
  return ir::Literal::FromBytes(ir::Type::Tensor(*element, tensor.type.dims), std::move(tensor.bytes));
}

}  // namespace

std::optional<std::string> CompareCheck(const CompiledCheck& check, const StatusOr<ir::Literal>& actual,
                                        const std::optional<ir::Literal>& computed) {
  if (!actual.ok()) return actual.status().message();
  std::optional<ir::Literal> constant;
  if (check.expected) {
    StatusOr<ir::Literal> e = ToLiteral(*check.expected);
    if (!e.ok()) return e.status().message();
    constant = std::move(*e);
  }
  const ir::Literal* expected = constant ? &*constant : computed ? &*computed : nullptr;
  if (expected == nullptr) return "the expected value could not be read back";
  return interp::CompareLiterals(*actual, *expected, ToCheckParams(check.comparison));
}

namespace {

void AddStats(const ExecutionStats& s, ExecutionStats& totals) {
  totals.kernels_dispatched += s.kernels_dispatched;
  totals.command_buffers += s.command_buffers;
  totals.bytes_read += s.bytes_read;
  totals.bytes_written += s.bytes_written;
  totals.in_place_updates += s.in_place_updates;
  totals.predicate_readbacks += s.predicate_readbacks;
  totals.counted_loop_iterations += s.counted_loop_iterations;
  totals.invariant_dispatches_reused += s.invariant_dispatches_reused;
  totals.host_evaluated_ops += s.host_evaluated_ops;
}

// Runs a test function's executable: alone, or as a 1 x 1 process grid whose outfeed collects
// the values of probes and of checks in regions.
StatusOr<std::vector<Buffer>> RunForChecks(const Executable& executable, const CompiledChecks& checks,
                                           const std::shared_ptr<OutfeedQueue>& outfeed) {
  if (!checks.uses_outfeed()) return executable.Execute({});
  ProcessRun run{executable, {}, nullptr, outfeed};
  VKHLO_ASSIGN_OR_RETURN(auto grid, RunProcessGrid({}, std::span<const ProcessRun>(&run, 1)));
  return std::move(grid[0]);
}

}  // namespace

StatusOr<Executable> ThroughPlan(const Executable& compiled, const Client& client) {
  Executable static_executable = compiled;
  if (compiled.is_polymorphic()) {
    VKHLO_ASSIGN_OR_RETURN(static_executable, compiled.Specialize({}));
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, static_executable.Serialize());
  return client.LoadExecutable(bytes);
}

namespace {

// Where two runs' results (and outfeeds, which are drained) differ, or nullopt.
std::optional<std::string> SameResults(const std::vector<Buffer>& a, OutfeedQueue& a_outfeed,
                                       const std::vector<Buffer>& b, OutfeedQueue& b_outfeed) {
  if (a.size() != b.size()) return fmt::format("{} results, the compiled executable's {}", b.size(), a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    StatusOr<std::vector<uint8_t>> x = a[i].ToHost(), y = b[i].ToHost();
    if (!x.ok() || !y.ok()) return fmt::format("result {} could not be read back", i);
    if (a[i].type() != b[i].type() || *x != *y) return fmt::format("result {} differs from the compiled executable's", i);
  }
  std::vector<std::vector<HostTensor>> a_entries, b_entries;
  while (auto e = a_outfeed.Pop()) a_entries.push_back(std::move(*e));
  while (auto e = b_outfeed.Pop()) b_entries.push_back(std::move(*e));
  const auto same = [](const std::vector<HostTensor>& x, const std::vector<HostTensor>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i].type != y[i].type || x[i].bytes != y[i].bytes) return false;
    }
    return true;
  };
  if (a_entries.size() != b_entries.size()) {
    return fmt::format("{} outfeed entries, the compiled executable's {}", b_entries.size(), a_entries.size());
  }
  for (size_t k = 0; k < a_entries.size(); ++k) {
    if (!same(a_entries[k], b_entries[k])) return fmt::format("outfeed entry {} differs from the compiled executable's", k);
  }
  for (auto& e : b_entries) b_outfeed.Push(std::move(e));  // what the checks read
  return std::nullopt;
}

// The test function compiled with its checks (CompileOptions::checks: the compiler makes the
// values they read results and outfeeds, vkhlo/checks.h), run on the device, and the checks
// evaluated on the host.
TestOutcome RunOnVulkan(const ir::Module& module, const ir::Function& function, const CheckOptions& options) {
  TestOutcome outcome;
  outcome.name = function.name();
  CompileOptions compile = options.compile;
  compile.entry = function.name();
  compile.checks = true;
  const auto start = std::chrono::steady_clock::now();
  auto executable = runtime::CompileModule(*options.client, CloneModule(module), compile);
  if (options.on_compile) {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    options.on_compile(executable.status(), ms, executable.ok() ? executable->compile_stats() : CompileStats{});
  }
  if (!executable.ok()) {
    outcome.message = executable.status().message();
    return outcome;
  }
  if (options.compile_only) {
    outcome.passed = true;
    return outcome;
  }
  const CompiledChecks& checks = *executable->checks();
  // With probes or checks in regions, the function runs as a 1 x 1 process grid whose outfeed
  // collects their values.
  auto outfeed = std::make_shared<OutfeedQueue>();
  StatusOr<std::vector<Buffer>> results = RunForChecks(*executable, checks, outfeed);
  if (results.ok() && options.through_plan) {
    // The same function through its plan: serialized, loaded back, run; its results and
    // outfeed must be the compiled executable's, byte for byte, and are what the checks read.
    auto plan_outfeed = std::make_shared<OutfeedQueue>();
    StatusOr<std::vector<Buffer>> plan_results = InternalError("not run");
    StatusOr<Executable> loaded = ThroughPlan(*executable, *options.client);
    if (loaded.ok()) plan_results = RunForChecks(*loaded, checks, plan_outfeed);
    if (!plan_results.ok()) {
      outcome.message = "through its plan: " + plan_results.status().message();
      return outcome;
    }
    if (std::optional<std::string> differs = SameResults(*results, *outfeed, *plan_results, *plan_outfeed)) {
      outcome.message = "through its plan: " + *differs;
      return outcome;
    }
    results = std::move(plan_results);
    outfeed = std::move(plan_outfeed);
  }
  if (!results.ok()) {
    outcome.message = results.status().message();
    return outcome;
  }
  if (options.totals != nullptr) AddStats(executable->last_stats(), *options.totals);
  auto result = [&](int64_t index) -> StatusOr<ir::Literal> {
    if (index < 0 || static_cast<size_t>(index) >= results->size()) {
      return InternalError(fmt::format("no result {} of {}", index, results->size()));
    }
    return runtime::BufferToLiteral((*results)[static_cast<size_t>(index)]);
  };
  int failures = 0;
  auto fail = [&](const std::string& message) {
    if (failures++ == 0) outcome.message = message;
  };
  for (const CompiledCheck& check : checks.results) {
    std::optional<ir::Literal> computed;
    if (check.expected_result >= 0) {
      if (auto e = result(check.expected_result); e.ok()) computed = std::move(*e);
    }
    if (std::optional<std::string> mismatch = CompareCheck(check, result(check.actual_result), computed)) {
      fail(fmt::format("{}: {}", check.location, *mismatch));
    }
  }
  // The outfeed: probes' values by "id#iteration"; nested checks compared as they come.
  std::map<std::string, ir::Literal> probed;
  std::map<int64_t, int64_t> iterations;
  while (auto entry = outfeed->Pop()) {
    if (entry->size() < 2 || entry->back().bytes.size() != 4) continue;
    int32_t index = 0;
    std::memcpy(&index, entry->back().bytes.data(), 4);
    StatusOr<ir::Literal> actual = ToLiteral((*entry)[0]);
    if (index < 0 && static_cast<size_t>(-static_cast<int64_t>(index)) <= checks.nested.size()) {
      const CompiledCheck& check = checks.nested[static_cast<size_t>(-static_cast<int64_t>(index) - 1)];
      std::optional<ir::Literal> computed;
      if (!check.expected && entry->size() == 3) {
        if (auto e = ToLiteral((*entry)[1]); e.ok()) computed = std::move(*e);
      }
      const bool read = actual.ok() && (check.expected || computed);
      const std::optional<std::string> mismatch =
          read ? CompareCheck(check, actual, computed) : std::optional<std::string>("the checked values could not be read back");
      const int64_t iteration = iterations[index]++;
      if (mismatch) fail(fmt::format("{}: evaluation {}: {}", check.location, iteration, *mismatch));
      continue;
    }
    if (index < 0 || static_cast<size_t>(index) >= checks.probe_ids.size() || !actual.ok()) continue;
    probed.emplace(fmt::format("{}#{}", checks.probe_ids[static_cast<size_t>(index)], iterations[index]++),
                   std::move(*actual));
  }
  for (const SerializedCheck& check : checks.serialized) {
    StatusOr<ir::Literal> actual = result(check.result);
    auto it = probed.find(check.probe_key);
    std::optional<std::string> mismatch;
    if (it == probed.end()) {
      mismatch = "no probe recorded under " + check.probe_key;
    } else if (!actual.ok()) {
      mismatch = actual.status().message();
    } else {
      mismatch = interp::CompareLiterals(*actual, it->second, interp::CheckParams{});
    }
    if (mismatch) fail(fmt::format("{}: {}", check.location, *mismatch));
  }
  if (failures > 1) outcome.message += fmt::format(" (and {} more failed checks)", failures - 1);
  outcome.passed = failures == 0;
  return outcome;
}

}  // namespace

Status PrepareForReference(ir::Module& module) {
  VKHLO_ASSIGN_OR_RETURN(passes::PassPipeline pipeline, passes::PassPipeline::Parse("chlo-decompose"));
  return pipeline.Run(module).status();
}

std::vector<TestOutcome> RunTestFunctions(ir::Module& module, const CheckOptions& options) {
  const bool vulkan = options.device == CheckOptions::Device::kVulkan && options.client != nullptr;
  const Status prepared = vulkan ? OkStatus() : PrepareForReference(module);
  std::set<std::string> referenced;
  for (const auto& f : module.functions()) CollectReferences(f->body(), referenced);
  std::vector<TestOutcome> outcomes;
  for (const auto& f : module.functions()) {
    if (!f->type().inputs.empty() || referenced.count(f->name()) || f->body().empty()) continue;
    if (!prepared.ok()) {
      outcomes.push_back(TestOutcome{f->name(), false, prepared.message()});
    } else if (vulkan && passes::StartsProcessGrid(*f)) {
      outcomes.push_back(RunGridTestOnVulkan(module, *f, options));
    } else if (vulkan) {
      outcomes.push_back(RunOnVulkan(module, *f, options));
    } else {
      outcomes.push_back(RunOnReference(module, *f));
    }
  }
  return outcomes;
}

}  // namespace vkhlo::tools
