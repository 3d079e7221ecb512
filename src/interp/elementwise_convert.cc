// Conversions between element types: convert, bitcast_convert, reduce_precision, real, imag,
// complex, and uniform (de)quantization.
//
// convert, where the spec leaves the result open (#180), does what XLA does:
//   integer -> integer     wraps modulo 2^N
//   float -> integer       truncates toward zero; saturates out of range; NaN -> 0
//   any -> float           rounds once, to nearest even (integers too: never via a rounded double)
//   complex -> non-complex the real part converts; the imaginary part is dropped
//   any -> i1              zero -> false, anything else (NaN included) -> true
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "interp/elementwise_kernels.h"
#include "interp/op_registry.h"

namespace vkhlo::interp::elementwise {
namespace {

using ir::Literal;
using ir::Operation;

// --- convert ---

// The integer as a double rounded to odd: exact below 2^53, otherwise truncated to 53 bits with
// the last bit set when anything was dropped. Rounding that once more to a format of at most 51
// significant bits gives the correctly rounded result.
double IntToDoubleRoundToOdd(Int v) {
  const bool negative = v.negative();
  const uint64_t magnitude = negative ? 0 - v.bits : v.bits;
  if (magnitude < (uint64_t{1} << 53)) return negative ? -static_cast<double>(magnitude) : static_cast<double>(magnitude);
  const int shift = std::bit_width(magnitude) - 53;
  uint64_t kept = magnitude >> shift;
  if ((magnitude & LowMask(shift)) != 0) kept |= 1;
  const double d = std::ldexp(static_cast<double>(kept), shift);
  return negative ? -d : d;
}

Int FloatToInt(double v, const ElementInfo& to) {
  const Int zero{0, to.width, to.is_signed};
  if (std::isnan(v)) return zero;
  const double t = std::trunc(v);
  if (to.is_signed) {
    const double limit = std::ldexp(1.0, to.width - 1);
    if (t >= limit) return zero.With(LowMask(to.width - 1));
    if (t < -limit) return zero.With(uint64_t{1} << (to.width - 1));
    return zero.With(static_cast<uint64_t>(static_cast<int64_t>(t)));
  }
  if (t >= std::ldexp(1.0, to.width)) return zero.With(~uint64_t{0});
  if (t <= 0) return zero;
  return zero.With(static_cast<uint64_t>(t));
}

void ConvertElement(double v, const ElementInfo& to, uint8_t* out) {
  switch (to.category) {
    case Category::kBool: return Store(out, to, v != 0);
    case Category::kInt: return Store(out, to, FloatToInt(v, to));
    default: return Store(out, to, v);  // floats round once; complex gets a zero imaginary part
  }
}

void ConvertElement(bool v, const ElementInfo& to, uint8_t* out) {
  switch (to.category) {
    case Category::kBool: return Store(out, to, v);
    case Category::kInt: return Store(out, to, Int{v ? 1u : 0u, to.width, to.is_signed});
    default: return Store(out, to, v ? 1.0 : 0.0);
  }
}

void ConvertElement(Int v, const ElementInfo& to, uint8_t* out) {
  switch (to.category) {
    case Category::kBool: return Store(out, to, v.bits != 0);
    case Category::kInt: return Store(out, to, v);
    case Category::kF32:
    case Category::kC64: {
      const float f = v.is_signed ? static_cast<float>(v.s()) : static_cast<float>(v.bits);
      return Store(out, to, std::complex<float>(f, 0.0f));
    }
    case Category::kF64:
    case Category::kC128: {
      const double d = v.is_signed ? static_cast<double>(v.s()) : static_cast<double>(v.bits);
      return Store(out, to, std::complex<double>(d, 0.0));
    }
    case Category::kNarrowFloat: return Store(out, to, IntToDoubleRoundToOdd(v));
  }
}

void ConvertElement(float v, const ElementInfo& to, uint8_t* out) { ConvertElement(static_cast<double>(v), to, out); }

void ConvertElement(std::complex<double> v, const ElementInfo& to, uint8_t* out) {
  if (to.category == Category::kC64 || to.category == Category::kC128) return Store(out, to, v);
  ConvertElement(v.real(), to, out);
}

void ConvertElement(std::complex<float> v, const ElementInfo& to, uint8_t* out) {
  ConvertElement(std::complex<double>(v.real(), v.imag()), to, out);
}

StatusOr<Literal> Convert(const Literal& x, const ir::Type& result_type) {
  const ElementInfo from = InfoOf(x.element_type());
  const ElementInfo to = InfoOf(result_type.element_type());
  if (x.num_elements() != result_type.num_elements()) return ShapeMismatch(x, result_type);
  return VisitValueType(from, [&]<typename V>(TypeTag<V>) -> StatusOr<Literal> {
    if (x.is_splat() || x.num_elements() == 1) {
      std::array<uint8_t, 16> element{};
      ConvertElement(Load<V>(x.raw().data(), from), to, element.data());
      return Literal::FromBytes(result_type, std::vector<uint8_t>(element.data(), element.data() + to.bytes));
    }
    VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(result_type));
    VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
    const uint8_t* in = x.raw().data();
    const size_t n = static_cast<size_t>(x.num_elements());
    for (size_t i = 0; i < n; ++i) {
      ConvertElement(Load<V>(in + i * static_cast<size_t>(from.bytes), from), to,
                     out.data() + i * static_cast<size_t>(to.bytes));
    }
    return result;
  });
}

// --- bitcast_convert ---

// The value bits of element `index` (up to 128), least significant first.
void ElementBits(const Literal& x, int64_t index, int width, uint64_t bits[2]) {
  const size_t size = static_cast<size_t>(ir::StorageBytes(x.element_type()));
  const uint8_t* p = x.raw().data() + (x.is_splat() ? 0 : static_cast<size_t>(index) * size);
  bits[0] = bits[1] = 0;
  std::memcpy(bits, p, size);
  if (width < 64) bits[0] &= LowMask(width);
}

// Reinterprets the bits of the whole operand: element k of a type of N bits holds bits
// [k*N, (k+1)*N) of the tensor's little-endian bit string (so i1 elements are single bits,
// first element least significant).
StatusOr<Literal> BitcastConvert(const Literal& x, const ir::Type& result_type) {
  const ir::ElementType from = x.element_type(), to = result_type.element_type();
  const int in_width = ir::BitWidth(from), out_width = ir::BitWidth(to);
  const int64_t n_in = x.num_elements(), n_out = result_type.num_elements();
  if (n_in * in_width != n_out * out_width) {
    return InvalidArgumentError(fmt::format("cannot reinterpret {} as {}: the sizes in bits differ",
                                            x.type().ToString(), result_type.ToString()));
  }
  const bool bytes_are_bits = in_width % 8 == 0 && out_width % 8 == 0;
  if (bytes_are_bits) {
    if (x.is_splat() && in_width == out_width) {
      return Literal::FromBytes(result_type, std::vector<uint8_t>(x.raw().begin(), x.raw().end()));
    }
    Literal expanded = x;
    VKHLO_RETURN_IF_ERROR(expanded.Expand());
    return Literal::FromBytes(result_type, std::vector<uint8_t>(expanded.raw().begin(), expanded.raw().end()));
  }
  // Sub-byte element types (i1, i2, i4, f4, f6): through a packed bit string.
  std::vector<uint64_t> words(static_cast<size_t>((n_in * in_width + 63) / 64) + 2, 0);
  auto put_bit = [&](int64_t pos, bool bit) {
    if (bit) words[static_cast<size_t>(pos / 64)] |= uint64_t{1} << (pos % 64);
  };
  for (int64_t i = 0; i < n_in; ++i) {
    uint64_t bits[2];
    ElementBits(x, i, in_width, bits);
    for (int b = 0; b < in_width; ++b) put_bit(i * in_width + b, (bits[b / 64] >> (b % 64)) & 1);
  }
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(result_type));
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
  const size_t out_size = static_cast<size_t>(ir::StorageBytes(to));
  for (int64_t j = 0; j < n_out; ++j) {
    uint64_t bits[2] = {0, 0};
    for (int b = 0; b < out_width; ++b) {
      const int64_t pos = j * out_width + b;
      if ((words[static_cast<size_t>(pos / 64)] >> (pos % 64)) & 1) bits[b / 64] |= uint64_t{1} << (b % 64);
    }
    // Sub-byte signed integers are stored sign-extended to their byte.
    if (ir::IsSignedInteger(to) && out_width < 64) bits[0] = NormalizeInt(bits[0], out_width, true);
    std::memcpy(out.data() + static_cast<size_t>(j) * out_size, bits, out_size);
  }
  return result;
}

