#include "codegen/library/element_io.h"

#include <fmt/format.h>

#include <algorithm>

namespace vkhlo::codegen::library {
namespace {

using ir::ElementType;

// The hlo_decode_/hlo_encode_ suffix of a narrow float format ("" for other types).
std::string_view CodecName(ElementType t) {
  switch (t) {
    case ElementType::kBF16: return "bf16";
    case ElementType::kF16: return "f16";
    case ElementType::kF8E4M3FN: return "f8e4m3fn";
    case ElementType::kF8E5M2: return "f8e5m2";
    case ElementType::kF8E4M3FNUZ: return "f8e4m3fnuz";
    case ElementType::kF8E5M2FNUZ: return "f8e5m2fnuz";
    case ElementType::kF8E4M3B11FNUZ: return "f8e4m3b11fnuz";
    case ElementType::kF8E4M3: return "f8e4m3";
    case ElementType::kF8E3M4: return "f8e3m4";
    case ElementType::kF8E8M0FNU: return "f8e8m0fnu";
    case ElementType::kF6E2M3FN: return "f6e2m3fn";
    case ElementType::kF6E3M2FN: return "f6e3m2fn";
    case ElementType::kF4E2M1FN: return "f4e2m1fn";
    default: return "";
  }
}

// Exact bf16/f16 codecs for builds without the GLSL library: integer arithmetic on the f32 bit
// pattern, round to nearest even, NaN kept quiet with its sign (as ir::EncodeFloat).
constexpr const char* kLocalBf16Codec = R"(float hlo_decode_bf16(uint h) { return uintBitsToFloat((h & 0xFFFFu) << 16); }
uint hlo_encode_bf16(float v) {
  uint b = floatBitsToUint(v);
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) return ((b >> 16) & 0x8000u) | 0x7FC0u;
  return (b + 0x7FFFu + ((b >> 16) & 1u)) >> 16;
}
)";

constexpr const char* kLocalF16Codec = R"(float hlo_decode_f16(uint h) {
  uint s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0u) return uintBitsToFloat(s | floatBitsToUint(float(m) * 5.9604644775390625e-8));
  if (e == 31u) return uintBitsToFloat(s | 0x7F800000u | (m << 13));
  return uintBitsToFloat(s | ((e + 112u) << 23) | (m << 13));
}
uint hlo_encode_f16(float v) {
  uint b = floatBitsToUint(v), s = (b >> 16) & 0x8000u, a = b & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return s | 0x7E00u;
  if (a >= 0x477FF000u) return s | 0x7C00u;  // 65520 and above round to infinity
  if (a < 0x38800000u) return s | uint(roundEven(uintBitsToFloat(a) * 16777216.0));  // subnormal
  return s | (((a + 0xFFFu + ((a >> 13) & 1u)) >> 13) - (112u << 10));
}
)";

Status AddCodec(ElementType t, GlslPrelude& prelude) {
  if (HaveGlslLibrary()) {
    prelude.Include("hlo_float_codec.glsl");
    return OkStatus();
  }
  if (t == ElementType::kBF16) {
    prelude.Helper("codec_bf16", kLocalBf16Codec);
    return OkStatus();
  }
  if (t == ElementType::kF16) {
    prelude.Helper("codec_f16", kLocalF16Codec);
    return OkStatus();
  }
  return UnimplementedError(fmt::format("{} elements need the GLSL library (hlo_float_codec.glsl), which this "
                                        "build of vkhlo lacks",
                                        ir::ElementTypeName(t)));
}

bool IsNarrowFloat(ElementType t) { return ir::IsFloat(t) && t != ElementType::kF32 && t != ElementType::kF64; }

// Raw storage bits of element `i` of `buffer` as a GLSL expression: uint, uvec2 or uvec4.
std::string RawRead(const std::string& buffer, int storage_bits) {
  switch (storage_bits) {
    case 8: return fmt::format("((({0}[i >> 2u]) >> ((i & 3u) * 8u)) & 0xFFu)", buffer);
    case 16: return fmt::format("((({0}[i >> 1u]) >> ((i & 1u) * 16u)) & 0xFFFFu)", buffer);
    case 32: return fmt::format("{}[i]", buffer);
    case 64: return fmt::format("uvec2({0}[2u * i], {0}[2u * i + 1u])", buffer);
    default: return fmt::format("uvec4({0}[4u * i], {0}[4u * i + 1u], {0}[4u * i + 2u], {0}[4u * i + 3u])", buffer);
  }
}

}  // namespace

