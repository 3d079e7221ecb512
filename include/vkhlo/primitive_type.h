// PrimitiveType: the element types of XLA shapes (`vkhlo::F32`, `vkhlo::PRED`, ...), with XLA's
// enumerator names and numbers, so that code written against xla_data.proto reads the same.
//
// Each maps one to one to a StableHLO element type (PRED -> i1, S32 -> i32, U8 -> ui8,
// F8E4M3FN -> f8E4M3FN, C64 -> complex<f32>); TUPLE and TOKEN are the kinds of non-array shapes.
//
// primitive_util holds the facts about them (names, widths, classes) and the mapping from host
// C++ types (`NativeToPrimitiveType<float>() == F32`; host types for the narrow ones are in
// vkhlo/types.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace vkhlo {

// Numbers follow xla_data.proto.
enum PrimitiveType : int {
  PRIMITIVE_TYPE_INVALID = 0,
  PRED = 1,
  S2 = 26,
  S4 = 21,
  S8 = 2,
  S16 = 3,
  S32 = 4,
  S64 = 5,
  U2 = 27,
  U4 = 22,
  U8 = 6,
  U16 = 7,
  U32 = 8,
  U64 = 9,
  F16 = 10,
  F32 = 11,
  BF16 = 16,
  F64 = 12,
  // Narrow floats (OCP and ML formats), by their MLIR names.
  F8E5M2 = 19,
  F8E4M3FN = 20,
  F8E4M3B11FNUZ = 23,
  F8E5M2FNUZ = 24,
  F8E4M3FNUZ = 25,
  F8E4M3 = 28,
  F8E3M4 = 29,
  F4E2M1FN = 32,
  F8E8M0FNU = 33,
  F6E2M3FN = 34,
  F6E3M2FN = 35,
  C64 = 15,   // complex<f32>
  C128 = 18,  // complex<f64>
  TUPLE = 13,
  TOKEN = 17,
};

namespace primitive_util {

// XLA's lowercase names: "pred", "s32", "u8", "bf16", "f8e4m3fn", "c64", "tuple", "token".
// "invalid" for anything else.
std::string_view LowercasePrimitiveTypeName(PrimitiveType type);
// The inverse of LowercasePrimitiveTypeName; PRIMITIVE_TYPE_INVALID when unknown.
PrimitiveType StringToPrimitiveType(std::string_view name);

// The StableHLO (MLIR) spelling that TensorType uses: "i1" for PRED, "i32", "ui8", "bf16",
// "f8E4M3FN", "complex<f32>" for C64; "" for TUPLE, TOKEN and anything else.
std::string_view StableHloElementTypeName(PrimitiveType type);
// The inverse of StableHloElementTypeName (also taking "si32" for "i32");
// PRIMITIVE_TYPE_INVALID when unknown.
PrimitiveType PrimitiveTypeFromStableHloName(std::string_view name);

bool IsValidPrimitiveType(PrimitiveType type);  // one of the enumerators above, not INVALID
bool IsArrayType(PrimitiveType type);           // an element type (not TUPLE/TOKEN/INVALID)
bool IsPredType(PrimitiveType type);
bool IsSignedIntegralType(PrimitiveType type);
bool IsUnsignedIntegralType(PrimitiveType type);
bool IsIntegralType(PrimitiveType type);  // signed or unsigned, not PRED
bool IsFloatingPointType(PrimitiveType type);
bool IsComplexType(PrimitiveType type);
// Bits of one value (PRED: 1, S4: 4, C64: 64); 0 for non-array types.
constexpr int BitWidth(PrimitiveType type) {
  switch (type) {
    case PRED: return 1;
    case S2: case U2: return 2;
    case S4: case U4: case F4E2M1FN: return 4;
    case F6E2M3FN: case F6E3M2FN: return 6;
    case S8: case U8: case F8E5M2: case F8E4M3FN: case F8E4M3B11FNUZ: case F8E5M2FNUZ:
    case F8E4M3FNUZ: case F8E4M3: case F8E3M4: case F8E8M0FNU: return 8;
    case S16: case U16: case F16: case BF16: return 16;
    case S32: case U32: case F32: return 32;
    case S64: case U64: case F64: case C64: return 64;
    case C128: return 128;
    default: return 0;
  }
}
// Bytes one element takes in a Literal: PRED, S2/S4/U2/U4, F4/F6/F8 take one byte each;
// 0 for non-array types.
constexpr int ByteWidth(PrimitiveType type) {
  const int bits = BitWidth(type);
  return bits == 0 ? 0 : bits <= 8 ? 1 : bits / 8;
}
// F32 for C64, F64 for C128; the type itself otherwise.
PrimitiveType ComplexComponentType(PrimitiveType type);

}  // namespace primitive_util

// The enumerator's name, as protobuf spells it: "F32", "PRED", "F8E4M3FN".
std::string PrimitiveType_Name(PrimitiveType type);

}  // namespace vkhlo