// --- reduce_precision ---

// Rounds to `mantissa_bits` (ties to even, at the operand format's own quantum for its
// subnormals), then maps values whose exponent is outside the range of `exponent_bits` to
// infinity or zero of the same sign, as XLA's bit-level definition does. NaN stays NaN (becomes
// infinity when no mantissa bits are left).
struct ReducePrecisionOp {
  int exponent_bits = 0, mantissa_bits = 0;
  int source_exponent_bits = 0, source_mantissa_bits = 0, source_min_exponent = 0;

  template <RealValue T> T operator()(T x) const {
    if (std::isnan(x)) return mantissa_bits > 0 ? x : std::copysign(std::numeric_limits<T>::infinity(), x);
    if (std::isinf(x) || x == 0) return x;
    double v = x;
    if (mantissa_bits < source_mantissa_bits) {
      const int quantum = std::max(std::ilogb(v), source_min_exponent) - mantissa_bits;
      v = std::ldexp(std::nearbyint(std::ldexp(v, -quantum)), quantum);
    }
    if (exponent_bits < source_exponent_bits && !std::isinf(v) && v != 0) {
      const int reduced_bias = (1 << (exponent_bits - 1)) - 1;
      const int exponent = std::ilogb(v);
      if (exponent > reduced_bias) return std::copysign(std::numeric_limits<T>::infinity(), x);
      if (exponent <= -reduced_bias) return std::copysign(T(0), x);
    }
    return static_cast<T>(v);
  }
};