std::string_view AccGlslType(AccKind kind) {
  switch (kind) {
    case AccKind::kF32: return "float";
    case AccKind::kF64: return "double";
    case AccKind::kI32: return "int";
    case AccKind::kI64: return "int64_t";
    case AccKind::kI64Pair: return "uvec2";
    case AccKind::kBool: return "int";
    case AccKind::kC64: return "vec2";
    case AccKind::kC128: return "dvec2";
  }
  return "float";
}

std::string_view AccName(AccKind kind) {
  switch (kind) {
    case AccKind::kF32: return "f32";
    case AccKind::kF64: return "f64";
    case AccKind::kI32: return "i32";
    case AccKind::kI64: return "i64";
    case AccKind::kI64Pair: return "i64pair";
    case AccKind::kBool: return "i1";
    case AccKind::kC64: return "c64";
    case AccKind::kC128: return "c128";
  }
  return "?";
}

bool AccIsFloat(AccKind kind) { return kind == AccKind::kF32 || kind == AccKind::kF64; }

int AccWords(AccKind kind) {
  switch (kind) {
    case AccKind::kF32:
    case AccKind::kI32:
    case AccKind::kBool: return 1;
    case AccKind::kF64:
    case AccKind::kI64:
    case AccKind::kI64Pair:
    case AccKind::kC64: return 2;
    case AccKind::kC128: return 4;
  }
  return 1;
}

AccKind ComputeDomain(ElementType t) {
  if (t == ElementType::kI1) return AccKind::kBool;
  if (t == ElementType::kC64) return AccKind::kC64;
  if (t == ElementType::kC128) return AccKind::kC128;
  if (t == ElementType::kF64) return AccKind::kF64;
  if (ir::IsFloat(t)) return AccKind::kF32;
  return ir::BitWidth(t) > 32 ? AccKind::kI64 : AccKind::kI32;
}

AccKind AccForTarget(AccKind kind, const TargetInfo& target) {
  return kind == AccKind::kI64 && !target.shader_int64 ? AccKind::kI64Pair : kind;
}

AccKind ComputeDomain(ElementType t, const TargetInfo& target) { return AccForTarget(ComputeDomain(t), target); }

StatusOr<AccKind> AccumulatorFor(ElementType lhs, ElementType rhs, ElementType result) {
  const AccKind r = ComputeDomain(result);
  auto fits = [&](ElementType operand) {
    const AccKind d = ComputeDomain(operand);
    switch (r) {
      case AccKind::kF32: return d == AccKind::kF32 || d == AccKind::kI32 || d == AccKind::kI64 || d == AccKind::kBool;
      case AccKind::kF64:
        return d == AccKind::kF64 || d == AccKind::kF32 || d == AccKind::kI32 || d == AccKind::kI64 || d == AccKind::kBool;
      case AccKind::kI32:
      case AccKind::kI64:
      case AccKind::kI64Pair:  // (ComputeDomain never gives it)
        return d == AccKind::kI32 || d == AccKind::kI64 || d == AccKind::kBool;
      case AccKind::kBool: return d == AccKind::kBool;
      case AccKind::kC64: return d == AccKind::kC64 || d == AccKind::kF32;
      case AccKind::kC128: return d == AccKind::kC128 || d == AccKind::kC64 || d == AccKind::kF64 || d == AccKind::kF32;
    }
    return false;
  };
  if (!fits(lhs) || !fits(rhs)) {
    return UnimplementedError(fmt::format("a product of {} and {} giving {} is not supported by the library kernels",
                                          ir::ElementTypeName(lhs), ir::ElementTypeName(rhs),
                                          ir::ElementTypeName(result)));
  }
  // f64 operands into an f32 result would lose the interpreter's f64 arithmetic: use f64.
  if (r == AccKind::kF32 && (lhs == ElementType::kF64 || rhs == ElementType::kF64)) return AccKind::kF64;
  return r;
}

int StorageBits(ElementType t) { return ir::StorageBytes(t) * 8; }

bool HaveGlslLibrary() {
#if VKHLO_HAVE_GLSL_LIBRARY
  return true;
#else
  return false;
#endif
}

