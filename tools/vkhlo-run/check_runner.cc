#include "tools/vkhlo-run/check_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <chrono>
#include <set>

#include "interp/checks.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "passes/pipeline.h"
#include "runtime/runtime_internal.h"
#include "tools/vkhlo-run/grid_runner.h"
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

int CountTensors(const ir::Type& type) {
  if (type.is_tensor()) return 1;
  int n = 0;
  if (type.is_tuple()) {
    for (const ir::Type& e : type.tuple_elements()) n += CountTensors(e);
  }
  return n;
}

// A test op in `region` that RewriteProbes cannot turn into device work, or nullptr.
const ir::Operation* FindUnsupportedTestOp(const ir::Region& region) {
  const ir::Operation* found = nullptr;
  ir::WalkOps(region, [&](ir::Operation& op) {
    if (found != nullptr || op.code() == ir::OpCode::kInterpreterProbe) return;
    const bool check = interp::DescribeCheckOp(op).has_value();
    if ((op.info().kind == ir::OpKind::kTest && !check) || (check && op.num_results() != 0)) found = &op;
  });
  return found;
}

// A check inside a region (a loop body, a branch): each evaluation's values go to the outfeed.
struct NestedCheck {
  interp::CheckParams params;
  std::optional<ir::Literal> expected;  // the _const forms
  ir::Location location;
};

// interpreter.probe %v, probe_id = "p" becomes `outfeed(%v, <index of "p">)`, wherever it is
// (loops included), and its uses read %v: the host then finds the n-th value of probe "p" (its
// iteration n) in the outfeed, in program order. A check left in a region (the top-level ones
// are gone) becomes `outfeed(actual[, expected], -(k + 1))` for the k-th of `nested`, compared
// on the host at every evaluation. Returns the probe ids by index; `kept` (values held outside
// the function, e.g. the extra results) are rewritten like uses.
std::vector<std::string> RewriteProbes(ir::Function& f, std::vector<ir::Value*>& kept, std::vector<NestedCheck>& nested) {
  std::vector<ir::Operation*> probes;
  ir::WalkOps(f.body(), [&](ir::Operation& op) {
    if (op.code() == ir::OpCode::kInterpreterProbe || interp::DescribeCheckOp(op).has_value()) probes.push_back(&op);
  });
  std::vector<std::string> ids;
  ir::ValueMap replaced;
  for (ir::Operation* probe : probes) {
    int64_t index = 0;
    std::vector<ir::Value*> values = {probe->operand(0)};
    if (std::optional<interp::CheckOp> check = interp::DescribeCheckOp(*probe)) {
      NestedCheck n{check->params, std::nullopt, probe->location()};
      if (check->expected_attribute != nullptr) n.expected = *check->expected_attribute;
      if (check->expected_attribute == nullptr) values.push_back(probe->operand(1));
      nested.push_back(std::move(n));
      index = -static_cast<int64_t>(nested.size());
    } else {
      const ir::Attribute* id = probe->attribute("probe_id");
      const std::string name = id && id->AsString() ? *id->AsString() : "";
      auto it = std::find(ids.begin(), ids.end(), name);
      index = it - ids.begin();
      if (it == ids.end()) ids.push_back(name);
    }
    ir::Block* block = probe->parent_block();
    size_t position = 0;
    while (block->operations()[position].get() != probe) ++position;
    const ir::Type scalar = ir::Type::Tensor(ir::ElementType::kS32, {});
    ir::Literal literal = *ir::Literal::Create(scalar);
    literal.SetInt(0, index);
    auto constant = ir::Operation::Create(ir::OpCode::kConstant, {}, {scalar}, {{"value", ir::Attribute::Dense(literal)}});
    auto token = ir::Operation::Create(ir::OpCode::kAfterAll, {}, {ir::Type::Token()});
    values.push_back(constant->result(0));
    values.push_back(token->result(0));
    auto outfeed = ir::Operation::Create(ir::OpCode::kOutfeed, values, {ir::Type::Token()}, {}, 0, probe->location());
    if (probe->num_results() == 1) replaced[probe->result(0)] = probe->operand(0);
    block->InsertBefore(position, std::move(outfeed));
    block->InsertBefore(position, std::move(token));
    block->InsertBefore(position, std::move(constant));
    block->Remove(position + 3);
  }
  ir::ReplaceUses(f.body(), replaced);
  for (ir::Value*& v : kept) {
    for (auto it = replaced.find(v); it != replaced.end(); it = replaced.find(v)) v = it->second;
  }
  return ids;
}

