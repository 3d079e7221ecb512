#include "ir/literal.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <new>

#include "support/host_memory.h"

namespace vkhlo::ir {
namespace {

uint64_t LowMask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

int64_t SignExtend(uint64_t bits, int width) {
  if (width >= 64) return static_cast<int64_t>(bits);
  const uint64_t sign = uint64_t{1} << (width - 1);
  bits &= LowMask(width);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

// Round-half-to-even of a non-negative double to an integer-valued double.
double RoundHalfEven(double x) { return std::nearbyint(x); }  // default rounding mode is RNE

struct Fields {
  int e, m, bias;
  uint64_t exp_max;  // all-ones exponent field
};

Fields FieldsOf(const FloatFormat& f) {
  return Fields{f.exponent_bits, f.mantissa_bits, f.bias, LowMask(f.exponent_bits)};
}

uint64_t NanBits(ElementType type, bool negative) {
  const FloatFormat& f = GetFloatFormat(type);
  const Fields x = FieldsOf(f);
  const uint64_t sign = f.has_sign && negative ? uint64_t{1} << (x.e + x.m) : 0;
  if (f.negative_zero_is_nan) return uint64_t{1} << (x.e + x.m);  // the single NaN, 1000...0
  if (!f.has_sign) return LowMask(x.e + x.m);                        // E8M0FNU: 0xFF
  if (f.nan_is_all_ones) return sign | LowMask(x.e + x.m);
  if (f.has_nan) return sign | (x.exp_max << x.m) | (x.m > 0 ? uint64_t{1} << (x.m - 1) : 0);
  return sign | LowMask(x.e + x.m);  // no NaN at all (f4/f6): the largest magnitude
}

// Largest finite magnitude's bits (sign clear).
uint64_t MaxFiniteBits(const FloatFormat& f) {
  const Fields x = FieldsOf(f);
  if (f.has_infinity) return ((x.exp_max - 1) << x.m) | LowMask(x.m);
  if (f.nan_is_all_ones) {
    // All ones is NaN: one mantissa step below it (or one exponent step, with no mantissa).
    return x.m > 0 ? (x.exp_max << x.m) | (LowMask(x.m) - 1) : x.exp_max - 1;
  }
  return (x.exp_max << x.m) | LowMask(x.m);  // FNUZ and no-NaN formats use every pattern
}

}  // namespace

double DecodeFloat(ElementType type, uint64_t bits) {
  if (type == ElementType::kF64) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  if (type == ElementType::kF32) {
    uint32_t b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  const FloatFormat& f = GetFloatFormat(type);
  const Fields x = FieldsOf(f);
  bits &= LowMask((f.has_sign ? 1 : 0) + x.e + x.m);
  const bool negative = f.has_sign && ((bits >> (x.e + x.m)) & 1);
  const uint64_t exp = (bits >> x.m) & x.exp_max;
  const uint64_t man = bits & LowMask(x.m);
  const double sign = negative ? -1.0 : 1.0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!f.has_sign) {  // E8M0FNU: a power of two, or NaN
    return exp == x.exp_max ? nan : std::ldexp(1.0, static_cast<int>(exp) - x.bias);
  }
  if (f.negative_zero_is_nan && negative && exp == 0 && man == 0) return nan;
  if (f.has_infinity && exp == x.exp_max) {
    return man == 0 ? sign * std::numeric_limits<double>::infinity() : std::copysign(nan, sign);
  }
  if (f.nan_is_all_ones && exp == x.exp_max && man == LowMask(x.m)) return std::copysign(nan, sign);
  if (exp == 0) return sign * std::ldexp(static_cast<double>(man), 1 - x.bias - x.m);
  return sign * std::ldexp(static_cast<double>(man | (uint64_t{1} << x.m)), static_cast<int>(exp) - x.bias - x.m);
}

uint64_t EncodeFloat(ElementType type, double value) {
  if (type == ElementType::kF64) {
    uint64_t b;
    std::memcpy(&b, &value, 8);
    return b;
  }
  if (type == ElementType::kF32) {
    float f = static_cast<float>(value);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  const FloatFormat& f = GetFloatFormat(type);
  const Fields x = FieldsOf(f);
  const bool negative = std::signbit(value);
  const uint64_t sign = f.has_sign && negative ? uint64_t{1} << (x.e + x.m) : 0;
  if (std::isnan(value)) return NanBits(type, negative);
  if (!f.has_sign && negative && value != 0) return NanBits(type, negative);
  const double a = std::fabs(value);
  if (std::isinf(a)) {
    if (f.has_infinity) return sign | (x.exp_max << x.m);
    return f.has_nan ? NanBits(type, negative) : sign | MaxFiniteBits(f);
  }
  if (!f.has_sign) {  // E8M0FNU: nearest power of two (ties to the larger, the "even" mantissa)
    if (a == 0) return 0;
    int k;
    std::frexp(a, &k);  // a = m * 2^k, m in [0.5, 1)
    int e = k - 1;      // a in [2^e, 2^(e+1))
    if (RoundHalfEven(std::ldexp(a, -e)) >= 2.0) ++e;
    int64_t field = e + x.bias;
    if (field < 0) field = 0;
    if (field >= static_cast<int64_t>(x.exp_max)) return NanBits(type, false);
    return static_cast<uint64_t>(field);
  }
  if (a == 0) return f.negative_zero_is_nan ? 0 : sign;

  int k;
  std::frexp(a, &k);
  int e = k - 1;  // unbiased exponent: a in [2^e, 2^(e+1))
  const int emin = 1 - x.bias;
  uint64_t magnitude;
  if (e < emin) {
    // Subnormal: multiples of 2^(emin - m). A carry into the exponent field is the right
    // encoding of the smallest normal.
    magnitude = static_cast<uint64_t>(RoundHalfEven(std::ldexp(a, x.m - emin)));
  } else {
    double n = RoundHalfEven(std::ldexp(a, x.m - e));  // in [2^m, 2^(m+1)]
    if (n >= std::ldexp(1.0, x.m + 1)) {
      n = std::ldexp(n, -1);
      ++e;
    }
    const int64_t field = e + x.bias;
    if (field > static_cast<int64_t>(x.exp_max)) {
      magnitude = UINT64_MAX;  // overflow
    } else {
      magnitude = (static_cast<uint64_t>(field) << x.m) | (static_cast<uint64_t>(n) & LowMask(x.m));
    }
  }
  if (magnitude > MaxFiniteBits(f)) {
    if (f.has_infinity) return sign | (x.exp_max << x.m);
    return f.has_nan ? NanBits(type, negative) : sign | MaxFiniteBits(f);
  }
  if (magnitude == 0 && f.negative_zero_is_nan) return 0;  // no -0 in FNUZ formats
  return sign | magnitude;
}

std::string FormatScalar(ElementType type, uint64_t bits) {
  if (type == ElementType::kI1) return (bits & 1) ? "true" : "false";
  if (IsSignedInteger(type)) return fmt::format("{}", SignExtend(bits, BitWidth(type)));
  if (IsUnsignedInteger(type)) return fmt::format("{}", bits & LowMask(BitWidth(type)));
  const double value = DecodeFloat(type, bits);
  const int hex_digits = StorageBytes(type) * 2;
  if (!std::isfinite(value)) {
    return fmt::format("0x{:0{}X}", bits & LowMask(StorageBytes(type) * 8), hex_digits);
  }
  std::string text = type == ElementType::kF32 ? fmt::format("{}", static_cast<float>(value))
                                               : fmt::format("{}", value);
  // MLIR float literals need a '.': "1e+20" -> "1.0e+20", "3" -> "3.0".
  if (text.find('.') == std::string::npos) {
    size_t e = text.find_first_of("eE");
    if (e == std::string::npos) {
      text += ".0";
    } else {
      text.insert(e, ".0");
    }
  }
  return text;
}

StatusOr<Literal> Literal::Create(const Type& type) {
  if (!type.is_tensor()) {
    return InvalidArgumentError("a literal needs a tensor type, found " + type.ToString());
  }
  if (!type.is_static()) {
    return InvalidArgumentError("a literal needs a static shape, found " + type.ToString());
  }
  if (type.num_elements() < 0) {
    return InvalidArgumentError("element count of " + type.ToString() + " overflows");
  }
  const uint64_t element_bytes = static_cast<uint64_t>(StorageBytes(type.element_type()));
  const uint64_t n = static_cast<uint64_t>(type.num_elements());
  if (n > std::numeric_limits<uint64_t>::max() / element_bytes) {
    return ResourceExhaustedError(fmt::format("a literal of type {} would need more than 2^64 bytes", type.ToString()));
  }
  // Checked before allocating: a size the host cannot hold fails at once rather than after
  // minutes of paging (or being killed).
  VKHLO_ASSIGN_OR_RETURN(const uint64_t limit, HostMemoryLimitBytes());
  if (n * element_bytes > limit) {
    return ResourceExhaustedError(fmt::format(
        "a literal of type {} would need {} bytes, more than the {} bytes of host memory vkhlo may use "
        "(VKHLO_HOST_MEMORY_LIMIT, else the physical memory)",
        type.ToString(), n * element_bytes, limit));
  }
  Literal literal;
  literal.type_ = type;
  try {
    literal.bytes_.assign(n * element_bytes, 0);
  } catch (const std::bad_alloc&) {
    return ResourceExhaustedError(fmt::format("out of host memory for a literal of type {}",
                                              type.ToString()));
  }
  return literal;
}

StatusOr<Literal> Literal::CreateSplat(const Type& type, std::span<const uint8_t> element) {
  if (!type.is_tensor()) {
    return InvalidArgumentError("a literal needs a tensor type, found " + type.ToString());
  }
  if (!type.is_static()) {
    return InvalidArgumentError("a literal needs a static shape, found " + type.ToString());
  }
  if (type.num_elements() < 0) {
    return InvalidArgumentError("element count of " + type.ToString() + " overflows");
  }
  if (element.size() != static_cast<size_t>(StorageBytes(type.element_type()))) {
    return InvalidArgumentError(fmt::format("splat element of {} bytes for element type {}",
                                            element.size(), ElementTypeName(type.element_type())));
  }
  Literal literal;
  literal.type_ = type;
  literal.splat_ = true;
  literal.bytes_.assign(element.begin(), element.end());
  return literal;
}

StatusOr<Literal> Literal::FromBytes(const Type& type, std::vector<uint8_t> bytes) {
  if (!type.is_tensor() || type.num_elements() < 0) {
    return InvalidArgumentError("a literal needs a tensor type with a valid shape, found " + type.ToString());
  }
  const uint64_t element_bytes = static_cast<uint64_t>(StorageBytes(type.element_type()));
  const uint64_t n = static_cast<uint64_t>(type.num_elements());
  if (bytes.size() == element_bytes && n != 1) return CreateSplat(type, bytes);
  if (n > std::numeric_limits<uint64_t>::max() / element_bytes || bytes.size() != n * element_bytes) {
    return InvalidArgumentError(fmt::format("{} bytes of data for {} ({} elements of {} bytes)",
                                            bytes.size(), type.ToString(), n, element_bytes));
  }
  Literal literal;
  literal.type_ = type;
  literal.bytes_ = std::move(bytes);
  return literal;
}

Status Literal::Expand() {
  if (!splat_) return OkStatus();
  std::vector<uint8_t> element = bytes_;
  VKHLO_ASSIGN_OR_RETURN(Literal full, Create(type_));
  const size_t size = element.size();
  for (size_t offset = 0; offset < full.bytes_.size(); offset += size) {
    std::memcpy(full.bytes_.data() + offset, element.data(), size);
  }
  *this = std::move(full);
  return OkStatus();
}

StatusOr<std::span<uint8_t>> Literal::mutable_raw() {
  VKHLO_RETURN_IF_ERROR(Expand());
  return std::span<uint8_t>(bytes_.data(), bytes_.size());
}

uint64_t Literal::GetBits(int64_t index) const {
  const int size = StorageBytes(element_type());
  const int bytes = std::min(size, 8);
  const size_t offset = splat_ ? 0 : static_cast<size_t>(index) * size;
  uint64_t bits = 0;
  std::memcpy(&bits, bytes_.data() + offset, bytes);  // little-endian host
  return bits;
}

void Literal::SetBits(int64_t index, uint64_t bits) {
  const int size = StorageBytes(element_type());
  const int bytes = std::min(size, 8);
  std::memcpy(bytes_.data() + static_cast<size_t>(index) * size, &bits, bytes);
}

int64_t Literal::GetInt(int64_t index) const {
  const ElementType t = element_type();
  const uint64_t bits = GetBits(index);
  if (t == ElementType::kI1) return static_cast<int64_t>(bits & 1);
  if (IsSignedInteger(t)) return SignExtend(bits, BitWidth(t));
  return static_cast<int64_t>(bits & LowMask(BitWidth(t)));
}

void Literal::SetInt(int64_t index, int64_t value) {
  const ElementType t = element_type();
  uint64_t bits = static_cast<uint64_t>(value);
  if (t == ElementType::kI1) {
    bits &= 1;
  } else if (IsSignedInteger(t)) {
    // Sub-byte signed values are stored sign-extended to their byte.
    bits = static_cast<uint64_t>(SignExtend(bits, BitWidth(t)));
  } else {
    bits &= LowMask(BitWidth(t));
  }
  SetBits(index, bits);
}

double Literal::GetFloat(int64_t index) const {
  const ElementType t = element_type();
  if (IsComplex(t)) return GetComplex(index).real();
  if (IsFloat(t)) return DecodeFloat(t, GetBits(index));
  if (IsUnsignedInteger(t)) return static_cast<double>(static_cast<uint64_t>(GetInt(index)));
  return static_cast<double>(GetInt(index));
}

void Literal::SetFloat(int64_t index, double value) {
  const ElementType t = element_type();
  if (IsComplex(t)) return SetComplex(index, {value, 0.0});
  SetBits(index, EncodeFloat(t, value));
}

std::complex<double> Literal::GetComplex(int64_t index) const {
  const ElementType t = element_type();
  if (!IsComplex(t)) return {GetFloat(index), 0.0};
  const size_t size = static_cast<size_t>(StorageBytes(t));
  const uint8_t* p = bytes_.data() + (splat_ ? 0 : static_cast<size_t>(index) * size);
  if (t == ElementType::kC64) {
    float parts[2];
    std::memcpy(parts, p, 8);
    return {parts[0], parts[1]};
  }
  double parts[2];
  std::memcpy(parts, p, 16);
  return {parts[0], parts[1]};
}

void Literal::SetComplex(int64_t index, std::complex<double> value) {
  const ElementType t = element_type();
  if (!IsComplex(t)) return SetFloat(index, value.real());
  const size_t size = static_cast<size_t>(StorageBytes(t));
  uint8_t* p = bytes_.data() + static_cast<size_t>(index) * size;
  if (t == ElementType::kC64) {
    const float parts[2] = {static_cast<float>(value.real()), static_cast<float>(value.imag())};
    std::memcpy(p, parts, 8);
  } else {
    const double parts[2] = {value.real(), value.imag()};
    std::memcpy(p, parts, 16);
  }
}

namespace {

std::string FormatElement(const Literal& l, int64_t index) {
  const ElementType t = l.element_type();
  if (IsComplex(t)) {
    const ElementType part = ComplexPartType(t);
    const size_t half = static_cast<size_t>(StorageBytes(part));
    const size_t offset = l.is_splat() ? 0 : static_cast<size_t>(index) * half * 2;
    uint64_t re = 0, im = 0;
    std::memcpy(&re, l.raw().data() + offset, half);
    std::memcpy(&im, l.raw().data() + offset + half, half);
    return fmt::format("({}, {})", FormatScalar(part, re), FormatScalar(part, im));
  }
  return FormatScalar(t, l.GetBits(index));
}

void AppendNested(const Literal& l, size_t dim, int64_t& index, std::string& out) {
  const auto& dims = l.type().dims();
  if (dim == dims.size()) {
    out += FormatElement(l, index++);
    return;
  }
  out += '[';
  for (int64_t i = 0; i < dims[dim]; ++i) {
    if (i) out += ", ";
    AppendNested(l, dim + 1, index, out);
  }
  out += ']';
}

}  // namespace

std::string Literal::ToString(bool allow_hex_blob) const {
  if (!type_.is_tensor()) return "";
  if (splat_ && num_elements() != 1) return FormatElement(*this, 0);
  if (num_elements() == 0) return "";
  const ElementType t = element_type();
  // Hex blobs only where MLIR's raw layout equals ours: byte-aligned element types.
  const bool byte_aligned = BitWidth(t) % 8 == 0 && t != ElementType::kI1;
  if (allow_hex_blob && byte_aligned && num_elements() > 16) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(bytes_.size() * 2 + 4);
    out += "\"0x";
    for (uint8_t b : bytes_) {
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
    out += '"';
    return out;
  }
  std::string out;
  int64_t index = 0;
  AppendNested(*this, 0, index, out);
  return out;
}

bool Literal::operator==(const Literal& other) const {
  if (!(type_ == other.type_)) return false;
  if (splat_ == other.splat_) return bytes_ == other.bytes_;
  const int64_t n = num_elements();
  const size_t size = static_cast<size_t>(StorageBytes(element_type()));
  const Literal& splat = splat_ ? *this : other;
  const Literal& full = splat_ ? other : *this;
  for (int64_t i = 0; i < n; ++i) {
    if (std::memcmp(full.bytes_.data() + i * size, splat.bytes_.data(), size) != 0) return false;
  }
  return true;
}

}  // namespace vkhlo::ir