Status CheckTypeSupport(ElementType type, AccKind acc, const TargetInfo& target, const std::string& what) {
  auto missing = [&](std::string_view feature) {
    return UnimplementedError(fmt::format("{} needs {}, which {} lacks (profile {})", what, feature,
                                          target.device_name, target.profile));
  };
  const bool f64 = type == ElementType::kF64 || type == ElementType::kC128 || acc == AccKind::kF64 ||
                   acc == AccKind::kC128;
  if (f64 && !target.shader_float64) return missing("shaderFloat64");
  // 64-bit integers without shaderInt64 are emulated as uvec2 pairs (kI64Pair) with the GLSL
  // library's hlo_i64.glsl; an accumulator still of kind kI64 there was not adapted to the target.
  if (acc == AccKind::kI64 && !target.shader_int64) return missing("shaderInt64");
  const bool i64 = (ir::IsInteger(type) && ir::BitWidth(type) == 64) || acc == AccKind::kI64Pair;
  if (i64 && !target.shader_int64 && !HaveGlslLibrary()) {
    return missing("shaderInt64 (or the GLSL library's 64-bit integer emulation, which this build of vkhlo lacks)");
  }
  if (IsNarrowFloat(type) && !HaveGlslLibrary() && type != ElementType::kBF16 && type != ElementType::kF16) {
    GlslPrelude unused;
    Status s = AddCodec(type, unused);
    return UnimplementedError(fmt::format("{}: {}", what, s.message()));
  }
  return OkStatus();
}

namespace {

// Conversions into and out of emulated 64-bit integers (uvec2 pairs, hlo_i64.glsl).
StatusOr<std::string> ConvertPair(const std::string& code, AccKind from, AccKind to, GlslPrelude* prelude,
                                  bool from_unsigned, bool to_unsigned) {
  auto include = [&](const char* file) {
    if (prelude != nullptr) prelude->Include(file);
  };
  include("hlo_i64.glsl");
  if (to == AccKind::kI64Pair) {
    switch (from) {
      case AccKind::kI32:  // ui32 zero-extends
        return from_unsigned ? fmt::format("hlo_e64_from_u32(uint({}))", code)
                             : fmt::format("hlo_e64_from_i32({})", code);
      case AccKind::kBool: return fmt::format("uvec2(uint({} != 0), 0u)", code);
      case AccKind::kF32: return fmt::format("hlo_e64_{}_from_f32({})", to_unsigned ? "u" : "s", code);
      case AccKind::kF64:
        include("hlo_i64_f64.glsl");
        return fmt::format("hlo_e64_{}_from_f64({})", to_unsigned ? "u" : "s", code);
      default: break;
    }
  } else {  // from kI64Pair
    const char* sign = from_unsigned ? "u" : "i";
    switch (to) {
      case AccKind::kI32: return fmt::format("int(({}).x)", code);
      case AccKind::kBool: return fmt::format("int(hlo_e64_nonzero({}))", code);
      case AccKind::kF32:
      case AccKind::kF64:
      case AccKind::kC64:
      case AccKind::kC128: {
        // Rounded once to nearest even on the bits; a complex result takes it as its real part.
        const bool wide = to == AccKind::kF64 || to == AccKind::kC128;
        include(wide ? "hlo_convert_f64.glsl" : "hlo_convert_f32.glsl");
        const std::string real = fmt::format("hlo_{}_from_{}64_({})", wide ? "f64" : "f32", sign, code);
        if (to == AccKind::kF32 || to == AccKind::kF64) return real;
        return fmt::format("{}({}, 0)", wide ? "dvec2" : "vec2", real);
      }
      default: break;
    }
  }
  return UnimplementedError(fmt::format("no conversion from {} to {}", AccName(from), AccName(to)));
}

}  // namespace

