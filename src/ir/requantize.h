// The one definition of a quantized contraction's result: how `dot_general`, `dot` and
// `convolution` with quantized lhs, rhs and result turn their integer sum into stored values.
// The interpreter (the oracle, src/interp/library_quantized.cc) and the device kernels
// (codegen/library) both compute exactly this, so their results are equal bit for bit.
//
//   acc  = sum over k of (a_k - za) * (b_k - zb)     as a 32-bit integer, wrapping modulo 2^32
//                                                     (padding of a convolution adds nothing)
//   M    = f32( (sa * sb) / so )                      each scale first rounded to the expressed
//                                                     type, the product and quotient in double
//   q    = clamp(round_half_even(acc * M) + zo, lo, hi)   with acc * M taken exactly
//
// with za / sa the lhs's (per-tensor) parameters, zb / sb the rhs's (per tensor, or of the
// output channel for per-axis weights), zo / so the result's, and [lo, hi] the result's
// storage_min:storage_max (the storage type's range when not given).
//
// Why not the float formula (dequantize, float op, quantize)? It rounds every dequantized value,
// product and partial sum to f32 and depends on the summation order, which no fast kernel
// keeps; it differs from the exact sum by up to one stored unit at rounding boundaries. The
// integer form is what int8 hardware computes (a wrapping i32 accumulator, zero points
// subtracted), and its requantization is exact: M's 24-bit significand times a 32-bit
// accumulator is at most 56 bits, rounded once. An i32 result with so = sa * sb (the
// accumulator form) therefore holds acc itself.
#pragma once

#include <cstdint>
#include <utility>

#include "ir/type.h"
#include "vkhlo/status.h"

namespace vkhlo::ir {

// M = mantissa * 2^exponent, 0 <= mantissa < 2^24 (M's f32 significand as an integer).
struct RequantizeMultiplier {
  int32_t mantissa = 0;
  int32_t exponent = 0;
  bool operator==(const RequantizeMultiplier&) const = default;
};

// M for scales (as the types hold them) of expressed type `expressed`. An error when M is not
// finite in f32 (scales so far apart that no stored value could be represented).
StatusOr<RequantizeMultiplier> RequantizeMultiplierFor(ElementType expressed, double lhs_scale, double rhs_scale,
                                                       double result_scale);

// q = clamp(round_half_even(acc * M) + zero_point, lo, hi), exactly (no overflow for any input).
int64_t Requantize(int32_t acc, const RequantizeMultiplier& m, int64_t zero_point, int64_t lo, int64_t hi);

// The storage range [lo, hi] of a quantized element: storage_min:storage_max, or the storage
// type's whole range when they are not given.
std::pair<int64_t, int64_t> QuantizedStorageRange(const QuantizedElement& q);

// The attribute quantized-decompose puts on a contraction it leaves to the integer kernels:
// the op then runs on storage tensors, and this array of three types (lhs, rhs, result: the
// quantized or float types the op had) says what the stored values mean.
inline constexpr const char* kQuantizedTypesAttribute = "vkhlo.quantized_types";

}  // namespace vkhlo::ir
