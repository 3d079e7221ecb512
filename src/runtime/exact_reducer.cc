#include "runtime/exact_reducer.h"

namespace vkhlo::runtime {
namespace {

using ir::OpCode;

std::optional<ExactReduction> FromOpCode(OpCode code, ir::ElementType element) {
  const bool boolean = ir::IsBoolean(element);
  // Sub-byte integers wrap at their own width, which a byte-wise library op would not.
  const bool integer = ir::IsInteger(element) && ir::BitWidth(element) >= 8;
  if (!boolean && !integer) return std::nullopt;
  switch (code) {
    case OpCode::kAdd: return integer ? std::optional(ExactReduction::kAdd) : std::nullopt;
    case OpCode::kMultiply: return integer ? std::optional(ExactReduction::kMultiply) : std::nullopt;
    case OpCode::kMinimum: return ExactReduction::kMin;
    case OpCode::kMaximum: return ExactReduction::kMax;
    case OpCode::kAnd: return ExactReduction::kAnd;
    case OpCode::kOr: return ExactReduction::kOr;
    case OpCode::kXor: return ExactReduction::kXor;
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<std::vector<ExactReduction>> ExactReducer(const ir::Operation& op) {
  if (op.num_regions() != 1 || op.region(0).blocks().size() != 1 || op.num_operands() == 0) return std::nullopt;
  const ir::Block& region = op.region(0).front();
  if (region.num_arguments() != 2 || region.operations().size() != 2) return std::nullopt;
  const ir::Operation& body = *region.operations()[0];
  const ir::Operation& ret = *region.operations()[1];
  if (ret.num_operands() != 1 || ret.operand(0) != body.result(0) || body.num_operands() != 2) return std::nullopt;
  const ir::Value* a = region.argument(0);
  const ir::Value* b = region.argument(1);
  const bool on_arguments = (body.operand(0) == a && body.operand(1) == b) || (body.operand(0) == b && body.operand(1) == a);
  if (!on_arguments) return std::nullopt;
  // The region computes in its own element type; it must be the operands' (no widening).
  const ir::Type& element = a->type();
  if (!element.is_tensor() || element.rank() != 0 || b->type() != element || body.result(0)->type() != element) {
    return std::nullopt;
  }
  std::vector<ExactReduction> ops;
  for (const ir::Value* operand : op.operands()) {
    if (!operand->type().is_tensor() || operand->type().element_type() != element.element_type()) return std::nullopt;
    auto reduction = FromOpCode(body.code(), element.element_type());
    if (!reduction) return std::nullopt;
    ops.push_back(*reduction);
  }
  return ops;
}

}  // namespace vkhlo::runtime
