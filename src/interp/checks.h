// The comparisons behind check.* ops and custom_call @check.*, as the StableHLO reference
// interpreter makes them (see ../shared/conformance/README.md):
//   exact        expect_eq(_const): integers and booleans bit for bit; floats by value (NaN never
//                equals NaN, +0 equals -0); complex both parts
//   almost       expect_almost_eq(_const): |actual - expected| <= tolerance; NaN matches NaN;
//                infinities and zeros match exactly unless the other side is a tiny finite
//                value within tolerance; complex both parts
//   close        expect_close: ULP distance of |value| bit patterns (opposite signs add) within
//                [min_ulp, max_ulp]; NaN matches any NaN; a non-finite value matches only the
//                identical one; complex: the larger of the parts' distances
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/literal.h"
#include "ir/module.h"

namespace vkhlo::interp {

enum class CheckKind { kExact, kAlmost, kClose };

struct CheckParams {
  CheckKind kind = CheckKind::kExact;
  double tolerance = 1e-4;      // kAlmost
  int64_t max_ulp_difference = 1;  // kClose
  int64_t min_ulp_difference = 0;
};

// nullopt when `actual` matches `expected`; otherwise a message naming the first mismatching
// element: "element [1, 0]: actual 2.5, expected 2.0" (or a type/shape mismatch).
std::optional<std::string> CompareLiterals(const ir::Literal& actual, const ir::Literal& expected,
                                           const CheckParams& params);

// A check op as data, shared by the interpreter and `vkhlo-run --check --device=vulkan` so both
// compare the same way: check.expect_eq / expect_almost_eq / expect_close (actual, expected),
// their _const forms (actual; expected in the `value` attribute), and custom_call @check.*
// (actual, expected; JAX's defaults: tolerance 1e-3, ulps [0, 3]); and custom_call @check.eq
// (expected, actual), the StableHLO reference interpreter's form in JAX's quantized test exports:
// an exact comparison whose tensor<i1> result says whether the operands match (a mismatch fails
// the test as any check does).
struct CheckOp {
  CheckParams params;
  // The expected literal when it is an attribute (the _const forms); null when it is an operand.
  const ir::Literal* expected_attribute = nullptr;
  bool returns_match = false;  // @check.eq
  size_t actual_operand() const { return returns_match ? 1 : 0; }
  size_t expected_operand() const { return returns_match ? 0 : 1; }
};
// nullopt when `op` is not a value-comparing check (probes, prints and other ops are not).
std::optional<CheckOp> DescribeCheckOp(const ir::Operation& op);

}  // namespace vkhlo::interp
