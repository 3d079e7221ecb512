// Values known at compile time: constant, iota, get_dimension_size.
//
// A splat (or one-element) constant is a literal in the code (zeros, infinities and NaNs of float
// types hidden from the driver's compiler: OpaqueRawLiteral). Other constants that reach the
// emitter are small (the fusion reads big ones from buffers uploaded once per executable) and
// become a global `const uint[]` of their packed storage, read like a buffer.
#include <fmt/format.h>

#include <cmath>
#include <complex>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

// The storage bytes of `literal` packed into little-endian words.
std::vector<uint32_t> PackWords(const ir::Literal& literal) {
  std::span<const uint8_t> bytes = literal.raw();
  std::vector<uint32_t> words((bytes.size() + 3) / 4, 0);
  for (size_t i = 0; i < bytes.size(); ++i) words[i / 4] |= static_cast<uint32_t>(bytes[i]) << (8 * (i % 4));
  return words;
}

// Whether a float (or complex) splat holds a zero, an infinity or a NaN.
bool HasSpecialFloatPart(const ir::Literal& literal) {
  const ir::ElementType type = literal.element_type();
  if (literal.num_elements() == 0 || !(ir::IsFloat(type) || ir::IsComplex(type))) return false;
  auto special = [](double v) { return v == 0 || !std::isfinite(v); };
  if (ir::IsComplex(type)) {
    const std::complex<double> c = literal.GetComplex(0);
    return special(c.real()) || special(c.imag());
  }
  return special(literal.GetFloat(0));
}

// A literal whose value a driver's compiler cannot see: its words XOR a push-constant word that
// is always 0 at run time (kOpaqueZero). lavapipe folds `x * 0.0` to 0 (and would fold other
// identities that IEEE special values break) when the zero is a literal, even in `precise` code
// of a module declaring SignedZeroInfNanPreserve, and without that mode (many phones) any driver
// may: with an opaque zero, inf * 0 stays NaN and -1 * 0 stays -0.
std::string OpaqueRawLiteral(int storage_bits, uint64_t lo, uint64_t hi) {
  const std::string literal = RawLiteral(storage_bits, lo, hi);
  if (storage_bits <= 32) return fmt::format("({} ^ {})", literal, kOpaqueZero);
  return fmt::format("({} ^ {}({}))", literal, storage_bits == 64 ? "uvec2" : "uvec4", kOpaqueZero);
}

StatusOr<Expr> EmitConstant(ElementalEmitter& em, const Operation& op, const Index& index) {
  const ir::Attribute* value = op.attribute("value");
  const ir::Literal* literal = value ? value->AsDenseElements() : nullptr;
  if (literal == nullptr) return em.OpError(op, "has no dense value");
  const ir::ElementType type = literal->element_type();
  const TypeFacts& f = em.Facts(type);
  if (literal->is_splat() || literal->num_elements() <= 1) {
    std::span<const uint8_t> bytes = literal->raw();
    uint64_t lo = 0, hi = 0;
    for (size_t i = 0; i < bytes.size() && i < 16; ++i) {
      (i < 8 ? lo : hi) |= static_cast<uint64_t>(bytes[i]) << (8 * (i % 8));
    }
    if (HasSpecialFloatPart(*literal)) return Expr{OpaqueRawLiteral(f.storage_bits, lo, hi), type, true};
    return Expr{RawLiteral(f.storage_bits, lo, hi), type, true};
  }
  // Named by content (FNV-1a of the words), never by address: the same program must give the
  // same GLSL every time, or the SPIR-V caches (keyed by the text) never hit. Equal contents
  // share one array.
  std::vector<uint32_t> words = PackWords(*literal);
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) hash = (hash ^ ((w >> (8 * b)) & 0xffu)) * 0x100000001b3ull;
  }
  const std::string name = fmt::format("cst_{}_{:016x}", words.size(), hash);
  if (!em.prelude().HasHelper(name)) {
    std::vector<std::string> items;
    items.reserve(words.size());
    for (uint32_t w : words) items.push_back(fmt::format("0x{:x}u", w));
    em.prelude().Helper(name, fmt::format("\nconst uint {}[{}] = uint[]({});", name, words.size(), fmt::join(items, ", ")));
  }
  return em.LoadWords(name, type, index);
}

StatusOr<Expr> EmitIota(ElementalEmitter& em, const Operation& op, const Index& index) {
  const auto dimension = op.attribute("iota_dimension") ? op.attribute("iota_dimension")->AsInt() : std::nullopt;
  if (!dimension || *dimension < 0 || *dimension >= static_cast<int64_t>(index.dims.size())) {
    return em.OpError(op, "has no valid iota_dimension");
  }
  std::vector<std::string> multi = em.Multi(index);
  Expr position{multi[static_cast<size_t>(*dimension)], ir::ElementType::kS32, false};
  return ConvertElement(em, position, ResultElementType(op));
}

StatusOr<Expr> EmitGetDimensionSize(ElementalEmitter& em, const Operation& op, const Index&) {
  const auto dimension = op.attribute("dimension") ? op.attribute("dimension")->AsInt() : std::nullopt;
  const ir::Type& operand = op.operand(0)->type();
  if (!dimension || *dimension < 0 || *dimension >= operand.rank()) return em.OpError(op, "has no valid dimension");
  return Expr{RawLiteral(32, static_cast<uint64_t>(operand.dim(*dimension))), ResultElementType(op), true};
}

}  // namespace

void RegisterConstantEmitters(OpEmitterTable& t) {
  t.Register(ir::OpCode::kConstant, EmitConstant);
  t.Register(ir::OpCode::kIota, EmitIota);
  t.Register(ir::OpCode::kGetDimensionSize, EmitGetDimensionSize);
}

}  // namespace vkhlo::codegen
