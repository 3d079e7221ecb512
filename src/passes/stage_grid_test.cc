#include "passes/stage_grid_test.h"

#include <fmt/format.h>

#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "interp/checks.h"
#include "ir/walk.h"
#include "passes/check_conversion.h"

namespace vkhlo::passes {
namespace {

using ir::OpCode;

// Values `op` reads from outside itself (operands of it and of ops in its regions).
void OuterUses(const ir::Operation& op, std::vector<const ir::Value*>& out) {
  std::unordered_set<const ir::Value*> inner;
  for (size_t r = 0; r < op.num_regions(); ++r) {
    ir::WalkOps(op.region(r), [&](ir::Operation& o) {
      for (size_t i = 0; i < o.num_results(); ++i) inner.insert(o.result(i));
      for (size_t ri = 0; ri < o.num_regions(); ++ri) {
        for (const auto& b : o.region(ri).blocks()) {
          for (const auto& a : b->arguments()) inner.insert(a.get());
        }
      }
    });
    for (const auto& b : op.region(r).blocks()) {
      for (const auto& a : b->arguments()) inner.insert(a.get());
    }
  }
  for (const ir::Value* v : op.operands()) out.push_back(v);
  for (size_t r = 0; r < op.num_regions(); ++r) {
    ir::WalkOps(op.region(r), [&](ir::Operation& o) {
      for (const ir::Value* v : o.operands()) {
        if (!inner.count(v)) out.push_back(v);
      }
    });
  }
}

class Stager {
 public:
  Stager(ir::Module& module, const ir::Function& function) : module_(module), function_(function) {}

  StatusOr<GridTestSchedule> Run() {
    const auto& ops = function_.body().front().operations();
    // Where each value is last read (top-level op index).
    for (size_t i = 0; i < ops.size(); ++i) {
      std::vector<const ir::Value*> uses;
      OuterUses(*ops[i], uses);
      for (const ir::Value* v : uses) last_use_[v] = i;
    }
    size_t i = 0;
    while (i < ops.size()) {
      const ir::Operation& op = *ops[i];
      if (op.code() == OpCode::kInterpreterRunParallel) {
        VKHLO_RETURN_IF_ERROR(AddGrid(op));
        ++i;
      } else if (std::optional<interp::CheckOp> check = interp::DescribeCheckOp(op)) {
        VKHLO_RETURN_IF_ERROR(AddCheck(op, *check, i));
        ++i;
      } else if (op.code() == OpCode::kFuncReturn || op.code() == OpCode::kReturn) {
        ++i;
      } else if (op.info().kind == ir::OpKind::kTest) {
        return UnimplementedError(fmt::format("{}: error: {} is not supported in a test that starts a process grid",
                                              Where(op), op.name()));
      } else {
        size_t end = i;
        while (end < ops.size() && ops[end]->code() != OpCode::kInterpreterRunParallel &&
               ops[end]->info().kind != ir::OpKind::kTest && !interp::DescribeCheckOp(*ops[end]) &&
               ops[end]->code() != OpCode::kFuncReturn && ops[end]->code() != OpCode::kReturn) {
          ++end;
        }
        VKHLO_RETURN_IF_ERROR(AddStage(i, end));
        i = end;
      }
    }
    schedule_.tensors = next_tensor_;
    return std::move(schedule_);
  }

 private:
  std::string Where(const ir::Operation& op) const {
    return ir::FormatLocation(module_.source_name(), op.location());
  }

  // A function name of the module not taken yet, from `base`.
  std::string FreshName(const std::string& base) const {
    std::string name = base;
    for (int n = 1; module_.FindFunction(name) != nullptr; ++n) name = fmt::format("{}_{}", base, n);
    return name;
  }

  int64_t Number(const ir::Value* v) {
    const int64_t n = next_tensor_++;
    numbers_[v] = n;
    return n;
  }

  StatusOr<int64_t> NumberOf(const ir::Value* v, const ir::Operation& reader) const {
    auto it = numbers_.find(v);
    if (it == numbers_.end()) {
      return UnimplementedError(fmt::format(
          "{}: error: {} reads a value of type {} that no earlier step hands on (only tensors cross the steps of a "
          "test that starts a process grid)", Where(reader), reader.name(), v->type().ToString()));
    }
    return it->second;
  }

