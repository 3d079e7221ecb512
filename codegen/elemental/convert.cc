// Conversions: convert (every pair of element types), bitcast_convert (same width and
// width-changing), reduce_precision, real, imag, complex, is_finite.
//
// convert follows the interpreter (src/interp/elementwise_convert.cc):
//   integer -> integer     wraps modulo 2^N
//   float -> integer       truncates toward zero; saturates out of range; NaN -> 0
//   any -> float           rounds once, to nearest even, on the bits (hlo_convert_f32/f64.glsl,
//                          the codecs): Vulkan leaves the rounding mode of its conversions open
//                          (RoundingModeRTE is optional), so only conversions that cannot round
//                          (widening, small integers) use built-ins. For bf16/f8/f6/f4/f16 an
//                          integer is first rounded to odd at 24 bits, which makes the final
//                          rounding in the codec exact, and an f64 is encoded straight from
//                          double (hlo_encode_<fmt>(double)).
//   complex -> real        the real part converts
//   any -> i1              zero -> false, anything else (NaN included) -> true
// real, imag and complex move raw parts and so need no float64 feature for complex<f64>.
#include <fmt/format.h>

#include <cmath>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

using ir::ElementType;
using ir::Operation;

// The 64-bit words (low, high) of a 64-bit integer compute value (an emulated one is its words).
std::string Words64(const TypeFacts& f, const std::string& v) {
  if (f.emulated) return v;
  return fmt::format("uvec2(uint(uint64_t({0})), uint(uint64_t({0}) >> 32))", v);
}

bool IsWideKind(ComputeKind kind) { return kind == ComputeKind::kInt64 || kind == ComputeKind::kUint64; }

// The value of an integer compute expression rounded to odd at 24 bits, as a float: rounding it
// once more to a format of <= 22 bits is correctly rounded (hlo_convert_f32.glsl).
std::string IntToOddFloat(ElementalEmitter& em, const TypeFacts& f, const std::string& v) {
  em.Include("hlo_convert_f32.glsl");
  if (IsWideKind(f.kind)) {
    if (!IsSignedKind(f.kind)) return fmt::format("hlo_odd_from_u64_({})", Words64(f, v));
    if (f.emulated) {
      const std::string neg = Emulated64(em, f, "hlo_e64_neg");
      return fmt::format("(hlo_e64_is_neg({0}) ? -hlo_odd_from_u64_({1}({0})) : hlo_odd_from_u64_({0}))", v, neg);
    }
    // |v| as words, then the sign (int64 minimum: 0 - v wraps to 2^63, which is |v|).
    return fmt::format("({0} < int64_t(0) ? -hlo_odd_from_u64_({1}) : hlo_odd_from_u64_({2}))", v,
                       Words64(f, fmt::format("int64_t(0) - {}", v)), Words64(f, v));
  }
  if (!IsSignedKind(f.kind)) return fmt::format("hlo_odd_from_u32(uint({}))", v);
  return fmt::format("({0} < 0 ? -hlo_odd_from_u32(0u - uint({0})) : hlo_odd_from_u32(uint({0})))", v);
}

// An integer compute expression as f32 or f64, rounded once to nearest even on the bits (Vulkan
// leaves the rounding mode of OpConvert*ToF open); conversions that cannot round stay built-ins.
std::string IntToFloat(ElementalEmitter& em, const TypeFacts& f, const TypeFacts& t, const std::string& v) {
  const bool to_double = t.kind == ComputeKind::kDouble;
  const bool exact = f.bits <= 24 || (to_double && !IsWideKind(f.kind));
  if (exact) return fmt::format("{}({})", t.glsl, v);
  em.Include(to_double ? "hlo_convert_f64.glsl" : "hlo_convert_f32.glsl");
  const std::string prefix = to_double ? "hlo_f64_from_" : "hlo_f32_from_";
  const bool is_signed = IsSignedKind(f.kind);
  if (IsWideKind(f.kind)) return fmt::format("{}{}64_({})", prefix, is_signed ? "i" : "u", Words64(f, v));
  return fmt::format("{}{}32({}({}))", prefix, is_signed ? "i" : "u", is_signed ? "int" : "uint", v);
}

