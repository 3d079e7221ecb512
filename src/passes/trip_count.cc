#include "passes/trip_count.h"

#include <limits>
#include <string>

#include "ir/attribute.h"
#include "ir/literal.h"

namespace vkhlo::passes {
namespace {

using ir::OpCode;
using Wide = __int128;  // every value of a 64-bit counter, and one step past it, fits

// The value of a scalar integer constant op's result.
std::optional<Wide> ConstantValue(const ir::Value* value) {
  const ir::Operation* op = value->defining_op();
  if (op == nullptr || op->code() != OpCode::kConstant || value->type().num_elements() != 1) return std::nullopt;
  const ir::Attribute* attribute = op->attribute("value");
  const ir::Literal* literal = attribute ? attribute->AsDenseElements() : nullptr;
  if (literal == nullptr || !ir::IsInteger(literal->element_type())) return std::nullopt;
  if (ir::IsUnsignedInteger(literal->element_type())) return static_cast<Wide>(literal->GetBits(0));
  return static_cast<Wide>(literal->GetInt(0));
}

std::optional<std::string> EnumText(const ir::Attribute* attribute) {
  if (attribute == nullptr) return std::nullopt;
  if (auto* e = attribute->as<ir::EnumValue>()) return e->value;
  if (auto* s = attribute->AsString()) return *s;
  return std::nullopt;
}

// Whether `value` is argument `index` of `block`.
bool IsArgument(const ir::Value* value, const ir::Block& block, size_t index) {
  return value->is_block_argument() && value->owner_block() == &block && static_cast<size_t>(value->index()) == index;
}

enum class Direction { kLt, kLe, kGt, kGe, kEq, kNe };

bool Holds(Direction d, Wide i, Wide bound) {
  switch (d) {
    case Direction::kLt: return i < bound;
    case Direction::kLe: return i <= bound;
    case Direction::kGt: return i > bound;
    case Direction::kGe: return i >= bound;
    case Direction::kEq: return i == bound;
    case Direction::kNe: return i != bound;
  }
  return false;
}

// Iterations of `for (i = start; direction(i, bound); i += step)` over exact integers, when the
// counter stays within [low, high] up to the value that ends the loop; else nullopt.
std::optional<Wide> Count(Direction d, Wide start, Wide step, Wide bound, Wide low, Wide high) {
  if (!Holds(d, start, bound)) return 0;
  if (step == 0) return std::nullopt;  // never ends
  Wide n = 0;
  switch (d) {
    case Direction::kLt:
      if (step < 0) return std::nullopt;
      n = (bound - start + step - 1) / step;
      break;
    case Direction::kLe:
      if (step < 0) return std::nullopt;
      n = (bound - start) / step + 1;
      break;
    case Direction::kGt:
      if (step > 0) return std::nullopt;
      n = (start - bound + (-step) - 1) / (-step);
      break;
    case Direction::kGe:
      if (step > 0) return std::nullopt;
      n = (start - bound) / (-step) + 1;
      break;
    case Direction::kNe:
      if ((bound - start) % step != 0 || (bound - start) / step <= 0) return std::nullopt;
      n = (bound - start) / step;
      break;
    case Direction::kEq:
      n = 1;
      break;
  }
  // The last value the counter takes (the one the condition rejects) must not have wrapped.
  const Wide last = start + n * step;
  if (last < low || last > high || Holds(d, last, bound)) return std::nullopt;
  return n;
}

}  // namespace

std::optional<int64_t> StaticTripCount(const ir::Operation& while_op) {
  if (while_op.code() != OpCode::kWhile || while_op.num_regions() != 2) return std::nullopt;
  if (while_op.region(0).blocks().size() != 1 || while_op.region(1).blocks().size() != 1) return std::nullopt;
  const ir::Block& cond = while_op.region(0).front();
  const ir::Block& body = while_op.region(1).front();
  const size_t n = while_op.num_operands();
  if (cond.num_arguments() != n || body.num_arguments() != n) return std::nullopt;
  // The condition only compares (constants aside): skipping it changes nothing else.
  const ir::Operation* compare = nullptr;
  for (const auto& op : cond.operations()) {
    if (op->code() == OpCode::kConstant) continue;
    if (op->code() == OpCode::kCompare && compare == nullptr) {
      compare = op.get();
      continue;
    }
    if (op->code() == OpCode::kReturn && op.get() == cond.back()) continue;
    return std::nullopt;
  }
  const ir::Operation* ret = cond.back();
  if (compare == nullptr || ret == nullptr || ret->num_operands() != 1 || ret->operand(0) != compare->result(0)) {
    return std::nullopt;
  }
  const ir::Operation* body_ret = body.back();
  if (body_ret == nullptr || body_ret->code() != OpCode::kReturn || body_ret->num_operands() != n) return std::nullopt;

  // The counter: an argument of the condition; the bound: the other side.
  const std::optional<std::string> direction_text = EnumText(compare->attribute("comparison_direction"));
  if (!direction_text) return std::nullopt;
  static constexpr std::pair<std::string_view, Direction> kDirections[] = {
      {"LT", Direction::kLt}, {"LE", Direction::kLe}, {"GT", Direction::kGt},
      {"GE", Direction::kGe}, {"EQ", Direction::kEq}, {"NE", Direction::kNe}};
  std::optional<Direction> direction;
  for (const auto& [name, d] : kDirections) direction = *direction_text == name ? d : direction;
  if (!direction) return std::nullopt;
  const ir::Value* lhs = compare->operand(0);
  const ir::Value* rhs = compare->operand(1);
  const ir::Value* counter = lhs;
  const ir::Value* bound = rhs;
  if (!(lhs->is_block_argument() && lhs->owner_block() == &cond)) {
    counter = rhs;
    bound = lhs;
    // bound op counter == counter op' bound
    switch (*direction) {
      case Direction::kLt: direction = Direction::kGt; break;
      case Direction::kLe: direction = Direction::kGe; break;
      case Direction::kGt: direction = Direction::kLt; break;
      case Direction::kGe: direction = Direction::kLe; break;
      default: break;
    }
  }
  if (!(counter->is_block_argument() && counter->owner_block() == &cond)) return std::nullopt;
  const size_t k = static_cast<size_t>(counter->index());
  const ir::Type& type = counter->type();
  if (!type.is_tensor() || type.rank() != 0 || !ir::IsInteger(type.element_type())) return std::nullopt;
  const bool is_unsigned = ir::IsUnsignedInteger(type.element_type());
  if (const std::optional<std::string> compare_type = EnumText(compare->attribute("compare_type"))) {
    if (*compare_type != "NOTYPE" && *compare_type != (is_unsigned ? "UNSIGNED" : "SIGNED")) return std::nullopt;
  }
  const int width = ir::BitWidth(type.element_type());
  if (width < 2 || width > 64) return std::nullopt;
  const Wide low = is_unsigned ? 0 : -(Wide{1} << (width - 1));
  const Wide high = is_unsigned ? (Wide{1} << width) - 1 : (Wide{1} << (width - 1)) - 1;

  std::optional<Wide> bound_value;
  if (bound->is_block_argument()) {
    // A state element the body passes through unchanged, starting from a constant.
    if (bound->owner_block() != &cond) return std::nullopt;
    const size_t j = static_cast<size_t>(bound->index());
    if (j == k || !IsArgument(body_ret->operand(j), body, j)) return std::nullopt;
    bound_value = ConstantValue(while_op.operand(j));
  } else {
    bound_value = ConstantValue(bound);
  }
  const std::optional<Wide> start = ConstantValue(while_op.operand(k));
  if (!bound_value || !start) return std::nullopt;

  // The body steps the counter by a constant.
  const ir::Value* next = body_ret->operand(k);
  const ir::Operation* step_op = next->defining_op();
  if (step_op == nullptr || step_op->parent_block() != &body) return std::nullopt;
  std::optional<Wide> step;
  if (step_op->code() == OpCode::kAdd) {
    if (IsArgument(step_op->operand(0), body, k)) step = ConstantValue(step_op->operand(1));
    else if (IsArgument(step_op->operand(1), body, k)) step = ConstantValue(step_op->operand(0));
  } else if (step_op->code() == OpCode::kSubtract && IsArgument(step_op->operand(0), body, k)) {
    step = ConstantValue(step_op->operand(1));
    if (step) step = -*step;
  }
  if (!step) return std::nullopt;
  // An unsigned step above the signed range is a wrapping decrement: not counted.
  const std::optional<Wide> trips = Count(*direction, *start, *step, *bound_value, low, high);
  if (!trips || *trips > std::numeric_limits<int64_t>::max()) return std::nullopt;
  return static_cast<int64_t>(*trips);
}

}  // namespace vkhlo::passes