  // Ops [begin, end) as a function of the tensors they read from earlier steps, returning the
  // tensors later steps read.
  Status AddStage(size_t begin, size_t end) {
    const auto& ops = function_.body().front().operations();
    std::unordered_set<const ir::Value*> defined;
    for (size_t i = begin; i < end; ++i) {
      for (size_t r = 0; r < ops[i]->num_results(); ++r) defined.insert(ops[i]->result(r));
    }
    GridTestSchedule::Stage stage;
    std::vector<const ir::Value*> inputs, tokens;
    std::unordered_set<const ir::Value*> seen;
    for (size_t i = begin; i < end; ++i) {
      std::vector<const ir::Value*> uses;
      OuterUses(*ops[i], uses);
      for (const ir::Value* v : uses) {
        if (defined.count(v) || !seen.insert(v).second) continue;
        if (v->type().is_token()) {
          tokens.push_back(v);
          continue;
        }
        VKHLO_ASSIGN_OR_RETURN(int64_t n, NumberOf(v, *ops[i]));
        inputs.push_back(v);
        stage.inputs.push_back(n);
      }
    }
    std::vector<const ir::Value*> outputs;
    for (size_t i = begin; i < end; ++i) {
      for (size_t r = 0; r < ops[i]->num_results(); ++r) {
        const ir::Value* v = ops[i]->result(r);
        auto last = last_use_.find(v);
        if (last != last_use_.end() && last->second >= end && v->type().is_tensor()) outputs.push_back(v);
      }
    }
    ir::FunctionType type;
    for (const ir::Value* v : inputs) type.inputs.push_back(v->type());
    for (const ir::Value* v : outputs) type.results.push_back(v->type());
    stage.function = FreshName(fmt::format("__vkhlo_stage_{}", stages_++));
    auto f = std::make_unique<ir::Function>(stage.function, type);
    ir::Block& body = f->body().AddBlock();
    ir::ValueMap mapping;
    for (const ir::Value* v : inputs) mapping[v] = body.AddArgument(v->type());
    for (const ir::Value* t : tokens) {
      mapping[t] = body.Append(ir::Operation::Create(OpCode::kAfterAll, {}, {ir::Type::Token()}))->result(0);
    }
    for (size_t i = begin; i < end; ++i) body.Append(ir::CloneOp(*ops[i], mapping));
    std::vector<ir::Value*> returned;
    for (const ir::Value* v : outputs) returned.push_back(mapping.at(v));
    body.Append(ir::Operation::Create(OpCode::kFuncReturn, returned, {}));
    module_.AddFunction(std::move(f));
    for (const ir::Value* v : outputs) stage.outputs.push_back(Number(v));
    schedule_.steps.push_back(std::move(stage));
    return OkStatus();
  }

  const ir::Function* Symbol(const ir::Attribute& a) const {
    const ir::SymbolRef* ref = a.as<ir::SymbolRef>();
    return ref ? module_.FindFunction(ref->name) : nullptr;
  }

  // The program `f` runs as: itself, or a copy whose top-level prints are trailing results.
  GridTestSchedule::Program ProgramFor(const ir::Function& f) {
    auto known = programs_.find(f.name());
    if (known != programs_.end()) return known->second;
    GridTestSchedule::Program program{f.name(), 0};
    for (const auto& op : f.body().front().operations()) program.prints += op->code() == OpCode::kInterpreterPrint;
    if (program.prints > 0) {
      program.function = FreshName("__vkhlo_program_" + f.name());
      auto g = std::make_unique<ir::Function>(program.function, f.type());
      ir::ValueMap mapping;
      ir::CloneRegionInto(f.body(), g->body(), mapping);
      ir::Block& body = g->body().front();
      std::vector<ir::Value*> printed;
      for (auto& op : body.TakeOperations()) {
        if (op->code() == OpCode::kInterpreterPrint) {
          printed.push_back(op->operand(0));
        } else {
          body.Append(std::move(op));
        }
      }
      g->AppendResults(printed);
      module_.AddFunction(std::move(g));
    }
    programs_.emplace(f.name(), program);
    return program;
  }