// Float -> integer: truncate, saturate, NaN -> 0. `v` is float or double. Every test is on the
// bits or against a power of two, and truncation is hlo_trunc (exact; the built-in is not).
std::string FloatToInt(ElementalEmitter& em, const std::string& float_type, const std::string& v, const TypeFacts& to) {
  const bool is_double = float_type == "double";
  const bool is_signed = IsSignedKind(to.kind);
  if (to.emulated) {
    em.Include(is_double ? "hlo_i64_f64.glsl" : "hlo_i64.glsl");
    return fmt::format("hlo_e64_{}_from_{}({})", is_signed ? "s" : "u", is_double ? "f64" : "f32", v);
  }
  const int w = to.bits;
  em.Include(is_double ? "hlo_basic_f64.glsl" : "hlo_basic_f32.glsl");
  const std::string name = fmt::format("hlo_{}_to_{}{}", is_double ? "f64" : "f32", is_signed ? "s" : "u", w);
  // 2^n as a literal of the float type (exact: n <= 64).
  auto power = [&](int n) {
    return is_double ? fmt::format("{:.1f}LF", std::ldexp(1.0, n)) : fmt::format("{:.1f}", std::ldexp(1.0, n));
  };
  std::string max_value, min_value, body;
  const std::string t = std::string(to.glsl);
  if (is_signed) {
    max_value = w == 64 ? "int64_t(0x7fffffffffffffffL)" : IntLiteral((int64_t{1} << (w - 1)) - 1);
    min_value = w == 64 ? "(int64_t(-0x7fffffffffffffffL) - int64_t(1))" : IntLiteral(-(int64_t{1} << (w - 1)));
    body = fmt::format("  if (t >= {0}) return {1};\n  if (t < -{0}) return {2};\n  return {3}(t);\n",
                       power(w - 1), max_value, min_value, t);
  } else {
    max_value = w == 64 ? "~uint64_t(0)" : UintLiteral(w == 32 ? 0xffffffffu : (1u << w) - 1);
    body = fmt::format("  if (t >= {0}) return {1};\n  if (t <= {2}(0)) return {3}(0);\n  return {3}(t);\n",
                       power(w), max_value, float_type, t);
  }
  em.prelude().Helper(name, fmt::format("\n{} {}({} v) {{\n  if (hlo_is_nan_(v)) return {}(0);\n  {} t = hlo_trunc(v);\n{}}}",
                                        t, name, float_type, t, float_type, body));
  return fmt::format("{}({})", name, v);
}

// Integer -> integer (wrapping, by Result's rounding to the width) where either side may be an
// emulated 64-bit pair.
std::string IntToInt(ElementalEmitter& em, const TypeFacts& f, const TypeFacts& t, const std::string& v) {
  if (f.emulated && t.emulated) return v;
  if (f.emulated) return fmt::format("{}({}.x)", t.glsl, v);  // the low word, wrapped to t's width
  if (t.emulated) {
    if (IsSignedKind(f.kind)) return fmt::format("{}(int({}))", Emulated64(em, t, "hlo_e64_from_i32"), v);
    return fmt::format("{}(uint({}))", Emulated64(em, t, "hlo_e64_from_u32"), v);
  }
  return fmt::format("{}({})", t.glsl, v);
}

}  // namespace

