#include "passes/lower_checks.h"

#include <fmt/format.h>

#include <algorithm>

#include "interp/checks.h"
#include "passes/check_conversion.h"
#include "ir/walk.h"

namespace vkhlo::passes {
namespace {

std::string Where(const ir::Module& module, ir::Location location) {
  return ir::FormatLocation(module.source_name(), location);
}

int64_t CountTensors(const ir::Type& type) {
  if (type.is_tensor()) return 1;
  int64_t n = 0;
  if (type.is_tuple()) {
    for (const ir::Type& e : type.tuple_elements()) n += CountTensors(e);
  }
  return n;
}

// "probe_id#iteration": the key a check.expect_serialized_eq names a probe's value by.
std::string ProbeKey(const ir::Operation& op) {
  const ir::Attribute* id = op.attribute("probe_id");
  const std::string* s = id ? id->AsString() : nullptr;
  const int64_t iteration = op.attribute("iteration") ? op.attribute("iteration")->AsInt().value_or(0) : 0;
  return fmt::format("{}#{}", s ? *s : "", iteration);
}

// A test op in `region` that the rewrite below cannot turn into device work, or nullptr.
const ir::Operation* FindUnsupportedTestOp(const ir::Region& region) {
  const ir::Operation* found = nullptr;
  ir::WalkOps(region, [&](ir::Operation& op) {
    if (found != nullptr || op.code() == ir::OpCode::kInterpreterProbe) return;
    const bool check = interp::DescribeCheckOp(op).has_value();
    if ((op.info().kind == ir::OpKind::kTest && !check) || (check && op.num_results() != 0)) found = &op;
  });
  return found;
}

// Every test op of the body that stays a test op (neither a check, a probe nor
// check.expect_serialized_eq), in the body or in a region: UNIMPLEMENTED naming the first.
Status CheckSupported(const ir::Module& module, const ir::Block& body) {
  for (const auto& op : body.operations()) {
    if (op->code() == ir::OpCode::kCheckExpectSerializedEq || interp::DescribeCheckOp(*op)) continue;
    if (op->info().kind == ir::OpKind::kTest && op->code() != ir::OpCode::kInterpreterProbe) {
      return UnimplementedError(
          fmt::format("{}: {} is not supported with --device=vulkan", Where(module, op->location()), op->name()));
    }
    for (size_t r = 0; r < op->num_regions(); ++r) {
      if (const ir::Operation* inner = FindUnsupportedTestOp(op->region(r))) {
        return UnimplementedError(fmt::format("{}: {} inside {} is not supported with --device=vulkan",
                                              Where(module, inner->location()), inner->name(), op->name()));
      }
    }
  }
  return OkStatus();
}

// interpreter.probe %v, probe_id = "p" becomes `outfeed(%v, <index of "p">)`, wherever it is
// (loops included), and its uses read %v: the host then finds the n-th value of probe "p" (its
// iteration n) in the outfeed, in program order. A check left in a region (those of the body are
// gone) becomes `outfeed(actual[, expected], -(k + 1))` for the k-th of `checks.nested`,
// compared on the host at every evaluation. `kept` (values the function returns) are rewritten
// like uses.
void RewriteProbes(const ir::Module& module, ir::Function& f, std::vector<ir::Value*>& kept, CompiledChecks& checks) {
  std::vector<ir::Operation*> probes;
  ir::WalkOps(f.body(), [&](ir::Operation& op) {
    if (op.code() == ir::OpCode::kInterpreterProbe || interp::DescribeCheckOp(op).has_value()) probes.push_back(&op);
  });
  ir::ValueMap replaced;
  for (ir::Operation* probe : probes) {
    int64_t index = 0;
    std::vector<ir::Value*> values = {probe->operand(0)};
    if (std::optional<interp::CheckOp> check = interp::DescribeCheckOp(*probe)) {
      CompiledCheck nested;
      nested.comparison = ToComparison(check->params);
      nested.location = Where(module, probe->location());
      if (check->expected_attribute != nullptr) {
        nested.expected = ToHostTensor(*check->expected_attribute);
      } else {
        values.push_back(probe->operand(1));
      }
      checks.nested.push_back(std::move(nested));
      index = -static_cast<int64_t>(checks.nested.size());
    } else {
      const ir::Attribute* id = probe->attribute("probe_id");
      const std::string name = id && id->AsString() ? *id->AsString() : "";
      auto it = std::find(checks.probe_ids.begin(), checks.probe_ids.end(), name);
      index = it - checks.probe_ids.begin();
      if (it == checks.probe_ids.end()) checks.probe_ids.push_back(name);
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
}

}  // namespace

StatusOr<CompiledChecks> LowerChecks(ir::Module& module, std::string_view function) {
  ir::Function* f = module.FindFunction(function);
  if (f == nullptr || f->body().empty()) {
    return NotFoundError(fmt::format("{}: no function @{} to run", module.source_name(), function));
  }
  ir::Block& body = f->body().front();
  VKHLO_RETURN_IF_ERROR(CheckSupported(module, body));

  CompiledChecks checks;
  checks.function = std::string(function);
  std::vector<ir::Value*> extra;  // the values the body's checks read, returned after the program's results
  ir::ValueMap matched;
  // The body's check ops, destroyed once nothing refers to their results.
  std::vector<std::unique_ptr<ir::Operation>> removed;
  for (std::unique_ptr<ir::Operation>& op : body.TakeOperations()) {
    if (op->code() == ir::OpCode::kCheckExpectSerializedEq) {
      checks.serialized.push_back(
          SerializedCheck{ProbeKey(*op), static_cast<int64_t>(extra.size()), Where(module, op->location())});
      extra.push_back(op->operand(0));
      removed.push_back(std::move(op));
      continue;
    }
    std::optional<interp::CheckOp> check = interp::DescribeCheckOp(*op);
    if (!check) {
      body.Append(std::move(op));
      continue;
    }
    CompiledCheck c;
    c.comparison = ToComparison(check->params);
    c.location = Where(module, op->location());
    c.actual_result = static_cast<int64_t>(extra.size());
    extra.push_back(op->operand(check->actual_operand()));
    if (check->expected_attribute != nullptr) {
      c.expected = ToHostTensor(*check->expected_attribute);
    } else {
      c.expected_result = static_cast<int64_t>(extra.size());
      extra.push_back(op->operand(check->expected_operand()));
    }
    checks.results.push_back(std::move(c));
    if (check->returns_match) {
      // @check.eq's flag: true (a mismatch fails the test on the host anyway).
      ir::Literal yes = *ir::Literal::Create(op->result(0)->type());
      yes.SetInt(0, 1);
      auto constant = ir::Operation::Create(ir::OpCode::kConstant, {}, {op->result(0)->type()},
                                            {{"value", ir::Attribute::Dense(yes)}}, 0, op->location());
      matched[op->result(0)] = constant->result(0);
      body.Append(std::move(constant));
    }
    removed.push_back(std::move(op));
  }
  ir::ReplaceUses(f->body(), matched);
  RewriteProbes(module, *f, extra, checks);

  // The checks' values become results after the program's own.
  for (const ir::Type& t : f->type().results) checks.program_results += CountTensors(t);
  f->AppendResults(extra);
  for (CompiledCheck& c : checks.results) {
    c.actual_result += checks.program_results;
    if (c.expected_result >= 0) c.expected_result += checks.program_results;
  }
  for (SerializedCheck& s : checks.serialized) s.result += checks.program_results;
  return checks;
}

}  // namespace vkhlo::passes
