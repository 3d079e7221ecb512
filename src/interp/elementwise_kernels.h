// The machinery behind the element-wise ops (elementwise_*.cc): element values in the types the
// ops compute in, loads and stores of Literal storage, and one generic driver that maps an
// element function over one, two or three literals.
//
// An op is a small function object with one overload per kind of element it supports:
//   bool                     i1
//   Int                      si2..si64, ui2..ui64 (exact width, wrapping arithmetic)
//   float                    f32 (computed in float: IEEE single results)
//   double                   f64, and every narrower float (bf16, f16, f8*, f6*, f4*): those
//                            are decoded exactly, computed in double and rounded once on store
//                            (double has enough bits for +, -, *, /, sqrt to round correctly)
//   std::complex<float>      complex<f32>
//   std::complex<double>     complex<f64>
// The driver picks the value type from the first operand's element type; an op without an
// overload for it reports the element type as unsupported. Transcendental functions evaluate in
// Wide<T> (double for f32, long double for double) and round once.
#pragma once

#include <array>
#include <complex>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <functional>
#include <span>

#include "interp/eval_context.h"
#include "interp/op_registry.h"
#include "ir/literal.h"
#include "ir/module.h"
#include "ir/type.h"
#include "vkhlo/status.h"

namespace vkhlo::interp::elementwise {

inline uint64_t LowMask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// Two's complement `raw` in `width` bits, sign- or zero-extended to 64 bits.
inline uint64_t NormalizeInt(uint64_t raw, int width, bool is_signed) {
  if (width >= 64) return raw;
  raw &= LowMask(width);
  if (is_signed) {
    const uint64_t sign = uint64_t{1} << (width - 1);
    raw = (raw ^ sign) - sign;
  }
  return raw;
}

// An integer element of an N-bit type. `bits` is normalized (NormalizeInt), so s() is the
// signed value of signed types and bits the value of unsigned types.
struct Int {
  uint64_t bits = 0;
  int width = 64;
  bool is_signed = true;

