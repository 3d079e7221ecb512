#include "tests/passes/interp_compare.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace vkhlo::testing {
namespace {

using ir::ElementType;

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

const std::vector<double>& FloatEdges() {
  static const std::vector<double> edges = {0.0, -0.0, 1.0, -1.0, 0.5,  -2.5, 3.0, kInf,
                                            -kInf, kNaN, 1e-40, 65504.0, 7.0, -1e-3};
  return edges;
}

const std::vector<int64_t>& IntEdges() {
  static const std::vector<int64_t> edges = {0, 1, -1, 2, 7, -128, 127, 255,
                                             std::numeric_limits<int64_t>::min(),
                                             std::numeric_limits<int64_t>::max(), 100, -3,
                                             std::numeric_limits<int32_t>::min()};
  return edges;
}

template <typename Fill>
bool MakeArguments(const ir::Function& function, interp::InterpValues& arguments, Fill fill) {
  arguments.clear();
  for (size_t a = 0; a < function.type().inputs.size(); ++a) {
    const ir::Type& type = function.type().inputs[a];
    if (!type.is_tensor() || type.is_quantized()) return false;
    auto literal = ir::Literal::Create(type);
    if (!literal.ok()) return false;
    for (int64_t i = 0; i < type.num_elements(); ++i) fill(*literal, static_cast<int64_t>(a), i);
    arguments.push_back(interp::InterpValue::Tensor(std::move(*literal)));
  }
  return true;
}

bool IsNaN(const ir::Literal& l, int64_t i) {
  const ElementType t = l.element_type();
  return ir::IsFloat(t) && std::isnan(l.GetFloat(i));
}

std::string Describe(const ir::Literal& l, int64_t i) {
  const ElementType t = l.element_type();
  if (ir::IsComplex(t)) {
    auto c = l.GetComplex(i);
    return "(" + std::to_string(c.real()) + ", " + std::to_string(c.imag()) + ")";
  }
  return ir::FormatScalar(t, l.GetBits(i));
}

template <typename Same>
std::string Compare(const interp::InterpValues& expected, const interp::InterpValues& actual, Same same) {
  if (expected.size() != actual.size()) {
    return "different numbers of results: " + std::to_string(expected.size()) + " and " +
           std::to_string(actual.size());
  }
  for (size_t r = 0; r < expected.size(); ++r) {
    if (!expected[r].is_tensor() || !actual[r].is_tensor()) {
      if (expected[r].ToString() != actual[r].ToString()) return "result " + std::to_string(r) + " differs";
      continue;
    }
    const ir::Literal& e = expected[r].literal();
    const ir::Literal& a = actual[r].literal();
    if (e.type() != a.type()) {
      return "result " + std::to_string(r) + ": type " + e.type().ToString() + " became " +
             a.type().ToString();
    }
    for (int64_t i = 0; i < e.num_elements(); ++i) {
      if (!same(e, a, i)) {
        return "result " + std::to_string(r) + " element " + std::to_string(i) + ": expected " +
               Describe(e, i) + ", found " + Describe(a, i);
      }
    }
  }
  return "";
}

bool CloseReal(double e, double a, double tolerance) {
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (std::isinf(e) || std::isinf(a)) return e == a;
  return std::abs(e - a) <= tolerance * std::max(1.0, std::abs(e));
}

}  // namespace

// Every value of `type` (bit patterns up to 16 bits), or a set of edge values.
ir::Literal AllValues(ElementType type) {
  const int width = ir::BitWidth(type);
  const bool enumerate = !ir::IsComplex(type) && width <= 16;
  const int64_t n = enumerate ? int64_t{1} << width : 16;
  ir::Literal literal = ir::Literal::Create(ir::Type::Tensor(type, {n})).value();
  const double edges[] = {0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 65504.0, 70000.0, 1e-40, 1e30,
                          std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN(), -255.0, 2147483647.0, -7.25};
  for (int64_t i = 0; i < n; ++i) {
    if (!enumerate) {
      if (ir::IsComplex(type)) {
        literal.SetComplex(i, {edges[i], edges[(i * 5 + 1) % n]});
      } else if (ir::IsFloat(type)) {
        literal.SetFloat(i, edges[i]);
      } else {
        const int64_t ints[] = {0, 1, -1, 2, 127, -128, 255, 256, 65535, 65536, INT32_MIN, INT32_MAX,
                                INT64_MIN, INT64_MAX, 1 << 24, (1 << 24) + 1};
        literal.SetInt(i, ints[i]);
      }
    } else if (ir::IsFloat(type)) {
      literal.SetBits(i, static_cast<uint64_t>(i));
    } else {
      literal.SetInt(i, ir::IsSignedInteger(type) ? i - (n / 2) : i);
    }
  }
  return literal;
}


bool EdgeCaseArguments(const ir::Function& function, int seed, interp::InterpValues& arguments) {
  return MakeArguments(function, arguments, [&](ir::Literal& l, int64_t arg, int64_t i) {
    const ElementType t = l.element_type();
    const size_t k = static_cast<size_t>(i + 3 * seed + 5 * arg);
    if (ir::IsComplex(t)) {
      const auto& f = FloatEdges();
      l.SetComplex(i, {f[k % f.size()], f[(k * 7 + 3) % f.size()]});
    } else if (ir::IsFloat(t)) {
      l.SetFloat(i, FloatEdges()[k % FloatEdges().size()]);
    } else {
      l.SetInt(i, IntEdges()[k % IntEdges().size()]);
    }
  });
}

bool RandomArguments(const ir::Function& function, uint32_t seed, interp::InterpValues& arguments) {
  std::mt19937 gen(seed);
  return MakeArguments(function, arguments, [&](ir::Literal& l, int64_t, int64_t i) {
    const ElementType t = l.element_type();
    if (ir::IsComplex(t) || ir::IsFloat(t)) {
      std::uniform_real_distribution<double> d(-2.0, 2.0);
      l.SetComplex(i, {d(gen), ir::IsComplex(t) ? d(gen) : 0.0});
    } else {
      std::uniform_int_distribution<int> d(-4, 4);
      l.SetInt(i, d(gen));
    }
  });
}

std::string CompareExactly(const interp::InterpValues& expected, const interp::InterpValues& actual) {
  return Compare(expected, actual, [](const ir::Literal& e, const ir::Literal& a, int64_t i) {
    if (ir::IsComplex(e.element_type())) {
      auto x = e.GetComplex(i), y = a.GetComplex(i);
      auto same_part = [](double p, double q) {
        return (std::isnan(p) && std::isnan(q)) || (p == q && std::signbit(p) == std::signbit(q));
      };
      return same_part(x.real(), y.real()) && same_part(x.imag(), y.imag());
    }
    return e.GetBits(i) == a.GetBits(i) || (IsNaN(e, i) && IsNaN(a, i));
  });
}

std::string CompareClose(const interp::InterpValues& expected, const interp::InterpValues& actual,
                         double tolerance) {
  return Compare(expected, actual, [&](const ir::Literal& e, const ir::Literal& a, int64_t i) {
    if (ir::IsComplex(e.element_type())) {
      auto x = e.GetComplex(i), y = a.GetComplex(i);
      return CloseReal(x.real(), y.real(), tolerance) && CloseReal(x.imag(), y.imag(), tolerance);
    }
    if (!ir::IsFloat(e.element_type())) return e.GetBits(i) == a.GetBits(i);
    return CloseReal(e.GetFloat(i), a.GetFloat(i), tolerance);
  });
}

}  // namespace vkhlo::testing
