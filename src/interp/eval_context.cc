#include "interp/eval_context.h"

#include <fmt/format.h>

#include <unordered_map>

#include "interp/dynamic_shapes.h"
#include "interp/op_registry.h"

namespace vkhlo::interp {

// Values visible in a block: its own, then its enclosing blocks' (regions may use values
// defined above them).
struct EvalContext::Frame {
  std::unordered_map<const ir::Value*, InterpValue> values;
  Frame* parent = nullptr;

  const InterpValue* Find(const ir::Value* value) const {
    for (const Frame* f = this; f != nullptr; f = f->parent) {
      auto it = f->values.find(value);
      if (it != f->values.end()) return &it->second;
    }
    return nullptr;
  }
};

namespace {
constexpr int kMaxCallDepth = 2000;  // deeper recursion is almost surely unbounded
}  // namespace

EvalContext::EvalContext(const ir::Module& module, ProcessId process, ProcessGrid* grid, HostQueues* queues)
    : module_(module), process_(process), grid_(grid), queues_(queues) {}

Status EvalContext::OpError(const ir::Operation& op, std::string message) const {
  std::string where = ir::FormatLocation(module_.source_name(), op.location());
  if (where.empty()) where = "<input>";
  return InvalidArgumentError(fmt::format("{}: error: '{}' {}", where, op.name(), message));
}

Status EvalContext::Unimplemented(const ir::Operation& op, std::string what) const {
  Status error = OpError(op, "is not supported by the reference interpreter: " + what);
  return Status(StatusCode::kUnimplemented, error.message());
}

void EvalContext::RecordCheckFailure(const ir::Operation& op, std::string message) {
  check_failures_.push_back(CheckFailure{op.location(), std::move(message)});
}

StatusOr<InterpValues> EvalContext::CallFunction(const ir::Function& function, InterpValues arguments) {
  if (function.body().empty()) {
    return InvalidArgumentError("function @" + function.name() + " has no body");
  }
  if (++call_depth_ > kMaxCallDepth) {
    --call_depth_;
    return ResourceExhaustedError(fmt::format("calls nested deeper than {} (at @{})", kMaxCallDepth, function.name()));
  }
  auto result = EvaluateBlock(function.body().front(), arguments, nullptr);
  --call_depth_;
  return result;
}

StatusOr<InterpValues> EvalContext::EvaluateRegion(const ir::Region& region, const InterpValues& arguments) {
  if (region.empty()) return InvalidArgumentError("evaluating an empty region");
  // Regions see the values of the block that holds their op: find that frame through the
  // currently active frames (kept on a stack during block evaluation).
  return EvaluateBlock(region.front(), arguments, current_frame_);
}

StatusOr<InterpValues> EvalContext::EvaluateBlock(const ir::Block& block, const InterpValues& arguments,
                                                  Frame* parent) {
  if (arguments.size() != block.num_arguments()) {
    return InvalidArgumentError(fmt::format("block takes {} arguments, given {}", block.num_arguments(),
                                            arguments.size()));
  }
  Frame frame;
  frame.parent = parent;
  for (size_t i = 0; i < arguments.size(); ++i) frame.values[block.argument(i)] = arguments[i];
  Frame* saved = current_frame_;
  current_frame_ = &frame;
  struct Restore {
    Frame*& slot;
    Frame* value;
    ~Restore() { slot = value; }
  } restore{current_frame_, saved};

  const OpRegistry& registry = GetOpRegistry();
  for (const auto& op_ptr : block.operations()) {
    const ir::Operation& op = *op_ptr;
    InterpValues operands;
    operands.reserve(op.num_operands());
    for (size_t i = 0; i < op.num_operands(); ++i) {
      const InterpValue* v = frame.Find(op.operand(i));
      if (v == nullptr) return OpError(op, fmt::format("operand {} has no value (used before it is defined)", i));
      operands.push_back(*v);
    }
    if (op.code() == ir::OpCode::kFuncReturn || op.code() == ir::OpCode::kReturn) return operands;
    if (op.info().kind == ir::OpKind::kChlo) {
      return OpError(op, "cannot be evaluated: chlo ops must be decomposed first (run the chlo-decompose pass)");
    }
    OpEvaluator evaluate = registry.Find(op.code());
    if (evaluate == nullptr) return Unimplemented(op, "no evaluation function for this op");
    // Programs with dynamic shapes: ops evaluated with the concrete types of their values.
    VKHLO_ASSIGN_OR_RETURN(InterpValues results, HasDynamicResults(op) ? EvaluateDynamicOp(*this, op, operands, evaluate)
                                                                       : evaluate(*this, op, operands));
    if (results.size() != op.num_results()) {
      return InternalError(fmt::format("'{}' produced {} results, expected {}", op.name(), results.size(),
                                       op.num_results()));
    }
    for (size_t i = 0; i < results.size(); ++i) frame.values[op.result(i)] = std::move(results[i]);
  }
  return InvalidArgumentError("block ends without a terminator (func.return or stablehlo.return)");
}

}  // namespace vkhlo::interp