StatusOr<Expr> ConvertElement(ElementalEmitter& em, const Expr& value, ElementType to) {
  if (value.type == to) return value;
  const TypeFacts& f = em.Facts(value.type);
  const TypeFacts& t = em.Facts(to);
  const std::string& v = value.code;
  auto exact = [&](const std::string& code) { return em.Exact(to, code); };

  if (IsComplexKind(f.kind)) {
    if (IsComplexKind(t.kind)) return exact(fmt::format("{}({})", t.glsl, v));
    const ElementType part = ir::ComplexPartType(value.type);
    return ConvertElement(em, Expr{fmt::format("{}.x", v), part, false}, to);
  }
  if (t.kind == ComputeKind::kBool) {
    if (f.kind == ComputeKind::kBool) return value;
    return exact(fmt::format("{} != {}", v, TypedLiteral(f, 0)));
  }
  if (IsComplexKind(t.kind)) {
    const ElementType part = ir::ComplexPartType(to);
    VKHLO_ASSIGN_OR_RETURN(Expr real, ConvertElement(em, value, part));
    return exact(fmt::format("{}({}, {})", t.glsl, real.code, TypedLiteral(em.Facts(part), 0)));
  }
  if (f.kind == ComputeKind::kBool) {
    return em.Result(to, fmt::format("{} ? {} : {}", v, TypedLiteral(t, 1), TypedLiteral(t, 0)));
  }
  if (IsIntKind(f.kind)) {
    if (IsIntKind(t.kind)) return em.Result(to, IntToInt(em, f, t, v));
    switch (t.kind) {
      case ComputeKind::kFloat:
      case ComputeKind::kDouble: return exact(IntToFloat(em, f, t, v));
      case ComputeKind::kHalf: return exact(RoundToHalf(em, IntToOddFloat(em, f, v)));
      default: return em.Result(to, IntToOddFloat(em, f, v));  // narrow floats
    }
  }
  // A real float.
  const bool from_double = f.kind == ComputeKind::kDouble;
  if (IsIntKind(t.kind)) {
    std::string as_float = from_double || f.kind != ComputeKind::kHalf ? v : fmt::format("float({})", v);
    return em.Result(to, FloatToInt(em, from_double ? "double" : "float", as_float, t));
  }
  switch (t.kind) {
    case ComputeKind::kFloat:
      if (!from_double) return exact(fmt::format("float({})", v));  // exact widening
      em.Include("hlo_convert_f64.glsl");
      return exact(fmt::format("hlo_f32_from_f64({})", v));
    case ComputeKind::kDouble: return exact(fmt::format("double({})", v));  // exact widening
    case ComputeKind::kHalf: return exact(RoundToHalf(em, v, from_double));  // bf16 and f8 values may round too
    default: break;
  }
  // To a narrow float (or f16 without shaderFloat16): one rounding by the codec.
  if (from_double) {
    em.Include("hlo_float_codec.glsl");
    em.Include("hlo_float_codec_f64.glsl");
    Expr raw{em.Var("uint", fmt::format("hlo_encode_{}({})", t.codec, v)), to, true};
    return em.Compute(raw);
  }
  return em.Result(to, fmt::format("float({})", v));
}

namespace {

StatusOr<Expr> EmitConvert(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, em.Operand(op, 0, index));
  const ElementType to = ResultElementType(op);
  if (a.type == to) return a;
  VKHLO_ASSIGN_OR_RETURN(Expr c, em.Compute(a));
  return ConvertElement(em, c, to);
}

// The raw storage of a value of `type` from its bit pattern `bits` (a uint of <= 32 bits): signed
// sub-byte integers are stored sign-extended to their byte.
std::string StorageFromBits(ElementType type, const std::string& bits) {
  const int w = ir::BitWidth(type);
  if (ir::IsSignedInteger(type) && w < 8) {
    return fmt::format("(uint(int({} << {}u) >> {}) & 0xffu)", bits, 32 - w, 32 - w);
  }
  return bits;
}

// The bit pattern (width bits) of a raw value of a type of <= 32 bits.
std::string BitsFromStorage(ElementType type, const std::string& raw) {
  const int w = ir::BitWidth(type);
  if (w < 8) return fmt::format("({} & {})", raw, UintLiteral((1u << w) - 1));
  return raw;
}

