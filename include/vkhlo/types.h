// Host C++ types for element types C++ has no type for, and the mapping from host types to
// PrimitiveType.
//
//   vkhlo::bfloat16, vkhlo::half, vkhlo::float8_e4m3fn, vkhlo::float8_e5m2 (and the other
//   narrow floats): a value type holding the format's bit pattern. Conversions from float and
//   double round to nearest, ties to even, exactly (one rounding from the source value);
//   conversions to float/double are exact. Both directions are explicit, as with Eigen's
//   bfloat16 and ml_dtypes' float8 types, so no arithmetic silently happens in a wider type.
//   vkhlo::int4, uint4, int2, uint2: sub-byte integers, one per byte (as Literals store them);
//   construction wraps to the width.
//   complex64 / complex128: std::complex<float> / std::complex<double>.
//
// The size of each host type equals the bytes its element takes in a Literal, so
// `literal.data<vkhlo::bfloat16>()` is a view of the literal's storage.
#pragma once

#include <complex>
#include <cstdint>
#include <type_traits>

#include "vkhlo/primitive_type.h"

namespace vkhlo {

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

namespace internal {
// Exact conversions between a float format's bit pattern and double (round to nearest even
// into the format; NaN stays NaN; overflow follows the format: infinity, or NaN for formats
// without one).
uint64_t EncodeNarrowFloat(PrimitiveType type, double value);
double DecodeNarrowFloat(PrimitiveType type, uint64_t bits);
}  // namespace internal

// A narrow float format `kType` stored in `Bits`.
template <PrimitiveType kType, typename Bits>
class NarrowFloat {
 public:
  static constexpr PrimitiveType kPrimitiveType = kType;

  constexpr NarrowFloat() = default;  // +0
  explicit NarrowFloat(float value)
      : bits_(static_cast<Bits>(internal::EncodeNarrowFloat(kType, static_cast<double>(value)))) {}
  explicit NarrowFloat(double value) : bits_(static_cast<Bits>(internal::EncodeNarrowFloat(kType, value))) {}
  // Integers and other arithmetic types go through double (exact for |value| < 2^53).
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, float> &&
                                                    !std::is_same_v<T, double>>>
  explicit NarrowFloat(T value) : NarrowFloat(static_cast<double>(value)) {}

  static constexpr NarrowFloat FromBits(Bits bits) {
    NarrowFloat value;
    value.bits_ = bits;
    return value;
  }
  constexpr Bits bits() const { return bits_; }

  explicit operator double() const { return internal::DecodeNarrowFloat(kType, bits_); }
  // Exact: every narrow format's values are floats.
  explicit operator float() const { return static_cast<float>(static_cast<double>(*this)); }

  // IEEE comparison of the values (NaN is unequal to everything, -0 == +0).
  friend bool operator==(NarrowFloat a, NarrowFloat b) { return static_cast<double>(a) == static_cast<double>(b); }
  friend bool operator!=(NarrowFloat a, NarrowFloat b) { return !(a == b); }
  friend bool operator<(NarrowFloat a, NarrowFloat b) { return static_cast<double>(a) < static_cast<double>(b); }
  // Flips the sign bit (F8E8M0FNU has none).
  NarrowFloat operator-() const
    requires(kType != F8E8M0FNU)
  {
    return FromBits(static_cast<Bits>(bits_ ^ kSignBit));
  }

