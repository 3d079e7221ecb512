#include "codegen/elemental/emit_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace vkhlo::codegen {

std::string TypedLiteral(const TypeFacts& f, int64_t value) {
  if (f.emulated) return RawLiteral(64, static_cast<uint64_t>(value));
  switch (f.kind) {
    case ComputeKind::kBool: return value != 0 ? "true" : "false";
    case ComputeKind::kInt: return IntLiteral(value);
    case ComputeKind::kUint: return UintLiteral(static_cast<uint32_t>(value));
    case ComputeKind::kInt64: return fmt::format("int64_t({}L)", value);
    case ComputeKind::kUint64: return fmt::format("uint64_t({}UL)", static_cast<uint64_t>(value));
    case ComputeKind::kDouble: return fmt::format("{}.0LF", value);
    case ComputeKind::kHalf: return fmt::format("float16_t({}.0)", value);
    case ComputeKind::kComplex64: return fmt::format("vec2({}.0, 0.0)", value);
    case ComputeKind::kComplex128: return fmt::format("dvec2({}.0LF, 0.0LF)", value);
    default: return fmt::format("{}.0", value);
  }
}

std::string Instantiate(std::string text, std::initializer_list<std::pair<std::string, std::string>> replacements) {
  std::vector<std::pair<std::string, std::string>> sorted(replacements);
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (const auto& [name, value] : sorted) {
    const std::string token = "$" + name;
    size_t pos = 0;
    while ((pos = text.find(token, pos)) != std::string::npos) {
      text.replace(pos, token.size(), value);
      pos += value.size();
    }
  }
  return text;
}

std::string TypeSuffix(const TypeFacts& f) {
  switch (f.kind) {
    case ComputeKind::kBool: return "b";
    case ComputeKind::kInt: return "i32";
    case ComputeKind::kUint: return "u32";
    case ComputeKind::kInt64: return "i64";
    case ComputeKind::kUint64: return "u64";
    case ComputeKind::kDouble: return "f64";
    case ComputeKind::kHalf: return "f16";
    case ComputeKind::kComplex64: return "c64";
    case ComputeKind::kComplex128: return "c128";
    default: return "f32";
  }
}

std::string TypedHelper(ElementalEmitter& emitter, const std::string& name, const TypeFacts& facts,
                        const std::string& text) {
  const std::string suffix = TypeSuffix(facts);
  const std::string full = name + "_" + suffix;
  if (!emitter.prelude().HasHelper(full)) {
    emitter.prelude().Helper(full, Instantiate(text, {{"T", std::string(facts.glsl)}, {"S", suffix}}));
  }
  return full;
}

Index OperandIndex(const ir::Operation& op, size_t i, const Index& index) {
  const ir::Type& type = op.operand(i)->type();
  if (type.rank() == 0 && !index.dims.empty()) return Index::Scalar();
  return index;
}

StatusOr<Expr> ComputeOperand(ElementalEmitter& emitter, const ir::Operation& op, size_t i, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr e, emitter.Operand(op, i, OperandIndex(op, i, index)));
  return emitter.Compute(e);
}

bool IsRealFloatKind(ComputeKind k) {
  return k == ComputeKind::kFloat || k == ComputeKind::kDouble || k == ComputeKind::kHalf ||
         k == ComputeKind::kNarrowFloat;
}
bool IsComplexKind(ComputeKind k) { return k == ComputeKind::kComplex64 || k == ComputeKind::kComplex128; }
bool IsIntKind(ComputeKind k) {
  return k == ComputeKind::kInt || k == ComputeKind::kUint || k == ComputeKind::kInt64 || k == ComputeKind::kUint64;
}
bool IsSignedKind(ComputeKind k) { return k == ComputeKind::kInt || k == ComputeKind::kInt64; }

std::string Emulated64(ElementalEmitter& emitter, const TypeFacts& f, const std::string& name, bool by_sign) {
  emitter.Include("hlo_i64.glsl");
  if (!by_sign) return name;
  return name + (IsSignedKind(f.kind) ? "_s" : "_u");
}

ir::ElementType ResultElementType(const ir::Operation& op) { return op.result(0)->type().element_type(); }

std::string NanTestExpr(const TypeFacts& f, const std::string& x) {
  switch (f.kind) {
    case ComputeKind::kDouble:
      return fmt::format("(((unpackDouble2x32({0}).y & 0x7fffffffu) | uint(unpackDouble2x32({0}).x != 0u)) > 0x7ff00000u)",
                         x);
    case ComputeKind::kComplex64:
    case ComputeKind::kComplex128: {
      TypeFacts part = f;
      part.kind = f.kind == ComputeKind::kComplex64 ? ComputeKind::kFloat : ComputeKind::kDouble;
      return fmt::format("({} || {})", NanTestExpr(part, x + ".x"), NanTestExpr(part, x + ".y"));
    }
    case ComputeKind::kHalf: return fmt::format("((floatBitsToUint(float({})) & 0x7fffffffu) > 0x7f800000u)", x);
    default: return fmt::format("((floatBitsToUint({}) & 0x7fffffffu) > 0x7f800000u)", x);
  }
}

std::string RoundToHalf(ElementalEmitter& emitter, const std::string& code, bool from_double) {
  emitter.Include("hlo_float_codec.glsl");
  if (from_double) emitter.Include("hlo_float_codec_f64.glsl");
  return fmt::format("float16_t(unpackHalf2x16(hlo_encode_f16({})).x)", code);
}

StatusOr<Expr> RealLibraryCall(ElementalEmitter& emitter, const std::string& fn, const Expr& a, const Expr* b) {
  const TypeFacts& f = emitter.Facts(a.type);
  emitter.IncludeMath(f.kind);
  if (f.kind == ComputeKind::kHalf) {
    // f32 carries more than 2p+2 bits of f16, so rounding the f32 result once more is exact
    // for the correctly rounded functions and within tolerance for the others.
    std::string call = b == nullptr ? fmt::format("{}(float({}))", fn, a.code)
                                    : fmt::format("{}(float({}), float({}))", fn, a.code, b->code);
    return emitter.Exact(a.type, RoundToHalf(emitter, call));
  }
  std::string call = b == nullptr ? fmt::format("{}({})", fn, a.code) : fmt::format("{}({}, {})", fn, a.code, b->code);
  return emitter.Result(a.type, call);
}

}  // namespace vkhlo::codegen
