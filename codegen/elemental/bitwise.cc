// Bitwise ops: and, or, xor, not, popcnt, count_leading_zeros, shift_left,
// shift_right_logical, shift_right_arithmetic — for i1 and every integer width.
//
// Semantics as the interpreter: a shift amount is read as an unsigned number of bits, and
// shifts by >= the width give 0 (arithmetic right shifts: the sign). GLSL leaves shifts by >= 32
// undefined, so the amount is tested first. Narrow integers are held extended to 32 bits:
// logical right shifts and bit counts work on the width-masked pattern. Emulated 64-bit integers
// (uvec2 pairs, hlo_i64.glsl): &, |, ^, ~ act on both words as they are; counts and shifts are
// library functions.
#include <fmt/format.h>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

bool IsWide(const TypeFacts& f) { return f.kind == ComputeKind::kInt64 || f.kind == ComputeKind::kUint64; }

// The value's two's complement pattern in its width, as an unsigned of the compute size.
std::string Pattern(const TypeFacts& f, const std::string& code) {
  if (IsWide(f)) return fmt::format("uint64_t({})", code);
  if (f.bits >= 32) return fmt::format("uint({})", code);
  return fmt::format("(uint({}) & {})", code, UintLiteral((1u << f.bits) - 1));
}

Status NotForType(ElementalEmitter& em, const Operation& op, const Expr& a) {
  return em.OpError(op, fmt::format("does not take {} operands", ir::ElementTypeName(a.type)));
}

StatusOr<Expr> Logical(ElementalEmitter& em, const Operation& op, const Index& index, const char* bool_op,
                       const char* int_op) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  VKHLO_ASSIGN_OR_RETURN(Expr b, ComputeOperand(em, op, 1, index));
  const TypeFacts& f = em.Facts(a.type);
  if (f.kind == ComputeKind::kBool) return em.Exact(a.type, fmt::format("{} {} {}", a.code, bool_op, b.code));
  if (!IsIntKind(f.kind)) return NotForType(em, op, a);
  // Sign- or zero-extended operands give an extended result: no wrap needed.
  return em.Exact(a.type, fmt::format("{} {} {}", a.code, int_op, b.code));
}

StatusOr<Expr> EmitAnd(ElementalEmitter& em, const Operation& op, const Index& index) {
  return Logical(em, op, index, "&&", "&");
}
StatusOr<Expr> EmitOr(ElementalEmitter& em, const Operation& op, const Index& index) {
  return Logical(em, op, index, "||", "|");
}
StatusOr<Expr> EmitXor(ElementalEmitter& em, const Operation& op, const Index& index) {
  return Logical(em, op, index, "!=", "^");
}

StatusOr<Expr> EmitNot(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  const TypeFacts& f = em.Facts(a.type);
  if (f.kind == ComputeKind::kBool) return em.Exact(a.type, fmt::format("!{}", a.code));
  if (!IsIntKind(f.kind)) return NotForType(em, op, a);
  return em.Result(a.type, fmt::format("~{}", a.code));
}

StatusOr<Expr> EmitPopcnt(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  const TypeFacts& f = em.Facts(a.type);
  if (!IsIntKind(f.kind)) return NotForType(em, op, a);
  if (f.emulated) return em.Exact(a.type, fmt::format("{}({})", Emulated64(em, f, "hlo_e64_popcnt"), a.code));
  std::string count;
  if (IsWide(f)) {
    std::string halves = em.Var("uvec2", fmt::format("uvec2(uint({0} & 0xffffffffUL), uint({0} >> 32))",
                                                     Pattern(f, a.code)));
    count = fmt::format("bitCount({0}.x) + bitCount({0}.y)", halves);
  } else {
    count = fmt::format("bitCount({})", Pattern(f, a.code));
  }
  // The count wraps to the width (popcnt of si2 0b11 is 2, which si2 reads as -2).
  return em.Result(a.type, fmt::format("{}({})", f.glsl, count));
}

