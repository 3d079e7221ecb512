// compare (every direction and compare_type, TOTALORDER included) and select.
//
// FLOAT comparisons follow IEEE (NaN is unordered: only NE holds). TOTALORDER compares the
// keys -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN of the bit patterns; for f32 and f64 the
// key comes straight from the raw bits (so f64 TOTALORDER needs neither shaderFloat64 nor
// shaderInt64), and so does every narrower float's, from its own format's bits (as the
// interpreter does): NaN payloads keep their order, signaling ones included. Complex values
// compare lexicographically.
//
// select moves raw values when both branches are raw (no arithmetic feature needed), with a
// scalar or a tensor predicate.
#include <fmt/format.h>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

std::optional<std::string> EnumText(const ir::Attribute* attribute) {
  if (attribute == nullptr) return std::nullopt;
  if (auto* e = attribute->as<ir::EnumValue>()) return e->value;
  if (auto* s = attribute->AsString()) return *s;
  return std::nullopt;
}

std::optional<std::string> GlslOperator(const std::string& direction) {
  if (direction == "EQ") return "==";
  if (direction == "NE") return "!=";
  if (direction == "GE") return ">=";
  if (direction == "GT") return ">";
  if (direction == "LE") return "<=";
  if (direction == "LT") return "<";
  return std::nullopt;
}

// Total-order key of a 32-bit float pattern as an int: flip the magnitude bits of negatives.
std::string Key32(ElementalEmitter& em, const std::string& bits) {
  return em.Var("int", fmt::format("int({0}) ^ int(uint(int({0}) >> 31) >> 1)", bits));
}

StatusOr<Expr> TotalOrder(ElementalEmitter& em, const Operation& op, const Index& index, const std::string& glsl_op,
                          ir::ElementType result) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, em.Operand(op, 0, index));
  VKHLO_ASSIGN_OR_RETURN(Expr b, em.Operand(op, 1, index));
  const ir::ElementType type = a.type;
  if (type == ir::ElementType::kF64) {
    // Keys in two halves: high word (signed) then low word (unsigned).
    Expr ra = em.Raw(a), rb = em.Raw(b);
    auto key = [&](const std::string& r) {
      std::string mask = em.Var("uint", fmt::format("uint(int({}.y) >> 31)", r));
      return em.Var("uvec2", fmt::format("uvec2({0}.x ^ {1}, {0}.y ^ ({1} >> 1))", r, mask));
    };
    std::string ka = key(ra.code), kb = key(rb.code);
    std::string ha = fmt::format("int({}.y)", ka), hb = fmt::format("int({}.y)", kb);
    std::string cmp = fmt::format("({0} != {1} ? ({0} {4} {1}) : ({2}.x {4} {3}.x))", ha, hb, ka, kb, glsl_op);
    if (glsl_op == "==") cmp = fmt::format("({} == {})", ka, kb);
    if (glsl_op == "!=") cmp = fmt::format("({} != {})", ka, kb);
    return em.Exact(result, cmp);
  }
  // The format's own bit pattern moved to the top of a word: the sign lands on bit 31, and the
  // order of the keys is the format's total order (payloads of NaNs included, which a widening
  // conversion would quiet).
  const int width = ir::BitWidth(type);
  auto top_aligned = [&](const Expr& e) {
    const std::string raw = em.Raw(e).code;
    if (width == 32) return raw;
    return fmt::format("(({} & {}) << {}u)", raw, UintLiteral((1u << width) - 1), 32 - width);
  };
  std::string ka = Key32(em, top_aligned(a)), kb = Key32(em, top_aligned(b));
  return em.Exact(result, fmt::format("{} {} {}", ka, glsl_op, kb));
}

StatusOr<Expr> EmitCompare(ElementalEmitter& em, const Operation& op, const Index& index) {
  const auto direction = EnumText(op.attribute("comparison_direction"));
  const auto glsl_op = direction ? GlslOperator(*direction) : std::nullopt;
  if (!glsl_op) return em.OpError(op, "has no valid comparison_direction");
  const ir::ElementType result = ResultElementType(op);
  const auto compare_type = EnumText(op.attribute("compare_type"));
  const ir::ElementType operand_type = op.operand(0)->type().element_type();
  if (compare_type && *compare_type == "TOTALORDER" && ir::IsFloat(operand_type)) {
    return TotalOrder(em, op, index, *glsl_op, result);
  }
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  VKHLO_ASSIGN_OR_RETURN(Expr b, ComputeOperand(em, op, 1, index));
  const TypeFacts& f = em.Facts(a.type);
  if (f.kind == ComputeKind::kBool) {
    return em.Exact(result, fmt::format("int({}) {} int({})", a.code, *glsl_op, b.code));
  }
  if (IsComplexKind(f.kind)) {
    const std::string& d = *direction;
    std::string text;
    if (d == "EQ") text = fmt::format("{0}.x == {1}.x && {0}.y == {1}.y", a.code, b.code);
    else if (d == "NE") text = fmt::format("!({0}.x == {1}.x && {0}.y == {1}.y)", a.code, b.code);
    else {
      std::string strict = d == "GE" || d == "GT" ? ">" : "<";
      text = fmt::format("{0}.x {3} {1}.x || ({0}.x == {1}.x && {0}.y {2} {1}.y)", a.code, b.code, *glsl_op, strict);
    }
    return em.Exact(result, text);
  }
  // Integers compare by their element type's signedness (the verifier ties compare_type to it).
  if (f.emulated && *glsl_op != "==" && *glsl_op != "!=") {
    // a < b, b < a, !(b < a), !(a < b) for LT, GT, LE, GE.
    const std::string lt = Emulated64(em, f, "hlo_e64_lt", true);
    const std::string& d = *direction;
    const bool swap = d == "GT" || d == "LE", negate = d == "LE" || d == "GE";
    return em.Exact(result, fmt::format("{}{}({}, {})", negate ? "!" : "", lt, swap ? b.code : a.code,
                                        swap ? a.code : b.code));
  }
  return em.Exact(result, fmt::format("{} {} {}", a.code, *glsl_op, b.code));
}

StatusOr<Expr> EmitSelect(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr pred, ComputeOperand(em, op, 0, index));
  VKHLO_ASSIGN_OR_RETURN(Expr on_true, em.Operand(op, 1, index));
  VKHLO_ASSIGN_OR_RETURN(Expr on_false, em.Operand(op, 2, index));
  if (on_true.raw != on_false.raw) {
    on_true = em.Raw(on_true);
    on_false = em.Raw(on_false);
  }
  const TypeFacts& f = em.Facts(on_true.type);
  std::string type(on_true.raw ? f.raw_glsl : f.glsl);
  std::string name = em.Var(type, fmt::format("{} ? {} : {}", pred.code, on_true.code, on_false.code));
  return Expr{name, on_true.type, on_true.raw};
}

}  // namespace

void RegisterCompareSelectEmitters(OpEmitterTable& t) {
  t.Register(ir::OpCode::kCompare, EmitCompare);
  t.Register(ir::OpCode::kSelect, EmitSelect);
}

}  // namespace vkhlo::codegen
