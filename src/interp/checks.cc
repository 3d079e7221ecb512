#include "interp/checks.h"

#include <fmt/format.h>

#include <cmath>
#include <complex>
#include <cstring>

namespace vkhlo::interp {
namespace {

std::string IndexText(const std::vector<int64_t>& dims, int64_t linear) {
  std::vector<int64_t> index(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    index[d] = dims[d] == 0 ? 0 : linear % dims[d];
    linear = dims[d] == 0 ? 0 : linear / dims[d];
  }
  return fmt::format("[{}]", fmt::join(index, ", "));
}

bool AlmostEqual(double a, double e, double tolerance) {
  if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
  if (a == e) return true;
  if (std::isinf(a) || std::isinf(e)) return false;
  return std::fabs(a - e) <= tolerance;
}

// ULP distance between two values of a float format given their bit patterns.
std::optional<uint64_t> UlpDistance(ir::ElementType type, uint64_t a_bits, uint64_t e_bits) {
  const double a = ir::DecodeFloat(type, a_bits), e = ir::DecodeFloat(type, e_bits);
  if (std::isnan(a) && std::isnan(e)) return 0;
  if (!std::isfinite(a) || !std::isfinite(e)) {
    if (a_bits == e_bits) return 0;
    return std::nullopt;  // never close
  }
  const ir::FloatFormat& f = ir::GetFloatFormat(type);
  const int magnitude_bits = f.exponent_bits + f.mantissa_bits;
  const uint64_t mask = (uint64_t{1} << magnitude_bits) - 1;
  const uint64_t am = a_bits & mask, em = e_bits & mask;
  const bool as = f.has_sign && ((a_bits >> magnitude_bits) & 1);
  const bool es = f.has_sign && ((e_bits >> magnitude_bits) & 1);
  if (as == es) return am > em ? am - em : em - am;
  return am + em;
}

uint64_t PartBits(const ir::Literal& l, int64_t index, int part) {
  const ir::ElementType t = l.element_type();
  if (!ir::IsComplex(t)) return l.GetBits(index);
  const size_t half = static_cast<size_t>(ir::StorageBytes(ir::ComplexPartType(t)));
  uint64_t bits = 0;
  std::memcpy(&bits, l.raw().data() + (l.is_splat() ? 0 : index * 2 * half) + part * half, half);
  return bits;
}

std::string ElementText(const ir::Literal& l, int64_t index) {
  const ir::ElementType t = l.element_type();
  if (ir::IsComplex(t)) {
    const ir::ElementType p = ir::ComplexPartType(t);
    return fmt::format("({}, {})", ir::FormatScalar(p, PartBits(l, index, 0)), ir::FormatScalar(p, PartBits(l, index, 1)));
  }
  return ir::FormatScalar(t, l.GetBits(index));
}

bool ElementMatches(const ir::Literal& a, const ir::Literal& e, int64_t i, const CheckParams& params) {
  const ir::ElementType t = a.element_type();
  if (!ir::IsFloat(t) && !ir::IsComplex(t)) return a.GetBits(i) == e.GetBits(i);
  const int parts = ir::IsComplex(t) ? 2 : 1;
  const ir::ElementType pt = ir::ComplexPartType(t);
  uint64_t worst_ulp = 0;
  for (int p = 0; p < parts; ++p) {
    const uint64_t ab = PartBits(a, i, p), eb = PartBits(e, i, p);
    const double av = ir::DecodeFloat(pt, ab), ev = ir::DecodeFloat(pt, eb);
    switch (params.kind) {
      case CheckKind::kExact:
        if (!(av == ev)) return false;
        break;
      case CheckKind::kAlmost:
        if (!AlmostEqual(av, ev, params.tolerance)) return false;
        break;
      case CheckKind::kClose: {
        auto d = UlpDistance(pt, ab, eb);
        if (!d) return false;
        worst_ulp = std::max(worst_ulp, *d);
        break;
      }
    }
  }
  if (params.kind == CheckKind::kClose) {
    return worst_ulp <= static_cast<uint64_t>(params.max_ulp_difference) &&
           worst_ulp >= static_cast<uint64_t>(params.min_ulp_difference);
  }
  return true;
}

}  // namespace

std::optional<std::string> CompareLiterals(const ir::Literal& actual, const ir::Literal& expected,
                                           const CheckParams& params) {
  if (actual.element_type() != expected.element_type() || actual.type().dims() != expected.type().dims()) {
    return fmt::format("type mismatch: actual {}, expected {}", actual.type().ToString(), expected.type().ToString());
  }
  const int64_t n = actual.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    if (!ElementMatches(actual, expected, i, params)) {
      return fmt::format("element {}: actual {}, expected {}", IndexText(actual.type().dims(), i),
                         ElementText(actual, i), ElementText(expected, i));
    }
  }
  return std::nullopt;
}

std::optional<CheckOp> DescribeCheckOp(const ir::Operation& op) {
  CheckOp check;
  CheckParams& params = check.params;
  auto tuned = [&](CheckKind kind) {
    params.kind = kind;
    if (auto* t = op.attribute("tolerance")) params.tolerance = t->AsFloat().value_or(params.tolerance);
    if (auto* m = op.attribute("max_ulp_difference")) params.max_ulp_difference = m->AsInt().value_or(1);
    if (auto* m = op.attribute("min_ulp_difference")) params.min_ulp_difference = m->AsInt().value_or(0);
  };
  auto with_value = [&]() -> bool {
    const ir::Attribute* value = op.attribute("value");
    check.expected_attribute = value ? value->AsDenseElements() : nullptr;
    return check.expected_attribute != nullptr;
  };
  switch (op.code()) {
    case ir::OpCode::kCheckExpectEq: tuned(CheckKind::kExact); return check;
    case ir::OpCode::kCheckExpectAlmostEq: tuned(CheckKind::kAlmost); return check;
    case ir::OpCode::kCheckExpectClose: tuned(CheckKind::kClose); return check;
    case ir::OpCode::kCheckExpectEqConst:
      tuned(CheckKind::kExact);
      return with_value() ? std::optional<CheckOp>(check) : std::nullopt;
    case ir::OpCode::kCheckExpectAlmostEqConst:
      tuned(CheckKind::kAlmost);
      return with_value() ? std::optional<CheckOp>(check) : std::nullopt;
    case ir::OpCode::kCustomCall: {
      const ir::Attribute* target = op.attribute("call_target_name");
      const std::string* name = target ? target->AsString() : nullptr;
      if (name == nullptr || op.num_operands() != 2) return std::nullopt;
      if (*name == "check.expect_eq") {
        params.kind = CheckKind::kExact;
      } else if (*name == "check.eq") {
        if (op.num_results() != 1) return std::nullopt;
        params.kind = CheckKind::kExact;
        check.returns_match = true;
      } else if (*name == "check.expect_almost_eq") {
        params.kind = CheckKind::kAlmost;
        params.tolerance = 1e-3;
      } else if (*name == "check.expect_close") {
        params.kind = CheckKind::kClose;
        params.max_ulp_difference = 3;
        params.min_ulp_difference = 0;
      } else {
        return std::nullopt;
      }
      return check;
    }
    default: return std::nullopt;
  }
}

}  // namespace vkhlo::interp