StatusOr<InterpValues> EvalReducePrecision(EvalContext& context, const Operation& op, const InterpValues& operands) {
  const auto exponent = op.attribute("exponent_bits") ? op.attribute("exponent_bits")->AsInt() : std::nullopt;
  const auto mantissa = op.attribute("mantissa_bits") ? op.attribute("mantissa_bits")->AsInt() : std::nullopt;
  if (!exponent || !mantissa || *exponent < 1 || *mantissa < 0) {
    return context.OpError(op, "needs exponent_bits >= 1 and mantissa_bits >= 0");
  }
  return EvalElementwise(context, op, operands, 1, [&](std::span<const Literal* const> in, const ir::Type& type) -> StatusOr<Literal> {
    const ir::ElementType t = in[0]->element_type();
    if (!ir::IsFloat(t)) return UnsupportedElementType(t);
    const ir::FloatFormat& f = ir::GetFloatFormat(t);
    ReducePrecisionOp reduce;
    // Beyond 62 bits nothing changes for any format; the clamp keeps the shifts defined.
    reduce.exponent_bits = static_cast<int>(std::min<int64_t>(*exponent, 30));
    reduce.mantissa_bits = static_cast<int>(std::min<int64_t>(*mantissa, 62));
    reduce.source_exponent_bits = f.exponent_bits;
    reduce.source_mantissa_bits = f.mantissa_bits;
    reduce.source_min_exponent = 1 - f.bias;
    return Map(reduce, type, *in[0]);
  });
}

// --- real, imag, complex ---

struct RealOp {
  template <RealValue T> T operator()(T x) const { return x; }
  template <ComplexValue C> typename C::value_type operator()(C z) const { return z.real(); }
};

struct ImagOp {
  template <RealValue T> T operator()(T) const { return T(0); }
  template <ComplexValue C> typename C::value_type operator()(C z) const { return z.imag(); }
};

struct ComplexOp {
  template <RealValue T> std::complex<T> operator()(T re, T im) const { return {re, im}; }
};

// --- quantization ---

// Which scale and zero point element `index` of a tensor of `type` uses.
struct QuantizationIndex {
  const ir::QuantizedElement* q;
  int64_t stride = 1, size = 1;

