#include "tools/vkhlo-run/check_runner.h"

#include <fmt/format.h>

#include <chrono>
#include <set>

#include "interp/checks.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "passes/pipeline.h"
#include "runtime/runtime_internal.h"

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
  if (!loc.known()) return module.source_name();
  return fmt::format("{}:{}:{}", module.source_name(), loc.line, loc.column);
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

std::unique_ptr<ir::Module> CloneModule(const ir::Module& module) {
  auto copy = std::make_unique<ir::Module>();
  copy->set_name(module.name());
  copy->attributes() = module.attributes();
  copy->set_source_name(module.source_name());
  for (const auto& f : module.functions()) {
    auto g = std::make_unique<ir::Function>(f->name(), f->type());
    g->set_visibility(f->visibility());
    g->set_location(f->location());
    g->arg_attributes() = f->arg_attributes();
    g->result_attributes() = f->result_attributes();
    g->attributes() = f->attributes();
    ir::ValueMap mapping;
    ir::CloneRegionInto(f->body(), g->body(), mapping);
    copy->AddFunction(std::move(g));
  }
  return copy;
}

int CountTensors(const ir::Type& type) {
  if (type.is_tensor()) return 1;
  int n = 0;
  if (type.is_tuple()) {
    for (const ir::Type& e : type.tuple_elements()) n += CountTensors(e);
  }
  return n;
}

bool ContainsTestOp(const ir::Region& region) {
  bool found = false;
  ir::WalkOps(region, [&](ir::Operation& op) {
    found = found || op.info().kind == ir::OpKind::kTest || interp::DescribeCheckOp(op).has_value();
  });
  return found;
}

struct PendingCheck {
  const ir::Operation* op;  // in the original module (for its location and attributes)
  interp::CheckOp check;
};

// The test function rewritten so its checks' operands are results, run on the device, and the
// checks evaluated on the host.
TestOutcome RunOnVulkan(const ir::Module& module, const ir::Function& function, const CheckOptions& options) {
  TestOutcome outcome;
  outcome.name = function.name();
  std::unique_ptr<ir::Module> copy = CloneModule(module);
  ir::Function& f = *copy->FindFunction(function.name());
  ir::Block& body = f.body().front();
  const ir::Block& original = function.body().front();

  std::vector<PendingCheck> checks;
  std::vector<ir::Value*> extra;
  std::vector<std::unique_ptr<ir::Operation>> ops = body.TakeOperations();
  for (size_t i = 0; i < ops.size(); ++i) {
    std::unique_ptr<ir::Operation>& op = ops[i];
    std::optional<interp::CheckOp> check = interp::DescribeCheckOp(*op);
    if (!check) {
      if (op->info().kind == ir::OpKind::kTest) {
        outcome.message = fmt::format("{}: {} is not supported with --device=vulkan", Where(module, op->location()),
                                      op->name());
        return outcome;
      }
      for (size_t r = 0; r < op->num_regions(); ++r) {
        if (ContainsTestOp(op->region(r))) {
          outcome.message = fmt::format("{}: check ops inside {} are not supported with --device=vulkan",
                                        Where(module, op->location()), op->name());
          return outcome;
        }
      }
      body.Append(std::move(op));
      continue;
    }
    checks.push_back(PendingCheck{original.operations()[i].get(), *check});
    extra.push_back(op->operand(0));
    if (check->expected_attribute == nullptr) extra.push_back(op->operand(1));
  }
  ir::Operation* terminator = body.back();
  int offset = 0;
  for (const ir::Type& t : f.type().results) offset += CountTensors(t);
  std::vector<ir::Value*> returned = terminator->operands();
  ir::FunctionType type = f.type();
  for (ir::Value* v : extra) {
    returned.push_back(v);
    type.results.push_back(v->type());
  }
  terminator->set_operands(returned);
  if (!f.result_attributes().empty()) f.result_attributes().resize(type.results.size());
  f.set_type(type);

  CompileOptions compile = options.compile;
  compile.entry = function.name();
  const auto start = std::chrono::steady_clock::now();
  auto executable = runtime::CompileModule(*options.client, std::move(copy), compile);
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
  auto results = executable->Execute({});
  if (!results.ok()) {
    outcome.message = results.status().message();
    return outcome;
  }
  if (options.totals != nullptr) {
    const ExecutionStats s = executable->last_stats();
    options.totals->kernels_dispatched += s.kernels_dispatched;
    options.totals->command_buffers += s.command_buffers;
    options.totals->bytes_read += s.bytes_read;
    options.totals->bytes_written += s.bytes_written;
    options.totals->predicate_readbacks += s.predicate_readbacks;
    options.totals->host_evaluated_ops += s.host_evaluated_ops;
  }
  size_t next = static_cast<size_t>(offset);
  int failures = 0;
  for (const PendingCheck& pending : checks) {
    auto actual = runtime::BufferToLiteral((*results)[next++]);
    std::optional<ir::Literal> expected_value;
    if (pending.check.expected_attribute == nullptr) {
      auto e = runtime::BufferToLiteral((*results)[next++]);
      if (e.ok()) expected_value = std::move(*e);
    }
    std::optional<std::string> mismatch;
    if (!actual.ok()) {
      mismatch = actual.status().message();
    } else {
      const ir::Literal* expected = pending.check.expected_attribute ? pending.check.expected_attribute
                                                                      : expected_value ? &*expected_value : nullptr;
      mismatch = expected ? interp::CompareLiterals(*actual, *expected, pending.check.params)
                          : std::optional<std::string>("the expected value could not be read back");
    }
    if (mismatch && failures++ == 0) {
      outcome.message = fmt::format("{}: {}", Where(module, pending.op->location()), *mismatch);
    }
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
    } else if (vulkan) {
      outcomes.push_back(RunOnVulkan(module, *f, options));
    } else {
      outcomes.push_back(RunOnReference(module, *f));
    }
  }
  return outcomes;
}

}  // namespace vkhlo::tools