 private:
  static constexpr Bits kSignBit = static_cast<Bits>(
      kType == F4E2M1FN ? 0x8 : (kType == F6E2M3FN || kType == F6E3M2FN) ? 0x20 : Bits(1) << (sizeof(Bits) * 8 - 1));
  Bits bits_ = 0;
};

using bfloat16 = NarrowFloat<BF16, uint16_t>;
using half = NarrowFloat<F16, uint16_t>;
using float8_e4m3fn = NarrowFloat<F8E4M3FN, uint8_t>;
using float8_e5m2 = NarrowFloat<F8E5M2, uint8_t>;
using float8_e4m3 = NarrowFloat<F8E4M3, uint8_t>;
using float8_e4m3fnuz = NarrowFloat<F8E4M3FNUZ, uint8_t>;
using float8_e4m3b11fnuz = NarrowFloat<F8E4M3B11FNUZ, uint8_t>;
using float8_e5m2fnuz = NarrowFloat<F8E5M2FNUZ, uint8_t>;
using float8_e3m4 = NarrowFloat<F8E3M4, uint8_t>;
using float8_e8m0fnu = NarrowFloat<F8E8M0FNU, uint8_t>;
using float6_e2m3fn = NarrowFloat<F6E2M3FN, uint8_t>;
using float6_e3m2fn = NarrowFloat<F6E3M2FN, uint8_t>;
using float4_e2m1fn = NarrowFloat<F4E2M1FN, uint8_t>;

// A `kBits`-bit integer kept in one byte (sign- or zero-extended), as Literals store S2/S4/U2/U4.
template <int kBits, bool kSigned>
class SubByteInt {
 public:
  using Storage = std::conditional_t<kSigned, int8_t, uint8_t>;
  static constexpr PrimitiveType kPrimitiveType =
      kSigned ? (kBits == 2 ? S2 : S4) : (kBits == 2 ? U2 : U4);

  constexpr SubByteInt() = default;
  // Wraps to kBits bits (two's complement), as a conversion to a narrower C++ integer does.
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
  constexpr explicit SubByteInt(T value) : value_(Wrap(static_cast<int64_t>(value))) {}

  constexpr operator int() const { return value_; }  // NOLINT(implicit): reads like an int
  constexpr Storage value() const { return value_; }

 private:
  static constexpr Storage Wrap(int64_t v) {
    const uint64_t mask = (uint64_t{1} << kBits) - 1;
    uint64_t bits = static_cast<uint64_t>(v) & mask;
    if (kSigned && (bits >> (kBits - 1)) != 0) return static_cast<Storage>(static_cast<int64_t>(bits) - (int64_t{1} << kBits));
    return static_cast<Storage>(bits);
  }
  Storage value_ = 0;
};

using int4 = SubByteInt<4, true>;
using uint4 = SubByteInt<4, false>;
using int2 = SubByteInt<2, true>;
using uint2 = SubByteInt<2, false>;

namespace primitive_util {

namespace internal_types {
template <typename T, typename = void>
struct HasPrimitiveType : std::false_type {};
template <typename T>
struct HasPrimitiveType<T, std::void_t<decltype(T::kPrimitiveType)>> : std::true_type {};
}  // namespace internal_types

// The PrimitiveType of a host type: bool -> PRED, int32_t -> S32, uint8_t -> U8, float -> F32,
// complex64 -> C64, bfloat16 -> BF16, int4 -> S4, ... PRIMITIVE_TYPE_INVALID for other types.
template <typename T>
constexpr PrimitiveType NativeToPrimitiveType() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return PRED;
  } else if constexpr (std::is_integral_v<U>) {
    constexpr bool kSigned = std::is_signed_v<U>;
    if constexpr (sizeof(U) == 1) return kSigned ? S8 : U8;
    if constexpr (sizeof(U) == 2) return kSigned ? S16 : U16;
    if constexpr (sizeof(U) == 4) return kSigned ? S32 : U32;
    if constexpr (sizeof(U) == 8) return kSigned ? S64 : U64;
    return PRIMITIVE_TYPE_INVALID;
  } else if constexpr (std::is_same_v<U, float>) {
    return F32;
  } else if constexpr (std::is_same_v<U, double>) {
    return F64;
  } else if constexpr (std::is_same_v<U, complex64>) {
    return C64;
  } else if constexpr (std::is_same_v<U, complex128>) {
    return C128;
  } else if constexpr (internal_types::HasPrimitiveType<U>::value) {
    return U::kPrimitiveType;
  } else {
    return PRIMITIVE_TYPE_INVALID;
  }
}

}  // namespace primitive_util
}  // namespace vkhlo
