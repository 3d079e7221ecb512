#include "tools/vkhlo-run/check_runner.h"

#include <fmt/format.h>

#include <set>

#include "interp/interpreter.h"
#include "passes/pipeline.h"

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

}  // namespace

Status PrepareForReference(ir::Module& module) {
  VKHLO_ASSIGN_OR_RETURN(passes::PassPipeline pipeline, passes::PassPipeline::Parse("chlo-decompose"));
  return pipeline.Run(module).status();
}

std::vector<TestOutcome> RunTestFunctions(ir::Module& module) {
  const Status prepared = PrepareForReference(module);
  std::set<std::string> referenced;
  for (const auto& f : module.functions()) CollectReferences(f->body(), referenced);
  std::vector<TestOutcome> outcomes;
  for (const auto& f : module.functions()) {
    if (!f->type().inputs.empty() || referenced.count(f->name()) || f->body().empty()) continue;
    TestOutcome outcome;
    outcome.name = f->name();
    if (!prepared.ok()) {
      outcome.message = prepared.message();
      outcomes.push_back(std::move(outcome));
      continue;
    }
    auto result = interp::RunFunction(module, f->name(), {});
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
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

}  // namespace vkhlo::tools