  explicit QuantizationIndex(const ir::Type& type) : q(type.quantization()) {
    if (q->quantized_dimension) {
      const int64_t d = *q->quantized_dimension;
      size = type.dim(d);
      for (int64_t k = d + 1; k < type.rank(); ++k) stride *= type.dim(k);
    }
  }
  size_t operator()(int64_t index) const {
    if (!q->quantized_dimension) return 0;
    return static_cast<size_t>((index / stride) % size);
  }
};

// `v` rounded to the element type of `info` (a float type), as a double.
double RoundTo(const ElementInfo& info, double v) {
  switch (info.category) {
    case Category::kF32: return static_cast<float>(v);
    case Category::kNarrowFloat: {
      const uint64_t bits = EncodeNarrow(info, v);
      return info.decode[bits & info.pattern_mask];
    }
    default: return v;
  }
}

Status CheckQuantization(const ir::Type& type) {
  const ir::QuantizedElement* q = type.quantization();
  size_t expected = 1;
  if (q->quantized_dimension) {
    if (*q->quantized_dimension < 0 || *q->quantized_dimension >= type.rank()) {
      return InvalidArgumentError("quantized dimension out of range in " + type.ToString());
    }
    expected = static_cast<size_t>(type.dim(*q->quantized_dimension));
  }
  if (q->scales.size() != expected || q->zero_points.size() != expected) {
    return InvalidArgumentError(fmt::format("{} needs {} scales and zero points", type.ToString(), expected));
  }
  if (!ir::IsFloat(q->expressed) || !(ir::IsInteger(q->storage))) {
    return InvalidArgumentError("unsupported quantized element in " + type.ToString());
  }
  return OkStatus();
}

StatusOr<Literal> QuantizeFloats(const Literal& x, const ir::Type& result_type) {
  VKHLO_RETURN_IF_ERROR(CheckQuantization(result_type));
  if (!ir::IsFloat(x.element_type())) return UnsupportedElementType(x.element_type());
  if (x.num_elements() != result_type.num_elements()) return ShapeMismatch(x, result_type);
  const ir::QuantizedElement& q = *result_type.quantization();
  const ElementInfo from = InfoOf(x.element_type());
  const ElementInfo expressed = InfoOf(q.expressed);
  const ElementInfo storage = InfoOf(q.storage);
  int64_t low = q.storage_min, high = q.storage_max;
  if (low >= high) {
    low = storage.is_signed ? Int{0, storage.width, true}.MinSigned() : 0;
    high = storage.is_signed ? static_cast<int64_t>(LowMask(storage.width - 1)) : static_cast<int64_t>(LowMask(std::min(storage.width, 63)));
  }
  const double low_e = RoundTo(expressed, static_cast<double>(low));
  const double high_e = RoundTo(expressed, static_cast<double>(high));
  const QuantizationIndex index_of(result_type);
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(result_type));
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    const size_t k = index_of(i);
    const double scale = RoundTo(expressed, q.scales[k]);
    const double zero_point = RoundTo(expressed, static_cast<double>(q.zero_points[k]));
    const size_t offset = x.is_splat() ? 0 : static_cast<size_t>(i) * static_cast<size_t>(from.bytes);
    const double v = RoundTo(expressed, Load<double>(x.raw().data() + offset, from));
    double y = std::nearbyint(RoundTo(expressed, v / scale));
    y = RoundTo(expressed, y + zero_point);
    if (y < low_e) y = low_e;
    if (y > high_e) y = high_e;
    Store(out.data() + static_cast<size_t>(i) * static_cast<size_t>(storage.bytes), storage, FloatToInt(y, storage));
  }
  return result;
}

StatusOr<InterpValues> EvalUniformQuantize(EvalContext& context, const Operation& op, const InterpValues& operands) {
  return EvalElementwise(
      context, op, operands, 1,
      [](std::span<const Literal* const> in, const ir::Type& type) -> StatusOr<Literal> {
        if (!type.is_quantized()) return InvalidArgumentError("result must be a quantized tensor");
        if (in[0]->type().is_quantized()) {
          VKHLO_ASSIGN_OR_RETURN(Literal values, Dequantize(*in[0]));
          return QuantizeFloats(values, type);
        }
        return QuantizeFloats(*in[0], type);
      },
      /*quantized_as_storage=*/true);
}