StatusOr<Expr> EmitBitcastConvert(ElementalEmitter& em, const Operation& op, const Index& index) {
  const ElementType from = op.operand(0)->type().element_type();
  const ElementType to = ResultElementType(op);
  const int in_bits = ir::BitWidth(from), out_bits = ir::BitWidth(to);
  const TypeFacts& tf = em.Facts(to);
  if (in_bits == out_bits) {
    VKHLO_ASSIGN_OR_RETURN(Expr a, em.Operand(op, 0, index));
    Expr raw = em.Raw(a);
    if (in_bits > 32) return Expr{raw.code, to, true};
    return Expr{em.Var("uint", StorageFromBits(to, BitsFromStorage(from, raw.code))), to, true};
  }
  const std::vector<int64_t>& operand_dims = op.operand(0)->type().dims();
  std::vector<std::string> multi = em.Multi(index);
  if (out_bits < in_bits) {
    // Result index (..., k) reads chunk k of the operand element at (...).
    if (multi.empty()) return em.OpError(op, "has a rank-0 result for a narrowing bitcast");
    const std::string k = multi.back();
    multi.pop_back();
    VKHLO_ASSIGN_OR_RETURN(Expr a, em.Emit(op.operand(0), Index::Multi(operand_dims, multi)));
    Expr raw = em.Raw(a);
    const std::string offset = em.Var("uint", fmt::format("uint({}) * {}u", k, out_bits));
    std::string chunk;
    if (out_bits == 64) {
      chunk = fmt::format("uvec2({0}[2u * ({1} >> 6)], {0}[2u * ({1} >> 6) + 1u])", raw.code, offset);
    } else if (out_bits == 32) {
      chunk = fmt::format("{}[{} >> 5]", raw.code, offset);
    } else {
      std::string word = in_bits <= 32 ? BitsFromStorage(from, raw.code) : fmt::format("{}[{} >> 5]", raw.code, offset);
      chunk = fmt::format("(({} >> ({} & 31u)) & {})", word, offset, UintLiteral((1u << out_bits) - 1));
    }
    if (out_bits > 32) return Expr{em.Var(tf.raw_glsl, chunk), to, true};
    return Expr{em.Var("uint", StorageFromBits(to, chunk)), to, true};
  }
  // Widening: the result element assembles the operand elements (..., 0..ratio-1), first least
  // significant.
  const int ratio = out_bits / in_bits;
  std::vector<std::string> words(static_cast<size_t>(std::max(1, out_bits / 32)));
  for (int j = 0; j < ratio; ++j) {
    std::vector<std::string> operand_index = multi;
    operand_index.push_back(std::to_string(j));
    VKHLO_ASSIGN_OR_RETURN(Expr a, em.Emit(op.operand(0), Index::Multi(operand_dims, operand_index)));
    Expr raw = em.Raw(a);
    if (in_bits >= 32) {
      const int per = in_bits / 32;
      for (int p = 0; p < per; ++p) {
        words[static_cast<size_t>(j * per + p)] = per == 1 ? raw.code : fmt::format("{}[{}]", raw.code, p);
      }
      continue;
    }
    const int bit = j * in_bits;
    std::string& word = words[static_cast<size_t>(bit / 32)];
    std::string part = fmt::format("({} << {}u)", BitsFromStorage(from, raw.code), bit % 32);
    word = word.empty() ? part : word + " | " + part;
  }
  std::string code = words.size() == 1 ? words[0] : fmt::format("{}({})", tf.raw_glsl, fmt::join(words, ", "));
  if (out_bits > 32) return Expr{em.Var(tf.raw_glsl, code), to, true};
  return Expr{em.Var("uint", StorageFromBits(to, code)), to, true};
}

