// Reading constants for rewrites: the literal behind a value, and element predicates that hold
// exactly for a StableHLO element type (-0.0 is not +0.0; NaN is no number).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ir/literal.h"
#include "ir/module.h"

namespace vkhlo::passes {

// The literal of the stablehlo.constant that defines `value`, or nullptr.
const ir::Literal* ConstantLiteral(const ir::Value* value);

// Whether `element(literal, index)` holds for every element. Non-splat literals larger than
// `max_elements` are not inspected (false): rewrites must stay cheap on big constants.
bool AllElements(const ir::Literal& literal,
                 const std::function<bool(const ir::Literal&, int64_t)>& element,
                 int64_t max_elements = 1 << 16);
// The same for the constant behind `value` (false when it is no constant or is quantized).
bool IsConstantWhere(const ir::Value* value,
                     const std::function<bool(const ir::Literal&, int64_t)>& element);

// Element predicates (by element type):
// x + e == x for every x: integer 0, false; float -0.0 (or the only zero of formats without
// -0.0); complex (-0.0, -0.0).
bool IsAdditiveIdentity(const ir::Literal& literal, int64_t index);
// x - e == x for every x: integer 0; float +0.0; complex (+0.0, +0.0).
bool IsSubtractiveIdentity(const ir::Literal& literal, int64_t index);
// x * e == x and x / e == x: integer 1, true, float 1.0 (not complex: inf * (1 + 0i) is NaN).
bool IsMultiplicativeIdentity(const ir::Literal& literal, int64_t index);
// Integer or boolean zero (not floats: 0.0 does not annihilate in IEEE arithmetic).
bool IsIntegerZero(const ir::Literal& literal, int64_t index);
// Integer or boolean with every bit set (-1, 255 for ui8, true).
bool IsAllOnes(const ir::Literal& literal, int64_t index);

// Whether two literal elements (of the same type) have the same bits.
bool SameElement(const ir::Literal& a, int64_t i, const ir::Literal& b, int64_t j);

// A splat literal of `type` repeating element `index` of `literal` (same element type).
StatusOr<ir::Literal> SplatOf(const ir::Literal& literal, int64_t index, const ir::Type& type);

// If all elements of the constant behind `value` are equal: that literal (else nullptr).
const ir::Literal* SplatConstant(const ir::Value* value);

}  // namespace vkhlo::passes