  int64_t s() const { return static_cast<int64_t>(bits); }
  // The value's two's complement pattern in `width` bits (the unsigned reading).
  uint64_t u() const { return bits & LowMask(width); }
  bool negative() const { return is_signed && s() < 0; }
  Int With(uint64_t raw) const { return Int{NormalizeInt(raw, width, is_signed), width, is_signed}; }
  int64_t MinSigned() const { return width >= 64 ? INT64_MIN : -(int64_t{1} << (width - 1)); }
};

template <typename T>
concept RealValue = std::same_as<T, float> || std::same_as<T, double>;
template <typename T>
concept ComplexValue = std::same_as<T, std::complex<float>> || std::same_as<T, std::complex<double>>;

// A wider type to evaluate transcendental functions in before rounding to T once.
template <typename T>
using Wide = std::conditional_t<std::is_same_v<T, float>, double, long double>;
template <ComplexValue C>
using WideComplex = std::complex<Wide<typename C::value_type>>;

enum class Category : uint8_t { kBool, kInt, kF32, kF64, kNarrowFloat, kC64, kC128 };

// What the driver needs to know about an element type, computed once per literal.
struct ElementInfo {
  ir::ElementType type = ir::ElementType::kF32;
  Category category = Category::kF32;
  int bytes = 4;  // storage bytes of one element
  int width = 32;  // bits of one value
  bool is_signed = false;
  // Narrow floats: the value of every bit pattern (NaN payloads kept, as hardware widens them).
  const double* decode = nullptr;
  uint32_t pattern_mask = 0;
  // Narrow floats with IEEE-style NaNs (payload in the mantissa): mantissa bits, sign position.
  bool ieee_nan = false;
  int mantissa_bits = 0;
  int sign_shift = 0;
};
ElementInfo InfoOf(ir::ElementType type);

// The bits of a narrow float for `value`: rounded once (to nearest even), NaN payloads kept for
// formats that hold them.
uint64_t EncodeNarrow(const ElementInfo& info, double value);

template <typename T>
T Load(const uint8_t* p, const ElementInfo& info);

template <>
inline bool Load<bool>(const uint8_t* p, const ElementInfo&) { return *p != 0; }

template <>
inline Int Load<Int>(const uint8_t* p, const ElementInfo& info) {
  uint64_t raw = 0;
  std::memcpy(&raw, p, static_cast<size_t>(info.bytes));  // little-endian host
  return Int{NormalizeInt(raw, info.width, info.is_signed), info.width, info.is_signed};
}

template <>
inline float Load<float>(const uint8_t* p, const ElementInfo&) {
  float f;
  std::memcpy(&f, p, 4);
  return f;
}

template <>
inline double Load<double>(const uint8_t* p, const ElementInfo& info) {
  if (info.category == Category::kF64) {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  if (info.category == Category::kF32) return Load<float>(p, info);
  uint32_t bits = p[0];
  if (info.bytes == 2) bits |= static_cast<uint32_t>(p[1]) << 8;
  return info.decode[bits & info.pattern_mask];
}

template <>
inline std::complex<float> Load<std::complex<float>>(const uint8_t* p, const ElementInfo&) {
  float parts[2];
  std::memcpy(parts, p, 8);
  return {parts[0], parts[1]};
}

template <>
inline std::complex<double> Load<std::complex<double>>(const uint8_t* p, const ElementInfo& info) {
  if (info.category == Category::kC64) {
    auto c = Load<std::complex<float>>(p, info);
    return {c.real(), c.imag()};
  }
  double parts[2];
  std::memcpy(parts, p, 16);
  return {parts[0], parts[1]};
}

// Stores a value into an element of `info`'s type. The value type normally matches the element
// type; where it does not (e.g. a double into f32) the value is rounded once to it.
inline void Store(uint8_t* p, const ElementInfo& info, bool value) {
  *p = value ? 1 : 0;
  if (info.category != Category::kBool && info.bytes > 1) std::memset(p + 1, 0, info.bytes - 1);
}

inline void Store(uint8_t* p, const ElementInfo& info, Int value) {
  if (info.category != Category::kInt) return;  // a mismatched result type: left zero
  const uint64_t bits = NormalizeInt(value.bits, info.width, info.is_signed);
  std::memcpy(p, &bits, static_cast<size_t>(info.bytes));
}

inline void Store(uint8_t* p, const ElementInfo& info, double value) {
  switch (info.category) {
    case Category::kF64:
      std::memcpy(p, &value, 8);
      return;
    case Category::kF32: {
      const float f = static_cast<float>(value);
      std::memcpy(p, &f, 4);
      return;
    }
    case Category::kNarrowFloat: {
      const uint64_t bits = EncodeNarrow(info, value);
      std::memcpy(p, &bits, static_cast<size_t>(info.bytes));
      return;
    }
    case Category::kC64:
    case Category::kC128: {
      const std::complex<double> c(value, 0.0);
      if (info.category == Category::kC128) {
        std::memcpy(p, &c, 16);
      } else {
        const std::complex<float> f(static_cast<float>(value), 0.0f);
        std::memcpy(p, &f, 8);
      }
      return;
    }
    default:
      return;
  }
}

inline void Store(uint8_t* p, const ElementInfo& info, float value) {
  if (info.category == Category::kF32) {
    std::memcpy(p, &value, 4);
    return;
  }
  Store(p, info, static_cast<double>(value));
}

inline void Store(uint8_t* p, const ElementInfo& info, std::complex<double> value) {
  if (info.category == Category::kC128) {
    std::memcpy(p, &value, 16);
  } else if (info.category == Category::kC64) {
    const std::complex<float> f(static_cast<float>(value.real()), static_cast<float>(value.imag()));
    std::memcpy(p, &f, 8);
  } else {
    Store(p, info, value.real());
  }
}

inline void Store(uint8_t* p, const ElementInfo& info, std::complex<float> value) {
  if (info.category == Category::kC64) {
    std::memcpy(p, &value, 8);
    return;
  }
  Store(p, info, std::complex<double>(value.real(), value.imag()));
}

template <typename T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<V>{}) with V the value type elements of `info` compute in.
template <typename F>
decltype(auto) VisitValueType(const ElementInfo& info, F&& f) {
  switch (info.category) {
    case Category::kBool: return f(TypeTag<bool>{});
    case Category::kInt: return f(TypeTag<Int>{});
    case Category::kF32: return f(TypeTag<float>{});
    case Category::kC64: return f(TypeTag<std::complex<float>>{});
    case Category::kC128: return f(TypeTag<std::complex<double>>{});
    case Category::kF64:
    case Category::kNarrowFloat: break;
  }
  return f(TypeTag<double>{});
}

template <typename T, size_t>
using Repeat = T;

// Element types whose values compute in the same C++ type (all of one Map's inputs must).
inline bool SameValueType(const ElementInfo& a, const ElementInfo& b) {
  auto kind = [](Category c) { return c == Category::kNarrowFloat ? Category::kF64 : c; };
  return kind(a.category) == kind(b.category);
}

Status UnsupportedElementType(ir::ElementType type);
Status MixedElementTypes(ir::ElementType a, ir::ElementType b);
Status ShapeMismatch(const ir::Literal& operand, const ir::Type& result_type);

// Maps `op` over the elements of `inputs` (all of one element type) into a literal of
// `result_type`. An input with a single element (a scalar or a splat) is used for every
// element; all-splat inputs give a splat result.
template <typename Op, typename... Literals>
StatusOr<ir::Literal> Map(const Op& op, const ir::Type& result_type, const Literals&... inputs) {
  constexpr size_t kArity = sizeof...(Literals);
  const std::array<const ir::Literal*, kArity> in = {&inputs...};
  const int64_t n = result_type.num_elements();
  std::array<ElementInfo, kArity> info;
  std::array<size_t, kArity> stride;
  bool all_single = true;
  for (size_t k = 0; k < kArity; ++k) {
    info[k] = InfoOf(in[k]->element_type());
    const bool single = in[k]->is_splat() || in[k]->num_elements() == 1;
    if (!single && in[k]->num_elements() != n) return ShapeMismatch(*in[k], result_type);
    if (!SameValueType(info[k], info[0])) return MixedElementTypes(in[0]->element_type(), in[k]->element_type());
    stride[k] = single ? 0 : static_cast<size_t>(info[k].bytes);
    all_single = all_single && single;
  }
  const ElementInfo out_info = InfoOf(result_type.element_type());
  const size_t out_bytes = static_cast<size_t>(out_info.bytes);

  return VisitValueType(info[0], [&]<typename V>(TypeTag<V>) -> StatusOr<ir::Literal> {
    return [&]<size_t... K>(std::index_sequence<K...>) -> StatusOr<ir::Literal> {
      if constexpr (!std::is_invocable_v<const Op&, Repeat<V, K>...>) {
        return UnsupportedElementType(in[0]->element_type());
      } else {
        if (all_single) {
          std::array<uint8_t, 16> element{};
          Store(element.data(), out_info, op(Load<V>(in[K]->raw().data(), info[K])...));
          // A splat (or the single element of a one-element result).
          return ir::Literal::FromBytes(result_type, std::vector<uint8_t>(element.data(), element.data() + out_bytes));
        }
        VKHLO_ASSIGN_OR_RETURN(ir::Literal result, ir::Literal::Create(result_type));
        VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
        const std::array<const uint8_t*, kArity> base = {in[K]->raw().data()...};
        uint8_t* dst = out.data();
        for (int64_t i = 0; i < n; ++i) {
          const size_t index = static_cast<size_t>(i);
          Store(dst + index * out_bytes, out_info, op(Load<V>(base[K] + index * stride[K], info[K])...));
        }
        return result;
      }
    }(std::index_sequence_for<Literals...>{});
  });
}

// --- evaluation of ops ---

// Computes an op's result from its operand literals (dequantized where they were quantized)
// for a result of `result_type` (the expressed type where the op's result is quantized).
using ComputeFn =
    std::function<StatusOr<ir::Literal>(std::span<const ir::Literal* const> inputs, const ir::Type& result_type)>;

// The frame of an element-wise op: checks that it has `arity` tensor operands (-1: any number)
// and one tensor result, applies StableHLO's dequantize-compute-quantize rule to quantized
// operands and results (unless `quantized_as_storage`, which hands storage values over as they
// are), and reports errors at the op's location.
StatusOr<InterpValues> EvalElementwise(EvalContext& context, const ir::Operation& op, const InterpValues& operands,
                                       int arity, const ComputeFn& compute, bool quantized_as_storage = false);

// An op that is `Op{}` mapped over its `Arity` operands.
template <typename Op, size_t Arity>
StatusOr<InterpValues> EvalMap(EvalContext& context, const ir::Operation& op, const InterpValues& operands) {
  return EvalElementwise(context, op, operands, static_cast<int>(Arity),
                         [](std::span<const ir::Literal* const> in, const ir::Type& type) {
                           return [&]<size_t... K>(std::index_sequence<K...>) {
                             return Map(Op{}, type, *in[K]...);
                           }(std::make_index_sequence<Arity>{});
                         });
}

// Each file registers its part of the group.
void RegisterElementwiseArithmeticOps(OpRegistry& registry);  // elementwise_ops.cc
void RegisterElementwiseMathOps(OpRegistry& registry);        // elementwise_math.cc
void RegisterElementwiseConvertOps(OpRegistry& registry);     // elementwise_convert.cc

// Complex values in a wider type and back.
template <ComplexValue C>
WideComplex<C> Widen(C z) {
  return {z.real(), z.imag()};
}
template <ComplexValue C, typename W>
C Narrow(std::complex<W> z) {
  using T = typename C::value_type;
  return C(static_cast<T>(z.real()), static_cast<T>(z.imag()));
}

// --- conversions and quantization (elementwise_convert.cc) ---

// stablehlo.convert of a whole literal into `result_type` (same element count).
StatusOr<ir::Literal> ConvertLiteral(const ir::Literal& operand, const ir::Type& result_type);

// The expressed-type values of a quantized tensor.
StatusOr<ir::Literal> Dequantize(const ir::Literal& operand);
// Quantizes float values (or requantizes a quantized tensor) into `result_type`'s storage.
StatusOr<ir::Literal> Quantize(const ir::Literal& operand, const ir::Type& result_type);
// For a quantized tensor type, the same shape with its expressed type; otherwise the type.
ir::Type ExpressedType(const ir::Type& type);

}  // namespace vkhlo::interp::elementwise