// hlo_reduce_precision (hlo_convert_f32/f64.glsl): on the bits, as the interpreter (and XLA's
// bit-level definition) does. f16, bf16 and the narrow formats compute in f32 with their own
// format's widths and smallest exponent, and convert back once.
StatusOr<Expr> EmitReducePrecision(ElementalEmitter& em, const Operation& op, const Index& index) {
  const auto e = op.attribute("exponent_bits") ? op.attribute("exponent_bits")->AsInt() : std::nullopt;
  const auto m = op.attribute("mantissa_bits") ? op.attribute("mantissa_bits")->AsInt() : std::nullopt;
  if (!e || !m || *e < 1 || *m < 0) return em.OpError(op, "needs exponent_bits >= 1 and mantissa_bits >= 0");
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  const TypeFacts& f = em.Facts(a.type);
  if (!IsRealFloatKind(f.kind)) return em.OpError(op, "takes float operands");
  const ir::FloatFormat& format = ir::GetFloatFormat(a.type);
  const bool is_double = f.kind == ComputeKind::kDouble;
  em.Include(is_double ? "hlo_convert_f64.glsl" : "hlo_convert_f32.glsl");
  // Beyond 62 bits nothing changes for any format; the clamps keep the shifts defined.
  const std::string call =
      fmt::format("hlo_reduce_precision({}{}{}, {}, {}, {}, {}, {})", is_double ? "" : "float(", a.code,
                  is_double ? "" : ")", std::min<int64_t>(*e, 30), std::min<int64_t>(*m, 62), format.exponent_bits,
                  format.mantissa_bits, 1 - format.bias);
  if (f.kind == ComputeKind::kHalf) return em.Exact(a.type, RoundToHalf(em, call));
  return em.Result(a.type, call);
}

StatusOr<Expr> EmitReal(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, em.Operand(op, 0, index));
  const ElementType to = ResultElementType(op);
  if (!ir::IsComplex(a.type)) return a;
  Expr raw = em.Raw(a);
  return Expr{em.Var(em.Facts(to).raw_glsl, fmt::format(fmt::runtime(a.type == ElementType::kC64 ? "{}.x" : "{}.xy"), raw.code)), to,
              true};
}

StatusOr<Expr> EmitImag(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, em.Operand(op, 0, index));
  const ElementType to = ResultElementType(op);
  if (!ir::IsComplex(a.type)) {
    // Zero of the operand's type: +0.0 for every float format (all-zero bits).
    return Expr{RawLiteral(em.Facts(to).storage_bits, 0), to, true};
  }
  Expr raw = em.Raw(a);
  return Expr{em.Var(em.Facts(to).raw_glsl, fmt::format(fmt::runtime(a.type == ElementType::kC64 ? "{}.y" : "{}.zw"), raw.code)), to,
              true};
}

StatusOr<Expr> EmitComplex(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr re, em.Operand(op, 0, index));
  VKHLO_ASSIGN_OR_RETURN(Expr im, em.Operand(op, 1, index));
  const ElementType to = ResultElementType(op);
  Expr r = em.Raw(re), i = em.Raw(im);
  const std::string glsl(em.Facts(to).raw_glsl);
  return Expr{em.Var(glsl, fmt::format("{}({}, {})", glsl, r.code, i.code)), to, true};
}

StatusOr<Expr> EmitIsFinite(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, em.Operand(op, 0, index));
  const ElementType to = ResultElementType(op);
  if (a.type == ElementType::kF32) {
    Expr raw = em.Raw(a);
    return em.Exact(to, fmt::format("({} & 0x7f800000u) != 0x7f800000u", raw.code));
  }
  if (a.type == ElementType::kF64) {
    Expr raw = em.Raw(a);
    return em.Exact(to, fmt::format("({}.y & 0x7ff00000u) != 0x7ff00000u", raw.code));
  }
  VKHLO_ASSIGN_OR_RETURN(Expr c, em.Compute(a));
  if (!IsRealFloatKind(em.Facts(a.type).kind)) return em.OpError(op, "takes float operands");
  // f16 and the narrow formats widen to f32 exactly (their NaNs and infinities included).
  return em.Exact(to, fmt::format("((floatBitsToUint(float({})) & 0x7f800000u) != 0x7f800000u)", c.code));
}

}  // namespace

void RegisterConvertEmitters(OpEmitterTable& t) {
  using ir::OpCode;
  t.Register(OpCode::kConvert, EmitConvert);
  t.Register(OpCode::kBitcastConvert, EmitBitcastConvert);
  t.Register(OpCode::kReducePrecision, EmitReducePrecision);
  t.Register(OpCode::kReal, EmitReal);
  t.Register(OpCode::kImag, EmitImag);
  t.Register(OpCode::kComplex, EmitComplex);
  t.Register(OpCode::kIsFinite, EmitIsFinite);
}

}  // namespace vkhlo::codegen
