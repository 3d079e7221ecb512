// The chlo ops with a short StableHLO expression: constants, conj, square, the infinity
// predicates, tan, and the bit-level mulhi and next_after.
#include <limits>

#include "passes/chlo/rewrites.h"

namespace vkhlo::passes::chlo {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Operation;
using Values = StatusOr<std::vector<Value*>>;

Values Constant(OpBuilder& b, const Operation& op) {
  const ir::Attribute* value = op.attribute("value");
  const ir::Literal* literal = value != nullptr ? value->AsDenseElements() : nullptr;
  if (literal == nullptr) return RewriteError(op, "`value` must be a dense elements attribute");
  return std::vector<Value*>{b.Constant(*literal)};
}

// chlo.constant_like: the scalar `value` in the operand's shape and element type.
Values ConstantLike(OpBuilder& b, const Operation& op) {
  const ir::Attribute* value = op.attribute("value");
  if (value == nullptr) return RewriteError(op, "has no `value`");
  const ir::Type& result_type = op.result(0)->type();
  ir::Literal scalar;
  if (const ir::Literal* dense = value->AsDenseElements()) {
    if (dense->num_elements() != 1) return RewriteError(op, "`value` must hold one element");
    const size_t size = static_cast<size_t>(ir::StorageBytes(dense->element_type()));
    auto bytes = std::vector<uint8_t>(dense->raw().begin(), dense->raw().begin() + static_cast<long>(size));
    VKHLO_ASSIGN_OR_RETURN(scalar, ir::Literal::FromBytes(dense->type().WithDims({}), std::move(bytes)));
  } else if (const auto* i = value->as<ir::IntegerValue>()) {
    VKHLO_ASSIGN_OR_RETURN(scalar, ir::Literal::Create(ir::Type::Scalar(i->type)));
    scalar.SetBits(0, i->bits);
  } else if (const auto* f = value->as<ir::FloatValue>()) {
    VKHLO_ASSIGN_OR_RETURN(scalar, ir::Literal::Create(ir::Type::Scalar(f->type)));
    scalar.SetBits(0, f->bits);
  } else if (auto flag = value->AsBool()) {
    VKHLO_ASSIGN_OR_RETURN(scalar, ir::Literal::Create(ir::Type::Scalar(ElementType::kI1)));
    scalar.SetInt(0, *flag ? 1 : 0);
  } else {
    return RewriteError(op, "`value` must be a scalar constant");
  }
  Value* c = b.Constant(std::move(scalar));
  if (c->type().element_type() != result_type.element_type()) c = b.Convert(c, result_type.element_type());
  return std::vector<Value*>{b.BroadcastInDim(c, result_type, {})};
}

Values Conj(OpBuilder& b, const Operation& op) {
  Math m(b);
  Value* z = op.operand(0);
  if (!ir::IsComplex(z->type().element_type())) return std::vector<Value*>{z};
  return std::vector<Value*>{m.Complex(m.Real(z), m.Neg(m.Imag(z)))};
}

// Complex squares use (x - y)(x + y) for the real part, exact where x*x - y*y cancels, and
// give an exact 0 when |x| == |y|.
Values Square(OpBuilder& b, const Operation& op) {
  Math m(b);
  Value* z = op.operand(0);
  if (!ir::IsComplex(z->type().element_type())) return std::vector<Value*>{m.Mul(z, z)};
  Value* x = m.Real(z);
  Value* y = m.Imag(z);
  Value* same = m.And(m.IsFinite(x), m.Eq(m.Abs(x), m.Abs(y)));
  Value* re = m.Select(same, m.C(x, 0), m.Mul(m.Sub(x, y), m.Add(x, y)));
  Value* im = m.Mul(m.Mul(x, y), 2.0);
  return std::vector<Value*>{m.Complex(re, im)};
}

Values IsInf(OpBuilder& b, const Operation& op) { return std::vector<Value*>{Math(b).IsInf(op.operand(0))}; }

Values IsSignedInf(OpBuilder& b, const Operation& op, double infinity) {
  Math m(b);
  Value* x = op.operand(0);
  if (!ir::GetFloatFormat(x->type().element_type()).has_infinity) {
    return std::vector<Value*>{b.Splat(op.result(0)->type(), 0)};
  }
  return std::vector<Value*>{m.Eq(x, infinity)};
}
Values IsPosInf(OpBuilder& b, const Operation& op) {
  return IsSignedInf(b, op, std::numeric_limits<double>::infinity());
}
Values IsNegInf(OpBuilder& b, const Operation& op) {
  return IsSignedInf(b, op, -std::numeric_limits<double>::infinity());
}

// tan is a StableHLO op (real and complex).
Values Tan(OpBuilder& b, const Operation& op) { return std::vector<Value*>{b.Unary(OpCode::kTan, op.operand(0))}; }

// The high half of the 2w-bit product. Up to 32 bits the product fits a 64-bit integer; for
// 64 bits it is assembled from 32-bit halves (unsigned), then corrected for signed operands:
// hi_s(a, b) = hi_u(a, b) - (a < 0 ? b : 0) - (b < 0 ? a : 0)  (mod 2^64).
Values Mulhi(OpBuilder& b, const Operation& op) {
  Math m(b);
  Value* lhs = op.operand(0);
  Value* rhs = op.operand(1);
  const ElementType type = lhs->type().element_type();
  const bool is_signed = ir::IsSignedInteger(type);
  const int width = ir::BitWidth(type);
  if (width <= 32) {
    const ElementType wide = is_signed ? ElementType::kS64 : ElementType::kU64;
    Value* product = m.Mul(b.Convert(lhs, wide), b.Convert(rhs, wide));
    Value* shift = m.C(product, width);
    Value* high = b.Binary(is_signed ? OpCode::kShiftRightArithmetic : OpCode::kShiftRightLogical, product, shift);
    return std::vector<Value*>{b.Convert(high, type)};
  }
  Value* a = is_signed ? b.BitcastConvert(lhs, ElementType::kU64) : lhs;
  Value* c = is_signed ? b.BitcastConvert(rhs, ElementType::kU64) : rhs;
  Value* k32 = m.C(a, 32);
  Value* low_mask = b.SplatBits(a->type(), 0xffffffffu);
  auto shr = [&](Value* v) { return b.Binary(OpCode::kShiftRightLogical, v, k32); };
  Value* al = m.And(a, low_mask);
  Value* ah = shr(a);
  Value* cl = m.And(c, low_mask);
  Value* ch = shr(c);
  Value* ll = m.Mul(al, cl);
  Value* lh = m.Mul(al, ch);
  Value* hl = m.Mul(ah, cl);
  Value* hh = m.Mul(ah, ch);
  Value* mid = m.Add(m.Add(shr(ll), m.And(lh, low_mask)), m.And(hl, low_mask));
  Value* high = m.Add(m.Add(m.Add(hh, shr(lh)), shr(hl)), shr(mid));
  if (!is_signed) return std::vector<Value*>{high};
  Value* zero = m.C(lhs, 0);
  Value* zero_u = m.C(a, 0);
  high = m.Sub(high, m.Select(m.Lt(lhs, zero), c, zero_u));
  high = m.Sub(high, m.Select(m.Lt(rhs, zero), a, zero_u));
  return std::vector<Value*>{b.BitcastConvert(high, type)};
}

// next_after on the bit patterns (as XLA): step the magnitude of `from` by one unit toward
// `to`; zeros step to the smallest subnormal signed like `to`; equal inputs give `to`; NaN in,
// NaN out.
Values NextAfter(OpBuilder& b, const Operation& op) {
  Math m(b);
  Value* from = op.operand(0);
  Value* to = op.operand(1);
  const ElementType type = from->type().element_type();
  ElementType bits_type;
  switch (ir::BitWidth(type)) {
    case 64: bits_type = ElementType::kU64; break;
    case 32: bits_type = ElementType::kU32; break;
    case 16: bits_type = ElementType::kU16; break;
    case 8: bits_type = ElementType::kU8; break;
    case 4: bits_type = ElementType::kU4; break;
    default: return RewriteError(op, "no integer type has the width of " + std::string(ir::ElementTypeName(type)));
  }
  const uint64_t sign_mask = uint64_t{1} << (ir::BitWidth(type) - 1);
  Value* from_bits = b.BitcastConvert(from, bits_type);
  Value* to_bits = b.BitcastConvert(to, bits_type);
  Value* nan_bits = b.BitcastConvert(m.C(from, std::numeric_limits<double>::quiet_NaN()), bits_type);
  Value* magnitude_mask = b.SplatBits(from_bits->type(), sign_mask - 1);
  Value* sign_bit = b.SplatBits(from_bits->type(), sign_mask);
  Value* from_abs = m.And(from_bits, magnitude_mask);
  Value* to_abs = m.And(to_bits, magnitude_mask);
  Value* zero = m.C(from_bits, 0);
  Value* from_sign = m.And(from_bits, sign_bit);
  Value* to_sign = m.And(to_bits, sign_bit);
  Value* smallest_toward_to = m.Or(to_sign, m.C(from_bits, 1));
  Value* toward_zero = m.Or(m.Gt(from_abs, to_abs), m.Ne(from_sign, to_sign));
  Value* step = m.Select(toward_zero, b.SplatBits(from_bits->type(), ~uint64_t{0}), m.C(from_bits, 1));
  Value* result = m.Add(from_bits, step);
  result = m.Select(m.Eq(from_abs, zero), m.Select(m.Eq(to_abs, zero), to_bits, smallest_toward_to), result);
  result = m.Select(m.Eq(from_bits, to_bits), to_bits, result);
  result = m.Select(m.Or(m.IsNan(from), m.IsNan(to)), nan_bits, result);
  return std::vector<Value*>{b.BitcastConvert(result, type)};
}

}  // namespace

void AddBasicRewrites(RewriteTable& t) {
  t[OpCode::kChloConstant] = Constant;
  t[OpCode::kChloConstantLike] = ConstantLike;
  t[OpCode::kChloConj] = Conj;
  t[OpCode::kChloSquare] = Square;
  t[OpCode::kChloIsInf] = IsInf;
  t[OpCode::kChloIsPosInf] = IsPosInf;
  t[OpCode::kChloIsNegInf] = IsNegInf;
  t[OpCode::kChloTan] = Tan;
  t[OpCode::kChloMulhi] = Mulhi;
  t[OpCode::kChloNextAfter] = NextAfter;
}

}  // namespace vkhlo::passes::chlo
