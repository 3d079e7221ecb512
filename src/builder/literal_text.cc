#include "builder/literal_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "builder/type_conversion.h"
#include "ir/literal.h"

namespace vkhlo::internal {
namespace {

// Shortest "%g" text that reads back (strtod, then rounding into `type`) to `bits`.
std::string FloatToString(ir::ElementType type, uint64_t bits) {
  const double value = ir::DecodeFloat(type, bits);
  if (std::isnan(value)) return std::signbit(value) ? "-nan" : "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  // Numbers below 1e6 keep their integer digits rather than switch to exponent form at the
  // shortest precision (448, not 4.5e+02, for f8e4m3fn's largest value).
  const double magnitude = std::abs(value);
  const int integer_digits = magnitude >= 1 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 1;
  for (int precision = 1; precision <= 17; ++precision) {
    const double parsed = std::strtod(fmt::format("{:.{}g}", value, precision).c_str(), nullptr);
    if (ir::EncodeFloat(type, parsed) == bits) {
      return fmt::format("{:.{}g}", value, std::max(precision, std::min(integer_digits, 6)));
    }
  }
  return fmt::format("{:.17g}", value);
}

}  // namespace

uint64_t LoadBits(const uint8_t* storage, int bytes) {
  uint64_t bits = 0;
  for (int i = bytes - 1; i >= 0; --i) bits = (bits << 8) | storage[i];
  return bits;
}

std::string ElementToString(PrimitiveType type, const uint8_t* storage) {
  const std::optional<ir::ElementType> element = ToElementType(type);
  if (!element) return "?";
  const int bytes = primitive_util::ByteWidth(type);
  if (type == PRED) return storage[0] != 0 ? "true" : "false";
  if (primitive_util::IsSignedIntegralType(type)) {
    const uint64_t bits = LoadBits(storage, bytes);
    const int shift = 64 - 8 * bytes;
    return fmt::format("{}", static_cast<int64_t>(bits << shift) >> shift);
  }
  if (primitive_util::IsUnsignedIntegralType(type)) return fmt::format("{}", LoadBits(storage, bytes));
  if (primitive_util::IsComplexType(type)) {
    const int half = bytes / 2;
    const ir::ElementType part = ir::ComplexPartType(*element);
    return fmt::format("({}, {})", FloatToString(part, LoadBits(storage, half)),
                       FloatToString(part, LoadBits(storage + half, half)));
  }
  return FloatToString(*element, LoadBits(storage, bytes));
}

}  // namespace vkhlo::internal
