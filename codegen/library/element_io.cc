#include "codegen/library/element_io.h"

#include <fmt/format.h>

#include <algorithm>

namespace vkhlo::codegen::library {
namespace {

using ir::ElementType;

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

Status CheckTypeSupport(ElementType type, AccKind acc, const TargetInfo& target, const std::string& what) {
  auto missing = [&](std::string_view feature) {
    return UnimplementedError(fmt::format("{} needs {}, which {} lacks (profile {})", what, feature,
                                          target.device_name, target.profile));
  };
  // The type's own compute form (types.h), then the accumulator's.
  if (std::string_view feature = RequiredFeature(LibraryFacts(type, target)); !TargetHas(target, feature)) {
    return missing(feature);
  }
  if ((acc == AccKind::kF64 || acc == AccKind::kC128) && !target.shader_float64) return missing("shaderFloat64");
  // 64-bit integers without shaderInt64 are emulated as uvec2 pairs (kI64Pair) with the GLSL
  // library's hlo_i64.glsl; an accumulator still of kind kI64 there was not adapted to the target.
  if (acc == AccKind::kI64 && !target.shader_int64) return missing("shaderInt64");
  return OkStatus();
}

namespace {

// Conversions into and out of emulated 64-bit integers (uvec2 pairs, hlo_i64.glsl).
StatusOr<std::string> ConvertPair(const std::string& code, AccKind from, AccKind to, ShaderPrelude* prelude,
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

StatusOr<std::string> ConvertDomain(const std::string& code, AccKind from, AccKind to, ShaderPrelude* prelude,
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

TypeFacts LibraryFacts(ElementType type, const TargetInfo& target) { return GetFloatDomainFacts(type, target); }

namespace {

// What computing in `f` needs: the 64-bit integer extension, the codecs, the i64 emulation.
void AddTypeNeeds(const TypeFacts& f, ShaderPrelude& prelude) {
  if (f.emulated) {
    prelude.Include("hlo_i64.glsl");
  } else if (f.kind == ComputeKind::kInt64 || f.kind == ComputeKind::kUint64) {
    prelude.Extension("GL_ARB_gpu_shader_int64");
  }
  if (!f.codec.empty()) prelude.Include("hlo_float_codec.glsl");
}

// `code`, a compute value of `f` (types.h), as the same value in the library's domain `d` of
// its type (bool -> int, uint -> int, uint64_t -> int64_t; the others are the same GLSL type).
std::string ComputeToDomain(const TypeFacts& f, AccKind d, const std::string& code) {
  if (AccGlslType(d) == f.glsl) return code;
  return fmt::format("{}({})", AccGlslType(d), code);
}

// The inverse: a domain value (already of the type's values) as the compute value of `f`.
std::string DomainToCompute(AccKind d, const TypeFacts& f, const std::string& code) {
  if (AccGlslType(d) == f.glsl) return code;
  if (f.kind == ComputeKind::kBool) return fmt::format("({} != 0)", code);
  return fmt::format("{}({})", f.glsl, code);
}

bool IsUnsigned(const TypeFacts& f) {
  return f.kind == ComputeKind::kUint || f.kind == ComputeKind::kUint64 || f.kind == ComputeKind::kBool;
}

}  // namespace

StatusOr<std::string> RawToAcc(const std::string& raw, ElementType type, AccKind acc, const TargetInfo& target,
                               ShaderPrelude& prelude) {
  const TypeFacts f = LibraryFacts(type, target);
  AddTypeNeeds(f, prelude);
  if (acc == AccKind::kI64) prelude.Extension("GL_ARB_gpu_shader_int64");
  if (acc == AccKind::kI64Pair) prelude.Include("hlo_i64.glsl");
  const std::string value = RawToCompute(f, raw);
  const AccKind own = ComputeDomain(type, target);
  // Unsigned compute values (uint, uint64_t) convert to wider integers and to floats as
  // unsigned through GLSL's constructors; pairs and the i32 domain go through the domain.
  const bool direct = !f.emulated && acc != AccKind::kI64Pair && acc != AccKind::kC64 && acc != AccKind::kC128 &&
                      acc != AccKind::kBool && own != acc;
  if (direct) return fmt::format("{}({})", AccGlslType(acc), value);
  return ConvertDomain(ComputeToDomain(f, own, value), own, acc, &prelude, IsUnsigned(f), false);
}

Status EmitElementLoader(const std::string& fn, const std::string& buffer, ElementType type, AccKind acc,
                         const TargetInfo& target, ShaderPrelude& prelude, std::string& out) {
  const TypeFacts f = LibraryFacts(type, target);
  VKHLO_ASSIGN_OR_RETURN(std::string value, RawToAcc("r", type, acc, target, prelude));
  out += fmt::format("{} {}(uint i) {{ {} r = {}; return {}; }}\n", AccGlslType(acc), fn, f.raw_glsl,
                     RawRead(buffer, f.storage_bits), value);
  return OkStatus();
}

std::string RoundToType(const std::string& code, ElementType type, const TargetInfo& target, ShaderPrelude& prelude) {
  const TypeFacts f = LibraryFacts(type, target);
  if (!NeedsRounding(f) && f.kind != ComputeKind::kBool) return code;
  AddTypeNeeds(f, prelude);
  const AccKind own = ComputeDomain(type, target);
  return "(" + ComputeToDomain(f, own, RoundToType(f, DomainToCompute(own, f, code))) + ")";
}

Status EmitElementStorer(const std::string& fn, const std::string& buffer, ElementType type, const TargetInfo& target,
                         ShaderPrelude& prelude, std::string& out) {
  const TypeFacts f = LibraryFacts(type, target);
  AddTypeNeeds(f, prelude);
  const AccKind own = ComputeDomain(type, target);  // the type of v
  const std::string raw = ComputeToRaw(f, DomainToCompute(own, f, "v"));
  const std::string sig = fmt::format("void {}(uint i, {} v)", fn, AccGlslType(own));
  switch (f.storage_bits) {
    case 8:
    case 16: {
      const uint32_t mask = f.storage_bits == 8 ? 0xFFu : 0xFFFFu;
      const std::string word = f.storage_bits == 8 ? "i >> 2u" : "i >> 1u";
      const std::string shift = f.storage_bits == 8 ? "(i & 3u) * 8u" : "(i & 1u) * 16u";
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