StatusOr<InterpValues> EvalUniformDequantize(EvalContext& context, const Operation& op, const InterpValues& operands) {
  return EvalElementwise(
      context, op, operands, 1,
      [](std::span<const Literal* const> in, const ir::Type& type) -> StatusOr<Literal> {
        if (!in[0]->type().is_quantized()) return InvalidArgumentError("operand must be a quantized tensor");
        VKHLO_ASSIGN_OR_RETURN(Literal values, Dequantize(*in[0]));
        if (values.element_type() == type.element_type()) return values;
        return Convert(values, type);
      },
      /*quantized_as_storage=*/true);
}

StatusOr<InterpValues> EvalConvert(EvalContext& context, const Operation& op, const InterpValues& operands) {
  return EvalElementwise(context, op, operands, 1, [](std::span<const Literal* const> in, const ir::Type& type) {
    return Convert(*in[0], type);
  });
}

StatusOr<InterpValues> EvalBitcastConvert(EvalContext& context, const Operation& op, const InterpValues& operands) {
  return EvalElementwise(
      context, op, operands, 1,
      [](std::span<const Literal* const> in, const ir::Type& type) { return BitcastConvert(*in[0], type); },
      /*quantized_as_storage=*/true);
}

}  // namespace

StatusOr<Literal> ConvertLiteral(const Literal& operand, const ir::Type& result_type) {
  return Convert(operand, result_type);
}

ir::Type ExpressedType(const ir::Type& type) {
  if (!type.is_quantized()) return type;
  return ir::Type::Tensor(type.quantization()->expressed, type.dims());
}

StatusOr<Literal> Dequantize(const Literal& x) {
  const ir::Type& type = x.type();
  if (!type.is_quantized()) return x;
  VKHLO_RETURN_IF_ERROR(CheckQuantization(type));
  const ir::QuantizedElement& q = *type.quantization();
  const ElementInfo storage = InfoOf(x.element_type());
  const ElementInfo expressed = InfoOf(q.expressed);
  const QuantizationIndex index_of(type);
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(ExpressedType(type)));
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    const size_t k = index_of(i);
    const size_t offset = x.is_splat() ? 0 : static_cast<size_t>(i) * static_cast<size_t>(storage.bytes);
    const Int stored = Load<Int>(x.raw().data() + offset, storage);
    const int64_t value = storage.is_signed ? stored.s() : static_cast<int64_t>(stored.bits);
    const double difference = RoundTo(expressed, static_cast<double>(value - q.zero_points[k]));
    const double scale = RoundTo(expressed, q.scales[k]);
    Store(out.data() + static_cast<size_t>(i) * static_cast<size_t>(expressed.bytes), expressed,
          RoundTo(expressed, difference * scale));
  }
  return result;
}

StatusOr<Literal> Quantize(const Literal& operand, const ir::Type& result_type) {
  if (operand.type().is_quantized()) {
    VKHLO_ASSIGN_OR_RETURN(Literal values, Dequantize(operand));
    return QuantizeFloats(values, result_type);
  }
  return QuantizeFloats(operand, result_type);
}

void RegisterElementwiseConvertOps(OpRegistry& r) {
  using ir::OpCode;
  r.Register(OpCode::kConvert, EvalConvert);
  r.Register(OpCode::kBitcastConvert, EvalBitcastConvert);
  r.Register(OpCode::kReducePrecision, EvalReducePrecision);
  r.Register(OpCode::kReal, EvalMap<RealOp, 1>);
  r.Register(OpCode::kImag, EvalMap<ImagOp, 1>);
  r.Register(OpCode::kComplex, EvalMap<ComplexOp, 2>);
  r.Register(OpCode::kUniformQuantize, EvalUniformQuantize);
  r.Register(OpCode::kUniformDequantize, EvalUniformDequantize);
}

}  // namespace vkhlo::interp::elementwise