StatusOr<std::string> ConvertDomain(const std::string& code, AccKind from, AccKind to, GlslPrelude* prelude,
                                    bool from_unsigned, bool to_unsigned) {
  if (from == to) return code;
  if (from == AccKind::kI64Pair || to == AccKind::kI64Pair) {
    return ConvertPair(code, from, to, prelude, from_unsigned, to_unsigned);
  }
  const std::string t(AccGlslType(to));
  switch (to) {
    case AccKind::kI64Pair: break;  // above
    case AccKind::kF32:
    case AccKind::kF64:
    case AccKind::kI64:
    case AccKind::kI32:
      if (from == AccKind::kC64 || from == AccKind::kC128) break;
      if (from == AccKind::kBool) return fmt::format("{}({} != 0)", t, code);
      // An unsigned 32-bit value (ui32 in the i32 domain) widens and converts as unsigned; a
      // ui64 converts to floats as unsigned.
      if (from == AccKind::kI32 && from_unsigned && to != AccKind::kI32) return fmt::format("{}(uint({}))", t, code);
      if (from == AccKind::kI64 && from_unsigned && AccIsFloat(to)) return fmt::format("{}(uint64_t({}))", t, code);
      return fmt::format("{}({})", t, code);
    case AccKind::kBool:
      if (from == AccKind::kC64 || from == AccKind::kC128) break;
      return fmt::format("int({} != {}(0))", code, AccGlslType(from));
    case AccKind::kC64:
    case AccKind::kC128: {
      const std::string part = to == AccKind::kC64 ? "float" : "double";
      if (from == AccKind::kC64 || from == AccKind::kC128) return fmt::format("{}({})", t, code);
      if (from == AccKind::kBool) return fmt::format("{}({}({} != 0), 0)", t, part, code);
      return fmt::format("{}({}({}), 0)", t, part, code);
    }
  }
  return UnimplementedError(fmt::format("no conversion from {} to {}", AccName(from), AccName(to)));
}

Status EmitElementLoader(const std::string& fn, const std::string& buffer, ElementType type, AccKind acc,
                         GlslPrelude& prelude, std::string& out, bool emulate_i64) {
  const int bits = StorageBits(type);
  const std::string raw = RawRead(buffer, bits);
  AccKind own = ComputeDomain(type);
  if (emulate_i64 && own == AccKind::kI64) own = AccKind::kI64Pair;
  if (own == AccKind::kI64Pair || acc == AccKind::kI64Pair) prelude.Include("hlo_i64.glsl");
  std::string value;  // in `own`
  if (type == ElementType::kF32) {
    value = fmt::format("uintBitsToFloat({})", raw);
  } else if (type == ElementType::kF64) {
    value = fmt::format("packDouble2x32({})", raw);
  } else if (IsNarrowFloat(type)) {
    VKHLO_RETURN_IF_ERROR(AddCodec(type, prelude));
    value = fmt::format("hlo_decode_{}({})", CodecName(type), raw);
  } else if (type == ElementType::kC64) {
    value = fmt::format("uintBitsToFloat({})", raw);
  } else if (type == ElementType::kC128) {
    value = fmt::format("dvec2(packDouble2x32(w.xy), packDouble2x32(w.zw))");
  } else if (type == ElementType::kI1) {
    value = fmt::format("int({} != 0u)", raw);
  } else {  // integers
    const int width = ir::BitWidth(type);
    const bool is_signed = ir::IsSignedInteger(type);
    if (width == 64 && own == AccKind::kI64Pair) {
      value = raw;  // the storage form is the pair
    } else if (width == 64) {
      prelude.Extension("GL_ARB_gpu_shader_int64");
      value = fmt::format("int64_t(packUint2x32({}))", raw);
    } else if (width == 32) {
      value = fmt::format("int({})", raw);
    } else {
      value = is_signed ? fmt::format("bitfieldExtract(int({}), 0, {})", raw, width) : fmt::format("int({})", raw);
    }
  }
  if (acc == AccKind::kI64 || own == AccKind::kI64) prelude.Extension("GL_ARB_gpu_shader_int64");
  // Unsigned 32- and 64-bit values read as negative signed ints past 2^31 / 2^63: harmless in
  // their own integer domain (wraparound), but they must be widened (ui32 into 64 bits) and
  // converted to floats as unsigned.
  const bool u32_widened = type == ElementType::kU32 && acc != AccKind::kI32;
  const bool u64_to_float = type == ElementType::kU64 && AccIsFloat(acc) && own != AccKind::kI64Pair;
  if (u32_widened && acc == AccKind::kI64Pair) {
    out += fmt::format("uvec2 {}(uint i) {{ return hlo_e64_from_u32({}); }}\n", fn, raw);
    return OkStatus();
  }
  if (u32_widened || u64_to_float) {
    if (acc == AccKind::kC64 || acc == AccKind::kC128) return UnimplementedError("ui32 into a complex accumulator");
    const std::string unsigned_value = u64_to_float ? fmt::format("packUint2x32({})", raw) : raw;
    value = acc == AccKind::kBool ? fmt::format("int({} != 0u)", raw)
                                  : fmt::format("{}({})", AccGlslType(acc), unsigned_value);
    out += fmt::format("{} {}(uint i) {{ return {}; }}\n", AccGlslType(acc), fn, value);
    return OkStatus();
  }
  VKHLO_ASSIGN_OR_RETURN(std::string converted,
                         ConvertDomain(value, own, acc, &prelude, ir::IsUnsignedInteger(type), false));
  if (type == ElementType::kC128) {
    out += fmt::format("{} {}(uint i) {{ uvec4 w = {}; return {}; }}\n", AccGlslType(acc), fn, raw, converted);
  } else {
    out += fmt::format("{} {}(uint i) {{ return {}; }}\n", AccGlslType(acc), fn, converted);
  }
  return OkStatus();
}

