// Element types of StableHLO tensors, with their MLIR spellings ("i1", "ui8", "f8E4M3FN",
// "complex<f32>") and bit-level facts. Signless MLIR integers (i8, i32, ...) are StableHLO's
// signed integers (si8, si32, ...); "si32" is accepted on input and printed as "i32".
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace vkhlo::ir {

enum class ElementType : uint8_t {
  kI1,  // boolean
  kS2, kS4, kS8, kS16, kS32, kS64,
  kU2, kU4, kU8, kU16, kU32, kU64,
  // Narrow floats (OCP / ML formats), by MLIR name.
  kF4E2M1FN, kF6E2M3FN, kF6E3M2FN,
  kF8E3M4, kF8E4M3, kF8E4M3FN, kF8E4M3FNUZ, kF8E4M3B11FNUZ, kF8E5M2, kF8E5M2FNUZ, kF8E8M0FNU,
  kBF16, kF16, kF32, kF64,
  kC64,   // complex<f32>
  kC128,  // complex<f64>
};
inline constexpr int kNumElementTypes = static_cast<int>(ElementType::kC128) + 1;

// "i1", "i32", "ui8", "f8E4M3FN", "bf16", "complex<f32>".
std::string_view ElementTypeName(ElementType type);
// Accepts MLIR spellings (and "si<N>" for signed integers). nullopt if unknown.
std::optional<ElementType> ParseElementTypeName(std::string_view name);

bool IsBoolean(ElementType type);
bool IsSignedInteger(ElementType type);    // si2..si64
bool IsUnsignedInteger(ElementType type);  // ui2..ui64
bool IsInteger(ElementType type);          // signed or unsigned (not i1)
bool IsFloat(ElementType type);            // f4..f64
bool IsComplex(ElementType type);
// Bits of one value (i1: 1, si4: 4, bf16: 16, complex<f32>: 64).
int BitWidth(ElementType type);
// Bytes one element takes in a Literal: i1 and sub-byte types take one byte each.
int StorageBytes(ElementType type);
// For complex types, the part type (f32 / f64); otherwise the type itself.
ElementType ComplexPartType(ElementType type);

// Facts of a float format: exponent and mantissa bits, bias, and which special values it has.
struct FloatFormat {
  int exponent_bits;
  int mantissa_bits;  // explicit (stored) mantissa bits
  int bias;
  bool has_infinity;     // IEEE-style infinities
  bool has_nan;
  bool nan_is_all_ones;  // FN formats: NaN only with all exponent and mantissa bits set
  bool negative_zero_is_nan;  // FNUZ formats: the 1000...0 pattern is the single NaN
  bool has_sign;         // false for E8M0FNU
};
// The format of a float element type (IsFloat must hold).
const FloatFormat& GetFloatFormat(ElementType type);

}  // namespace vkhlo::ir
