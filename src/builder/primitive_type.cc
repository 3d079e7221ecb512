#include "vkhlo/primitive_type.h"

#include <string>
#include <utility>

namespace vkhlo {
namespace {

struct Names {
  PrimitiveType type;
  std::string_view lower;
  std::string_view upper;
  std::string_view stablehlo;  // TensorType's spelling; "" for non-array types
};

constexpr Names kNames[] = {
    {PRED, "pred", "PRED", "i1"},
    {S2, "s2", "S2", "i2"},
    {S4, "s4", "S4", "i4"},
    {S8, "s8", "S8", "i8"},
    {S16, "s16", "S16", "i16"},
    {S32, "s32", "S32", "i32"},
    {S64, "s64", "S64", "i64"},
    {U2, "u2", "U2", "ui2"},
    {U4, "u4", "U4", "ui4"},
    {U8, "u8", "U8", "ui8"},
    {U16, "u16", "U16", "ui16"},
    {U32, "u32", "U32", "ui32"},
    {U64, "u64", "U64", "ui64"},
    {F16, "f16", "F16", "f16"},
    {F32, "f32", "F32", "f32"},
    {BF16, "bf16", "BF16", "bf16"},
    {F64, "f64", "F64", "f64"},
    {F8E5M2, "f8e5m2", "F8E5M2", "f8E5M2"},
    {F8E4M3FN, "f8e4m3fn", "F8E4M3FN", "f8E4M3FN"},
    {F8E4M3B11FNUZ, "f8e4m3b11fnuz", "F8E4M3B11FNUZ", "f8E4M3B11FNUZ"},
    {F8E5M2FNUZ, "f8e5m2fnuz", "F8E5M2FNUZ", "f8E5M2FNUZ"},
    {F8E4M3FNUZ, "f8e4m3fnuz", "F8E4M3FNUZ", "f8E4M3FNUZ"},
    {F8E4M3, "f8e4m3", "F8E4M3", "f8E4M3"},
    {F8E3M4, "f8e3m4", "F8E3M4", "f8E3M4"},
    {F4E2M1FN, "f4e2m1fn", "F4E2M1FN", "f4E2M1FN"},
    {F8E8M0FNU, "f8e8m0fnu", "F8E8M0FNU", "f8E8M0FNU"},
    {F6E2M3FN, "f6e2m3fn", "F6E2M3FN", "f6E2M3FN"},
    {F6E3M2FN, "f6e3m2fn", "F6E3M2FN", "f6E3M2FN"},
    {C64, "c64", "C64", "complex<f32>"},
    {C128, "c128", "C128", "complex<f64>"},
    {TUPLE, "tuple", "TUPLE", ""},
    {TOKEN, "token", "TOKEN", ""},
};

const Names* Find(PrimitiveType type) {
  for (const Names& names : kNames) {
    if (names.type == type) return &names;
  }
  return nullptr;
}

}  // namespace

namespace primitive_util {

std::string_view LowercasePrimitiveTypeName(PrimitiveType type) {
  const Names* names = Find(type);
  return names == nullptr ? "invalid" : names->lower;
}

PrimitiveType StringToPrimitiveType(std::string_view name) {
  for (const Names& names : kNames) {
    if (names.lower == name) return names.type;
  }
  return PRIMITIVE_TYPE_INVALID;
}

std::string_view StableHloElementTypeName(PrimitiveType type) {
  const Names* names = Find(type);
  return names == nullptr ? std::string_view() : names->stablehlo;
}

PrimitiveType PrimitiveTypeFromStableHloName(std::string_view name) {
  if (name.starts_with("si")) name.remove_prefix(1);  // "si32" is "i32"
  if (name.empty()) return PRIMITIVE_TYPE_INVALID;
  for (const Names& names : kNames) {
    if (names.stablehlo == name) return names.type;
  }
  return PRIMITIVE_TYPE_INVALID;
}

bool IsValidPrimitiveType(PrimitiveType type) { return Find(type) != nullptr; }
bool IsArrayType(PrimitiveType type) { return IsValidPrimitiveType(type) && type != TUPLE && type != TOKEN; }
bool IsPredType(PrimitiveType type) { return type == PRED; }

bool IsSignedIntegralType(PrimitiveType type) {
  return type == S2 || type == S4 || type == S8 || type == S16 || type == S32 || type == S64;
}

bool IsUnsignedIntegralType(PrimitiveType type) {
  return type == U2 || type == U4 || type == U8 || type == U16 || type == U32 || type == U64;
}

bool IsIntegralType(PrimitiveType type) { return IsSignedIntegralType(type) || IsUnsignedIntegralType(type); }

bool IsComplexType(PrimitiveType type) { return type == C64 || type == C128; }

bool IsFloatingPointType(PrimitiveType type) {
  return IsArrayType(type) && !IsPredType(type) && !IsIntegralType(type) && !IsComplexType(type);
}

PrimitiveType ComplexComponentType(PrimitiveType type) {
  if (type == C64) return F32;
  if (type == C128) return F64;
  return type;
}

}  // namespace primitive_util

std::string PrimitiveType_Name(PrimitiveType type) {
  const Names* names = Find(type);
  return names == nullptr ? "PRIMITIVE_TYPE_INVALID" : std::string(names->upper);
}

}  // namespace vkhlo
