// Algebraic identities of element-wise ops, only where they hold exactly for the element type:
//   x + e -> x     e = 0 for integers, -0.0 for floats (x + (+0.0) is +0.0 when x is -0.0)
//   x - e -> x     e = 0 for integers, +0.0 for floats
//   x * 1, x / 1 -> x            (not complex: inf * (1 + 0i) = NaN)
//   integers only: x * 0 -> 0, x - x -> 0, x ^ x -> 0, x == x -> true
//   0 - x -> -x (signed integers), -0.0 - x -> -x (floats)
//   (floats: x * 0 is NaN for inf/NaN x and -0 for negative x; x - x is NaN for inf)
//   --x (not for unsigned float formats), not(not(x)) -> x; abs(abs(x)) -> abs(x)
//   x & x, x | x, max(x, x), min(x, x) -> x
//   x & ~0 -> x, x & 0 -> 0, x | 0 -> x, x ^ 0 -> x, shifts by 0 -> x
//   select(constant p, a, b) -> a or b; select(p, a, a) -> a
//   real(complex(a, b)) -> a, imag(complex(a, b)) -> b
// Ops of constants alone are mostly left to fold-constants.
#include "passes/canonicalize_rules.h"
#include "passes/constant_values.h"

namespace vkhlo::passes::canonicalize {
namespace {

using ir::OpCode;
using ir::Value;

bool IsIntegral(ir::ElementType type) { return ir::IsInteger(type) || ir::IsBoolean(type); }

// The other operand when one operand is a constant whose elements all satisfy `element` (the
// right one; either for commutative ops).
Value* OperandBesides(const ir::Operation& op, bool (*element)(const ir::Literal&, int64_t),
                      bool commutative) {
  if (IsConstantWhere(op.operand(1), element)) return op.operand(0);
  if (commutative && IsConstantWhere(op.operand(0), element)) return op.operand(1);
  return nullptr;
}

bool HasConstantOperand(const ir::Operation& op, bool (*element)(const ir::Literal&, int64_t)) {
  for (Value* operand : op.operands()) {
    if (IsConstantWhere(operand, element)) return true;
  }
  return false;
}

bool Defined(const Value* value, OpCode code) {
  return value->defining_op() != nullptr && value->defining_op()->code() == code;
}

RewriteResult SimplifyCompare(ir::Operation& op, OpBuilder& builder) {
  const ir::ElementType type = op.operand(0)->type().element_type();
  if (op.operand(0) != op.operand(1) || !IsIntegral(type)) return Keep();
  const ir::Attribute* direction = op.attribute("comparison_direction");
  const std::optional<std::string> d = direction ? direction->AsEnum("comparison_direction") : std::nullopt;
  if (!d) return Keep();
  const bool reflexive = *d == "EQ" || *d == "LE" || *d == "GE";
  return Replace(builder.Splat(op.result(0)->type(), reflexive ? 1.0 : 0.0));
}

RewriteResult SimplifySelect(ir::Operation& op) {
  Value* on_true = op.operand(1);
  Value* on_false = op.operand(2);
  if (on_true == on_false) return Replace(on_true);
  const ir::Literal* predicate = SplatConstant(op.operand(0));
  if (predicate == nullptr) return Keep();
  return Replace(predicate->GetInt(0) != 0 ? on_true : on_false);
}

}  // namespace

RewriteResult SimplifyAlgebra(ir::Operation& op, OpBuilder& builder) {
  if (op.info().kind != ir::OpKind::kElementwise || op.num_results() != 1) return Keep();
  const ir::Type& type = op.result(0)->type();
  if (!type.is_tensor() || type.is_quantized()) return Keep();
  for (Value* operand : op.operands()) {
    if (!operand->type().is_tensor() || operand->type().is_quantized()) return Keep();
  }
  const ir::ElementType element = type.element_type();
  const bool integral = IsIntegral(element);
  Value* x = op.num_operands() > 0 ? op.operand(0) : nullptr;

  switch (op.code()) {
    case OpCode::kAdd:
      if (Value* other = OperandBesides(op, IsAdditiveIdentity, true)) return Replace(other);
      return Keep();
    case OpCode::kSubtract:
      if (Value* other = OperandBesides(op, IsSubtractiveIdentity, false)) return Replace(other);
      if (ir::IsInteger(element) && op.operand(0) == op.operand(1)) return Replace(builder.Splat(type, 0));
      // 0 - x == -x for signed integers; -0.0 - x == -x for floats (+0.0 - (+0.0) is +0.0,
      // not -0.0).
      if (ir::IsSignedInteger(element) || ir::IsFloat(element)) {
        if (IsConstantWhere(op.operand(0), IsAdditiveIdentity) &&
            !IsConstantWhere(op.operand(1), [](const ir::Literal&, int64_t) { return true; })) {
          return Replace(builder.Neg(op.operand(1)));
        }
      }
      return Keep();
    case OpCode::kMultiply:
      if (Value* other = OperandBesides(op, IsMultiplicativeIdentity, true)) return Replace(other);
      if (integral && HasConstantOperand(op, IsIntegerZero)) return Replace(builder.Splat(type, 0));
      return Keep();
    case OpCode::kDivide:
      if (Value* other = OperandBesides(op, IsMultiplicativeIdentity, false)) return Replace(other);
      return Keep();
    case OpCode::kNegate:
      // Not for unsigned float formats (f8E8M0FNU): their negation is NaN.
      if (ir::IsFloat(element) && !ir::GetFloatFormat(element).has_sign) return Keep();
      if (Defined(x, OpCode::kNegate)) return Replace(x->defining_op()->operand(0));
      return Keep();
    case OpCode::kNot:
      if (Defined(x, OpCode::kNot)) return Replace(x->defining_op()->operand(0));
      return Keep();
    case OpCode::kAbs:
      if (Defined(x, OpCode::kAbs) && x->type() == type) return Replace(x);
      return Keep();
    case OpCode::kAnd:
      if (op.operand(0) == op.operand(1)) return Replace(x);
      if (Value* other = OperandBesides(op, IsAllOnes, true)) return Replace(other);
      if (HasConstantOperand(op, IsIntegerZero)) return Replace(builder.Splat(type, 0));
      return Keep();
    case OpCode::kOr:
      if (op.operand(0) == op.operand(1)) return Replace(x);
      if (Value* other = OperandBesides(op, IsIntegerZero, true)) return Replace(other);
      return Keep();
    case OpCode::kXor:
      if (Value* other = OperandBesides(op, IsIntegerZero, true)) return Replace(other);
      if (op.operand(0) == op.operand(1)) return Replace(builder.Splat(type, 0));
      return Keep();
    case OpCode::kMaximum:
    case OpCode::kMinimum:
      if (op.operand(0) == op.operand(1)) return Replace(x);
      return Keep();
    case OpCode::kShiftLeft:
    case OpCode::kShiftRightArithmetic:
    case OpCode::kShiftRightLogical:
      if (IsConstantWhere(op.operand(1), IsIntegerZero)) return Replace(x);
      return Keep();
    case OpCode::kCompare:
      return SimplifyCompare(op, builder);
    case OpCode::kSelect:
      return SimplifySelect(op);
    case OpCode::kReal:
    case OpCode::kImag:
      if (Defined(x, OpCode::kComplex)) {
        Value* part = x->defining_op()->operand(op.code() == OpCode::kReal ? 0 : 1);
        if (part->type() == type) return Replace(part);
      }
      return Keep();
    default:
      return Keep();
  }
}

}  // namespace vkhlo::passes::canonicalize