StatusOr<Expr> EmitCountLeadingZeros(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  const TypeFacts& f = em.Facts(a.type);
  if (!IsIntKind(f.kind)) return NotForType(em, op, a);
  if (f.emulated) return em.Exact(a.type, fmt::format("{}({})", Emulated64(em, f, "hlo_e64_clz"), a.code));
  std::string count;
  if (IsWide(f)) {
    // findMSB(0) is -1, so an all-zero half counts 32.
    std::string halves = em.Var("uvec2", fmt::format("uvec2(uint({0} & 0xffffffffUL), uint({0} >> 32))",
                                                     Pattern(f, a.code)));
    count = fmt::format("({0}.y != 0u ? 31 - findMSB({0}.y) : 63 - findMSB({0}.x))", halves);
  } else {
    count = fmt::format("({} - 1 - findMSB({}))", f.bits, Pattern(f, a.code));
  }
  return em.Result(a.type, fmt::format("{}({})", f.glsl, count));
}

enum class Shift { kLeft, kRightLogical, kRightArithmetic };

template <Shift kShift>
StatusOr<Expr> EmitShift(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  VKHLO_ASSIGN_OR_RETURN(Expr b, ComputeOperand(em, op, 1, index));
  const TypeFacts& f = em.Facts(a.type);
  if (!IsIntKind(f.kind)) return NotForType(em, op, a);
  if (f.emulated) {
    const char* name = kShift == Shift::kLeft           ? "hlo_e64_shl"
                       : kShift == Shift::kRightLogical ? "hlo_e64_shr_logical"
                                                        : "hlo_e64_shr_arithmetic";
    return em.Exact(a.type, fmt::format("{}({}, {})", Emulated64(em, f, name), a.code, b.code));
  }
  const bool wide = IsWide(f);
  // The amount as an unsigned number: a negative amount is a huge one.
  std::string amount = em.Var(wide ? "uint64_t" : "uint", Pattern(f, b.code));
  const std::string width = wide ? fmt::format("{}UL", f.bits) : fmt::format("{}u", f.bits);
  const std::string zero = TypedLiteral(f, 0);
  switch (kShift) {
    case Shift::kLeft:
      return em.Result(a.type, fmt::format("{0} >= {1} ? {2} : ({3} << {0})", amount, width, zero, a.code));
    case Shift::kRightLogical: {
      std::string pattern = Pattern(f, a.code);
      return em.Result(a.type, fmt::format("{0} >= {1} ? {2} : {4}({3} >> {0})", amount, width, zero, pattern, f.glsl));
    }
    case Shift::kRightArithmetic: {
      // The sign-extended value shifted by min(amount, width - 1).
      std::string value;
      if (wide) {
        value = fmt::format("int64_t({})", a.code);
      } else if (f.kind == ComputeKind::kInt) {
        value = a.code;
      } else {
        value = f.bits == 32 ? fmt::format("int({})", a.code)
                             : fmt::format("(int({} << {}u) >> {})", a.code, 32 - f.bits, 32 - f.bits);
      }
      std::string clamped = fmt::format("min({}, {})", amount, wide ? fmt::format("{}UL", f.bits - 1)
                                                                     : fmt::format("{}u", f.bits - 1));
      return em.Result(a.type, fmt::format("{}({} >> {})", f.glsl, value, clamped));
    }
  }
  return em.Result(a.type, a.code);
}

}  // namespace

void RegisterBitwiseEmitters(OpEmitterTable& t) {
  using ir::OpCode;
  t.Register(OpCode::kAnd, EmitAnd);
  t.Register(OpCode::kOr, EmitOr);
  t.Register(OpCode::kXor, EmitXor);
  t.Register(OpCode::kNot, EmitNot);
  t.Register(OpCode::kPopcnt, EmitPopcnt);
  t.Register(OpCode::kCountLeadingZeros, EmitCountLeadingZeros);
  t.Register(OpCode::kShiftLeft, EmitShift<Shift::kLeft>);
  t.Register(OpCode::kShiftRightLogical, EmitShift<Shift::kRightLogical>);
  t.Register(OpCode::kShiftRightArithmetic, EmitShift<Shift::kRightArithmetic>);
}

}  // namespace vkhlo::codegen
