// See requantize.h.
#include "ir/requantize.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ir/literal.h"

namespace vkhlo::ir {
namespace {

double RoundToExpressed(ElementType expressed, double v) {
  if (expressed == ElementType::kF64) return v;
  return DecodeFloat(expressed, EncodeFloat(expressed, v));
}

// y / 2^shift rounded to nearest, ties to even (shift >= 1, |y| < 2^62).
int64_t ShiftRoundHalfEven(int64_t y, int shift) {
  if (shift >= 63) return 0;  // |y| < 2^62 <= 2^(shift - 1): below one half
  const int64_t floor = y >> shift;  // arithmetic: rounds toward -infinity
  const int64_t remainder = y - floor * (int64_t{1} << shift);
  const int64_t half = int64_t{1} << (shift - 1);
  if (remainder > half || (remainder == half && (floor & 1) != 0)) return floor + 1;
  return floor;
}

}  // namespace

StatusOr<RequantizeMultiplier> RequantizeMultiplierFor(ElementType expressed, double lhs_scale, double rhs_scale,
                                                       double result_scale) {
  const double sa = RoundToExpressed(expressed, lhs_scale);
  const double sb = RoundToExpressed(expressed, rhs_scale);
  const double so = RoundToExpressed(expressed, result_scale);
  const float m = static_cast<float>((sa * sb) / so);
  if (!std::isfinite(m) || m < 0) {
    return InvalidArgumentError(fmt::format("requantization multiplier {} * {} / {} is not a finite positive f32",
                                            sa, sb, so));
  }
  RequantizeMultiplier out;
  if (m == 0) return out;
  int e = 0;
  const double significand = std::frexp(static_cast<double>(m), &e);  // m = significand * 2^e, [0.5, 1)
  out.mantissa = static_cast<int32_t>(std::ldexp(significand, 24));  // exact: m has 24 bits
  out.exponent = e - 24;
  return out;
}

int64_t Requantize(int32_t acc, const RequantizeMultiplier& m, int64_t zero_point, int64_t lo, int64_t hi) {
  const int64_t y = static_cast<int64_t>(acc) * m.mantissa;  // |y| < 2^55
  // acc * M saturated to a range wider than any [lo - zp, hi - zp] of 32-bit storage.
  constexpr int64_t kSaturate = int64_t{1} << 40;
  int64_t r = 0;
  if (m.exponent >= 0) {
    r = m.exponent >= 20 ? (y > 0 ? kSaturate : y < 0 ? -kSaturate : 0)
                         : std::clamp<int64_t>(y, -kSaturate, kSaturate) * (int64_t{1} << m.exponent);
    r = std::clamp(r, -kSaturate, kSaturate);
  } else {
    r = ShiftRoundHalfEven(y, -m.exponent);
  }
  return std::clamp(r + zero_point, lo, hi);
}

std::pair<int64_t, int64_t> QuantizedStorageRange(const QuantizedElement& q) {
  if (q.storage_min < q.storage_max) return {q.storage_min, q.storage_max};
  const int bits = BitWidth(q.storage);
  if (IsUnsignedInteger(q.storage)) {
    return {0, bits >= 63 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << bits) - 1};
  }
  if (bits >= 64) return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  return {-(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1};
}

}  // namespace vkhlo::ir
