#include "ir/element_type.h"

#include <array>
#include <string>

namespace vkhlo::ir {
namespace {

struct Info {
  std::string_view name;
  int bits;
};

constexpr std::array<Info, kNumElementTypes> kInfo = {{
    {"i1", 1},
    {"i2", 2}, {"i4", 4}, {"i8", 8}, {"i16", 16}, {"i32", 32}, {"i64", 64},
    {"ui2", 2}, {"ui4", 4}, {"ui8", 8}, {"ui16", 16}, {"ui32", 32}, {"ui64", 64},
    {"f4E2M1FN", 4}, {"f6E2M3FN", 6}, {"f6E3M2FN", 6},
    {"f8E3M4", 8}, {"f8E4M3", 8}, {"f8E4M3FN", 8}, {"f8E4M3FNUZ", 8}, {"f8E4M3B11FNUZ", 8},
    {"f8E5M2", 8}, {"f8E5M2FNUZ", 8}, {"f8E8M0FNU", 8},
    {"bf16", 16}, {"f16", 16}, {"f32", 32}, {"f64", 64},
    {"complex<f32>", 64}, {"complex<f64>", 128},
}};

}  // namespace

std::string_view ElementTypeName(ElementType type) { return kInfo[static_cast<int>(type)].name; }

std::optional<ElementType> ParseElementTypeName(std::string_view name) {
  for (int i = 0; i < kNumElementTypes; ++i) {
    if (kInfo[i].name == name) return static_cast<ElementType>(i);
  }
  // Explicitly signed spellings of the signed integers.
  if (name.size() > 2 && name.substr(0, 2) == "si") {
    std::string signless = "i" + std::string(name.substr(2));
    if (signless != "i1") {
      for (int i = static_cast<int>(ElementType::kS2); i <= static_cast<int>(ElementType::kS64); ++i) {
        if (kInfo[i].name == signless) return static_cast<ElementType>(i);
      }
    }
  }
  return std::nullopt;
}

bool IsBoolean(ElementType t) { return t == ElementType::kI1; }
bool IsSignedInteger(ElementType t) { return t >= ElementType::kS2 && t <= ElementType::kS64; }
bool IsUnsignedInteger(ElementType t) { return t >= ElementType::kU2 && t <= ElementType::kU64; }
bool IsInteger(ElementType t) { return IsSignedInteger(t) || IsUnsignedInteger(t); }
bool IsFloat(ElementType t) { return t >= ElementType::kF4E2M1FN && t <= ElementType::kF64; }
bool IsComplex(ElementType t) { return t == ElementType::kC64 || t == ElementType::kC128; }
int BitWidth(ElementType t) { return kInfo[static_cast<int>(t)].bits; }
int StorageBytes(ElementType t) { return BitWidth(t) <= 8 ? 1 : BitWidth(t) / 8; }

ElementType ComplexPartType(ElementType t) {
  if (t == ElementType::kC64) return ElementType::kF32;
  if (t == ElementType::kC128) return ElementType::kF64;
  return t;
}

const FloatFormat& GetFloatFormat(ElementType type) {
  //                                    exp man bias  inf    nan    ones   nz-nan sign
  static const FloatFormat kF4E2M1FN =     {2, 1, 1, false, false, false, false, true};
  static const FloatFormat kF6E2M3FN =     {2, 3, 1, false, false, false, false, true};
  static const FloatFormat kF6E3M2FN =     {3, 2, 3, false, false, false, false, true};
  static const FloatFormat kF8E3M4 =       {3, 4, 3, true, true, false, false, true};
  static const FloatFormat kF8E4M3 =       {4, 3, 7, true, true, false, false, true};
  static const FloatFormat kF8E4M3FN =     {4, 3, 7, false, true, true, false, true};
  static const FloatFormat kF8E4M3FNUZ =   {4, 3, 8, false, true, false, true, true};
  static const FloatFormat kF8E4M3B11FNUZ = {4, 3, 11, false, true, false, true, true};
  static const FloatFormat kF8E5M2 =       {5, 2, 15, true, true, false, false, true};
  static const FloatFormat kF8E5M2FNUZ =   {5, 2, 16, false, true, false, true, true};
  static const FloatFormat kF8E8M0FNU =    {8, 0, 127, false, true, true, false, false};
  static const FloatFormat kBF16 =         {8, 7, 127, true, true, false, false, true};
  static const FloatFormat kF16 =          {5, 10, 15, true, true, false, false, true};
  static const FloatFormat kF32 =          {8, 23, 127, true, true, false, false, true};
  static const FloatFormat kF64 =          {11, 52, 1023, true, true, false, false, true};
  switch (type) {
    case ElementType::kF4E2M1FN: return kF4E2M1FN;
    case ElementType::kF6E2M3FN: return kF6E2M3FN;
    case ElementType::kF6E3M2FN: return kF6E3M2FN;
    case ElementType::kF8E3M4: return kF8E3M4;
    case ElementType::kF8E4M3: return kF8E4M3;
    case ElementType::kF8E4M3FN: return kF8E4M3FN;
    case ElementType::kF8E4M3FNUZ: return kF8E4M3FNUZ;
    case ElementType::kF8E4M3B11FNUZ: return kF8E4M3B11FNUZ;
    case ElementType::kF8E5M2: return kF8E5M2;
    case ElementType::kF8E5M2FNUZ: return kF8E5M2FNUZ;
    case ElementType::kF8E8M0FNU: return kF8E8M0FNU;
    case ElementType::kBF16: return kBF16;
    case ElementType::kF16: return kF16;
    case ElementType::kF64: return kF64;
    default: return kF32;
  }
}

}  // namespace vkhlo::ir