std::string ProbeKey(const ir::Operation& op) {
  const ir::Attribute* id = op.attribute("probe_id");
  const std::string* s = id ? id->AsString() : nullptr;
  const int64_t iteration = op.attribute("iteration") ? op.attribute("iteration")->AsInt().value_or(0) : 0;
  return fmt::format("{}#{}", s ? *s : "", iteration);
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
  std::vector<const ir::Operation*> serialized;  // check.expect_serialized_eq (original ops)
  std::vector<ir::Value*> extra;
  ir::ValueMap matched;
  std::vector<std::unique_ptr<ir::Operation>> graveyard;  // @check.eq results: true (a mismatch fails the test on the host anyway)
  std::vector<std::unique_ptr<ir::Operation>> ops = body.TakeOperations();
  for (size_t i = 0; i < ops.size(); ++i) {
    std::unique_ptr<ir::Operation>& op = ops[i];
    std::optional<interp::CheckOp> check = interp::DescribeCheckOp(*op);
    if (op->code() == ir::OpCode::kCheckExpectSerializedEq) {
      serialized.push_back(original.operations()[i].get());
      extra.push_back(op->operand(0));
      continue;
    }
    if (!check) {
      if (op->info().kind == ir::OpKind::kTest && op->code() != ir::OpCode::kInterpreterProbe) {
        outcome.message = fmt::format("{}: {} is not supported with --device=vulkan", Where(module, op->location()),
                                      op->name());
        return outcome;
      }
      for (size_t r = 0; r < op->num_regions(); ++r) {
        if (const ir::Operation* inner = FindUnsupportedTestOp(op->region(r))) {
          outcome.message = fmt::format("{}: {} inside {} is not supported with --device=vulkan",
                                        Where(module, inner->location()), inner->name(), op->name());
          return outcome;
        }
      }
      body.Append(std::move(op));
      continue;
    }
    checks.push_back(PendingCheck{original.operations()[i].get(), *check});
    extra.push_back(op->operand(check->actual_operand()));
    if (check->expected_attribute == nullptr) extra.push_back(op->operand(check->expected_operand()));
    if (check->returns_match) {
      ir::Literal yes = *ir::Literal::Create(op->result(0)->type());
      yes.SetInt(0, 1);
      auto constant = ir::Operation::Create(ir::OpCode::kConstant, {}, {op->result(0)->type()},
                                            {{"value", ir::Attribute::Dense(yes)}}, 0, op->location());
      matched[op->result(0)] = constant->result(0);
      body.Append(std::move(constant));  // (the check op itself stays in `ops` until the end)
    }
  }
  ir::ReplaceUses(f.body(), matched);
  std::vector<NestedCheck> nested;
  const std::vector<std::string> probe_ids = RewriteProbes(f, extra, nested);
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
  // With probes, the function runs as a 1 x 1 process grid whose outfeed collects them.
  auto outfeed = std::make_shared<OutfeedQueue>();
  StatusOr<std::vector<Buffer>> results = InternalError("not run");
  if (probe_ids.empty() && nested.empty()) {
    results = executable->Execute({});
  } else {
    ProcessRun run{*executable, {}, nullptr, outfeed};
    auto grid = RunProcessGrid({}, std::span<const ProcessRun>(&run, 1));
    if (grid.ok()) {
      results = std::move((*grid)[0]);
    } else {
      results = grid.status();
    }
  }
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
    options.totals->in_place_updates += s.in_place_updates;
    options.totals->predicate_readbacks += s.predicate_readbacks;
    options.totals->counted_loop_iterations += s.counted_loop_iterations;
    options.totals->invariant_dispatches_reused += s.invariant_dispatches_reused;
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
  auto to_literal = [](HostTensor& t) -> StatusOr<ir::Literal> {
    const std::optional<ir::ElementType> element = ir::ParseElementTypeName(t.type.element_type);
    if (!element) return InvalidArgumentError("unknown element type " + t.type.element_type);
    return ir::Literal::FromBytes(ir::Type::Tensor(*element, t.type.dims), std::move(t.bytes));
  };
  // The outfeed: probes' values by "id#iteration"; nested checks compared as they come.
  std::map<std::string, ir::Literal> probed;
  std::map<int64_t, int64_t> iterations;
  while (auto entry = outfeed->Pop()) {
    if (entry->size() < 2 || entry->back().bytes.size() != 4) continue;
    int32_t index = 0;
    std::memcpy(&index, entry->back().bytes.data(), 4);
    auto actual = to_literal((*entry)[0]);
    if (index < 0 && static_cast<size_t>(-index) <= nested.size()) {
      const NestedCheck& check = nested[static_cast<size_t>(-index - 1)];
      std::optional<std::string> mismatch;
      std::optional<ir::Literal> expected = check.expected;
      if (!expected && entry->size() == 3) {
        auto e = to_literal((*entry)[1]);
        if (e.ok()) expected = std::move(*e);
      }
      if (!actual.ok() || !expected) {
        mismatch = "the checked values could not be read back";
      } else {
        mismatch = interp::CompareLiterals(*actual, *expected, check.params);
      }
      const int64_t iteration = iterations[index]++;
      if (mismatch && failures++ == 0) {
        outcome.message = fmt::format("{}: evaluation {}: {}", Where(module, check.location), iteration, *mismatch);
      }
      continue;
    }
    if (index < 0 || static_cast<size_t>(index) >= probe_ids.size() || !actual.ok()) continue;
    probed.emplace(fmt::format("{}#{}", probe_ids[index], iterations[index]++), std::move(*actual));
  }
  if (!serialized.empty()) {
    for (const ir::Operation* op : serialized) {
      auto actual = runtime::BufferToLiteral((*results)[next++]);
      auto it = probed.find(ProbeKey(*op));
      std::optional<std::string> mismatch;
      if (it == probed.end()) {
        mismatch = "no probe recorded under " + ProbeKey(*op);
      } else if (!actual.ok()) {
        mismatch = actual.status().message();
      } else {
        mismatch = interp::CompareLiterals(*actual, it->second, interp::CheckParams{});
      }
      if (mismatch && failures++ == 0) outcome.message = fmt::format("{}: {}", Where(module, op->location()), *mismatch);
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
    } else if (vulkan && StartsProcessGrid(*f)) {
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