StatusOr<std::string> RoundToType(const std::string& code, ElementType type, GlslPrelude& prelude) {
  if (IsNarrowFloat(type)) {
    VKHLO_RETURN_IF_ERROR(AddCodec(type, prelude));
    return fmt::format("hlo_decode_{0}(hlo_encode_{0}({1}))", CodecName(type), code);
  }
  if (type == ElementType::kI1) return fmt::format("int({} != 0)", code);
  if (ir::IsInteger(type) && ir::BitWidth(type) < 32) {
    const int width = ir::BitWidth(type);
    return ir::IsSignedInteger(type) ? fmt::format("bitfieldExtract({}, 0, {})", code, width)
                                     : fmt::format("({} & {})", code, (1 << width) - 1);
  }
  return code;
}

Status EmitElementStorer(const std::string& fn, const std::string& buffer, ElementType type, GlslPrelude& prelude,
                         std::string& out, bool emulate_i64) {
  const int bits = StorageBits(type);
  AccKind own = ComputeDomain(type);  // the type of v
  if (emulate_i64 && own == AccKind::kI64) own = AccKind::kI64Pair;
  std::string raw;  // storage bits of v
  if (type == ElementType::kF32) {
    raw = "floatBitsToUint(v)";
  } else if (type == ElementType::kF64) {
    raw = "unpackDouble2x32(v)";
  } else if (IsNarrowFloat(type)) {
    VKHLO_RETURN_IF_ERROR(AddCodec(type, prelude));
    raw = fmt::format("hlo_encode_{}(v)", CodecName(type));
  } else if (type == ElementType::kC64) {
    raw = "floatBitsToUint(v)";
  } else if (type == ElementType::kC128) {
    raw = "uvec4(unpackDouble2x32(v.x), unpackDouble2x32(v.y))";
  } else if (type == ElementType::kI1) {
    raw = "(v != 0 ? 1u : 0u)";
  } else if (own == AccKind::kI64Pair) {
    raw = "v";  // the pair is the storage form
  } else if (ir::BitWidth(type) == 64) {
    prelude.Extension("GL_ARB_gpu_shader_int64");
    raw = "unpackUint2x32(uint64_t(v))";
  } else {
    const int width = ir::BitWidth(type);
    raw = width == 32 ? "uint(v)" : fmt::format("(uint(v) & {}u)", (1u << width) - 1u);
  }
  const std::string sig = fmt::format("void {}(uint i, {} v)", fn, AccGlslType(own));
  switch (bits) {
    case 8:
    case 16: {
      const uint32_t mask = bits == 8 ? 0xFFu : 0xFFFFu;
      const std::string word = bits == 8 ? "i >> 2u" : "i >> 1u";
      const std::string shift = bits == 8 ? "(i & 3u) * 8u" : "(i & 1u) * 16u";
      out += fmt::format(
          "{} {{\n  uint shift = {};\n  uint bits = ({} & {}u) << shift;\n"
          "  atomicAnd({}[{}], ~({}u << shift) | bits);\n  atomicOr({}[{}], bits);\n}}\n",
          sig, shift, raw, mask, buffer, word, mask, buffer, word);
      break;
    }
    case 32: out += fmt::format("{} {{ {}[i] = {}; }}\n", sig, buffer, raw); break;
    case 64:
      out += fmt::format("{} {{ uvec2 w = {}; {}[2u * i] = w.x; {}[2u * i + 1u] = w.y; }}\n", sig, raw, buffer,
                         buffer);
      break;
    default:
      out += fmt::format(
          "{} {{ uvec4 w = {}; {}[4u * i] = w.x; {}[4u * i + 1u] = w.y; {}[4u * i + 2u] = w.z; {}[4u * i + 3u] = w.w; "
          "}}\n",
          sig, raw, buffer, buffer, buffer, buffer);
  }
  return OkStatus();
}

}  // namespace vkhlo::codegen::library
