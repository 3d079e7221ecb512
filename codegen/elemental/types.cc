#include "codegen/elemental/types.h"

#include <fmt/format.h>

#include <cctype>

namespace vkhlo::codegen {

using ir::ElementType;

namespace {

std::string CodecName(ElementType type) {
  std::string name(ir::ElementTypeName(type));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

uint32_t StorageMask(int storage_bits) {
  return storage_bits >= 32 ? 0xffffffffu : (1u << storage_bits) - 1;
}

}  // namespace

TypeFacts GetTypeFacts(ElementType type, const TargetInfo& target) {
  TypeFacts f;
  f.type = type;
  f.bits = ir::BitWidth(type);
  f.storage_bits = f.bits <= 8 ? 8 : f.bits;
  f.raw_glsl = f.storage_bits <= 32 ? "uint" : f.storage_bits == 64 ? "uvec2" : "uvec4";
  if (ir::IsBoolean(type)) {
    f.kind = ComputeKind::kBool;
    f.glsl = "bool";
  } else if (ir::IsInteger(type)) {
    const bool is_signed = ir::IsSignedInteger(type);
    if (f.bits == 64) {
      f.kind = is_signed ? ComputeKind::kInt64 : ComputeKind::kUint64;
      f.emulated = !target.shader_int64;
      f.glsl = f.emulated ? "uvec2" : is_signed ? "int64_t" : "uint64_t";
    } else {
      f.kind = is_signed ? ComputeKind::kInt : ComputeKind::kUint;
      f.glsl = is_signed ? "int" : "uint";
    }
  } else if (type == ElementType::kF32) {
    f.kind = ComputeKind::kFloat;
    f.glsl = "float";
  } else if (type == ElementType::kF64) {
    f.kind = ComputeKind::kDouble;
    f.glsl = "double";
  } else if (type == ElementType::kF16 && target.shader_float16) {
    f.kind = ComputeKind::kHalf;
    f.glsl = "float16_t";
  } else if (type == ElementType::kC64) {
    f.kind = ComputeKind::kComplex64;
    f.glsl = "vec2";
  } else if (type == ElementType::kC128) {
    f.kind = ComputeKind::kComplex128;
    f.glsl = "dvec2";
  } else {
    f.kind = ComputeKind::kNarrowFloat;
    f.glsl = "float";
    f.codec = CodecName(type);
  }
  return f;
}

TypeFacts GetFloatDomainFacts(ElementType type, const TargetInfo& target) {
  TargetInfo without_half = target;
  without_half.shader_float16 = false;
  return GetTypeFacts(type, without_half);
}

std::string_view RequiredFeature(const TypeFacts& facts) {
  if (facts.emulated) return "";
  switch (facts.kind) {
    case ComputeKind::kInt64:
    case ComputeKind::kUint64: return "shaderInt64";
    case ComputeKind::kDouble:
    case ComputeKind::kComplex128: return "shaderFloat64";
    case ComputeKind::kHalf: return "shaderFloat16";
    default: return "";
  }
}

bool TargetHas(const TargetInfo& target, std::string_view feature) {
  if (feature.empty()) return true;
  if (feature == "shaderInt64") return target.shader_int64;
  if (feature == "shaderFloat64") return target.shader_float64;
  if (feature == "shaderFloat16") return target.shader_float16;
  return false;
}

uint64_t StorageByteSize(ElementType type, int64_t num_elements) {
  return static_cast<uint64_t>(ir::StorageBytes(type)) * static_cast<uint64_t>(num_elements);
}

std::string RawToCompute(const TypeFacts& f, const std::string& r) {
  if (f.emulated) return r;
  switch (f.kind) {
    case ComputeKind::kBool: return fmt::format("({} != 0u)", r);
    case ComputeKind::kInt:
      if (f.storage_bits == 32) return fmt::format("int({})", r);
      return fmt::format("(int({} << {}u) >> {})", r, 32 - f.storage_bits, 32 - f.storage_bits);
    case ComputeKind::kUint: return r;
    case ComputeKind::kInt64: return fmt::format("int64_t(uint64_t({0}.x) | (uint64_t({0}.y) << 32))", r);
    case ComputeKind::kUint64: return fmt::format("(uint64_t({0}.x) | (uint64_t({0}.y) << 32))", r);
    case ComputeKind::kFloat: return fmt::format("uintBitsToFloat({})", r);
    case ComputeKind::kDouble: return fmt::format("packDouble2x32({})", r);
    case ComputeKind::kHalf: return fmt::format("float16_t(unpackHalf2x16({}).x)", r);
    case ComputeKind::kNarrowFloat: return fmt::format("hlo_decode_{}({})", f.codec, r);
    case ComputeKind::kComplex64: return fmt::format("uintBitsToFloat({})", r);
    case ComputeKind::kComplex128:
      return fmt::format("dvec2(packDouble2x32({0}.xy), packDouble2x32({0}.zw))", r);
  }
  return r;
}

std::string ComputeToRaw(const TypeFacts& f, const std::string& c) {
  if (f.emulated) return c;
  switch (f.kind) {
    case ComputeKind::kBool: return fmt::format("uint({})", c);
    case ComputeKind::kInt:
      if (f.storage_bits == 32) return fmt::format("uint({})", c);
      return fmt::format("(uint({}) & {})", c, UintLiteral(StorageMask(f.storage_bits)));
    case ComputeKind::kUint: return c;
    case ComputeKind::kInt64:
      return fmt::format("uvec2(uint(uint64_t({0}) & 0xffffffffUL), uint(uint64_t({0}) >> 32))", c);
    case ComputeKind::kUint64: return fmt::format("uvec2(uint({0} & 0xffffffffUL), uint({0} >> 32))", c);
    case ComputeKind::kFloat: return fmt::format("floatBitsToUint({})", c);
    case ComputeKind::kDouble: return fmt::format("unpackDouble2x32({})", c);
    case ComputeKind::kHalf: return fmt::format("(packHalf2x16(vec2(float({}), 0.0)) & 0xffffu)", c);
    case ComputeKind::kNarrowFloat: return fmt::format("hlo_encode_{}({})", f.codec, c);
    case ComputeKind::kComplex64: return fmt::format("floatBitsToUint({})", c);
    case ComputeKind::kComplex128:
      return fmt::format("uvec4(unpackDouble2x32({0}.x), unpackDouble2x32({0}.y))", c);
  }
  return c;
}

bool NeedsRounding(const TypeFacts& f) {
  return ((f.kind == ComputeKind::kInt || f.kind == ComputeKind::kUint) && f.bits < 32) ||
         f.kind == ComputeKind::kNarrowFloat;
}

std::string RoundToType(const TypeFacts& f, const std::string& c) {
  if (!NeedsRounding(f)) return c;
  if (f.kind == ComputeKind::kInt) return fmt::format("(({}) << {}) >> {}", c, 32 - f.bits, 32 - f.bits);
  if (f.kind == ComputeKind::kUint) return fmt::format("(({}) & {})", c, UintLiteral((1u << f.bits) - 1));
  return fmt::format("hlo_decode_{0}(hlo_encode_{0}({1}))", f.codec, c);
}

std::string UintLiteral(uint64_t value) {
  if (value > 0xffffffffull) return fmt::format("{}UL", value);
  if (value >= 0x10000) return fmt::format("0x{:x}u", value);
  return fmt::format("{}u", value);
}

std::string IntLiteral(int64_t value) {
  if (value == INT32_MIN) return "(-2147483647 - 1)";
  if (value < INT32_MIN || value > INT32_MAX) return fmt::format("int64_t({}L)", value);
  if (value < 0) return fmt::format("({})", value);
  return fmt::format("{}", value);
}

std::string RawLiteral(int storage_bits, uint64_t lo, uint64_t hi) {
  if (storage_bits <= 32) return UintLiteral(lo & 0xffffffffull);
  if (storage_bits == 64) {
    return fmt::format("uvec2({}, {})", UintLiteral(lo & 0xffffffffull), UintLiteral(lo >> 32));
  }
  return fmt::format("uvec4({}, {}, {}, {})", UintLiteral(lo & 0xffffffffull), UintLiteral(lo >> 32),
                     UintLiteral(hi & 0xffffffffull), UintLiteral(hi >> 32));
}

}  // namespace vkhlo::codegen