  Status AddGrid(const ir::Operation& op) {
    auto error = [&](std::string_view what) {
      return InvalidArgumentError(fmt::format("{}: error: '{}' {}", Where(op), op.name(), what));
    };
    GridTestSchedule::Grid grid;
    grid.location = Where(op);
    const ir::Attribute* programs = op.attribute("programs");
    const auto* rows = programs ? programs->as<ir::Attribute::Array>() : nullptr;
    if (rows == nullptr || rows->empty()) return error("needs `programs`, an array of arrays of functions");
    grid.num_replicas = static_cast<int64_t>(rows->size());
    grid.num_partitions = -1;
    std::vector<const ir::Function*> functions;
    for (const ir::Attribute& row_attr : *rows) {
      const auto* row = row_attr.as<ir::Attribute::Array>();
      if (row == nullptr || row->empty()) return error("has a `programs` row that is not an array of functions");
      if (grid.num_partitions < 0) grid.num_partitions = static_cast<int64_t>(row->size());
      if (static_cast<int64_t>(row->size()) != grid.num_partitions) return error("has `programs` rows of different lengths");
      for (const ir::Attribute& a : *row) {
        const ir::Function* f = Symbol(a);
        if (f == nullptr || f->body().empty()) return error("names a program that is not a function of the module");
        functions.push_back(f);
      }
    }
    if (const ir::Attribute* feed = op.attribute("infeed")) {
      const auto* list = feed->as<ir::Attribute::Array>();
      if (list == nullptr) return error("has an `infeed` that is not an array of functions");
      for (const ir::Attribute& a : *list) {
        const ir::Function* f = Symbol(a);
        if (f == nullptr || f->body().empty()) return error("has an `infeed` entry that is not a function of the module");
        grid.infeeds.push_back(ProgramFor(*f));
      }
    }
    size_t next = 0;
    for (const ir::Function* f : functions) {
      grid.processes.push_back(ProgramFor(*f));
      std::vector<int64_t>& arguments = grid.arguments.emplace_back();
      for (const ir::Type& t : f->type().inputs) {
        if (next >= op.num_operands()) return error("has fewer operands than its programs take");
        const ir::Value* v = op.operand(next++);
        if (v->type() != t) return error(fmt::format("hands {} to a parameter of type {}", v->type().ToString(), t.ToString()));
        if (t.is_token()) continue;
        if (!t.is_tensor()) return error("has an operand that is not a tensor or a token");
        VKHLO_ASSIGN_OR_RETURN(int64_t n, NumberOf(v, op));
        arguments.push_back(n);
      }
    }
    if (next != op.num_operands()) return error("has more operands than its programs take");
    size_t r = 0;
    for (const ir::Function* f : functions) {
      std::vector<int64_t>& results = grid.results.emplace_back();
      for (const ir::Type& t : f->type().results) {
        if (r >= op.num_results()) return error("has fewer results than its programs return");
        const ir::Value* v = op.result(r++);
        if (t.is_token()) continue;
        if (!t.is_tensor()) return error("has a program result that is not a tensor or a token");
        results.push_back(Number(v));
      }
    }
    if (r != op.num_results()) return error("has more results than its programs return");
    schedule_.steps.push_back(std::move(grid));
    return OkStatus();
  }

  Status AddCheck(const ir::Operation& op, const interp::CheckOp& check, size_t index) {
    if (check.returns_match) {
      auto last = last_use_.find(op.result(0));
      if (last != last_use_.end() && last->second > index) {
        return UnimplementedError(fmt::format(
            "{}: error: {}'s result is read later, which a test that starts a process grid cannot hand on (its match "
            "is known on the host only)", Where(op), op.name()));
      }
    }
    GridTestSchedule::Check c;
    c.check.comparison = ToComparison(check.params);
    c.check.location = Where(op);
    VKHLO_ASSIGN_OR_RETURN(c.actual, NumberOf(op.operand(check.actual_operand()), op));
    if (check.expected_attribute != nullptr) {
      c.check.expected = ToHostTensor(*check.expected_attribute);
    } else {
      VKHLO_ASSIGN_OR_RETURN(c.expected, NumberOf(op.operand(check.expected_operand()), op));
    }
    schedule_.steps.push_back(std::move(c));
    return OkStatus();
  }

  ir::Module& module_;
  const ir::Function& function_;
  GridTestSchedule schedule_;
  std::unordered_map<const ir::Value*, size_t> last_use_;
  std::unordered_map<const ir::Value*, int64_t> numbers_;
  std::map<std::string, GridTestSchedule::Program> programs_;
  int64_t next_tensor_ = 0;
  int stages_ = 0;
};

}  // namespace

bool StartsProcessGrid(const ir::Function& function) {
  if (function.body().empty()) return false;
  for (const auto& op : function.body().front().operations()) {
    if (op->code() == OpCode::kInterpreterRunParallel) return true;
  }
  return false;
}

StatusOr<GridTestSchedule> StageGridTest(ir::Module& module, std::string_view function) {
  const ir::Function* f = module.FindFunction(std::string(function));
  if (f == nullptr || f->body().empty()) {
    return NotFoundError(fmt::format("{}: no function @{} to stage", module.source_name(), function));
  }
  return Stager(module, *f).Run();
}

}  // namespace vkhlo::passes
