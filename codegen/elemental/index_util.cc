#include "codegen/elemental/index_util.h"

#include <fmt/format.h>

namespace vkhlo::codegen {
namespace {

constexpr int64_t kSaturation = int64_t{1} << 30;

}  // namespace

StatusOr<std::string> ClampedIndex(ElementalEmitter& em, const ir::Operation& op, const Expr& value, int64_t limit) {
  const ir::ElementType type = value.type;
  if (type == ir::ElementType::kI1) {
    Expr raw = em.Raw(value);
    return em.Var("int", fmt::format("min(int({}), {})", raw.code, limit));
  }
  if (!ir::IsInteger(type)) return em.OpError(op, "takes integer indices");
  if (ir::BitWidth(type) == 64) {
    Expr raw = em.Raw(value);
    std::string negative = ir::IsSignedInteger(type) ? fmt::format("int({}.y) < 0", raw.code) : "false";
    return em.Var("int", fmt::format("{0} ? 0 : (({1}.y != 0u || {1}.x > {2}u) ? {2} : int({1}.x))", negative,
                                     raw.code, limit));
  }
  VKHLO_ASSIGN_OR_RETURN(Expr v, em.Compute(value));
  if (ir::IsSignedInteger(type)) return em.Var("int", fmt::format("clamp({}, 0, {})", v.code, limit));
  return em.Var("int", fmt::format("int(min({}, {}u))", v.code, limit));
}

StatusOr<std::string> SaturatedIndex(ElementalEmitter& em, const ir::Operation& op, const Expr& value) {
  const ir::ElementType type = value.type;
  const int64_t s = kSaturation;
  if (type == ir::ElementType::kI1) {
    Expr raw = em.Raw(value);
    return em.Var("int", fmt::format("int({})", raw.code));
  }
  if (!ir::IsInteger(type)) return em.OpError(op, "takes integer indices");
  if (ir::BitWidth(type) == 64) {
    Expr raw = em.Raw(value);
    if (ir::IsSignedInteger(type)) {
      // hi == 0 and lo < 2^30: the value; hi == -1 and lo >= 2^32 - 2^30: the (negative) value;
      // anything else saturates by sign.
      return em.Var("int", fmt::format("int({0}.y) < 0 ? (({0}.y == 0xffffffffu && {0}.x >= {1}u) ? int({0}.x) : {2}) "
                                       ": (({0}.y == 0u && {0}.x < {3}u) ? int({0}.x) : {3})",
                                       raw.code, (uint64_t{1} << 32) - s, IntLiteral(-s), s));
    }
    return em.Var("int", fmt::format("({0}.y == 0u && {0}.x < {1}u) ? int({0}.x) : {1}", raw.code, s));
  }
  VKHLO_ASSIGN_OR_RETURN(Expr v, em.Compute(value));
  if (ir::IsSignedInteger(type)) return em.Var("int", fmt::format("clamp(int({}), {}, {})", v.code, IntLiteral(-s), s));
  return em.Var("int", fmt::format("int(min(uint({}), {}u))", v.code, s));
}

std::optional<std::vector<int64_t>> ConstantIntegers(const ir::Operation& op, size_t i) {
  if (i >= op.num_operands()) return std::nullopt;
  const ir::Operation* producer = op.operand(i)->defining_op();
  if (producer == nullptr || producer->code() != ir::OpCode::kConstant) return std::nullopt;
  const ir::Attribute* value = producer->attribute("value");
  const ir::Literal* literal = value ? value->AsDenseElements() : nullptr;
  if (literal == nullptr || !ir::IsInteger(literal->element_type())) return std::nullopt;
  std::vector<int64_t> values(static_cast<size_t>(literal->num_elements()));
  for (size_t k = 0; k < values.size(); ++k) values[k] = literal->GetInt(static_cast<int64_t>(k));
  return values;
}

Status CheckStaticOperand(ElementalEmitter& em, const ir::Operation& op, size_t i, const std::vector<int64_t>& expected,
                          const char* what) {
  std::optional<std::vector<int64_t>> values = ConstantIntegers(op, i);
  if (!values) {
    return em.OpError(op, fmt::format("needs a constant {} on the Vulkan backend (its result is statically shaped; "
                                      "a shape known only at run time is not supported)",
                                      what));
  }
  if (*values != expected) {
    return em.OpError(op, fmt::format("has {} [{}], inconsistent with its result type {} (expected [{}])", what,
                                      fmt::join(*values, ", "), op.result(0)->type().ToString(),
                                      fmt::join(expected, ", ")));
  }
  return OkStatus();
}

}  // namespace vkhlo::codegen
